package service

import (
	"context"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Request is one tool call a model asked for in a turn.
type Request struct {
	// CallID is the model's ID of the call (a tool_use ID, a function call
	// ID); with it a repeated call runs once.
	CallID string
	// Name is the tool's name.
	Name string
	// Args are the JSON arguments.
	Args []byte
}

// Response is the answer to one Request.
type Response struct {
	// Result is what the model is sent.
	Result tool.Result
	// Err is nil or the *tool.Error whose Message Result holds; its Cause
	// is for logs.
	Err error
}

// RunTurn runs the calls a model asked for in one turn, for the principal
// of ctx's Invocation, and returns their responses in the model's order.
// The calls are independent: they run at once, at most Options.Parallel
// at a time, each as Call runs it, with its Request's CallID. The turn
// shares one TurnState (the Invocation's, or a new one), so the cap on
// calls per turn counts them all (and any other call made with that
// state): the calls past it are refused, and recorded.
func (s *Service) RunTurn(ctx context.Context, calls []Request) []Response {
	base := tool.Invocation{}
	if inv, ok := tool.InvocationFrom(ctx); ok {
		base = *inv
	}
	if base.State == nil {
		base.State = new(tool.TurnState)
	}
	out := make([]Response, len(calls))
	run := func(i int) {
		inv := base
		inv.CallID = calls[i].CallID
		r, err := s.Call(tool.WithInvocation(ctx, &inv), calls[i].Name, calls[i].Args)
		out[i] = Response{Result: r, Err: err}
	}
	if len(calls) == 1 || s.parallel == 1 {
		for i := range calls {
			run(i)
		}
		return out
	}
	sem := make(chan struct{}, s.parallel)
	var wg sync.WaitGroup
	for i := range calls {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			run(i)
		})
	}
	wg.Wait()
	return out
}

// As returns a tool.Caller that makes every call of c for inv when the
// call's context carries no Invocation of its own: the principal a host
// configures for callers it does not authenticate (stdio, a trusted
// loopback listener). A context whose Invocation has no principal (only
// the call ID a provider adapter set, say) gets inv's principal, and
// inv's conversation and agent where it has none. inv must not be
// modified afterwards.
//
// When c records (the call service: a tool.Recorder and a
// tool.Notifier), so does the Caller As returns, for inv as for calls: a
// palette over it records its grants, refusals and offers, and hears of
// changes.
func As(c tool.Caller, inv *tool.Invocation) tool.Caller {
	a := &as{c: c, inv: inv}
	if r, ok := c.(recorder); ok {
		return &asRecorder{as: a, r: r}
	}
	return a
}

// recorder is a Caller that records what layers in front of it do: the
// call service.
type recorder interface {
	tool.Recorder
	tool.Notifier
}

// asRecorder is what As returns for a recorder.
type asRecorder struct {
	*as
	r recorder
}

var _ recorder = (*asRecorder)(nil)

// CallDynamic implements tool.Recorder.
func (a *asRecorder) CallDynamic(ctx context.Context, d tool.Dynamic, args []byte) (tool.Result, error) {
	return a.r.CallDynamic(a.with(ctx), d, args)
}

// RecordRefusal implements tool.Recorder.
func (a *asRecorder) RecordRefusal(ctx context.Context, name string, e *tool.Error) {
	a.r.RecordRefusal(a.with(ctx), name, e)
}

// RecordOffer implements tool.Recorder.
func (a *asRecorder) RecordOffer(ctx context.Context, offer []*tool.Spec) {
	a.r.RecordOffer(a.with(ctx), offer)
}

// Subscribe implements tool.Notifier.
func (a *asRecorder) Subscribe(changed func()) (cancel func()) { return a.r.Subscribe(changed) }

// as is what As returns.
type as struct {
	c   tool.Caller
	inv *tool.Invocation
}

// with returns ctx carrying a.inv unless it carries an Invocation with a
// principal; an Invocation without one (a call ID a provider adapter set,
// say) is completed with a.inv's principal, conversation and agent.
func (a *as) with(ctx context.Context) context.Context {
	cur, ok := tool.InvocationFrom(ctx)
	switch {
	case !ok:
		return tool.WithInvocation(ctx, a.inv)
	case cur.Principal.ID != "":
		return ctx
	}
	inv := *cur
	inv.Principal = a.inv.Principal
	if inv.Conversation == "" {
		inv.Conversation, inv.Turn = a.inv.Conversation, a.inv.Turn
	}
	if inv.Agent.Name == "" && inv.Agent.Model.Name == "" {
		inv.Agent = a.inv.Agent
	}
	if inv.State == nil {
		inv.State = a.inv.State
	}
	return tool.WithInvocation(ctx, &inv)
}

// Offer implements tool.Caller.
func (a *as) Offer(ctx context.Context) []*tool.Spec { return a.c.Offer(a.with(ctx)) }

// Call implements tool.Caller.
func (a *as) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	return a.c.Call(a.with(ctx), name, args)
}
