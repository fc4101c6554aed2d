package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Tasks: the MCP Tasks extension, io.modelcontextprotocol/tasks (SEP-2663;
// specification/draft/tasks.md of modelcontextprotocol/ext-tasks), served
// with Options.Tasks (runtime/servicemcp.Tasks adapts the call service,
// whose store keeps the tasks: see runtime/service's tasks.go).
//
// The wire, as implemented (JSON; times ISO 8601 UTC with milliseconds):
//
//   - The server declares capabilities.extensions
//     {"io.modelcontextprotocol/tasks": {}} (initialize and server/discover).
//   - A client declares it per request, in params._meta:
//     {"io.modelcontextprotocol/clientCapabilities": {"extensions":
//     {"io.modelcontextprotocol/tasks": {}}}}. Only a request that does is
//     answered with a task; every other request is answered exactly as
//     without Options.Tasks.
//   - tools/call of a task tool (TaskKeeper.TaskTool: with the call
//     service, a propose tool or one whose //tool:timeout is at least
//     service.TaskOptions.Threshold, one minute by default; clock_wait is
//     one) from a declaring client answers a CreateTaskResult, once the
//     task is in the store:
//     {"resultType":"task","taskId":ID,"status":"working"|"input_required",
//     "statusMessage":S,"createdAt":T,"lastUpdatedAt":T,"ttlMs":N,"pollIntervalMs":N}.
//     A call that would be refused at once (a tool not offered, arguments
//     the tool refuses: TaskKeeper.TaskTool says no) is made as without
//     tasks, with the same bytes.
//   - tasks/get {"taskId":ID} answers the task with "resultType":"complete"
//     and, by status: input_required adds "inputRequests":{"confirm":
//     {"method":"elicitation/create","params":{"mode":"form","message":Q,
//     "requestedSchema":{"type":"object","properties":{}}}}} (Q as the
//     confirmation's question: summary, arguments in their logged form,
//     proposal ID and expiry); completed adds "result", the CallToolResult
//     the call would have answered (for a propose tool's task, the
//     proposal's answer with status "confirmed" and the tool's output in
//     result, or "rejected"); failed adds "error":{"code":-32603,
//     "message":M}. The result's bytes are written from the store alone:
//     every instance, connection and reconnection reads the same bytes.
//   - tasks/update {"taskId":ID,"inputResponses":{"confirm":
//     {"action":"accept"|"decline"|"cancel"}}} answers
//     {"resultType":"complete"}: accept confirms the proposal (its tool
//     runs once, as the task), decline rejects it, cancel leaves it
//     waiting. Responses under other keys are ignored, as the
//     specification asks (the task stays input_required).
//   - tasks/cancel {"taskId":ID} answers {"resultType":"complete"}; the
//     running tool's context is cancelled within service.TaskOptions.Tick
//     (250ms by default; polled through the store) plus a store round
//     trip, on whichever instance runs it, and the task ends "cancelled"
//     (the record: cancelled) if the tool stops. A task waiting for input
//     is cancelled at once, its proposal rejected.
//   - Errors: tasks/* from a request that does not declare the extension:
//     -32021 with data {"requiredCapabilities":{"extensions":
//     {"io.modelcontextprotocol/tasks":{}}}}. An unknown, malformed,
//     expired or another principal's task ID: -32602 "task not found"
//     (the same answer for each). tasks/update of a task that waits for no
//     input, and tasks/cancel of a task that has ended: -32602 with a
//     fixed message. No error quotes anything the client sent.
//
// On protocol 2026-07-28 (the request's _meta names it), every result
// carries _meta {"io.modelcontextprotocol/serverInfo": {...}} first, as
// the SDK's results do (SEP-2575).
//
// Where the specification leaves a choice: notifications/tasks and
// subscriptions/listen are not served (clients poll, at pollIntervalMs);
// tasks/update of a task that waits for nothing is an error rather than
// silently ignored, so that a client learns its answer came too late;
// tasks/cancel of a task that has ended is an error too (nothing was
// cancelled). The tasks/* requests and task-creating calls are answered
// by the server before the SDK (which knows neither), over HTTP and Run:
// a task request over HTTP needs no session.

// ExtensionTasks names the Tasks extension in capabilities.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// The methods of the Tasks extension.
const (
	methodGetTask    = "tasks/get"
	methodUpdateTask = "tasks/update"
	methodCancelTask = "tasks/cancel"
)

// The errors a TaskKeeper returns, which the server answers with fixed
// messages.
var (
	// ErrUnknownTask: no task has the ID, or it is another principal's, or
	// it expired.
	ErrUnknownTask = errors.New("task not found")
	// ErrTaskNotWaiting: an update of a task that waits for no input.
	ErrTaskNotWaiting = errors.New("the task is not waiting for input")
	// ErrTaskFinished: a cancellation of a task that has ended.
	ErrTaskFinished = errors.New("the task has ended")
)

// Messages of the task errors, which quote nothing of the request.
const (
	msgUnknownTask    = "task not found"
	msgTaskNotWaiting = "the task is not waiting for input; nothing was changed"
	msgTaskFinished   = "the task has ended; nothing was cancelled"
	msgBadTaskParams  = "invalid task params: taskId is a string, inputResponses an object of responses"
	msgTaskFailed     = "the task could not be served"
)

// missingTasksCapability is the data of the -32021 error.
var missingTasksCapability = json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + ExtensionTasks + `":{}}}}`)

