// Package run runs tool calls so that every call ends, whatever the tool
// does: the runtime's registry (runtime/internal/registry) runs each of
// its calls through a Runner, and so does each dynamic toolkit
// (runtime/dynamic). It is internal: hosts call tools through a
// tool.Caller, never through a Runner.
package run

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Job is one run of a tool, as a Runner runs it: what Run reads and writes
// (decoder, encoder, arguments) belongs to the job, not to the goroutine
// that asked for the run.
type Job interface {
	// Run runs the tool under ctx. The Runner calls it once, on a
	// goroutine of its own.
	Run(ctx context.Context) error
	// Abandoned is called once Run has ended, on Run's goroutine, when the
	// Runner stopped waiting for it (Ended Abandoned): Run's result is
	// discarded, and Abandoned frees what the run used, which the Runner's
	// caller no longer owns. healthy is false when Run panicked or called
	// runtime.Goexit: what it used may then be in any state. Abandoned is
	// not called for a run the Runner waited for.
	Abandoned(healthy bool)
}

// Ended says how far a run went, and so who owns what its Job uses.
type Ended uint8

const (
	// Refused: the job was not run (the context was done, or the tool has
	// too many abandoned runs); the caller keeps what the job uses.
	Refused Ended = iota + 1
	// Returned: Run returned; the caller owns what the job used again.
	Returned
	// Crashed: Run panicked or called runtime.Goexit; the caller owns what
	// the job used again, in whatever state it was left.
	Crashed
	// Abandoned: the context was done before Run ended; the run goes on,
	// its result is discarded, and the Job's Abandoned method is called
	// when it ends. The caller must not touch what the job uses.
	Abandoned
)

// String returns "refused", "returned", "crashed" or "abandoned", or
// "Ended(N)".
func (e Ended) String() string {
	switch e {
	case Refused:
		return "refused"
	case Returned:
		return "returned"
	case Crashed:
		return "crashed"
	case Abandoned:
		return "abandoned"
	}
	return "Ended(" + strconv.Itoa(int(e)) + ")"
}

// Runner runs tool calls so that every call ends, whatever the tool does:
// the registry runs every call through one, and so does each dynamic
// toolkit. A Runner is safe for concurrent use.
//
// Run
//   - refuses to start a run whose context is already done (a tool that
//     changes something must not run after the caller gave up);
//   - runs the job on a goroutine of its own, so that a tool calling
//     runtime.Goexit (t.FailNow, log.Fatal's cousins) ends its own
//     goroutine, not the caller's, and the call still gets an answer;
//     except when nothing could end the call early (no timeout, and a
//     context that can never be done): then the job runs on the caller's
//     goroutine (see inline), where a Goexit ends the caller's goroutine;
//   - recovers a panic;
//   - answers when the context is done (Spec.Timeout, or the caller's own
//     deadline or cancellation) even if the tool ignores its context: the
//     run is abandoned and goes on until the tool returns, with its result
//     discarded; after a cancellation (not a deadline) it first gives the
//     tool until its deadline, tool.CancelGrace at most, to stop, so that
//     a tool that honours its context ends its call as cancelled
//     (tool.CodeCancelled), its outcome known;
//   - caps a tool's abandoned runs still running: past the cap, calls of
//     that tool are refused (tool.CodeBusy) until some of them end, so that a
//     tool that hangs cannot pile up goroutines without bound.
//
// Runs go to worker goroutines that wait a while for the next one (their
// stacks stay grown): about 0.8 µs more per small call than running the
// tool on the caller's goroutine (bench/compare, measured on a loaded
// machine), and no allocation. Calls that cannot be abandoned skip the
// hand-off.
type Runner struct {
	max       int32
	abandoned []atomic.Int32 // per tool: abandoned runs still running
	runs      sync.Pool      // of *run
	// idle hands a run to a worker waiting for one (unbuffered: a send
	// succeeds only when one waits). A worker is a goroutine that has run
	// a call and waits up to workerIdle for another: a new goroutine per
	// call would start on a small stack and grow it on every call, which
	// cost more than the rest of a small call.
	idle chan *run
	// waiting counts the workers that are done with their run and wait,
	// or are about to wait, on idle, less those a caller has claimed: a
	// worker counts itself before it hands its run's outcome back, so the
	// caller's next call finds it even when it runs before the worker
	// reaches its receive (see work).
	waiting atomic.Int32
}

// workerIdle is how long a worker waits for another run before it ends.
const workerIdle = 2 * time.Second

