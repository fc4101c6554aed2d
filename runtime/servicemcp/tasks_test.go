package servicemcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Tool indexes of the task fixture, in name order.
const (
	kDelete = iota // notes_delete: propose
	kQuick         // quick: read, no timeout (never a task)
	kSlow          // slow_job: action, a two-minute timeout (a task)
)

// taskFixture is a registry of a propose tool, a quick tool and a slow one
// that reports its progress and waits until released or cancelled.
type taskFixture struct {
	reg       tool.Registry
	runs      [kSlow + 1]atomic.Int64
	release   chan struct{}
	cancelled chan struct{} // closed when a slow run saw its context done
	once      sync.Once
}

func newTaskFixture(t *testing.T) *taskFixture {
	t.Helper()
	f := &taskFixture{release: make(chan struct{}), cancelled: make(chan struct{})}
	specs := []*tool.Spec{
		kDelete: {Name: "notes_delete", Kind: tool.KindPropose, Title: "Delete note", Destructive: true,
			Meta: []tool.Meta{{Key: "confirm-text", Value: "Delete this note?"}}, InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`)},
		kQuick: {Name: "quick", Kind: tool.KindRead, ReadOnly: true},
		kSlow:  {Name: "slow_job", Kind: tool.KindAction, Timeout: 2 * time.Minute, Permissions: []string{"notes.write"}},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, f.dispatch, nil)
	require.NoError(t, err)
	f.reg = reg
	return f
}

func (f *taskFixture) dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	id, err := decodeID(in)
	if err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	n := f.runs[i].Add(1)
	if i == kSlow || (i == kDelete && id == 99) { // 99: a deletion that takes its time
		tool.Progress(ctx, 1, 2, "halfway there")
		select {
		case <-f.release:
		case <-ctx.Done():
			f.once.Do(func() { close(f.cancelled) })
			return 0, ctx.Err()
		}
	}
	out.RawText([]string{"deleted", "quick", "slow"}[i] + " " + strconv.FormatInt(id, 10) + " (run " + strconv.FormatInt(n, 10) + ")")
	return toolimpl.OutputText, nil
}

// taskTick is the tests' lease renewal: short, so that cancellations
// arrive fast; taskLease long, so that a slow machine loses no lease.
const (
	taskTick  = 20 * time.Millisecond
	taskLease = 10 * time.Second
)

// taskInstance is one instance serving the task fixture over HTTP with
// tasks on (or off), over store.
func taskInstance(t *testing.T, f *taskFixture, store service.Store, name string, tasksOn bool) (*service.Service, string) {
	t.Helper()
	svc, err := service.New(f.reg, &service.Options{Store: store,
		Tasks: service.TaskOptions{Instance: name, Tick: taskTick, Lease: taskLease, PollInterval: 500 * time.Millisecond}})
	require.NoError(t, err)
	var o mcpserver.Options
	if tasksOn {
		o.Tasks = servicemcp.Tasks(svc)
	}
	srv, err := mcpserver.New(svc, &o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return svc, serveHTTP(t, &instance{svc: svc, srv: srv}, true)
}

// sqliteStores opens two stores on one SQLite file: two instances.
func sqliteStores(t testing.TB) (service.Store, service.Store) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tasks.db")
	open := func() service.Store {
		st, err := sqlitestore.Open(t.Context(), path, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	return open(), open()
}

// capsMeta declares protocol 2026-07-28 and, with tasks, the extension.
func capsMeta(tasks bool) string {
	caps := `{}`
	if tasks {
		caps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	}
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// post sends one JSON-RPC request as token and returns the body (after
// the status, when it is not 200).
func post(t *testing.T, url, token, method, name, body string) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode != http.StatusOK {
		return append([]byte(strconv.Itoa(resp.StatusCode)+" "), b...)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// The SDK's answer as an event stream: its one data line.
		for _, line := range strings.Split(string(b), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				return []byte(d)
			}
		}
	}
	return b
}

// callTool sends tools/call of name with args, declaring tasks or not.
func callTool(t *testing.T, url, token, name, args string, tasks bool) []byte {
	return post(t, url, token, "tools/call", name,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`,`+capsMeta(tasks)+`}}`)
}

// taskReq sends a tasks/* request for id with extra params, declaring the
// extension.
func taskReq(t *testing.T, url, token, method, id, extra string) []byte {
	return post(t, url, token, method, id,
		`{"jsonrpc":"2.0","id":2,"method":"`+method+`","params":{"taskId":`+strconv.Quote(id)+extra+`,`+capsMeta(true)+`}}`)
}

// wireTask is a task as the wire carries it.
type wireTask struct {
	ResultType     string          `json:"resultType"`
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTLMs          *int64          `json:"ttlMs"`
	PollIntervalMs int64           `json:"pollIntervalMs"`
	InputRequests  json.RawMessage `json:"inputRequests"`
	Result         json.RawMessage `json:"result"`
	Error          json.RawMessage `json:"error"`
}

// response is a JSON-RPC response.
type response struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decodeTask(t *testing.T, body []byte) wireTask {
	t.Helper()
	var r response
	require.NoError(t, json.Unmarshal(body, &r), "%s", body)
	require.Nil(t, r.Error, "%s", body)
	var w wireTask
	require.NoError(t, json.Unmarshal(r.Result, &w), "%s", body)
	return w
}

// getUntil polls tasks/get on url until the task's status is want, and
// returns the last body.
func getUntil(t *testing.T, url, id, want string) []byte {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b := taskReq(t, url, anaToken, "tasks/get", id, "")
		if decodeTask(t, b).Status == want {
			return b
		}
		if time.Now().After(deadline) {
			require.Failf(t, "task never reached the status", "want %s; last %s", want, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// progressUntil polls tasks/get on url until the slow tool's progress
// shows as the task's statusMessage: the tool runs.
func progressUntil(t *testing.T, url, id string) wireTask {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		w := decodeTask(t, taskReq(t, url, anaToken, "tasks/get", id, ""))
		if w.StatusMessage == "halfway there" {
			return w
		}
		require.True(t, time.Now().Before(deadline), "no progress shown: %+v", w)
		time.Sleep(10 * time.Millisecond)
	}
}

// twoInstances runs f against two instances sharing a SQLite file and a
// PostgreSQL database.
func twoInstances(t *testing.T, f func(t *testing.T, a, b service.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		a, b := sqliteStores(t)
		f(t, a, b)
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pg.Need(t).NewSchema(t)
		open := func() service.Store {
			st, err := pgstore.Open(t.Context(), dsn, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = st.Close() })
			return st
		}
		f(t, open(), open())
	})
}

// TestTaskAcrossInstances: a slow tool's call from a client declaring the
// extension answers a task at once; another instance sharing the store
// shows its progress, then its result, in the same bytes as the first.
func TestTaskAcrossInstances(t *testing.T) {
	twoInstances(t, func(t *testing.T, sa, sb service.Store) {
		f := newTaskFixture(t)
		_, urlA := taskInstance(t, f, sa, "A", true)
		_, urlB := taskInstance(t, f, sb, "B", true)
		created := decodeTask(t, callTool(t, urlA, anaToken, "slow_job", `{"id":3}`, true))
		assert.Equal(t, "task", created.ResultType)
		assert.Equal(t, "working", created.Status)
		assert.True(t, strings.HasPrefix(created.TaskID, "task_"), created.TaskID)
		require.NotNil(t, created.TTLMs)
		assert.EqualValues(t, time.Hour.Milliseconds(), *created.TTLMs)
		assert.EqualValues(t, 500, created.PollIntervalMs)

		// Progress shows as the statusMessage, on the other instance.
		assert.Equal(t, "complete", progressUntil(t, urlB, created.TaskID).ResultType)
		close(f.release)
		onB := getUntil(t, urlB, created.TaskID, "completed")
		onA := taskReq(t, urlA, anaToken, "tasks/get", created.TaskID, "")
		assert.Equal(t, string(onB), string(onA), "the same bytes from either instance")
		assert.JSONEq(t, `{"resultType":"complete","content":[{"type":"text","text":"slow 3 (run 1)"}]}`, string(decodeTask(t, onA).Result))
		assert.Equal(t, int64(1), f.runs[kSlow].Load())
	})
}

// TestTaskCancelAcrossInstances: tasks/cancel on one instance reaches the
// tool's context on the other, which runs it; the task ends cancelled,
// and so does the call's record.
func TestTaskCancelAcrossInstances(t *testing.T) {
	twoInstances(t, func(t *testing.T, sa, sb service.Store) {
		f := newTaskFixture(t)
		svcA, urlA := taskInstance(t, f, sa, "A", true)
		_, urlB := taskInstance(t, f, sb, "B", true)
		created := decodeTask(t, callTool(t, urlA, anaToken, "slow_job", `{"id":4}`, true))
		progressUntil(t, urlB, created.TaskID) // the tool runs
		ack := taskReq(t, urlB, anaToken, "tasks/cancel", created.TaskID, "")
		assert.JSONEq(t, ackJSON, string(ack))
		select {
		case <-f.cancelled:
		case <-time.After(20 * time.Second):
			require.Fail(t, "the cancellation never reached the tool")
		}
		w := decodeTask(t, getUntil(t, urlA, created.TaskID, "cancelled"))
		assert.Empty(t, w.Result)
		recs, err := svcA.Records(t.Context(), service.Query{Tool: "slow_job"})
		require.NoError(t, err)
		require.Len(t, recs, 1)
		assert.Equal(t, service.OutcomeCancelled, recs[0].Outcome)
		again := taskReq(t, urlB, anaToken, "tasks/cancel", created.TaskID, "")
		assert.Contains(t, string(again), `"code":-32602`)
		assert.Contains(t, string(again), "the task has ended; nothing was cancelled")
	})
}

// TestTaskLeaseLost: a task whose instance died (its lease passed,
// unrenewed) is failed by the next instance that reads it, its record
// finished as outcome unknown, and its tool never run again.
func TestTaskLeaseLost(t *testing.T) {
	twoInstances(t, func(t *testing.T, sa, sb service.Store) {
		f := newTaskFixture(t)
		_, urlB := taskInstance(t, f, sb, "B", true)
		// What a dead instance left: the call's record started, its task
		// working under a lease that has passed.
		ctx := t.Context()
		id := "task_0123456789ABCDEFGHIJKLMNOP"
		now := time.Now()
		rec := &service.Record{Time: now.Add(-time.Minute), Principal: "ana", CallID: id, Tool: "slow_job", Kind: tool.KindAction,
			Event: service.EventCall, Outcome: service.OutcomeStarted}
		_, err := sa.Start(ctx, rec)
		require.NoError(t, err)
		require.NoError(t, sa.CreateTask(ctx, &service.Task{ID: id, Principal: "ana", CallID: id, Tool: "slow_job",
			Status: service.TaskWorking, Created: now.Add(-time.Minute), Updated: now.Add(-time.Minute), Expires: now.Add(time.Hour),
			Instance: "dead", Lease: now.Add(-time.Second)}))
		w := decodeTask(t, taskReq(t, urlB, anaToken, "tasks/get", id, ""))
		assert.Equal(t, "failed", w.Status)
		assert.JSONEq(t, `{"code":-32603,"message":"the instance running the task stopped: whether the tool did its work is unknown, and it is not run again"}`, string(w.Error))
		recs, err := sb.Records(ctx, service.Query{CallID: id})
		require.NoError(t, err)
		require.Len(t, recs, 1)
		assert.Equal(t, service.OutcomeUnknown, recs[0].Outcome)
		assert.Equal(t, tool.CodeOutcomeUnknown, recs[0].Code)
		assert.Zero(t, f.runs[kSlow].Load(), "never run again")
	})
}

// TestProposeTaskAcrossInstances: a propose tool's call answers a task
// waiting for input, whose input request (on the other instance) shows
// what the console shows; accepting it on both instances at once runs the
// tool once, and the task completes with the confirmation's answer, in the
// same bytes everywhere; the record reads proposal, confirmation.
func TestProposeTaskAcrossInstances(t *testing.T) {
	twoInstances(t, func(t *testing.T, sa, sb service.Store) {
		f := newTaskFixture(t)
		svcA, urlA := taskInstance(t, f, sa, "A", true)
		_, urlB := taskInstance(t, f, sb, "B", true)
		created := decodeTask(t, callTool(t, urlA, anaToken, "notes_delete", `{"id":7}`, true))
		assert.Equal(t, "task", created.ResultType)
		assert.Equal(t, "input_required", created.Status)
		assert.Empty(t, created.InputRequests, "a CreateTaskResult carries the Task alone")

		w := decodeTask(t, taskReq(t, urlB, anaToken, "tasks/get", created.TaskID, ""))
		assert.Equal(t, "input_required", w.Status)
		var reqs map[string]struct {
			Method string `json:"method"`
			Params struct {
				Mode            string          `json:"mode"`
				Message         string          `json:"message"`
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			} `json:"params"`
		}
		require.NoError(t, json.Unmarshal(w.InputRequests, &reqs))
		require.Contains(t, reqs, "confirm")
		assert.Equal(t, "elicitation/create", reqs["confirm"].Method)
		assert.Equal(t, "form", reqs["confirm"].Params.Mode)
		assert.Contains(t, reqs["confirm"].Params.Message, "Confirm: Delete this note?")
		assert.Contains(t, reqs["confirm"].Params.Message, `Arguments: {"id":7}`)
		assert.Contains(t, reqs["confirm"].Params.Message, created.TaskID)

		var wg sync.WaitGroup
		for _, url := range []string{urlA, urlB} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b := taskReq(t, url, anaToken, "tasks/update", created.TaskID, `,"inputResponses":{"confirm":{"action":"accept"}}`)
				assert.NotContains(t, string(b), `"code":-32603`)
			}()
		}
		wg.Wait()
		onA := getUntil(t, urlA, created.TaskID, "completed")
		onB := taskReq(t, urlB, anaToken, "tasks/get", created.TaskID, "")
		assert.Equal(t, string(onA), string(onB))
		var res struct {
			StructuredContent outcome `json:"structuredContent"`
		}
		require.NoError(t, json.Unmarshal(decodeTask(t, onA).Result, &res))
		assert.Equal(t, "confirmed", res.StructuredContent.Status)
		assert.JSONEq(t, `"deleted 7 (run 1)"`, string(res.StructuredContent.Result))
		assert.Equal(t, int64(1), f.runs[kDelete].Load(), "exactly once across two instances")
		got := rows(t, svcA)
		require.GreaterOrEqual(t, len(got), 2)
		assert.Equal(t, []row{{"ana", "proposal", "notes_delete", "ok", ""}, {"ana", "confirmation", "notes_delete", "ok", ""}}, got[:2])
		for _, r := range got[2:] {
			assert.Equal(t, "refusal", r.Event, "a second acceptance ran nothing: %+v", r)
		}

		again := taskReq(t, urlB, anaToken, "tasks/update", created.TaskID, `,"inputResponses":{"confirm":{"action":"accept"}}`)
		assert.Contains(t, string(again), "the task is not waiting for input; nothing was changed")
		assert.Equal(t, int64(1), f.runs[kDelete].Load())
	})
}

// TestProposeTaskDecline: declining rejects the proposal: the task
// completes with the rejection, and nothing runs.
func TestProposeTaskDecline(t *testing.T) {
	f := newTaskFixture(t)
	sa, sb := sqliteStores(t)
	svcA, urlA := taskInstance(t, f, sa, "A", true)
	_, urlB := taskInstance(t, f, sb, "B", true)
	created := decodeTask(t, callTool(t, urlA, anaToken, "notes_delete", `{"id":8}`, true))
	ack := taskReq(t, urlB, anaToken, "tasks/update", created.TaskID, `,"inputResponses":{"confirm":{"action":"decline"}}`)
	assert.JSONEq(t, ackJSON, string(ack))
	w := decodeTask(t, getUntil(t, urlA, created.TaskID, "completed"))
	var res struct {
		StructuredContent outcome `json:"structuredContent"`
	}
	require.NoError(t, json.Unmarshal(w.Result, &res))
	assert.Equal(t, "rejected", res.StructuredContent.Status)
	assert.Zero(t, f.runs[kDelete].Load())
	p, err := svcA.Proposal(t.Context(), created.TaskID, ana)
	require.NoError(t, err)
	assert.Equal(t, service.StateRejected, p.State)
}

// TestProposeTaskConfirmedByHost: a confirmation outside MCP (the
// console, Service.Confirm) on another instance moves the task on, with
// the same answer as an acceptance over MCP.
func TestProposeTaskConfirmedByHost(t *testing.T) {
	f := newTaskFixture(t)
	sa, sb := sqliteStores(t)
	_, urlA := taskInstance(t, f, sa, "A", true)
	svcB, _ := taskInstance(t, f, sb, "B", true)
	created := decodeTask(t, callTool(t, urlA, anaToken, "notes_delete", `{"id":9}`, true))
	conf, err := svcB.Confirm(t.Context(), created.TaskID, ana)
	require.NoError(t, err)
	assert.Equal(t, "deleted 9 (run 1)", conf.Result.Text())
	w := decodeTask(t, taskReq(t, urlA, anaToken, "tasks/get", created.TaskID, ""))
	assert.Equal(t, "completed", w.Status)
	var res struct {
		StructuredContent outcome `json:"structuredContent"`
	}
	require.NoError(t, json.Unmarshal(w.Result, &res))
	assert.Equal(t, "confirmed", res.StructuredContent.Status)
	assert.JSONEq(t, `"deleted 9 (run 1)"`, string(res.StructuredContent.Result))
	assert.Equal(t, int64(1), f.runs[kDelete].Load())
	late := taskReq(t, urlA, anaToken, "tasks/update", created.TaskID, `,"inputResponses":{"confirm":{"action":"accept"}}`)
	assert.Contains(t, string(late), "the task is not waiting for input")
	assert.Equal(t, int64(1), f.runs[kDelete].Load())
}

// ackJSON is the acknowledgement of tasks/update and tasks/cancel, on
// protocol 2026-07-28: the server named in _meta.
const ackJSON = `{"jsonrpc":"2.0","id":2,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"toolgen","version":"devel"}},"resultType":"complete"}}`

// sentinel is sent in every bad input: it must come back in no answer.
const sentinel = "SENTINELxyz"

// TestTaskForeignPrincipal: another principal's task ID, an unknown one
// and a malformed one get one answer, from get, update and cancel alike;
// nothing is changed.
func TestTaskForeignPrincipal(t *testing.T) {
	f := newTaskFixture(t)
	sa, sb := sqliteStores(t)
	_, urlA := taskInstance(t, f, sa, "A", true)
	_, urlB := taskInstance(t, f, sb, "B", true)
	created := decodeTask(t, callTool(t, urlA, anaToken, "notes_delete", `{"id":5}`, true))
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		extra := ""
		if method == "tasks/update" {
			extra = `,"inputResponses":{"confirm":{"action":"accept"}}`
		}
		foreign := post(t, urlB, benToken, method, created.TaskID,
			`{"jsonrpc":"2.0","id":2,"method":"`+method+`","params":{"taskId":"`+created.TaskID+`"`+extra+`,`+capsMeta(true)+`}}`)
		unknown := taskReq(t, urlB, anaToken, method, "task_0000000000000000000000000V", extra)
		malformed := taskReq(t, urlB, anaToken, method, sentinel+`"<b>`, extra)
		want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"task not found"}}`
		assert.JSONEq(t, want, string(foreign), method)
		assert.JSONEq(t, want, string(unknown), method)
		assert.JSONEq(t, want, string(malformed), method)
	}
	assert.Equal(t, "input_required", decodeTask(t, taskReq(t, urlA, anaToken, "tasks/get", created.TaskID, "")).Status)
	assert.Zero(t, f.runs[kDelete].Load())
}

// TestTaskWithoutCapability: a client that does not declare the extension
// is answered as by a server without tasks, byte for byte, and its tasks/*
// requests get -32021 naming the extension.
func TestTaskWithoutCapability(t *testing.T) {
	f := newTaskFixture(t)
	close(f.release)
	_, withTasks := taskInstance(t, f, service.NewMemoryStore(), "A", true)
	_, without := taskInstance(t, f, service.NewMemoryStore(), "B", false)
	for _, c := range []struct{ name, args string }{{"slow_job", `{"id":1}`}, {"quick", `{}`}, {"slow_job", `{"id":"` + sentinel + `"}`}, {"nope", `{}`}} {
		a := callTool(t, withTasks, anaToken, c.name, c.args, false)
		b := callTool(t, without, anaToken, c.name, c.args, false)
		// The runs count on: the texts differ by the run's number alone.
		assert.Equal(t, strings.ReplaceAll(string(b), "(run 2)", "(run 1)"), string(a), c.name)
	}
	// A quick tool is no task, even for a client that declares tasks.
	a := callTool(t, withTasks, anaToken, "quick", `{}`, true)
	b := callTool(t, without, anaToken, "quick", `{}`, true)
	assert.Equal(t, strings.ReplaceAll(string(b), "(run 4)", "(run 3)"), string(a))
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		got := post(t, withTasks, anaToken, method, "x",
			`{"jsonrpc":"2.0","id":3,"method":"`+method+`","params":{"taskId":"`+sentinel+`",`+capsMeta(false)+`}}`)
		assert.JSONEq(t, `{"jsonrpc":"2.0","id":3,"error":{"code":-32021,"message":"the client lacks a capability the request needs",
			"data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`, string(got), method)
	}
}

