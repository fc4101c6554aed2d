package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// ExtensionTasks is the identifier of MCP's tasks extension (SEP-2663),
// which a call declares when Options.Tasks is set.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// Polling of a remote task (see Options.Tasks).
const (
	// DefaultPollInterval is the wait between two tasks/get of a task
	// whose server suggests no pollIntervalMs.
	DefaultPollInterval = time.Second
	// MinPollInterval and MaxPollInterval bound the server's
	// pollIntervalMs: a server cannot have the client poll it in a loop,
	// nor wait for hours between two looks.
	MinPollInterval = 50 * time.Millisecond
	MaxPollInterval = 30 * time.Second
)

// maxPollFailures is the most consecutive tasks/get whose connection
// failed before the task is given up (its outcome then unknown).
const maxPollFailures = 3

// metaTask is the _meta key under which a task connection hands a
// tools/call's CreateTaskResult to Call, as a JSON string: the SDK decodes
// a tools/call answer into an mcp.CallToolResult, which has no room for a
// task. The key is put there by this package's HTTP round tripper only,
// never sent, and is removed from a result the server wrote it into.
const metaTask = "io.github.toolgen-go/mcpclient/task"

// The statuses of a task.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// taskState is a Task of the extension as tasks/get (or a CreateTaskResult)
// describes it; Result and Error are kept as sent.
type taskState struct {
	mcp.ResultBase
	ResultType     string          `json:"resultType,omitempty"`
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	PollIntervalMs *float64        `json:"pollIntervalMs,omitempty"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          *taskError      `json:"error,omitempty"`
}

// taskError is a failed task's JSON-RPC error; its message is the
// server's, and stays in causes.
type taskError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// taskParams are the params of tasks/get and tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// ackResult is the empty acknowledgement of tasks/cancel.
type ackResult struct {
	mcp.ResultBase
}

// registerTaskMethods lets the client send the extension's methods.
func registerTaskMethods(c *mcp.Client) error {
	if err := mcp.AddSendingCustomMethod[*taskParams, *taskState](c, "tasks/get"); err != nil {
		return err
	}
	return mcp.AddSendingCustomMethod[*taskParams, *ackResult](c, "tasks/cancel")
}

// declareTasks returns the _meta of a request that declares the tasks
// extension among the per-request client capabilities.
func declareTasks() mcp.Meta {
	return mcp.Meta{mcp.MetaKeyClientCapabilities: map[string]any{
		"extensions": map[string]any{ExtensionTasks: map[string]any{}},
	}}
}

// taskTransport returns t ready to carry tasks when it is a streamable
// HTTP transport (its HTTP client's round tripper wrapped in a
// taskRoundTripper), and whether it is.
func taskTransport(t mcp.Transport) (mcp.Transport, bool) {
	st, ok := t.(*mcp.StreamableClientTransport)
	if !ok || st == nil {
		return t, false
	}
	cp := *st
	hc := http.Client{}
	if st.HTTPClient != nil {
		hc = *st.HTTPClient
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc.Transport = &taskRoundTripper{next: next}
	cp.HTTPClient = &hc
	return &cp, true
}

// taskRoundTripper is the HTTP side of a connection that declares the
// tasks extension. It names the task of tasks/get and tasks/cancel in the
// Mcp-Name header (the extension's routing header, which the SDK does not
// set for methods it does not know), and hands the CreateTaskResult
// answering a tools/call to Call under metaTask.
type taskRoundTripper struct {
	next http.RoundTripper
}

// RoundTrip implements http.RoundTripper. It reads each POST's body (a
// JSON-RPC message the SDK holds in memory anyway) to learn its method:
// every tools/call's answer is looked at, whatever the size of its
// arguments.
func (rt *taskRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.Body == nil || req.Body == http.NoBody {
		return rt.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("mcpclient: read the request: %w", err)
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	var msg struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
		Params struct {
			TaskID string `json:"taskId"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return rt.next.RoundTrip(out)
	}
	if strings.HasPrefix(msg.Method, "tasks/") && headerSafe(msg.Params.TaskID) {
		out.Header.Set("Mcp-Name", msg.Params.TaskID)
	}
	resp, err := rt.next.RoundTrip(out)
	if err != nil || msg.Method != "tools/call" || len(msg.ID) == 0 || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	id := compactID(msg.ID)
	switch ct := resp.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "application/json"):
		b, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("mcpclient: read the answer: %w", err)
		}
		if r, ok := handTask(b, id); ok {
			b = r
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		resp.ContentLength = int64(len(b))
		resp.Header.Del("Content-Length")
	case strings.HasPrefix(ct, "text/event-stream"):
		resp.Body = &sseTasks{body: resp.Body, r: bufio.NewReader(resp.Body), id: id}
	}
	return resp, nil
}