// New returns a Runner for tools tools (numbered from 0, as the index
// passed to Run) that lets at most maxAbandoned abandoned runs of each
// tool go on running; 0 means tool.DefaultMaxAbandoned.
func New(tools, maxAbandoned int) (*Runner, error) {
	switch {
	case tools < 0:
		return nil, fmt.Errorf("new tool runner: negative number of tools %d", tools)
	case maxAbandoned < 0 || maxAbandoned > 1<<30:
		return nil, fmt.Errorf("new tool runner: max abandoned runs must be in [0, 2^30], got %d", maxAbandoned)
	case maxAbandoned == 0:
		maxAbandoned = tool.DefaultMaxAbandoned
	}
	r := &Runner{max: int32(maxAbandoned), abandoned: make([]atomic.Int32, tools), idle: make(chan *run)}
	r.runs.New = func() any { return &run{r: r, done: make(chan struct{}, 1)} }
	return r, nil
}

// AbandonedRuns returns how many abandoned runs of tool i are still
// running.
func (r *Runner) AbandonedRuns(i int) int { return int(r.abandoned[i].Load()) }

// run states.
const (
	running uint32 = iota
	finished
	given // abandoned by the caller
)

// run is one call of Run, pooled: the goroutine and the caller meet here.
type run struct {
	r     *Runner
	i     int
	job   Job
	ctx   context.Context
	state atomic.Uint32
	done  chan struct{} // receives once Run ended, unless abandoned
	err   error
	pe    *tool.PanicError
	exit  bool // runtime.Goexit
}

// Run runs job, a call of the tool numbered i and named name, and returns
// how far it went and its error: nil or what Run returned when it
// Returned (an error after timeout passed becomes a tool.CodeTimeout
// *tool.Error, unless it is a *tool.Error), a *tool.Error otherwise. A
// positive timeout (a Spec.Timeout) bounds the run on top of ctx.
func (r *Runner) Run(ctx context.Context, i int, name string, timeout time.Duration, job Job) (Ended, error) {
	if timeout <= 0 && ctx.Done() == nil {
		// A context that can never be done has no Err to check.
		if e := r.Refuse(i, name); e != nil {
			return Refused, e
		}
		return inline(ctx, name, job)
	}
	spec := &runSpec{Name: name, Timeout: timeout}
	if err := ctx.Err(); err != nil {
		return Refused, notRun(spec, ctx)
	}
	if n := r.abandoned[i].Load(); n >= r.max {
		return Refused, busy(name, n)
	}
	var cause *timeoutCause
	if spec.Timeout > 0 {
		cause = &timeoutCause{tool: spec.Name}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, spec.Timeout, cause)
		defer cancel()
	}
	rn := r.runs.Get().(*run)
	rn.i, rn.job, rn.ctx = i, job, ctx
	if r.claim() {
		r.idle <- rn // a worker counted itself waiting: it receives
	} else {
		go r.work(rn)
	}
	if d := ctx.Done(); d == nil {
		<-rn.done
	} else {
		select {
		case <-rn.done:
		case <-d:
			if rn.stopped(ctx) {
				break // it returned after its cancellation: its outcome is known
			}
			// Count first, so that the run's end never finds the count
			// below its own.
			r.abandoned[i].Add(1)
			if rn.state.CompareAndSwap(running, given) {
				return Abandoned, abandonedError(spec, ctx, cause)
			}
			r.abandoned[i].Add(-1) // it ended meanwhile
			<-rn.done
		}
	}
	err, pe, exit := rn.err, rn.pe, rn.exit
	rn.free()
	switch {
	case pe != nil:
		return Crashed, &tool.Error{Code: tool.CodePanic, Tool: spec.Name, Message: "the tool failed", Cause: pe}
	case exit:
		return Crashed, &tool.Error{Code: tool.CodeFailed, Tool: spec.Name, Message: "the tool failed", Cause: errGoexit}
	case err != nil && cause != nil && context.Cause(ctx) == error(cause) && !passesThrough(err):
		return Returned, &tool.Error{
			Code:    tool.CodeTimeout,
			Tool:    spec.Name,
			Message: "the tool timed out after " + spec.Timeout.String(),
			Cause:   err,
		}
	case err != nil && errors.Is(err, tool.ErrAbandoned) && ctx.Err() != nil && !passesThrough(err):
		// The job gave up on its own work when ctx ended (a remote call
		// it had sent) and returned before Run saw ctx done: the same
		// outcome as Run abandoning it, named the same way whichever of
		// the two won the race. It did return: what it used is free.
		return Returned, abandonedError(spec, ctx, cause)
	case err != nil && errors.Is(ctx.Err(), context.Canceled) && !passesThrough(err):
		// The tool saw its context cancelled and stopped: the call was
		// cancelled, and the tool's error says how it stopped.
		return Returned, &tool.Error{Code: tool.CodeCancelled, Tool: spec.Name, Message: "the call was cancelled; the tool stopped", Cause: err}
	}
	return Returned, err
}

