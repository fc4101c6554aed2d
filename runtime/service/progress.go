package service

import (
	"context"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Progress and cancellation of the calls the service runs.
//
// A tool reports its progress with tool.Progress. Whoever serves the call
// hears it through the listener installed in the call's context
// (tool.WithProgress: the MCP server, an agent loop), as without the
// service; an Observer that implements ProgressObserver hears it too,
// with the call's record, between Start and End.
//
// A call cancelled while its tool runs (the caller's context cancelled)
// gives the tool until its deadline, tool.CancelGrace at most, to stop:
// one that stops is recorded as OutcomeCancelled (tool.CodeCancelled),
// one that does not as OutcomeUnknown. Either way the record of its end
// is written although the call's context is done (see writeEnd), and
// neither a repeat of its call ID nor a second confirmation of its
// proposal runs it again.

// ProgressObserver is an Observer that also hears the progress the tools
// of the calls it observes report (tool.Progress). ObserveProgress is
// called on the reporting tool's goroutine, between the call's Start and
// its End and never after End (a run abandoned at its deadline that goes
// on reporting is not heard), with the context the tool reported with
// and the call's record as it was when the tool started: its store ID,
// principal, conversation, call ID, tool and arguments, which a task
// store can key the progress by. rec is shared by the call's reports: it
// must not be modified or kept. Reports are not coalesced: like any
// tool.ProgressListener, ObserveProgress must return quickly, and it may
// be called concurrently when a tool reports from several goroutines.
type ProgressObserver interface {
	Observer
	ObserveProgress(ctx context.Context, rec *Record, p tool.ProgressReport)
}

// watchProgress returns the context a call's tool runs with, for the
// call whose record (as started) is rec, and the function to call once
// the run has returned: with a ProgressObserver, the context carries a
// listener that hands each report to it and on to the listener ctx
// carried; without one, ctx as it is (nothing is added to a call nobody
// watches the progress of).
func (s *Service) watchProgress(ctx context.Context, rec *Record) (context.Context, func()) {
	po, ok := s.obs.(ProgressObserver)
	if !ok {
		return ctx, func() {}
	}
	w := &progressWatch{obs: po, outer: tool.ProgressListenerFrom(ctx), rec: *rec}
	return tool.WithProgress(ctx, w), w.stop
}

// progressWatch hears the progress of one call for a ProgressObserver.
type progressWatch struct {
	obs   ProgressObserver
	outer tool.ProgressListener // the listener of the call's context, if any
	rec   Record                // the call's record as started

	mu    sync.RWMutex
	ended bool
}

// Progress implements tool.ProgressListener: the report goes to the
// observer and to the listener of the call's context, until the call has
// ended.
func (w *progressWatch) Progress(ctx context.Context, p tool.ProgressReport) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.ended {
		return
	}
	w.obs.ObserveProgress(ctx, &w.rec, p)
	if w.outer != nil {
		w.outer.Progress(ctx, p)
	}
}

// stop ends the watch: no report is heard once it returns.
func (w *progressWatch) stop() {
	w.mu.Lock()
	w.ended = true
	w.mu.Unlock()
}