// TestTaskBadInputs: each bad request is refused, or ignored where the
// specification says so, changes nothing, and quotes nothing it sent.
func TestTaskBadInputs(t *testing.T) {
	f := newTaskFixture(t)
	_, url := taskInstance(t, f, service.NewMemoryStore(), "A", true)
	prop := decodeTask(t, callTool(t, url, anaToken, "notes_delete", `{"id":6}`, true)).TaskID
	slow := decodeTask(t, callTool(t, url, anaToken, "slow_job", `{"id":6}`, true)).TaskID
	cases := []struct {
		name, method, id, extra, want string
	}{
		{"no taskId", "tasks/get", "", "", "invalid task params"},
		{"update of a working task", "tasks/update", slow, `,"inputResponses":{"confirm":{"action":"accept"}}`, "the task is not waiting for input"},
		{"update without responses", "tasks/update", prop, "", "invalid task params"},
		{"update with responses not an object", "tasks/update", prop, `,"inputResponses":"` + sentinel + `"`, "invalid task params"},
		{"an answer of no action", "tasks/update", prop, `,"inputResponses":{"confirm":{"action":"` + sentinel + `"}}`, "invalid task params"},
		{"an answer not an object", "tasks/update", prop, `,"inputResponses":{"confirm":"` + sentinel + `"}`, "invalid task params"},
		{"a response for another request", "tasks/update", prop, `,"inputResponses":{"` + sentinel + `":{"action":"accept"}}`, `"resultType":"complete"`},
		{"cancel, the person undecided", "tasks/update", prop, `,"inputResponses":{"confirm":{"action":"cancel"}}`, `"resultType":"complete"`},
	}
	for _, c := range cases {
		var body string
		if c.id == "" {
			body = `{"jsonrpc":"2.0","id":2,"method":"` + c.method + `","params":{` + capsMeta(true) + `}}`
		} else {
			body = `{"jsonrpc":"2.0","id":2,"method":"` + c.method + `","params":{"taskId":"` + c.id + `"` + c.extra + `,` + capsMeta(true) + `}}`
		}
		got := string(post(t, url, anaToken, c.method, c.id, body))
		assert.Contains(t, got, c.want, c.name)
		assert.NotContains(t, got, sentinel, c.name)
	}
	assert.Equal(t, "input_required", decodeTask(t, taskReq(t, url, anaToken, "tasks/get", prop, "")).Status, "nothing decided")
	assert.Zero(t, f.runs[kDelete].Load())
	close(f.release)
	getUntil(t, url, slow, "completed")
	done := taskReq(t, url, anaToken, "tasks/cancel", slow, "")
	assert.Contains(t, string(done), "the task has ended; nothing was cancelled")
}

