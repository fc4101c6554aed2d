package tool

import "context"

// Dynamic is a tool known only at run time rather than generated: a
// toolkit's tool (runtime/dynamic) or a palette's meta-tool
// (runtime/palette). The call service (runtime/service) runs it as it runs
// a registry's tool: offered under the same policy and permissions,
// refused under the same limits, recorded, and, for a propose tool,
// stored and confirmed.
type Dynamic interface {
	// Spec describes the tool; its Name is the name models call it by.
	// The same Dynamic returns the same Spec pointer while the tool is
	// unchanged.
	Spec() *Spec
	// Check validates the arguments without running the tool, failing as
	// Call fails on invalid arguments: a *Error with
	// CodeInvalidArguments whose Message names JSON Pointers and
	// constraints, never the values.
	Check(ctx context.Context, args []byte) error
	// Call validates the arguments and runs the tool. On failure it
	// returns a *Error and a Result with IsError set and Content holding
	// the error's Message, as Registry.Call does.
	Call(ctx context.Context, args []byte) (Result, error)
}

// Source serves dynamic tools to the call service, beside its registry
// (service.Options.Dynamic); runtime/dynamic.Source implements it. A Source
// is safe for concurrent use.
type Source interface {
	// AppendTools appends to dst the specs of the dynamic tools available
	// for ctx, sorted by name, and returns the extended slice. The specs
	// are shared: callers must not modify them.
	AppendTools(ctx context.Context, dst []*Spec) []*Spec
	// Lookup returns the dynamic tool of that name, when it is served and
	// available for ctx.
	Lookup(ctx context.Context, name string) (Dynamic, bool)
}

// Recorder is a Caller that keeps a record of what the layers in front of
// it do on its behalf: it runs a palette's meta-tools (request_tools,
// request_skill) as its own calls, refused under the same limits and
// recorded, and records the refusals such a layer makes (a tool outside
// the palette, a bound argument the model sent) and what it offers a
// model (a palette's tools for one turn, an MCP server's tools/list). The
// call service (runtime/service) implements it. Over a Caller that is
// not a Recorder, a palette runs its meta-tools itself, and neither it nor
// an MCP server records anything.
type Recorder interface {
	Caller
	// CallDynamic runs d with the arguments for the caller ctx carries,
	// as the Recorder runs its own tools.
	CallDynamic(ctx context.Context, d Dynamic, args []byte) (Result, error)
	// RecordRefusal records that the named tool's call was refused with
	// e, for the caller ctx carries; nothing ran.
	RecordRefusal(ctx context.Context, name string, e *Error)
	// RecordOffer records that offer (sorted by name, as Caller.Offer
	// returns it) is what the caller ctx carries is offered.
	RecordOffer(ctx context.Context, offer []*Spec)
}

// Notifier is a Caller or Source whose offered tools can change while it
// serves (a palette widened by request_tools, a toolkit whose
// remote list changed): it tells its subscribers after each change, so
// that an MCP server can send notifications/tools/list_changed.
type Notifier interface {
	// Subscribe arranges for changed to be called after every change of
	// the offered tools (what Offer or AppendTools returns, or a spec in
	// it), until the returned cancel function is called. changed may be
	// called from any goroutine, also concurrently, and must not block.
	// cancel may be called more than once.
	Subscribe(changed func()) (cancel func())
}