// headerSafe reports whether a task ID may be sent as a header value as
// it is: printable ASCII without spaces at either end.
func headerSafe(s string) bool {
	if s == "" || len(s) > 1024 || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// compactID returns a JSON-RPC ID in compact form, for comparison.
func compactID(id json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return id
	}
	return b.Bytes()
}

// handTask rewrites msg, when it is the answer of id carrying a
// CreateTaskResult (resultType "task"), into a CallToolResult with no
// content whose _meta holds the task under metaTask; when it is the
// answer of id carrying a CallToolResult, it removes metaTask from its
// _meta, so that only this package puts it there. It reports whether it
// changed msg.
func handTask(msg []byte, id []byte) ([]byte, bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.Result) == 0 || !bytes.Equal(compactID(m.ID), id) {
		return msg, false
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(m.Result, &res) != nil {
		return msg, false
	}
	var rt string
	_ = json.Unmarshal(res["resultType"], &rt)
	if rt != "task" {
		var meta map[string]json.RawMessage
		if json.Unmarshal(res["_meta"], &meta) != nil || meta[metaTask] == nil {
			return msg, false
		}
		delete(meta, metaTask)
		res["_meta"], _ = json.Marshal(meta)
	} else {
		seed, _ := json.Marshal(string(m.Result))
		res = map[string]json.RawMessage{
			"content": json.RawMessage("[]"),
			"_meta":   json.RawMessage(`{"` + metaTask + `":` + string(seed) + `}`),
		}
	}
	result, err := json.Marshal(res)
	if err != nil {
		return msg, false
	}
	out, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
	}{"2.0", m.ID, result})
	if err != nil {
		return msg, false
	}
	return out, true
}

// sseTasks reads a server-sent event stream answering a tools/call,
// rewriting (handTask) the event that carries the call's answer. Events
// pass one by one, as they arrive.
type sseTasks struct {
	body io.ReadCloser
	r    *bufio.Reader
	id   []byte
	out  []byte // of the event read last, not yet returned
	err  error
}

// Read implements io.Reader.
func (s *sseTasks) Read(p []byte) (int, error) {
	for len(s.out) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		s.out, s.err = s.event()
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}

// event reads one event (up to and with its blank line, or to the end of
// the stream) and returns it, rewritten when it carries the call's answer.
func (s *sseTasks) event() ([]byte, error) {
	var raw, data []byte
	var err error
	lines := 0
	for {
		var line []byte
		line, err = s.r.ReadBytes('\n')
		raw = append(raw, line...)
		t := bytes.TrimRight(line, "\r\n")
		if len(t) == 0 && len(line) > 0 {
			break
		}
		if v, ok := bytes.CutPrefix(t, []byte("data:")); ok {
			if lines > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(v, []byte(" "))...)
			lines++
		}
		if err != nil {
			break
		}
	}
	if lines == 0 {
		return raw, err
	}
	r, ok := handTask(data, s.id)
	if !ok {
		return raw, err
	}
	var b bytes.Buffer
	for _, line := range bytes.SplitAfter(raw, []byte("\n")) {
		t := bytes.TrimRight(line, "\r\n")
		if len(t) == 0 || bytes.HasPrefix(t, []byte("data:")) {
			continue
		}
		b.Write(line)
	}
	b.WriteString("data: ")
	b.Write(r)
	b.WriteString("\n\n")
	return b.Bytes(), err
}

// Close implements io.Closer.
func (s *sseTasks) Close() error { return s.body.Close() }

// taskOf returns the task a tools/call answered with, from res's _meta
// (see metaTask), and whether there is one.
func taskOf(res *mcp.CallToolResult) (string, bool) {
	if res == nil || res.Meta == nil {
		return "", false
	}
	s, ok := res.Meta[metaTask].(string)
	return s, ok
}