// Task is a task as a Server shows it: what a TaskKeeper returns.
type Task struct {
	// ID is the task's ID.
	ID string
	// Status is "working", "input_required", "completed", "failed" or
	// "cancelled".
	Status string
	// Message is the statusMessage ("" for none): the tool's latest
	// progress while it works.
	Message string
	// Created and Updated are when it was created and last changed.
	Created, Updated time.Time
	// TTL is how long it is kept from Created; PollInterval how often
	// clients should poll.
	TTL, PollInterval time.Duration
	// Result, Structured and IsError are a completed task's outcome: the
	// tool's output (structured or text), or an error's message for the
	// model.
	Result     []byte
	Structured bool
	IsError    bool
	// Error says why a failed task failed.
	Error string
	// Proposal is the proposal a propose tool's task is about; nil for
	// another tool's.
	Proposal *Proposal
	// Decision is how a completed propose tool's task was decided:
	// "confirmed", "rejected" or "expired".
	Decision string
}

// TaskKeeper keeps tasks for a Server (Options.Tasks): the call service
// through runtime/servicemcp.Tasks. Its methods act for the principal of
// ctx's Invocation, and are safe for concurrent use.
type TaskKeeper interface {
	// TaskTool reports whether a call of the named tool with args runs as
	// a task; a call it does not name is answered as without tasks.
	TaskTool(ctx context.Context, name string, args []byte) bool
	// StartTask starts a call of the tool as a task and returns it once
	// it is stored; an error is the call's (mapped as a call's failure).
	StartTask(ctx context.Context, name string, args []byte) (*Task, error)
	// Task returns the task id, or ErrUnknownTask.
	Task(ctx context.Context, id string) (*Task, error)
	// DecideTask confirms (accept) or rejects the proposal the task id
	// waits on; ErrTaskNotWaiting when it waits for none.
	DecideTask(ctx context.Context, id string, accept bool) error
	// CancelTask asks for the task id to be cancelled; ErrTaskFinished
	// when it has ended.
	CancelTask(ctx context.Context, id string) error
}

// wireRequest is what the task layer reads of a JSON-RPC request.
type wireRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// taskParams are the params of the task methods and of tools/call, as far
// as the task layer reads them.
type taskParams struct {
	Meta           map[string]json.RawMessage `json:"_meta"`
	TaskID         *string                    `json:"taskId"`
	InputResponses json.RawMessage            `json:"inputResponses"`
	Name           string                     `json:"name"`
	Arguments      json.RawMessage            `json:"arguments"`
	RequestState   string                     `json:"requestState"`
}

// declaresTasks reports whether the request's _meta declares the tasks
// extension among its client capabilities.
func declaresTasks(meta map[string]json.RawMessage) bool {
	raw, ok := meta[mcp.MetaKeyClientCapabilities]
	if !ok {
		return false
	}
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(raw, &caps) != nil {
		return false
	}
	ext, ok := caps.Extensions[ExtensionTasks]
	return ok && len(ext) > 0 && ext[0] == '{'
}

// taskMessage answers a request of the tasks extension: tasks/get,
// tasks/update and tasks/cancel, and a tools/call that starts a task. It
// reports handled false for any other request, which the SDK answers as
// without tasks. ctx carries what the transport put in it (over HTTP the
// verified token); extra the token, for the principal.
func (s *Server) taskMessage(ctx context.Context, extra *mcp.RequestExtra, req *wireRequest) (result json.RawMessage, werr *jsonrpc.Error, handled bool) {
	result, werr, handled = s.taskAnswer(ctx, extra, req)
	if handled && werr == nil && newProtocol(req.Params) {
		result = s.withServerInfo(result)
	}
	return result, werr, handled
}

// newProtocol reports whether params name protocol 2026-07-28 or later in
// their _meta.
func newProtocol(params json.RawMessage) bool {
	var p struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	return json.Unmarshal(params, &p) == nil && p.Meta.Version >= protocolMultiRoundTrip
}

