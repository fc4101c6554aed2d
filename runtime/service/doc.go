// Package service is the call service: the one place through which a tool
// call runs for a person, under a policy, and is recorded. It stands in
// front of a generated registry (a tool.Registry) and implements
// tool.Caller, the interface the MCP server, the provider adapters and an
// agent loop call tools through.
//
//	svc, err := service.New(reg, &service.Options{
//		Policy: &service.Rules{ConfirmPermission: "notes.confirm"}, // who may confirm others' proposals
//	})
//	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete"}}
//	ctx = tool.WithInvocation(ctx, &tool.Invocation{Principal: ana, Conversation: "c-42", CallID: "toolu_01"})
//	offered := svc.Offer(ctx)                       // what ana may call, sorted
//	res, err := svc.Call(ctx, "notes_search", args) // run and recorded
//	res, err = svc.Call(ctx, "notes_delete", args)  // a proposal: validated and stored, nothing runs
//	conf, err := svc.Confirm(ctx, proposalID, ana)  // runs it, at most once, with ana's rights
//	recs, err := svc.Records(ctx, service.Query{Conversation: "c-42"})
//
// The package's Example runs this with the sample tools.
//
// # Who calls
//
// Each call carries a tool.Invocation in its context: the principal (an ID
// and its permissions), the conversation and turn, the caller's call ID
// (the provider adapters set the model's tool-call ID) and the calling
// agent. Tools read it with tool.PrincipalFrom and the other accessors, and
// act with the principal's own rights. A context without a principal is
// offered nothing and every call it makes is refused. As gives a caller a
// fixed principal, for callers the host does not authenticate (stdio, a
// trusted loopback listener); over MCP with bearer tokens each request's
// principal is its token's (runtime/mcpserver).
//
// # Offer and refusal
//
// What a principal is offered is decided per request: the Policy (Rules:
// by name, group and kind), the tool's //tool:permission names, all of
// which must be held, and the tool's own Offered method. The specs offered
// are the registry's, sorted, so that their precomputed provider
// definitions apply byte for byte. A call of a tool that is not offered
// (unknown, not allowed, a permission missing, declined by the tool, an
// empty name) is refused before anything runs, with the registry's own
// "unknown tool" error naming only offered tools, and recorded. The check
// is made again on every call and every confirmation, not only when the
// offer is built.
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
// arguments, its expiry (DefaultProposalTTL unless Options.ProposalTTL),
// and a digest binding them: an HMAC-SHA256 under Options.Key, or the key
// the store keeps, so that a proposal changed in the store, or kept past
// its expiry, is refused, and left as it was), and the model reads its
// ID and a one-line summary (the tool's //tool:meta confirm-text, else
// the first sentence of its description, such as "Creates a note.
// (notes_create)"). Confirm
// runs it at most once, with the confirming principal's rights, and only
// with the proposed arguments (the digest is checked). The proposer may
// confirm, and so may a holder of Rules.ConfirmPermission (Rules.OthersOnly
// for four eyes); anyone else gets the answer an unknown ID gets. Reject
// closes it for good. Propose proposes for a host; naming a tool of
// another kind is refused (tool.CodeNotProposal). The Store's Claim makes
// the one run a property of the store, so it holds across processes
// sharing one; a claim whose tool never started (the caller's context
// ended first, the run was refused) is undone (Store.Release), and the
// proposal is pending again: a confirmation never spends a proposal
// without running it (see Confirm).
//
// # Keys
//
// Every instance sharing a store must verify the others' digests: give
// them all one Options.Key, or none (they then share the key the store
// keeps). To rotate a key, restart the instances with the new key as
// Options.Key and the old one in Options.OldKeys, which only verify; drop
// it once the proposals made under it have expired. A proposal whose
// digest verifies under none of an instance's keys is refused there,
// recorded, and left pending: an instance with the wrong key destroys
// nothing. A store whose kept key was deleted while proposals are pending
// or running makes no new one (that would leave them unconfirmable): the
// instances that need it refuse calls and confirmations, logging an error
// that wraps ErrKeyLost, until the key is restored or set.
//
// # Guarantees
//
// A run is recorded as started before the tool runs and as finished
// after. A confirmed proposal, and a call repeated with its call ID (the
// same principal, conversation and call ID), runs at most once, and
// exactly once unless the process dies (or the tool is abandoned at its
// deadline) mid-run: such a run's outcome is unknown; it is never run
// again, and a repeat is answered with CodeOutcomeUnknown. Of concurrent
// confirmations one runs the tool and the others get already_confirmed
// with the recorded outcome; a repeated call is answered from the record.
// A repeat that meets a run still under way waits for it, in the same
// process, or polling the store when another instance runs it (up to
// Options.AwaitRunning), and gets its recorded outcome. A call ID names
// one call: a repeat of another tool, or with other arguments
// (Record.ArgsDigest), is refused with CodeCallIDReused and recorded, and
// nothing runs. Arguments are compared as JSON values, in a canonical form
// (RFC 8785's, with numbers by their exact decimal value): members in
// another order, other white space or string escapes, 1.0 for 1 or 1e2
// for 100 are the same arguments, and such a repeat is answered from the
// record. A record written before the canonical form (toolgen's sixth
// round and earlier) holds the arguments as they were written then,
// without their white space: a repeat written otherwise is refused. Without a call ID there is no deduplication: a call made
// twice runs twice. A confirmation never runs unless its record is
// written; for the other kinds, a call whose record cannot be written is
// refused too, unless Options.FailOpen. The end of a run is written again
// after a failure, so that a connection the database closed mid-run does
// not leave a finished run reading as unknown.
//
// # Limits
//
// The kill switch (Halt and Resume, Options.Halted for a switch shared
// beyond the process) is checked before every call and every
// confirmation; a Limiter bounds each principal's rate (NewRateLimiter, or
// a durable store's); a turn's calls are capped (Options.MaxCallsPerTurn)
// and RunTurn runs them at once, Options.Parallel at a time, answering in
// the model's order; a tool's //tool:timeout and the caller's context
// bound every run through the registry's runner. The outcome is the
// service's to decide: a tool that returns a *tool.Error with a code
// reserved to the runtime (needs_confirmation from a read tool, say) has
// failed.
//
// # Record
//
// Every call, refusal, proposal, confirmation, rejection, expiry, replay
// and offer leaves one Record: the time, principal, conversation, turn,
// call ID, agent, tool, kind, event, outcome, code, duration, the error
// the model read, and the arguments as the tool wants them logged (its
// LogArgs method's form, or the arguments with the members it tags
// `toolgen:"secret"` replaced by "[secret]", under any key that differs
// from the member's name only in case too, and strings longer than
// Options.MaxLoggedString cut). The row is written before the answer, and
// even when the call's caller has gone (its context cancelled). Any bytes
// a caller sends in a field (NUL, invalid UTF-8) are recorded as sent, on
// every store; a principal ID, conversation or call ID longer than
// MaxIDLen is refused and recorded cut. Records can be queried (Records:
// by principal, conversation, call ID, tool and time) and purged by age
// (Purge); Expire records expiries as they happen, which correctness never
// needs (expiry is decided at confirmation). An Observer that implements
// ProgressObserver also hears the progress the tools report
// (tool.Progress), with the record of their call; a call cancelled while
// its tool runs is recorded OutcomeCancelled when the tool stops.
//
// What an agent is offered is a row too (EventOffer: no tool, its
// arguments {"tools":[...]}, with "read_only":true under a read-only mark):
// a palette's Offer and an MCP server's tools/list record it through
// RecordOffer (tool.Recorder), which a host serving Offer itself calls
// too. An offer equal to the last one recorded for the same principal,
// conversation and agent in the same turn writes nothing, so a host asking
// several times in a turn leaves one row.
//
// Options.Logger gets every cause; an Observer sees every call, and
// runtime/service/oteltrace makes an OpenTelemetry span of each, in its
// own package so that the service links no OpenTelemetry.
//
// # Tasks
//
// A call can outlive the request that started it: StartTask stores a task
// (Task, in the store before it returns) and runs the tool in a goroutine
// the service owns, so that any instance sharing the store answers for it
// (Task), decides the proposal a propose tool's task waits on
// (DecideTask) or cancels it (CancelTask), for the principal who started
// it alone (anyone else is answered as for an unknown ID). Which calls:
// propose tools, and tools whose //tool:timeout is at least
// TaskOptions.Threshold (one minute by default), for a caller that takes
// tasks (TaskTool; runtime/mcpserver serves the MCP Tasks extension,
// through runtime/servicemcp.Tasks). The instance running a task renews a
// lease on it every TaskOptions.Tick (250ms) and reads cancellations on
// the same write: a cancellation from any instance reaches the tool's
// context within a Tick plus a store round trip. A task whose lease
// passes (its instance died) is failed by the next read, its run's record
// finished as OutcomeUnknown, and never run again. Tasks are kept
// TaskOptions.TTL (one hour) from their creation, then deleted by Purge.
// See tasks.go.
//
// # Stores
//
// MemoryStore, the default, keeps everything in the process, at most
// DefaultMaxRecords records (SetMaxRecords; the oldest half goes when it
// is full). Given a call of a tool without secrets and a service without
// an Observer, it keeps the arguments as sent (up to 2 KiB) and makes
// their logged form when the record is first read, so that the call makes
// no pass over them: what Records returns is the same. The durable stores, which several processes can share,
// implement Store in subpackages, so that a program using the memory store
// links no database driver: runtime/service/sqlitestore (embedded SQLite,
// one machine) and runtime/service/pgstore (PostgreSQL, several
// instances), both runtime/service/sqlstore, each with a durable Limiter.
// Records answers the console's record pages: filters by principal,
// conversation, tool, event and time, and newest-first keyset pages
// (Query.Newest, Query.Before), indexed in both SQL dialects.
// runtime/service/storetest is the contract every Store's tests run. What
// the service costs per call is measured in bench/README.md.
package service
