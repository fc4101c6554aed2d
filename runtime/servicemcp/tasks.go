package servicemcp

import (
	"context"
	"errors"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Tasks returns svc as an mcpserver.TaskKeeper: the tasks of the MCP Tasks
// extension kept in svc's store (service.Task), so that every instance
// sharing the store answers for them.
//
//	srv, err := mcpserver.New(svc, &mcpserver.Options{Tasks: servicemcp.Tasks(svc)})
func Tasks(svc *service.Service) mcpserver.TaskKeeper { return tasks{svc: svc} }

// tasks is what Tasks returns.
type tasks struct {
	svc *service.Service
}

// TaskTool implements mcpserver.TaskKeeper.
func (k tasks) TaskTool(ctx context.Context, name string, args []byte) bool {
	return k.svc.TaskTool(ctx, name, args)
}

// StartTask implements mcpserver.TaskKeeper.
func (k tasks) StartTask(ctx context.Context, name string, args []byte) (*mcpserver.Task, error) {
	t, err := k.svc.StartTask(ctx, name, args)
	if err != nil {
		return nil, err
	}
	who, _ := tool.PrincipalFrom(ctx)
	return k.view(ctx, t, who)
}

// Task implements mcpserver.TaskKeeper.
func (k tasks) Task(ctx context.Context, id string) (*mcpserver.Task, error) {
	who, _ := tool.PrincipalFrom(ctx)
	t, err := k.svc.Task(ctx, id, who)
	if err != nil {
		return nil, taskErr(err)
	}
	return k.view(ctx, t, who)
}

// DecideTask implements mcpserver.TaskKeeper.
func (k tasks) DecideTask(ctx context.Context, id string, accept bool) error {
	who, _ := tool.PrincipalFrom(ctx)
	return taskErr(k.svc.DecideTask(ctx, id, who, accept))
}

// CancelTask implements mcpserver.TaskKeeper.
func (k tasks) CancelTask(ctx context.Context, id string) error {
	who, _ := tool.PrincipalFrom(ctx)
	return taskErr(k.svc.CancelTask(ctx, id, who))
}

// taskErr maps the service's task errors to the server's.
func taskErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, service.ErrTaskNotFound):
		return mcpserver.ErrUnknownTask
	case errors.Is(err, service.ErrTaskNotWaiting):
		return mcpserver.ErrTaskNotWaiting
	case errors.Is(err, service.ErrTaskFinished):
		return mcpserver.ErrTaskFinished
	}
	return err
}

// view is t as the server shows it; a propose tool's task carries its
// proposal as the service shows it (arguments in their logged form).
func (k tasks) view(ctx context.Context, t *service.Task, who tool.Principal) (*mcpserver.Task, error) {
	v := &mcpserver.Task{
		ID: t.ID, Status: t.Status.String(), Message: t.Message, Created: t.Created, Updated: t.Updated,
		TTL: t.Expires.Sub(t.Created), PollInterval: t.PollInterval, Result: t.Result, Structured: t.Structured,
		IsError: t.IsError, Error: t.Error,
	}
	if t.Proposal == "" {
		return v, nil
	}
	p, err := k.svc.ViewProposal(ctx, t.Proposal, who)
	if err != nil {
		return nil, err
	}
	v.Proposal = &mcpserver.Proposal{
		ID: p.ID, Tool: p.Tool, Summary: p.Summary, Args: p.Args, Digest: p.Digest, Expires: p.Expires,
		Pending: p.State == service.StatePending,
	}
	switch p.State {
	case service.StateDone:
		v.Decision = "confirmed"
	case service.StateExpired:
		v.Decision = "expired"
	case service.StateRejected:
		v.Decision = "rejected"
	case service.StatePending:
		if t.Status == service.TaskCompleted { // pending past its expiry
			v.Decision = "expired"
		}
	}
	return v, nil
}
