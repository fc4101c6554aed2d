// Package tool is the vocabulary every layer of the runtime shares: a
// tool's Spec and Kind, the Result and *Error of a call, the Invocation
// (who asked, for whom) a call's context carries, and the interfaces the
// layers meet at: a Registry (what a generated package's New returns), a
// Caller (the one way in, which the call service and a Registry
// implement), dynamic tools (Dynamic, Source), a Recorder and a Notifier.
//
// Generated code builds its Registry through runtime/toolimpl, the
// contract for generated code only; the Registry's implementation is
// internal. Everything policy-like about running a tool is written once
// there: lookup, suggestions for unknown names, refusal of propose tools,
// decoding limits, timeouts, panic recovery, error mapping, the output cap
// and the pooling of decoders and encoders.
//
// # Using a generated registry
//
// A generated package exposes a Tools struct with one field per tool,
// named after the tool (notes_search is NotesSearch) and typed as the tool's
// Go type (a pointer when Call has a pointer receiver), and New, which
// takes the values that implement the tools and returns a Registry. With
// this repository's sample tools:
//
//	store := notes.NewStore(time.Now)
//	reg, err := generated.New(generated.Tools{
//		NotesSearch: notes.SearchTool{Store: store},
//		NotesGet:    &notes.GetTool{Store: store},
//		ClockNow:    clock.NowTool{Clock: time.Now},
//		// ... every tool, with its dependencies
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
// # Failures
//
// Call never panics and never reports a failure in the Result alone: on
// every failure it returns a *Error, whose Error method returns only a
// Message safe to show a model, and a Result with IsError set and Content
// holding that Message. The Code says what failed: an unknown tool (the
// message suggests at most five close names, never the whole catalog),
// invalid arguments (every problem, with its JSON Pointer), a propose tool
// that needs a person's confirmation, a failed tool, a panic, a timeout, an
// output over the cap. A tool decides what the model reads about its own
// failure by returning a *ModelError (see Errorf); any other error reaches
// the model only as "the tool failed".
//
// # Kinds
//
// Read, display and action tools run when called. Propose tools never run
// from a plain Call: their arguments are validated, so that the model can
// correct them, and the call fails with CodeNeedsConfirmation.
//
// # Versioning
//
// Generated code contains `const _ = toolimpl.SupportPackageIsVersion3`;
// see runtime/toolimpl.
package tool
