package mcpclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpclient"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// jobs is the registry of toolgen's own server with tasks: jobs_run, a
// two-minute action (a task) that reports its progress and waits to be
// released or cancelled; jobs_drop, a propose tool (a task waiting for a
// person).
type jobs struct {
	reg       tool.Registry
	runs      atomic.Int64
	started   chan struct{} // a run started
	release   chan struct{}
	cancelled chan struct{} // a run saw its context end
	once      sync.Once
}

func newJobs(t *testing.T) *jobs {
	t.Helper()
	j := &jobs{started: make(chan struct{}, 8), release: make(chan struct{}), cancelled: make(chan struct{})}
	specs := []*tool.Spec{
		{Name: "jobs_drop", Kind: tool.KindPropose, Title: "Drop a job", Meta: []tool.Meta{{Key: "confirm-text", Value: "Drop it?"}}},
		{Name: "jobs_run", Kind: tool.KindAction, Title: "Run a job", Timeout: 2 * time.Minute},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, func(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil {
			return 0, err
		}
		if mode != toolimpl.ModeCall {
			return 0, nil
		}
		if i == 0 {
			out.RawText("dropped")
			return toolimpl.OutputText, nil
		}
		n := j.runs.Add(1)
		j.started <- struct{}{}
		tool.Progress(ctx, 1, 2, "halfway")
		select {
		case <-j.release:
		case <-ctx.Done():
			j.once.Do(func() { close(j.cancelled) })
			return 0, ctx.Err()
		}
		out.RawText("job done, run " + strconv.FormatInt(n, 10))
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(t, err)
	j.reg = reg
	return j
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// ownTaskServer serves j through the call service, with tasks, over
// HTTP for the principal of token "ana-token"; it returns the service
// and a toolkit of it with Options.Tasks.
func ownTaskServer(t *testing.T, j *jobs) (*service.Service, *mcpclient.Toolkit) {
	svc, p, _ := ownTaskServerPolls(t, j)
	return svc, p
}

// ownTaskServerPolls is ownTaskServer, and polls counts the task
// requests the server received (those naming a task in Mcp-Name).
func ownTaskServerPolls(t *testing.T, j *jobs) (*service.Service, *mcpclient.Toolkit, *atomic.Int64) {
	t.Helper()
	svc, err := service.New(j.reg, &service.Options{Tasks: service.TaskOptions{Tick: 10 * time.Millisecond, Lease: time.Second, PollInterval: 60 * time.Millisecond}})
	require.NoError(t, err)
	srv, err := mcpserver.New(svc, &mcpserver.Options{Tasks: servicemcp.Tasks(svc)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	h, err := srv.Handler(&mcpserver.HTTPOptions{Auth: &mcpserver.Auth{Verifier: mcpserver.StaticTokens(map[string]tool.Principal{"ana-token": ana})}})
	require.NoError(t, err)
	polls := new(atomic.Int64)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Name") != "" && r.Header.Get("Mcp-Name") != "jobs_run" && r.Header.Get("Mcp-Name") != "jobs_drop" {
			polls.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	client := &http.Client{Transport: bearer{"ana-token", http.DefaultTransport}}
	p := newToolkit(t, mcpclient.Options{Group: "own", Connect: mcpclient.HTTP(ts.URL+mcpserver.DefaultPath, client), Tasks: true, PoolSize: 1}, nil)
	require.True(t, p.Available(t.Context()))
	return svc, p, polls
}

// ana is the principal of the own server's token.
var ana = tool.Principal{ID: "ana"}

// liveTasks returns ana's unfinished tasks.
func liveTasks(t *testing.T, svc *service.Service) []*service.Task {
	t.Helper()
	ts, err := svc.Tasks(t.Context(), ana)
	require.NoError(t, err)
	return ts
}

func TestOwnServerTasks(t *testing.T) {
	t.Parallel()
	j := newJobs(t)
	svc, p := ownTaskServer(t, j)

	// A long call answered with a task: polled to its result.
	type answer struct {
		res tool.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := p.Call(t.Context(), "jobs_run", []byte(`{}`))
		done <- answer{res, err}
	}()
	<-j.started
	require.Eventually(t, func() bool { return len(liveTasks(t, svc)) == 1 }, 10*time.Second, 5*time.Millisecond, "the server made a task")
	close(j.release)
	a := <-done
	require.NoError(t, a.err)
	assert.Equal(t, "job done, run 1", string(a.res.Content), "the task's result, as the call's")
	assert.Empty(t, liveTasks(t, svc))

	// A propose tool's task waits for a person: the call fails, its
	// outcome unknown, and the task is left waiting (its proposal pending,
	// a person may still confirm it).
	_, err := p.Call(t.Context(), "jobs_drop", []byte(`{}`))
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Contains(t, te.Message, "waiting for input this client cannot give")
	assert.ErrorIs(t, err, tool.ErrAbandoned)
	waiting := liveTasks(t, svc)
	require.Len(t, waiting, 1)
	assert.Equal(t, service.TaskInputRequired, waiting[0].Status)
	assert.Contains(t, te.Message, waiting[0].ID)
	_, err = svc.Confirm(tool.WithInvocation(t.Context(), &tool.Invocation{Principal: ana}), waiting[0].Proposal, ana)
	require.NoError(t, err, "the proposal is still pending: a person confirms it")
}

func TestOwnServerTaskCancelled(t *testing.T) {
	t.Parallel()
	j := newJobs(t)
	svc, p, polls := ownTaskServerPolls(t, j)
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		// Once the client follows the task (a cancellation while
		// tools/call itself is in flight is the SDK's
		// notifications/cancelled, which no task ID goes with).
		<-j.started
		for polls.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := p.Call(ctx, "jobs_run", []byte(`{}`))
	assert.ErrorIs(t, err, tool.ErrAbandoned)
	assert.ErrorIs(t, err, context.Canceled)
	select {
	case <-j.cancelled: // tasks/cancel reached the tool
	case <-time.After(10 * time.Second):
		t.Fatal("the remote tool's context did not end")
	}
	require.Eventually(t, func() bool { return len(liveTasks(t, svc)) == 0 }, 10*time.Second, 5*time.Millisecond)
}
