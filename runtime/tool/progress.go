package tool

import (
	"context"
	"math"
	"time"
)

// Progress of long-running tools. A tool says how far it has got with
// Progress, as often as it likes; whoever serves the call decides who
// hears it by installing a ProgressListener in the call's context
// (WithProgress):
//
//   - runtime/mcpserver sends notifications/progress to a client that
//     asked for them (the request's _meta.progressToken), at most a few a
//     second per call;
//   - the call service (runtime/service) hands each report to an Observer
//     that implements service.ProgressObserver, with the call's record;
//   - an agent loop on a provider's API installs its own listener around
//     the calls of a turn, to draw a progress bar.
//
// Nobody listening is the common case and costs a context lookup: no
// allocation, no lock.
//
//	for i, item := range items {
//		if err := ctx.Err(); err != nil {
//			return Out{}, err // cancelled: the call ends as cancelled
//		}
//		process(item)
//		tool.Progress(ctx, float64(i+1), float64(len(items)), "")
//	}

// ProgressReport is one report of how far a running call has got: the
// fields of MCP's notifications/progress.
type ProgressReport struct {
	// Done is the work done so far, in the tool's own units (items,
	// bytes, seconds). It should grow with every report; a listener may
	// drop a report that does not (MCP requires progress to increase).
	Done float64
	// Total is the work there is in all, in the same units; 0 when the
	// tool does not know.
	Total float64
	// Message says what the tool is doing, for a person; it may be empty.
	Message string
}

// ProgressListener hears the progress reports of the calls run with a
// context it was installed in (WithProgress).
//
// Progress is called on the reporting tool's goroutine, once per report,
// with the context the tool reported with (it carries the call's
// Invocation: its principal and call ID). It must return quickly and
// never block on I/O (a listener that sends reports somewhere keeps the
// latest and sends it from a goroutine of its own), must not panic, must
// not keep ctx, and must be safe for concurrent use: the calls of a turn
// run at once, and a run abandoned at its deadline may still report after
// its call has ended.
type ProgressListener interface {
	Progress(ctx context.Context, r ProgressReport)
}

// ProgressFunc is a function that is a ProgressListener.
type ProgressFunc func(ctx context.Context, r ProgressReport)

// Progress calls f.
func (f ProgressFunc) Progress(ctx context.Context, r ProgressReport) { f(ctx, r) }

// progressKey is the context key of the ProgressListener.
type progressKey struct{}

// progressSlot is what the context holds under progressKey: a listener,
// or none (WithProgress with nil).
type progressSlot struct{ l ProgressListener }

// WithProgress returns ctx with l installed: the progress reports of the
// calls run with ctx, or with a context derived from it, go to l. l
// replaces any listener ctx carried; a listener that wants the reports to
// go on to that one too forwards them (ProgressListenerFrom returns it).
// A nil l silences the calls run with ctx: their reports go nowhere.
func WithProgress(ctx context.Context, l ProgressListener) context.Context {
	return context.WithValue(ctx, progressKey{}, progressSlot{l})
}

// ProgressListenerFrom returns the listener installed in ctx, or nil when
// there is none.
func ProgressListenerFrom(ctx context.Context) ProgressListener {
	slot, _ := ctx.Value(progressKey{}).(progressSlot)
	return slot.l
}

// ProgressWanted reports whether anyone listens to the progress of the
// call of ctx: a tool whose message costs something to build (a
// formatted string) can skip building it when nobody does.
func ProgressWanted(ctx context.Context) bool { return ProgressListenerFrom(ctx) != nil }

// Progress reports how far the call of ctx has got: done units of work
// out of total (0 when the total is unknown), and a message for the person
// watching, which may be empty. A tool calls it from its Call (or from any
// goroutine working for the call, with the call's context), as often as
// it likes: listeners that send reports somewhere coalesce them (the MCP
// server sends a few a second), and the last report before the call ends
// is delivered. done should grow with every report.
//
// Nobody listening, it does nothing and allocates nothing. A report whose
// done is not a finite number is dropped; a total that is not a positive
// finite number is reported as 0 (unknown).
func Progress(ctx context.Context, done, total float64, message string) {
	l := ProgressListenerFrom(ctx)
	if l == nil || math.IsNaN(done) || math.IsInf(done, 0) {
		return
	}
	if !(total > 0) || math.IsInf(total, 0) {
		total = 0
	}
	l.Progress(ctx, ProgressReport{Done: done, Total: total, Message: message})
}

// CancelGrace is how long a call whose context is cancelled (not expired)
// waits for its tool to return, at most: a tool that sees its context done
// and returns within it ends its call as cancelled (CodeCancelled, its
// error as the Cause), or as it returned; one that goes on running is
// abandoned (its outcome unknown) at its deadline (its Spec.Timeout, or
// the caller's), or CancelGrace after the cancellation when that comes
// first.
const CancelGrace = 2 * time.Second