// follow polls the remote task seed (a CreateTaskResult) with tasks/get
// until it ends, honouring its pollIntervalMs (within MinPollInterval and
// MaxPollInterval), and maps its outcome as Call maps a result: a
// completed task's result as the call's, a failed one as a protocol
// error, a cancelled one as the tool's failure. When ctx ends first, the
// task is cancelled (tasks/cancel) and the call abandoned. A connection
// lost while polling is replaced (the task lives on the server, not in
// the connection), up to maxPollFailures times in a row. A task asking
// for input (input_required) is left waiting and the call fails, its
// outcome unknown: this client has nobody to ask, and the input may come
// from elsewhere.
func (p *Toolkit) follow(ctx context.Context, c *conn, spec *tool.Spec, full, remote, seed string) (tool.Result, error) {
	var st taskState
	if err := json.Unmarshal([]byte(seed), &st); err != nil {
		return failure(p.badTask(full, remote, fmt.Errorf("decode the task: %w", err)))
	}
	if !validTaskID(st.TaskID) {
		return failure(p.badTask(full, remote, errors.New("the task has no valid taskId")))
	}
	id := st.TaskID
	failures := 0
	for {
		if ended, res, err := p.taskEnded(ctx, c, spec, full, remote, &st); ended {
			return res, err
		}
		if err := p.sleep(ctx, pollInterval(st.PollIntervalMs)); err != nil {
			p.cancelTask(ctx, c, id)
			return tool.Result{IsError: true}, fmt.Errorf("mcpclient: %s: call %q: task %s: %w: %w", p.group, remote, id, tool.ErrAbandoned, err)
		}
		next, err := mcp.CallCustomMethod[*taskParams, *taskState](ctx, c.cs, "tasks/get", &taskParams{ParamsBase: mcp.ParamsBase{Meta: declareTasks()}, TaskID: id})
		if err != nil {
			failures++
			nc, res, err := p.pollFailed(ctx, c, full, remote, id, err, failures)
			if nc == nil {
				return res, err
			}
			c = nc
			st.Status = taskWorking
			continue
		}
		failures = 0
		if next.TaskID != id {
			p.cancelTask(ctx, c, id)
			return failure(p.badTask(full, remote, fmt.Errorf("tasks/get of task %s answered for another task", id)))
		}
		st = *next
	}
}

// taskEnded maps the status of the task st, as follow maps it, and
// reports whether the call ends there: a task still working goes on
// being polled; a task in an unknown status is cancelled.
func (p *Toolkit) taskEnded(ctx context.Context, c *conn, spec *tool.Spec, full, remote string, st *taskState) (ended bool, res tool.Result, err error) {
	id := st.TaskID
	switch st.Status {
	case taskCompleted:
		res, err = p.taskResult(spec, full, remote, id, st.Result)
		return true, res, err
	case taskFailed:
		code := int64(0)
		msg := ""
		if st.Error != nil {
			code, msg = st.Error.Code, st.Error.Message
		}
		res, err = failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
			Message: "the MCP server's task for the call failed (code " + strconv.FormatInt(code, 10) + ")",
			Cause:   fmt.Errorf("mcpclient: %s: call %q: task %s failed: %s", p.group, remote, id, msg)})
		return true, res, err
	case taskCancelled:
		res, err = failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
			Message: "the MCP server cancelled its task for the call",
			Cause:   fmt.Errorf("mcpclient: %s: call %q: task %s cancelled", p.group, remote, id)})
		return true, res, err
	case taskInputRequired:
		// Left waiting, not cancelled: the input may come from
		// elsewhere (a person confirming a proposal in a console),
		// and a cancellation would end that too.
		what := "its task"
		if codec.IsIdentifier(id) {
			what = "its task " + id
		}
		res, err = failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
			Message: "the remote tool is waiting for input this client cannot give (" + what + "): the task was left waiting, and may still run once the input comes from elsewhere; its outcome is unknown",
			Cause:   fmt.Errorf("mcpclient: %s: call %q: task %s: input_required: %w", p.group, remote, id, tool.ErrAbandoned)})
		return true, res, err
	case taskWorking:
		return false, tool.Result{}, nil
	default:
		p.cancelTask(ctx, c, id)
		what := "an unknown status"
		if codec.IsIdentifier(st.Status) {
			what = "the unknown status " + st.Status
		}
		res, err = failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
			Message: "the MCP server's task for the call has " + what + "; the task was cancelled and its outcome is unknown",
			Cause:   fmt.Errorf("mcpclient: %s: call %q: task %s: %w", p.group, remote, id, tool.ErrAbandoned)})
		return true, res, err
	}
}