// stopped is called once ctx is done before the run ended: when ctx was
// cancelled rather than expired, it waits for the run to return until
// ctx's deadline or tool.CancelGrace, and reports whether it did (rn.done
// is then received).
func (rn *run) stopped(ctx context.Context) bool {
	if !errors.Is(ctx.Err(), context.Canceled) {
		return false
	}
	wait := tool.CancelGrace
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl))
	}
	if wait <= 0 {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-rn.done:
		return true
	case <-t.C:
		return false
	}
}

// inline runs job on the caller's goroutine: Run does so when nothing can
// end the call before the tool returns (no Spec.Timeout, and a context
// that can never be done, such as context.Background()), so that there is
// nothing to abandon and the hand-off to a worker would be pure cost. A
// panic is recovered as on a worker; a runtime.Goexit ends the caller's
// goroutine, as it would in any function the caller calls. Every serving
// path (the MCP server, a request handler) calls with a context that can
// be done, and gets a worker.
//
// A caller that knows its job's type may do the same without the Job
// interface (the registry does, on its call path): check Refuse, run the
// job with a deferred function that reports a recovered value as
// Panicked, and end Crashed then.
func inline(ctx context.Context, name string, job Job) (ended Ended, err error) {
	defer func() {
		if v := recover(); v != nil {
			ended, err = Crashed, Panicked(name, v)
		}
	}()
	return Returned, job.Run(ctx)
}

// Busy reports whether the tool numbered i has as many abandoned runs
// still running as the cap: Refuse's test, inlined where a caller runs
// a call inline itself and asks Refuse for the refusal only then.
func (r *Runner) Busy(i int) bool { return r.abandoned[i].Load() >= r.max }

// Refuse returns the refusal of a run of the tool numbered i and named
// name when that tool has as many abandoned runs still running as the
// cap (tool.CodeBusy), and nil otherwise: the one check Run makes before
// a run it runs inline.
func (r *Runner) Refuse(i int, name string) *tool.Error {
	if n := r.abandoned[i].Load(); n >= r.max {
		return busy(name, n)
	}
	return nil
}

// Panicked is the error of a run of the tool named name that panicked
// with v, as Run reports it (Ended Crashed), with the stack of the
// goroutine that calls it: call it in the deferred function that
// recovered v.
func Panicked(name string, v any) *tool.Error {
	return &tool.Error{Code: tool.CodePanic, Tool: name, Message: "the tool failed", Cause: &tool.PanicError{Value: v, Stack: debug.Stack()}}
}

// busy is the refusal of a run of the tool named name, which has n
// abandoned runs still running, the cap.
func busy(name string, n int32) *tool.Error {
	return &tool.Error{
		Code:    tool.CodeBusy,
		Tool:    name,
		Message: "tool " + name + " is busy: too many of its earlier calls are still running; nothing was run, try again later",
		Cause:   fmt.Errorf("%w: tool %s has %d abandoned runs still running, the cap", tool.ErrNotRun, name, n),
	}
}

// runSpec is what Run's errors say of the tool.
type runSpec struct {
	Name    string
	Timeout time.Duration
}

// errGoexit is the Cause of the error of a run that called runtime.Goexit.
var errGoexit = errors.New("the tool called runtime.Goexit (t.FailNow, t.SkipNow?) instead of returning")

