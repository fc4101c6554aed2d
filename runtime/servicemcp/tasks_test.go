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
	specs := []tool.Spec{
		kDelete: {Name: "notes_delete", Kind: tool.KindPropose, Title: "Delete note", Destructive: true,
			Meta: []tool.Meta{{Key: "confirm-text", Value: "Delete this note?"}}, InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`)},
		kQuick: {Name: "quick", Kind: tool.KindRead, ReadOnly: true},
		kSlow:  {Name: "slow_job", Kind: tool.KindAction, Timeout: 2 * time.Minute},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, f.dispatch, nil)
	require.NoError(t, err)
	f.reg = reg
	return f
}

func (f *taskFixture) dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	var id int64
	if in.Object("object") {
		for {
			k, ok := in.Key()
			if !ok {
				break
			}
			if string(k) != "id" {
				in.Unknown(k)
				continue
			}
			in.Push("id")
			id, _ = in.Int("integer", 64)
			in.Pop()
		}
	}
	in.End()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	n := f.runs[i].Add(1)
	if i == kSlow {
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

// taskTick is the tests' lease renewal: short, so that tests run fast.
const taskTick = 20 * time.Millisecond

// taskInstance is one instance serving the task fixture over HTTP with
// tasks on (or off), over store.
func taskInstance(t *testing.T, f *taskFixture, store service.Store, name string, tasksOn bool) (*service.Service, string) {
	t.Helper()
	svc, err := service.New(f.reg, &service.Options{Store: store,
		Tasks: service.TaskOptions{Instance: name, Tick: taskTick, Lease: 10 * taskTick, PollInterval: 500 * time.Millisecond}})
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
func sqliteStores(t *testing.T) (service.Store, service.Store) {
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

// post sends one JSON-RPC request as token and returns the body.
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
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
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
		require.NotNil(t, created.TTLMs)
		assert.EqualValues(t, time.Hour.Milliseconds(), *created.TTLMs)
		assert.EqualValues(t, 500, created.PollIntervalMs)

		// Progress shows as the statusMessage, on the other instance.
		deadline := time.Now().Add(20 * time.Second)
		for {
			w := decodeTask(t, taskReq(t, urlB, anaToken, "tasks/get", created.TaskID, ""))
			assert.Equal(t, "complete", w.ResultType)
			if w.StatusMessage == "halfway there" {
				break
			}
			require.True(t, time.Now().Before(deadline), "no progress shown: %+v", w)
			time.Sleep(10 * time.Millisecond)
		}
		close(f.release)
		onB := getUntil(t, urlB, created.TaskID, "completed")
		onA := taskReq(t, urlA, anaToken, "tasks/get", created.TaskID, "")
		assert.Equal(t, string(onB), string(onA), "the same bytes from either instance")
		assert.JSONEq(t, `{"content":[{"type":"text","text":"slow 3 (run 1)"}]}`, string(decodeTask(t, onA).Result))
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
		getUntil(t, urlB, created.TaskID, "working")
		ack := taskReq(t, urlB, anaToken, "tasks/cancel", created.TaskID, "")
		assert.JSONEq(t, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}`, string(ack))
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
		id := "prop_0123456789ABCDEFGHIJKLMNOP"
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
