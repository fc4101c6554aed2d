// Package tool is the vocabulary every layer of the runtime shares: a
// tool's Spec and Kind, the Result and *Error of a call, the Invocation
// (who asked, for whom) a call's context carries, and the interfaces the
// layers meet at: a Registry (what a generated package's New returns), a
// Caller (the one way in, which the call service and a Registry
// implement), dynamic tools (Dynamic, Source), a Recorder and a Notifier.
//
// # Using a generated registry
//
// A generated package has, per Go package declaring tools, a set package
// with a Tools struct of one field per tool, named after the tool
// (notes_search is NotesSearch) and typed as the tool's Go type (a
// pointer when Call has a pointer receiver), and New, which takes the
// Tools of every set package and returns a Registry. With this
// repository's sample tools:
//
//	store := notes.NewStore(time.Now)
//	reg, err := generated.New([]generated.Tools{
//		notestools.Tools{
//			NotesSearch: notes.SearchTool{Store: store},
//			NotesGet:    &notes.GetTool{Store: store},
//			// ... every tool of package notes, with its dependencies
//		},
//		clocktools.Tools{ClockNow: clock.NowTool{Clock: time.Now}},
//		// ... the Tools of every other set package
//	})
//	if err != nil {
//		return err
//	}
//	for _, spec := range reg.Tools() {
//		offer(spec.Name, spec.Description, spec.InputSchema) // the schema bytes, as is
//	}
//	res, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go"}`))
//	if err != nil {
//		// res.IsError is set and res.Content holds err's message, which is
//		// written for the model; the cause is for logs only.
//		var te *tool.Error
//		if errors.As(err, &te) {
//			log.Printf("tool %s: %s: %v", te.Tool, te.Code, te.Cause)
//		}
//	}
//	reply(res.Content, res.Structured, res.IsError)
//
// A loop or server that handles one call at a time per goroutine can use
// AppendCall instead, with a buffer it reuses: the output is encoded into
// it directly, with no copy and, once the buffer has grown, no allocation:
//
//	res, err := reg.AppendCall(ctx, buf[:0], name, args)
//	buf = res.Content // valid until the next AppendCall into buf
//
// Such a loop can also hold a Handle (NewHandle): the Registry's calls on
// memory of its own, for one goroutine at a time, without the pool the
// Registry shares between goroutines:
//
//	h := tool.NewHandle(reg) // one per goroutine
//	res, err := h.AppendCall(ctx, buf[:0], name, args)
//
// A Registry is also a Caller, the one way in that the MCP server
// (runtime/mcpserver), the provider adapters (runtime/provider) and an
// agent loop take, which the call service (runtime/service: every call for
// a principal, under a policy, recorded) implements as well. The bare
// registry's Offer is every tool, less those whose own Offered method
// declines; it applies no policy and checks no permission.
//
// # Who calls
//
// Who calls travels in the context: WithInvocation puts an Invocation
// there (the principal, the conversation and turn, the call ID, the
// calling agent and its model, the turn's shared state), and a tool reads
// it with InvocationFrom, PrincipalFrom, ModelFor (the agent's
// model unless the tool names its own) and Shared (one value per turn,
// such as one presenter). WithReadOnly marks a context read-only for good:
// the call service then offers and runs no mutating tool under it (see
// runtime/palette).
//
// # Failures
//
// Call never panics and never reports a failure in the Result alone: on
// every failure it returns a *Error, whose Error method returns only a
// Message safe to show a model, and a Result with IsError set and Content
// holding that Message. The Code says what failed, and what the model
// reads:
//
//   - unknown_tool: the name is not offered (or empty). The message names
//     the tool only if it is an identifier (^[A-Za-z0-9_.-]{1,64}$), and
//     suggests at most five close names and how many tools there are,
//     never the whole catalog.
//   - invalid_arguments: the arguments fail the schema. Every problem, as a
//     JSON Pointer and what was declared, never the value sent; a map key,
//     or a member of a free-form value, is "<key N>" (its position) in the
//     pointer, whatever its text.
//   - needs_confirmation: a propose tool; nothing ran.
//   - failed: the tool returned an error. The model reads its Errorf
//     message, else "the tool failed". A *Error whose code is reserved to
//     the runtime (any but invalid_arguments and failed) returned by a
//     tool is such an error.
//   - panic: the tool panicked. The model reads "the tool failed"; the
//     process lives, and the stack is in the cause.
//   - timeout: the tool's //tool:timeout or the call's deadline passed,
//     before the run (nothing ran) or while the tool ran ("the tool timed
//     out after 5s").
//   - cancelled: the call's context was cancelled, before the run (nothing
//     ran) or while the tool ran.
//   - busy: too many abandoned runs of the tool are still running
//     (DefaultMaxAbandoned, WithMaxAbandoned); nothing ran.
//   - output_too_large: the output is over the cap (DefaultMaxOutputBytes,
//     WithMaxOutputBytes).
//
// The call service adds codes of its own (refused, the proposals' codes,
// outcome_unknown). A tool decides what the model reads about its own
// failure by returning a *ModelError (see Errorf); any other error reaches
// the model only as "the tool failed", and Errorf withholds the text of
// the errors it wraps.
//
// # Every call ends
//
// The registry runs each call through one runner. A call that something
// could end early (a //tool:timeout, or a context that can be cancelled or
// has a deadline, as every serving path passes) runs on a worker goroutine
// (about 0.8 µs more per small call, no allocation), so that:
//
//   - a call whose context is already done runs nothing: an action changes
//     nothing after the client gave up;
//   - a tool that calls runtime.Goexit is a failed result, not a call that
//     never returns;
//   - a tool that ignores its context is answered at its deadline: its run
//     is abandoned (the error wraps ErrAbandoned; its outcome is unknown),
//     goes on until the tool returns, and its result is discarded. It
//     keeps its decoder and encoder until then and never writes into
//     AppendCall's buffer. Past DefaultMaxAbandoned abandoned runs of one
//     tool still running, calls of that tool are refused (busy) until some
//     end;
//   - the output cap stops the encoder as soon as it is passed: a tool
//     that returns 512 MiB is answered with output_too_large after
//     allocating about the cap, not the output.
//
// A call that nothing could end early (no timeout, and a context that can
// never be done, such as context.Background()) has nothing to abandon: it
// runs on the caller's goroutine, with its panics recovered as above, but a
// runtime.Goexit in the tool then ends the caller's goroutine, as it would
// in any function the caller calls.
//
// # Kinds
//
// Read, display and action tools run when called. Propose tools never run
// from a Registry: their arguments are validated, so that the model can
// correct them, and the call fails with CodeNeedsConfirmation; only a
// person's confirmation through the call service runs them.
//
// # Generated code
//
// Generated code builds its Registry through runtime/toolimpl, the
// contract for generated code only, and contains
// `const _ = toolimpl.SupportPackageIsVersion9`; the Registry's
// implementation is internal. Everything policy-like about running a tool
// is written once there: lookup, suggestions for unknown names, refusal
// of propose tools, decoding limits, timeouts, panic recovery, error
// mapping, the output cap and the pooling of decoders and encoders.
package tool