// TestTaskOverRun: over Run's transports (stdio), the task requests are
// answered as over HTTP: a task created over HTTP on one instance is
// read, with the same result bytes, over another instance's Run session.
func TestTaskOverRun(t *testing.T) {
	f := newTaskFixture(t)
	sa, sb := sqliteStores(t)
	_, urlA := taskInstance(t, f, sa, "A", true)
	svcB, err := service.New(f.reg, &service.Options{Store: sb, Tasks: service.TaskOptions{Instance: "B", Tick: taskTick, Lease: taskLease}})
	require.NoError(t, err)
	srvB, err := mcpserver.New(svcB, &mcpserver.Options{Tasks: servicemcp.Tasks(svcB)})
	require.NoError(t, err)
	created := decodeTask(t, callTool(t, urlA, anaToken, "slow_job", `{"id":2}`, true))
	close(f.release)
	overHTTP := decodeTask(t, getUntil(t, urlA, created.TaskID, "completed"))

	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(tool.WithInvocation(t.Context(), &tool.Invocation{Principal: ana}))
	defer cancel()
	go func() { _ = srvB.Run(ctx, st) }()
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	defer conn.Close()
	ask := func(id int64, method, params string) *jsonrpc.Response {
		rid, err := jsonrpc.MakeID(float64(id))
		require.NoError(t, err)
		require.NoError(t, conn.Write(ctx, &jsonrpc.Request{ID: rid, Method: method, Params: json.RawMessage(params)}))
		msg, err := conn.Read(ctx)
		require.NoError(t, err)
		resp, ok := msg.(*jsonrpc.Response)
		require.True(t, ok, "%T", msg)
		return resp
	}
	resp := ask(1, "tasks/get", `{"taskId":"`+created.TaskID+`",`+capsMeta(true)+`}`)
	require.NoError(t, resp.Error)
	var w wireTask
	require.NoError(t, json.Unmarshal(resp.Result, &w))
	assert.Equal(t, "completed", w.Status)
	assert.Equal(t, string(overHTTP.Result), string(w.Result), "the same result bytes over either transport")
	resp = ask(2, "tasks/get", `{"taskId":"`+created.TaskID+`",`+capsMeta(false)+`}`)
	require.Error(t, resp.Error)
	var we *jsonrpc.Error
	require.ErrorAs(t, resp.Error, &we)
	assert.EqualValues(t, -32021, we.Code)
}

