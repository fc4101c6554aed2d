// Package service is the call service: the one place through which a tool
// call runs for a person, under a policy, and is recorded. It stands in
// front of a generated registry (a tool.Registry) and implements
// tool.Caller, the interface the MCP server and the provider adapters call
// through.
//
//	svc, err := service.New(reg, &service.Options{
//		Policy: &service.Rules{ConfirmPermission: "notes.confirm"},
//	})
//	ctx = tool.WithInvocation(ctx, &tool.Invocation{
//		Principal:    tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write"}},
//		Conversation: "c-42",
//	})
//	offered := svc.Offer(ctx)                      // what ana may call, sorted
//	res, err := svc.Call(ctx, "notes_search", args) // run and recorded
//	res, err = svc.Call(ctx, "notes_delete", args)  // a proposal: nothing runs
//	conf, err := svc.Confirm(ctx, proposalID, ana)  // runs it, at most once
//
// # Who calls
//
// Each call carries a tool.Invocation in its context: the principal (an ID
// and its permissions), the conversation and turn, the caller's call ID
// and the calling agent. Tools read it with tool.PrincipalFrom and the
// other accessors, and act with the principal's own rights. A context
// without a principal is offered nothing and every call it makes is
// refused. As gives a caller a fixed principal (stdio, a trusted loopback
// listener).
//
// # Offer and refusal
//
// What a principal is offered is decided per request: the Policy (Rules:
// by name, group and kind), the tool's //tool:permission names, all of
// which must be held, and the tool's own Offered method. A call of a tool
// that is not offered is refused before anything runs, with the
// registry's own "unknown tool" error naming only offered tools, and
// recorded. The check is made again on every call and every confirmation,
// not only when the offer is built.
//
// # Tools known at run time
//
// Options.Dynamic adds a tool.Source (runtime/dynamic.Source: a remote MCP
// server's tools, workflows kept in a database) after the registry: its
// tools are offered, refused, recorded, proposed and confirmed as the
// registry's are, merged into the offer by name; a name the registry
// holds is always the registry's tool. CallDynamic runs a tool.Dynamic
// the service does not serve by name (a palette's request_tools and
// request_skill) through the same read-only mark, permissions, limits
// and record, without asking the Policy: the host gave it to the agent.
// RecordRefusal and RecordOffer make a palette's refusals and each turn's
// offer rows of the record too (EventRefusal, EventOffer).
//
// # Proposals
//
// Read, display and action tools run when called. A propose tool runs
// nothing: its arguments are validated and a Proposal is stored (an
// unguessable ID, the principal, the conversation, the canonical
// arguments, its expiry, and a digest binding them: an HMAC-SHA256 under
// Options.Key, or the key the store keeps, so that a proposal changed in
// the store, or kept past its expiry, is refused), and the model reads its
// ID and a summary. Confirm runs it at most once, with the confirming
// principal, and only with the proposed arguments; Reject closes it for
// good. The Store's Claim makes the one run a property of the store, so
// it holds across processes sharing one.
//
// # Guarantees
//
// A run is recorded as started before the tool runs and as finished
// after. A confirmed proposal, and a call repeated with its call ID, runs
// at most once, and exactly once unless the process dies (or the tool is
// abandoned at its deadline) mid-run: such a run's outcome is unknown; it
// is never run again, and a repeat is answered with CodeOutcomeUnknown.
// A call ID names one call: a repeat of another tool, or with other
// arguments (Record.ArgsDigest), is refused with CodeCallIDReused and
// recorded, and nothing runs. Without a call ID there is no
// deduplication: a call made twice runs twice. A confirmation never runs
// unless its record is written; for the other kinds, a call whose record
// cannot be written is refused too, unless Options.FailOpen. The end of a
// run is written again after a failure, so that a connection the database
// closed mid-run does not leave a finished run reading as unknown.
//
// # Limits
//
// The kill switch (Halt, Options.Halted) is checked before every call and
// every confirmation; a Limiter bounds each principal's rate; a turn's
// calls are capped (Options.MaxCallsPerTurn) and RunTurn runs them at
// once, a bounded number at a time, answering in the model's order; a
// tool's //tool:timeout and the caller's context bound every run through
// the registry's runner. The outcome is the service's to decide: a tool
// that returns a *tool.Error with a code reserved to the runtime has
// failed.
//
// # Record
//
// Every call, refusal, proposal, confirmation, rejection and expiry leaves
// one Record: the time, principal, conversation, turn, call ID, tool,
// kind, event, outcome, code, duration, the error the model read, and the
// arguments as the tool wants them logged (its LogArgs method's form, or
// the arguments with the members it tags `toolgen:"secret"` replaced and
// strings longer than Options.MaxLoggedString cut; a secret under any
// key that differs from its name only in case is replaced too). Any bytes
// a caller sends in a field (NUL, invalid UTF-8) are recorded as sent, on
// every store; a principal ID, conversation or call ID longer than
// MaxIDLen is refused and recorded cut. A record is written even when the
// call's caller has gone (its context cancelled). Records can be
// queried (Records) and purged by age (Purge). An Observer sees every
// call; runtime/service/oteltrace makes an OpenTelemetry span of each. An
// Observer that implements ProgressObserver also hears the progress the
// tools report (tool.Progress), with the record of their call; a call
// cancelled while its tool runs is recorded OutcomeCancelled when the
// tool stops (see progress.go).
//
// MemoryStore keeps everything in the process; the durable stores, which
// several instances can share, implement Store in subpackages, so that a
// program using the memory store links no database driver:
// runtime/service/sqlitestore (embedded SQLite) and
// runtime/service/pgstore (PostgreSQL), both runtime/service/sqlstore,
// each with a durable Limiter. runtime/service/storetest is the contract
// every Store's tests run.
package service