// withServerInfo returns result, a JSON object, with the server's
// Implementation in its _meta first (as the SDK writes a result's _meta).
func (s *Server) withServerInfo(result json.RawMessage) json.RawMessage {
	if len(result) < 2 || result[0] != '{' || bytes.HasPrefix(result, []byte(`{"_meta"`)) {
		return result
	}
	b := make([]byte, 0, len(result)+len(s.serverInfo)+64)
	b = append(b, `{"_meta":{"`+mcp.MetaKeyServerInfo+`":`...)
	b = append(b, s.serverInfo...)
	b = append(b, '}')
	if len(result) > 2 {
		b = append(b, ',')
	}
	return append(b, result[1:]...)
}

// taskAnswer is taskMessage's answer, before the _meta of results.
func (s *Server) taskAnswer(ctx context.Context, extra *mcp.RequestExtra, req *wireRequest) (result json.RawMessage, werr *jsonrpc.Error, handled bool) {
	if s.tasks == nil || len(req.ID) == 0 {
		return nil, nil, false
	}
	switch req.Method {
	case methodGetTask, methodUpdateTask, methodCancelTask, methodCallTool:
	default:
		return nil, nil, false
	}
	var p taskParams
	if json.Unmarshal(req.Params, &p) != nil {
		if req.Method == methodCallTool {
			return nil, nil, false // the SDK's to refuse
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgBadTaskParams}, true
	}
	declared := declaresTasks(p.Meta)
	if req.Method == methodCallTool {
		if !declared || p.Name == "" || p.RequestState != "" || len(p.InputResponses) > 0 {
			return nil, nil, false
		}
	} else if !declared {
		return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: fixedMessage(mcp.CodeMissingRequiredClientCapabilities),
			Data: missingTasksCapability}, true
	}
	var meta mcp.Meta
	if len(p.Meta) > 0 {
		meta = mcp.Meta{}
		for k, v := range p.Meta {
			var x any
			if json.Unmarshal(v, &x) == nil {
				meta[k] = x
			}
		}
	}
	ctx, err := s.invocation(ctx, extra, meta)
	if err != nil {
		var we *jsonrpc.Error
		if errors.As(err, &we) {
			return nil, we, true
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgTaskFailed}, true
	}
	if req.Method == methodCallTool {
		args := []byte(p.Arguments)
		if string(args) == "null" {
			args = nil
		}
		if !s.tasks.TaskTool(ctx, p.Name, args) {
			return nil, nil, false
		}
		return s.startTask(ctx, p.Name, args)
	}
	if p.TaskID == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgBadTaskParams}, true
	}
	id := *p.TaskID
	switch req.Method {
	case methodGetTask:
		t, err := s.tasks.Task(ctx, id)
		if err != nil {
			return nil, s.taskError(ctx, err), true
		}
		b, err := s.taskJSON(t, "complete", true)
		if err != nil {
			return nil, s.taskError(ctx, err), true
		}
		return b, nil, true
	case methodUpdateTask:
		return s.updateTask(ctx, id, p.InputResponses)
	default: // tasks/cancel
		if err := s.tasks.CancelTask(ctx, id); err != nil {
			return nil, s.taskError(ctx, err), true
		}
		return json.RawMessage(`{"resultType":"complete"}`), nil, true
	}
}

// startTask answers a tools/call that starts a task.
func (s *Server) startTask(ctx context.Context, name string, args []byte) (json.RawMessage, *jsonrpc.Error, bool) {
	t, err := s.tasks.StartTask(ctx, name, args)
	if err != nil {
		res, ferr := s.failure(ctx, name, err)
		if ferr != nil {
			var we *jsonrpc.Error
			if errors.As(ferr, &we) {
				return nil, we, true
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgTaskFailed}, true
		}
		b, err := json.Marshal(res)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgTaskFailed}, true
		}
		return b, nil, true
	}
	b, err := s.taskJSON(t, "task", false)
	if err != nil {
		return nil, s.taskError(ctx, err), true
	}
	return b, nil, true
}

// updateTask answers tasks/update: the person's answer to the
// confirmation request, under the key "confirm".
func (s *Server) updateTask(ctx context.Context, id string, responses json.RawMessage) (json.RawMessage, *jsonrpc.Error, bool) {
	var rs map[string]json.RawMessage
	if len(responses) == 0 || json.Unmarshal(responses, &rs) != nil || rs == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgBadTaskParams}, true
	}
	t, err := s.tasks.Task(ctx, id)
	if err != nil {
		return nil, s.taskError(ctx, err), true
	}
	if t.Status != "input_required" {
		return nil, s.taskError(ctx, ErrTaskNotWaiting), true
	}
	raw, ok := rs[confirmRequestID]
	if !ok {
		// Responses to requests never issued are ignored (the
		// specification's SHOULD): the task still waits.
		return json.RawMessage(`{"resultType":"complete"}`), nil, true
	}
	var answer struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(raw, &answer) != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgBadTaskParams}, true
	}
	switch answer.Action {
	case "accept", "decline":
		if err := s.tasks.DecideTask(ctx, id, answer.Action == "accept"); err != nil {
			return nil, s.taskError(ctx, err), true
		}
	case "cancel":
		// No decision: the proposal keeps waiting.
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgBadTaskParams}, true
	}
	return json.RawMessage(`{"resultType":"complete"}`), nil, true
}