// TestTaskRefusedBeforeATask: a call a task would refuse at once (a tool
// not offered to the caller, arguments the tool refuses) is answered as
// without tasks, byte for byte, and no task is made.
func TestTaskRefusedBeforeATask(t *testing.T) {
	f := newTaskFixture(t)
	svcA, withTasks := taskInstance(t, f, service.NewMemoryStore(), "A", true)
	_, without := taskInstance(t, f, service.NewMemoryStore(), "B", false)
	for _, c := range []struct{ token, name, args string }{
		{benToken, "slow_job", `{"id":1}`},                  // not offered to ben
		{anaToken, "slow_job", `{"id":"` + sentinel + `"}`}, // arguments refused
		{anaToken, "notes_delete", `{"id":"` + sentinel + `"}`},
		{anaToken, "nope", `{}`},
	} {
		a := callTool(t, withTasks, c.token, c.name, c.args, true)
		b := callTool(t, without, c.token, c.name, c.args, true)
		assert.Equal(t, string(b), string(a), c.name)
		assert.NotContains(t, string(a), `"resultType":"task"`, c.name)
		assert.NotContains(t, string(a), sentinel, c.name)
	}
	assert.Zero(t, f.runs[kSlow].Load())
	recs, err := svcA.Records(t.Context(), service.Query{})
	require.NoError(t, err)
	assert.Len(t, recs, 4, "each refusal recorded, as without tasks")
}

