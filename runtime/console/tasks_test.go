package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Tool indexes of the task fixture, in name order.
const (
	tJobDrop = iota // jobs_drop: propose (its task waits for a decision)
	tJobRun         // jobs_run: a two-minute action (a task), until cancelled
)

// progressText is what jobs_run reports; it carries markup to escape.
const progressText = "step 1 of 3 <b>bold</b>"

// taskFixture runs jobs_run until its context ends (then closes
// cancelled), reporting its second step once next is closed, and counts
// the runs.
type taskFixture struct {
	reg       tool.Registry
	runs      [tJobRun + 1]atomic.Int64
	cancelled chan struct{}
	next      chan struct{} // closed: jobs_run reports its second step
	once      sync.Once
}

func newTaskFixture(t testing.TB) *taskFixture {
	t.Helper()
	f := &taskFixture{cancelled: make(chan struct{}), next: make(chan struct{})}
	specs := []*tool.Spec{
		tJobDrop: {Name: "jobs_drop", Kind: tool.KindPropose, Title: "Drop job", Destructive: true,
			Meta: []tool.Meta{{Key: "confirm-text", Value: "Drop the job?"}}},
		tJobRun: {Name: "jobs_run", Kind: tool.KindAction, Title: "Run job", Timeout: 2 * time.Minute},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, f.dispatch, nil)
	require.NoError(t, err)
	f.reg = reg
	return f
}

func (f *taskFixture) dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	in.Skip()
	in.End()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	f.runs[i].Add(1)
	if i == tJobRun {
		tool.Progress(ctx, 1, 3, progressText)
		select {
		case <-f.next:
			tool.Progress(ctx, 2, 3, "step 2 of 3")
		case <-ctx.Done():
		}
		<-ctx.Done()
		f.once.Do(func() { close(f.cancelled) })
		return 0, ctx.Err()
	}
	out.RawText("dropped")
	return toolimpl.OutputText, nil
}

// taskEnv is a console over a service whose tasks are renewed every
// 10ms, on the real clock.
func taskEnv(t *testing.T) (*env, *taskFixture) {
	t.Helper()
	f := newTaskFixture(t)
	svc, err := service.New(f.reg, &service.Options{Tasks: service.TaskOptions{Tick: 10 * time.Millisecond, Lease: time.Second}})
	require.NoError(t, err)
	c, err := console.New(svc, &console.Options{
		Principal: console.BearerTokens(map[string]tool.Principal{anaToken: ana, benToken: ben}),
		Key:       key,
	})
	require.NoError(t, err)
	return &env{svc: svc, c: c, url: mount(t, c)}, f
}

// startTask starts the named tool as a task for who.
func startTask(t *testing.T, e *env, who tool.Principal, name string) *service.Task {
	t.Helper()
	tk, err := e.svc.StartTask(as(who, "chat-7"), name, []byte(`{}`))
	require.NoError(t, err)
	return tk
}

// waitPage fetches path as token until its body holds want.
func waitPage(t *testing.T, e *env, path, token, want string) response {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := e.get(t, path, token)
		if strings.Contains(r.body, want) || time.Now().After(deadline) {
			require.Contains(t, r.body, want)
			return r
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTasksPage(t *testing.T) {
	e, f := taskEnv(t)
	run := startTask(t, e, ana, "jobs_run")
	drop := startTask(t, e, ana, "jobs_drop")
	bens := startTask(t, e, ben, "jobs_run")

	// ana's running task with its progress (escaped), and her waiting one
	// with a way to decide it; not ben's.
	page := waitPage(t, e, "tasks", anaToken, "step 1 of 3 &lt;b&gt;bold&lt;/b&gt;").body
	assert.NotContains(t, page, "<b>bold</b>")
	assert.Contains(t, page, `data-task="`+run.ID+`" data-status="working"`)
	assert.Contains(t, page, `data-task="`+drop.ID+`" data-status="input_required"`)
	assert.Contains(t, page, `href="/console/proposals/`+drop.Proposal+`"`)
	assert.NotContains(t, page, bens.ID)
	assert.Less(t, strings.Index(page, drop.ID), strings.Index(page, run.ID), "newest first")
	assert.Contains(t, page, `<a href="/console/tasks" aria-current="page">Tasks</a>`)

	// Cancel needs the person's CSRF token, and only cancels one's own.
	tok := csrf(t, page)
	r := e.post(t, "tasks/"+run.ID+"/cancel", anaToken, "forged")
	assert.Equal(t, http.StatusForbidden, r.status)
	benTok := csrf(t, e.get(t, "tasks", benToken).body)
	r = e.post(t, "tasks/"+run.ID+"/cancel", benToken, benTok)
	assert.Equal(t, http.StatusNotFound, r.status, "another's task is unknown")
	r = e.post(t, "tasks/"+"<script>"+"/cancel", anaToken, tok)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.NotContains(t, r.body, "<script>", "nothing of the request is quoted")
	select {
	case <-f.cancelled:
		t.Fatal("a refused cancellation reached the tool")
	default:
	}

	r = e.post(t, "tasks/"+run.ID+"/cancel", anaToken, tok)
	require.Equal(t, http.StatusSeeOther, r.status, r.body)
	assert.Equal(t, "/console/tasks?done=cancelled", r.header.Get("Location"))
	select {
	case <-f.cancelled: // the tool saw its context end
	case <-time.After(10 * time.Second):
		t.Fatal("the cancellation did not reach the tool")
	}
	waitGone(t, e, anaToken, run.ID)
	assert.Contains(t, e.get(t, "tasks?done=cancelled", anaToken).body, "Cancelled: the task was asked to stop.")

	// Cancelling it again cancels nothing.
	r = e.post(t, "tasks/"+run.ID+"/cancel", anaToken, tok)
	require.Equal(t, http.StatusSeeOther, r.status, r.body)
	assert.Equal(t, "/console/tasks?done=ended", r.header.Get("Location"))

	// The API: the waiting task, cancelled at once (its proposal rejected).
	var list struct {
		Tasks []struct {
			ID, Tool, Status, Proposal string
		} `json:"tasks"`
	}
	require.NoError(t, json.Unmarshal([]byte(e.get(t, "api/tasks", anaToken).body), &list))
	require.Len(t, list.Tasks, 1)
	assert.Equal(t, drop.ID, list.Tasks[0].ID)
	assert.Equal(t, "input_required", list.Tasks[0].Status)
	assert.Equal(t, "jobs_drop", list.Tasks[0].Tool)
	r = e.do(t, http.MethodPost, "api/tasks/"+drop.ID+"/cancel", anaToken, nil, map[string]string{"X-CSRF-Token": e.apiToken(t, anaToken)})
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.JSONEq(t, `{"done":"cancelled"}`, r.body)
	waitGone(t, e, anaToken, drop.ID)
	assert.Contains(t, e.get(t, "tasks", anaToken).body, `id="no-tasks"`)
	assert.Zero(t, f.runs[tJobDrop].Load(), "the proposal never ran")

	// ben's task runs on.
	assert.Contains(t, e.get(t, "tasks", benToken).body, bens.ID)
}

// waitGone waits until the tasks page of token no longer lists id.
func waitGone(t *testing.T, e *env, token, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Contains(e.get(t, "tasks", token).body, id) {
		require.True(t, time.Now().Before(deadline), "task %s is still listed", id)
		time.Sleep(10 * time.Millisecond)
	}
}
