// Package servicemcp connects the call service (runtime/service) to the
// MCP server (runtime/mcpserver), which knows neither the other: the
// server serves any tool.Caller, and asks a small mcpserver.Confirmer to
// have a proposal confirmed over MCP. Confirmer adapts a *service.Service
// to it, so that what a person confirms over MCP runs through the service:
// at most once, with the person's rights, and recorded.
//
//	svc, err := service.New(reg, nil)
//	srv, err := mcpserver.New(svc, &mcpserver.Options{
//		Confirm: &mcpserver.ConfirmOptions{Confirmer: servicemcp.Confirmer(svc), Key: key},
//	})
//
// Tasks adapts it to an mcpserver.TaskKeeper the same way: the tasks of
// the MCP Tasks extension kept in the service's store (Options.Tasks).
//
// The glue lives in a package of its own so that a program serving a bare
// registry over MCP links no service, and one using the service with a
// provider's API links no MCP SDK.
package servicemcp

import (
	"context"
	"errors"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Confirmer returns svc as an mcpserver.Confirmer: proposals looked up,
// confirmed and rejected through svc, for the person the MCP server asked.
func Confirmer(svc *service.Service) mcpserver.Confirmer { return confirmer{svc: svc} }

// confirmer is what Confirmer returns.
type confirmer struct {
	svc *service.Service
}

// Proposal returns the proposal id as who may decide it, as the service
// shows it (ViewProposal: its arguments in their logged form, secrets
// replaced). One who may see it but not decide it (their own, under four
// eyes) is answered as for an unknown ID.
func (c confirmer) Proposal(ctx context.Context, id string, who tool.Principal) (*mcpserver.Proposal, error) {
	v, err := c.svc.ViewProposal(ctx, id, who)
	if err != nil {
		return nil, err
	}
	if !v.Decidable {
		return nil, &tool.Error{Code: tool.CodeUnknownProposal, Tool: v.Tool, Message: "no proposal " + v.ID + " is open to you"}
	}
	return &mcpserver.Proposal{
		ID: v.ID, Tool: v.Tool, Summary: v.Summary, Args: v.Args, Digest: v.Digest,
		Expires: v.Expires, Pending: v.State == service.StatePending,
	}, nil
}

// Confirm runs the proposal id through the service, at most once, with
// who's rights: the run's result, or the refusal with its message.
func (c confirmer) Confirm(ctx context.Context, id string, who tool.Principal) (tool.Result, error) {
	conf, err := c.svc.Confirm(ctx, id, who)
	if err != nil {
		return tool.Result{Content: []byte(message(err)), IsError: true}, err
	}
	return conf.Result, nil
}

// Reject closes the proposal id through the service.
func (c confirmer) Reject(ctx context.Context, id string, who tool.Principal) error {
	return c.svc.Reject(ctx, id, who)
}

// message is the message an error gives the model: a *tool.Error's
// Message, else a fixed text.
func message(err error) string {
	var te *tool.Error
	if errors.As(err, &te) {
		return te.Message
	}
	return "the confirmation failed"
}
