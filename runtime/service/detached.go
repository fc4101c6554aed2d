package service

import (
	"context"
	"sync"
	"time"
)

// recordTimeout bounds a write of the record made on a context of its
// own (detached).
const recordTimeout = 10 * time.Second

// detached returns the context of a write of the record: ctx's values (a
// trace's span) without its cancellation, bounded by recordTimeout. A
// call's record is written even when its caller is gone: what it started
// or refused is recorded as it ended. The caller closes it once the write
// returns.
func detached(ctx context.Context) *recordContext {
	w := &recordContext{}
	w.open(ctx)
	return w
}

// recordContext is the context of a write of the record (detached): the
// values of the call's context without its cancellation, done at a
// deadline recordTimeout after the store first asks for it (Deadline,
// Done or Err). Its timer starts only when a store asks for Done: a store
// that never looks at its context (the memory store) costs no timer, no
// reading of the clock and no allocation beyond this value, which the
// service embeds in a call's state and opens again for each write of the
// call (the start, then the end).
type recordContext struct {
	mu       sync.Mutex
	parent   context.Context    // the call's context: its values only
	deadline time.Time          // zero until asked for (deadlineLocked)
	closed   bool               // close was called: Canceled
	values   context.Context    // context.WithoutCancel(parent), made on first use
	inner    context.Context    // the timer's context, made by the first Done
	stop     context.CancelFunc // inner's
}

var _ context.Context = (*recordContext)(nil)

// open makes w the context of a new write on behalf of ctx. A write's
// context must be closed before w is opened again.
func (w *recordContext) open(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.parent, w.deadline, w.closed = ctx, time.Time{}, false
	w.values, w.inner, w.stop = nil, nil, nil
}

// close ends the write: the context is cancelled, and its timer, if Done
// started one, stopped.
func (w *recordContext) close() {
	w.mu.Lock()
	stop := w.stop
	w.closed = true
	w.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Deadline implements context.Context.
func (w *recordContext) Deadline() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.deadlineLocked(), true
}

// deadlineLocked returns the deadline, fixing it recordTimeout from now
// when asked for the first time; w.mu is held.
func (w *recordContext) deadlineLocked() time.Time {
	if w.deadline.IsZero() {
		w.deadline = time.Now().Add(recordTimeout)
	}
	return w.deadline
}

// Done implements context.Context: the first call starts the timer, as
// context.WithDeadline does, over the parent's values.
func (w *recordContext) Done() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inner == nil {
		w.inner, w.stop = context.WithDeadline(w.valuesLocked(), w.deadlineLocked())
		if w.closed {
			w.stop()
		}
	}
	return w.inner.Done()
}

// Err implements context.Context: Canceled once closed, DeadlineExceeded
// past the deadline.
func (w *recordContext) Err() error {
	w.mu.Lock()
	inner, closed := w.inner, w.closed
	var deadline time.Time
	if inner == nil && !closed {
		deadline = w.deadlineLocked()
	}
	w.mu.Unlock()
	switch {
	case inner != nil:
		return inner.Err()
	case closed:
		return context.Canceled
	case !time.Now().Before(deadline):
		return context.DeadlineExceeded
	}
	return nil
}

// Value implements context.Context: the parent's values, never its
// cancellation (context.Cause finds the timer's, or none).
func (w *recordContext) Value(key any) any {
	w.mu.Lock()
	c := w.inner
	if c == nil {
		c = w.valuesLocked()
	}
	w.mu.Unlock()
	return c.Value(key)
}

// valuesLocked returns the parent without its cancellation; w.mu is held.
func (w *recordContext) valuesLocked() context.Context {
	if w.values == nil {
		w.values = context.WithoutCancel(w.parent)
	}
	return w.values
}