// pollFailed handles the error of the failures-th tasks/get of the task
// id in a row, on c: it returns a new connection to poll on when the
// connection was lost and replaced, else the call's end (ctx ended, the
// server answered with an error, or the connection could not be
// replaced, maxPollFailures times or at all).
func (p *Toolkit) pollFailed(ctx context.Context, c *conn, full, remote, id string, err error, failures int) (*conn, tool.Result, error) {
	var we *jsonrpc.Error
	switch {
	case ctx.Err() != nil:
		p.cancelTask(ctx, c, id)
		return nil, tool.Result{IsError: true}, fmt.Errorf("mcpclient: %s: call %q: task %s: %w: %w", p.group, remote, id, tool.ErrAbandoned, err)
	case errors.As(err, &we) && answered(we.Code):
		// The server no longer knows the task (it expired), or
		// refuses to tell: its outcome is unknown.
		res, err := failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
			Message: "the MCP server refused to tell how its task for the call went (code " + strconv.Itoa(int(we.Code)) + "): its outcome is unknown",
			Cause:   fmt.Errorf("mcpclient: %s: call %q: task %s: %w: %w", p.group, remote, id, tool.ErrAbandoned, err)})
		return nil, res, err
	}
	p.pool.drop(c)
	if failures >= maxPollFailures {
		res, err := failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
			Message: "the connection to the MCP server of " + p.group + " was lost while following the call's task: its outcome is unknown",
			Cause:   fmt.Errorf("%w: %w: mcpclient: %s: call %q: task %s: %w", ErrConnectionLost, tool.ErrAbandoned, p.group, remote, id, err)})
		return nil, res, err
	}
	nc, err := p.pool.get(ctx)
	if err != nil || !nc.tasks {
		if ctx.Err() != nil {
			return nil, tool.Result{IsError: true}, fmt.Errorf("mcpclient: %s: call %q: task %s: %w: %w", p.group, remote, id, tool.ErrAbandoned, ctx.Err())
		}
		if err == nil {
			err = errors.New("the new connection cannot carry tasks")
		}
		res, err := failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
			Message: "the MCP server of " + p.group + " could not be reached again to follow the call's task: its outcome is unknown",
			Cause:   fmt.Errorf("%w: %w: mcpclient: %s: call %q: task %s: %w", ErrConnectionLost, tool.ErrAbandoned, p.group, remote, id, err)})
		return nil, res, err
	}
	return nc, tool.Result{}, nil
}

// taskResult maps a completed task's result, a CallToolResult, as Call
// maps the answer of tools/call.
func (p *Toolkit) taskResult(spec *tool.Spec, full, remote, id string, raw json.RawMessage) (tool.Result, error) {
	if len(raw) == 0 {
		return failure(p.badTask(full, remote, fmt.Errorf("completed task %s has no result", id)))
	}
	if len(raw) > 2*p.opts.MaxResultBytes+1<<16 {
		// Far over the cap whatever its content: not decoded.
		return p.tooLarge(full, remote)
	}
	var kind struct {
		ResultType string `json:"resultType"`
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &kind); err != nil {
		return failure(p.badTask(full, remote, fmt.Errorf("decode the result of task %s: %w", id, err)))
	}
	if kind.ResultType != "" && kind.ResultType != "complete" {
		return failure(p.badTask(full, remote, fmt.Errorf("the result of task %s is not complete", id)))
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return failure(p.badTask(full, remote, fmt.Errorf("decode the result of task %s: %w", id, err)))
	}
	return p.result(spec, full, remote, &res)
}

// badTask is the error of a task the server described wrongly: the
// remote tool may have run.
func (p *Toolkit) badTask(full, remote string, err error) *tool.Error {
	return &tool.Error{Code: tool.CodeFailed, Tool: full,
		Message: "the MCP server answered the call with a task it described wrongly: its outcome is unknown",
		Cause:   fmt.Errorf("mcpclient: %s: call %q: %w: %w", p.group, remote, tool.ErrAbandoned, err)}
}

// cancelTask asks the server to cancel the task (tasks/cancel), bounded
// by ConnectTimeout and not by ctx, which may have ended: the call is
// given up, the task need not go on. Its failure is logged.
func (p *Toolkit) cancelTask(ctx context.Context, c *conn, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.opts.ConnectTimeout)
	defer cancel()
	if _, err := mcp.CallCustomMethod[*taskParams, *ackResult](ctx, c.cs, "tasks/cancel", &taskParams{ParamsBase: mcp.ParamsBase{Meta: declareTasks()}, TaskID: id}); err != nil {
		p.logger().Warn("mcpclient: cancel a remote task", slog.String("group", p.group), slog.String("task", id), slog.String("error", err.Error()))
	}
}

// validTaskID reports whether a server's task ID is one the client
// sends back: non-empty, printable, bounded.
func validTaskID(id string) bool { return headerSafe(id) }

// pollInterval is the wait before the next tasks/get: the server's
// pollIntervalMs within MinPollInterval and MaxPollInterval, else
// DefaultPollInterval.
func pollInterval(ms *float64) time.Duration {
	if ms == nil || *ms != *ms { // absent or NaN
		return DefaultPollInterval
	}
	switch v := *ms; {
	case v <= float64(MinPollInterval/time.Millisecond):
		return MinPollInterval
	case v >= float64(MaxPollInterval/time.Millisecond):
		return MaxPollInterval
	default:
		return time.Duration(v * float64(time.Millisecond))
	}
}

// sleepCtx waits d, or until ctx ends (then it returns ctx's error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