// taskError maps a TaskKeeper's error to the wire's.
func (s *Server) taskError(ctx context.Context, err error) *jsonrpc.Error {
	switch {
	case errors.Is(err, ErrUnknownTask):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgUnknownTask}
	case errors.Is(err, ErrTaskNotWaiting):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgTaskNotWaiting}
	case errors.Is(err, ErrTaskFinished):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgTaskFinished}
	}
	s.log.LogAttrs(ctx, slog.LevelError, "mcp server: a task request failed", slog.String("error", err.Error()))
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgTaskFailed}
}

// taskTime is the form of a task's times on the wire.
const taskTime = "2006-01-02T15:04:05.000Z07:00"

// taskJSON writes t as the wire's Task with resultType, with its
// status's payload when detailed (tasks/get). It is written from t alone:
// the same task gives the same bytes on every instance.
func (s *Server) taskJSON(t *Task, resultType string, detailed bool) (json.RawMessage, error) {
	b := []byte(`{"resultType":`)
	b = jsonlex.AppendString(b, resultType)
	b = append(b, `,"taskId":`...)
	b = jsonlex.AppendString(b, t.ID)
	b = append(b, `,"status":`...)
	b = jsonlex.AppendString(b, t.Status)
	if t.Message != "" {
		b = append(b, `,"statusMessage":`...)
		b = jsonlex.AppendString(b, t.Message)
	}
	b = append(b, `,"createdAt":`...)
	b = jsonlex.AppendString(b, t.Created.UTC().Format(taskTime))
	b = append(b, `,"lastUpdatedAt":`...)
	b = jsonlex.AppendString(b, t.Updated.UTC().Format(taskTime))
	b = append(b, `,"ttlMs":`...)
	b = strconv.AppendInt(b, t.TTL.Milliseconds(), 10)
	if t.PollInterval > 0 {
		b = append(b, `,"pollIntervalMs":`...)
		b = strconv.AppendInt(b, t.PollInterval.Milliseconds(), 10)
	}
	if detailed {
		switch t.Status {
		case "input_required":
			if t.Proposal == nil {
				return nil, errors.New("an input_required task without its proposal")
			}
			q, err := json.Marshal(map[string]any{confirmRequestID: map[string]any{"method": "elicitation/create", "params": elicitation(t.Proposal)}})
			if err != nil {
				return nil, err
			}
			b = append(b, `,"inputRequests":`...)
			b = append(b, q...)
		case "completed":
			r, err := json.Marshal(taskResult(t))
			if err != nil {
				return nil, err
			}
			// The CallToolResult of protocol 2026-07-28, the tasks'
			// protocol, names its resultType (the SDK adds it only as
			// it sends a result; the 2026-07-28 schema requires it).
			b = append(b, `,"result":{"resultType":"complete",`...)
			b = append(b, r[1:]...)
		case "failed":
			b = append(b, `,"error":{"code":`...)
			b = strconv.AppendInt(b, jsonrpc.CodeInternalError, 10)
			b = append(b, `,"message":`...)
			b = jsonlex.AppendString(b, t.Error)
			b = append(b, '}')
		}
	}
	return append(b, '}'), nil
}

// taskResult is the CallToolResult of a completed task: what the call
// would have answered (call, decide).
func taskResult(t *Task) *mcp.CallToolResult {
	if t.IsError {
		return errorResult(string(t.Result))
	}
	if t.Proposal != nil {
		switch t.Decision {
		case "confirmed":
			return decision(t.Proposal, "confirmed", "A person confirmed the proposal, and the tool ran: its output is in result.",
				&tool.Result{Content: t.Result, Structured: t.Structured})
		case "expired":
			return decision(t.Proposal, "rejected", "The proposal expired before a person confirmed it: nothing ran, and it never will.", nil)
		default:
			return decision(t.Proposal, "rejected", "The person declined the proposal: nothing ran, and it never will.", nil)
		}
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(t.Result)}}}
	if t.Structured {
		out.StructuredContent = json.RawMessage(t.Result)
	}
	return out
}