// TestTaskExtensionDeclared: a server with tasks declares the extension in
// its capabilities; one without declares none.
func TestTaskExtensionDeclared(t *testing.T) {
	f := newTaskFixture(t)
	for _, on := range []bool{true, false} {
		svc, err := service.New(f.reg, nil)
		require.NoError(t, err)
		var o mcpserver.Options
		if on {
			o.Tasks = servicemcp.Tasks(svc)
		}
		srv, err := mcpserver.New(svc, &o)
		require.NoError(t, err)
		cs := dialMemory(t, &instance{svc: svc, srv: srv}, ana, legacy, nil)
		_, declared := cs.InitializeResult().Capabilities.Extensions[mcpserver.ExtensionTasks]
		assert.Equal(t, on, declared)
	}
}

// TestProposeTaskCancelledMidRun: cancelling an accepted propose tool's
// task while its tool runs reaches the tool on the instance running it;
// the task ends cancelled, and so does the confirmation's record.
func TestProposeTaskCancelledMidRun(t *testing.T) {
	f := newTaskFixture(t)
	sa, sb := sqliteStores(t)
	svcA, urlA := taskInstance(t, f, sa, "A", true)
	_, urlB := taskInstance(t, f, sb, "B", true)
	created := decodeTask(t, callTool(t, urlA, anaToken, "notes_delete", `{"id":99}`, true))
	assert.JSONEq(t, ackJSON, string(taskReq(t, urlA, anaToken, "tasks/update", created.TaskID, `,"inputResponses":{"confirm":{"action":"accept"}}`)))
	progressUntil(t, urlB, created.TaskID)
	assert.JSONEq(t, ackJSON, string(taskReq(t, urlB, anaToken, "tasks/cancel", created.TaskID, "")))
	select {
	case <-f.cancelled:
	case <-time.After(20 * time.Second):
		require.Fail(t, "the cancellation never reached the tool")
	}
	getUntil(t, urlB, created.TaskID, "cancelled")
	recs, err := svcA.Records(t.Context(), service.Query{Proposal: created.TaskID})
	require.NoError(t, err)
	require.Len(t, recs, 2)
	assert.Equal(t, service.EventConfirmation, recs[1].Event)
	assert.Equal(t, service.OutcomeCancelled, recs[1].Outcome)
	assert.Equal(t, int64(1), f.runs[kDelete].Load())
}