// claim takes one off the count of waiting workers, and reports whether
// there was one: a caller that claims one sends its run on idle, where
// that worker (or another waiting one) receives it; a worker whose wait
// ran out claims itself, and leaves.
func (r *Runner) claim() bool {
	for {
		n := r.waiting.Load()
		if n <= 0 {
			return false
		}
		if r.waiting.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// work runs rn, then the runs handed to it while it waits, until it has
// waited workerIdle for one, or a run calls runtime.Goexit (which ends the
// worker's goroutine).
//
// A worker counts itself waiting (r.waiting) before it hands its run's
// outcome back (end), not when it reaches its receive: handing the
// outcome back makes the caller runnable, and the caller's next call may
// run before the worker waits, on another processor or when the worker
// is preempted in between. A caller that only tried a send without
// blocking then found no worker, and started a goroutine and a timer for
// a call a worker was about to take. Now a caller claims a counted worker
// and blocks on the send until one receives; a worker whose wait ran out
// leaves only if it can take itself off the count, and otherwise takes
// the run a caller claimed.
func (r *Runner) work(rn *run) {
	var timer *time.Timer
	for {
		rn.exec()
		if timer == nil {
			timer = time.NewTimer(workerIdle)
		} else {
			timer.Reset(workerIdle)
		}
		select {
		case rn = <-r.idle:
		case <-timer.C:
			if r.claim() {
				return
			}
			rn = <-r.idle // every waiting worker is claimed: a caller is sending
		}
	}
}

// exec runs the job on the run's goroutine, telling a return, a panic and
// runtime.Goexit apart: the deferred function sees a panic through
// recover, and a Goexit as neither a return nor a panic.
func (rn *run) exec() {
	returned := false
	defer func() {
		if !returned {
			if v := recover(); v != nil {
				rn.pe = &tool.PanicError{Value: v, Stack: debug.Stack()}
			} else {
				rn.exit = true
			}
		}
		rn.end()
	}()
	rn.err = rn.job.Run(rn.ctx)
	returned = true
}

// end hands the outcome to the caller waiting in Run, or, when it gave
// up, frees the abandoned run.
//
// The worker then goes on and waits for the next run, unless the run
// called runtime.Goexit (which ends its goroutine): it counts itself
// waiting (see work) before it hands the outcome back, and after it freed
// an abandoned run, so that a caller that claims it never waits for a
// Job's Abandoned.
func (rn *run) end() {
	r, i, goes := rn.r, rn.i, !rn.exit
	if rn.state.CompareAndSwap(running, finished) {
		if goes {
			r.waiting.Add(1)
		}
		rn.done <- struct{}{}
		return
	}
	rn.job.Abandoned(rn.pe == nil && !rn.exit)
	rn.free()
	r.abandoned[i].Add(-1)
	if goes {
		r.waiting.Add(1)
	}
}

// free returns rn to the pool, without references to the call.
func (rn *run) free() {
	rn.job, rn.ctx, rn.err, rn.pe, rn.exit = nil, nil, nil, nil, false
	rn.state.Store(running)
	rn.r.runs.Put(rn)
}

// notRun is the error of a call whose context was done before it started.
func notRun(spec *runSpec, ctx context.Context) *tool.Error {
	err := fmt.Errorf("%w: %w", tool.ErrNotRun, context.Cause(ctx))
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &tool.Error{Code: tool.CodeTimeout, Tool: spec.Name, Message: "the call's deadline had passed; nothing was run", Cause: err}
	}
	return &tool.Error{Code: tool.CodeCancelled, Tool: spec.Name, Message: "the call was cancelled; nothing was run", Cause: err}
}

// abandonedError is the error of a run abandoned when ctx was done: its
// outcome is unknown, since the tool goes on running.
func abandonedError(spec *runSpec, ctx context.Context, cause *timeoutCause) *tool.Error {
	err := fmt.Errorf("tool %s: %w: %w", spec.Name, tool.ErrAbandoned, ctx.Err())
	if c := context.Cause(ctx); c != ctx.Err() {
		err = fmt.Errorf("%w (%w)", err, c)
	}
	switch {
	case cause != nil && context.Cause(ctx) == error(cause):
		return &tool.Error{Code: tool.CodeTimeout, Tool: spec.Name, Message: "the tool timed out after " + spec.Timeout.String(), Cause: err}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &tool.Error{Code: tool.CodeTimeout, Tool: spec.Name, Message: "the call's deadline passed before the tool ended", Cause: err}
	}
	return &tool.Error{Code: tool.CodeCancelled, Tool: spec.Name, Message: "the call was cancelled before the tool ended", Cause: err}
}

// timeoutCause marks a context that expired because of Spec.Timeout.
type timeoutCause struct{ tool string }

// Error says which tool's timeout passed.
func (c *timeoutCause) Error() string { return "timeout of tool " + c.tool + " passed" }

// passesThrough reports whether err carries a *tool.Error, which a call
// reports as is rather than as a timeout or a tool failure.
func passesThrough(err error) bool {
	var te *tool.Error
	return errors.As(err, &te)
}
