// Package confirmation holds the context a person's confirmation is made
// under on a channel whose request may end before the person's yes has
// run (runtime/mcpserver's elicitation): its values, and its caller's
// cancellation only once the confirmed tool has started. A request that
// ends before then (a closed connection, a proxy's timeout) does not
// lose the yes: the tool runs in full. One that ends after, while the
// tool runs (the client cancels), reaches the tool as for any call.
package confirmation

import "context"

// gate is what Detach's context carries: the caller's context and the
// cancellation of the detached one.
type gate struct {
	parent context.Context
	cancel context.CancelCauseFunc
}

// gateKey is the context key of a gate.
type gateKey struct{}

// Detach returns ctx's values without its cancellation, until Started is
// called on the returned context; stop ends it (call it once the
// confirmation returned).
func Detach(ctx context.Context) (detached context.Context, stop context.CancelFunc) {
	d, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	g := &gate{parent: ctx, cancel: cancel}
	return context.WithValue(d, gateKey{}, g), func() { cancel(context.Canceled) }
}

// Started is called once the confirmed tool has started under ctx, a
// context Detach returned or derived from one: from then on, the caller's
// cancellation reaches it. A caller's context that ended before is
// ignored: the run goes on. stop ends the forwarding (call it once the run
// returned). Started on any other context does nothing.
func Started(ctx context.Context) (stop func() bool) {
	g, ok := ctx.Value(gateKey{}).(*gate)
	if !ok || g.parent.Err() != nil {
		return func() bool { return false }
	}
	return context.AfterFunc(g.parent, func() { g.cancel(context.Cause(g.parent)) })
}
