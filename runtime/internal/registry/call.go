package registry

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/internal/run"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Call runs the named tool with JSON arguments (empty arguments mean {}).
//
// It never panics. On success the Result holds a copy of the tool's output
// and the error is nil. On every failure it returns a *tool.Error and a
// Result with IsError set and Content holding the Error's Message, which
// is safe to send to the model: an unknown name (with suggestions),
// invalid arguments (every problem listed), a propose tool (validated,
// not run: CodeNeedsConfirmation), a tool error (its *ModelError message,
// else "the tool failed"), a panic, runtime.Goexit, a context done before
// the run (nothing is run), a timeout (Spec.Timeout) or the context done
// while the tool runs, too many abandoned runs of the tool (CodeBusy), an
// output over the cap.
//
// Every call runs as the registry's run.Runner runs it, on a goroutine of
// its own (inline when nothing can end it early: see run.Runner), and
// returns once the tool returns or the context is done,
// whichever comes first: a tool that ignores its context is abandoned
// (its error wraps tool.ErrAbandoned), goes on running, and its result is
// discarded. Such a run may still read args while it decodes them, before
// its tool starts: a caller that reuses argument buffers must not reuse
// args after an error that wraps tool.ErrAbandoned (the MCP server's
// arguments are fresh per request).
func (s *Static) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	return s.AppendCall(ctx, nil, name, args)
}

// AppendCall is Call with the Result's Content appended to dst: the
// output is encoded straight into dst's spare capacity (growing it as
// append does), with no copy, and on failure the error's Message is
// appended instead. Content is dst extended, so a caller that reuses one
// buffer across calls, as AppendCall(ctx, buf[:0], ...), pays for no
// allocation of the output once the buffer has grown. The bytes of dst
// before len(dst) are never changed. A run that could be abandoned (a
// context that can be done, or a Spec.Timeout) encodes into the
// registry's own memory instead, copied into dst when the run ends in
// time, so that an abandoned run never writes into dst. With dst nil it
// is Call: the output is copied out of the registry's own memory.
func (s *Static) AppendCall(ctx context.Context, dst []byte, name string, args []byte) (tool.Result, error) {
	// Call and AppendCall in one body, a frame less on the call path.
	// With appendTo the output is encoded into dst; without, it is
	// copied out of the pooled encoder. A call that nothing can end
	// early runs inline from here (runInline written out); callAt takes
	// every other.
	appendTo := dst != nil
	i := s.find(name)
	if i < 0 {
		return failure(dst, toolerr.UnknownTool(s.tools, name))
	}
	spec := s.tools[i]
	if spec.Kind == tool.KindPropose || spec.Timeout > 0 || ctx.Done() != nil {
		return s.callAt(ctx, i, args, dst, appendTo)
	}
	if s.runner.Busy(i) { // Refuse's test, inlined
		if e := s.runner.Refuse(i, spec.Name); e != nil {
			return failure(dst, toolerr.Of(spec.Name, e))
		}
	}
	c := s.pool.Get().(*codecs)
	res, err := c.callInline(ctx, i, args, dst, appendTo)
	if c.crash != nil { // left to the collector
		return failure(dst, c.crash)
	}
	s.release(c)
	return res, err
}

// callAt is AppendCall once the tool is found, s.tools[i], for a call
// that does not run inline.
func (s *Static) callAt(ctx context.Context, i int, args, dst []byte, appendTo bool) (tool.Result, error) {
	spec := s.tools[i]
	if spec.Kind == tool.KindPropose {
		if e := s.check(ctx, i, args); e != nil {
			return failure(dst, e)
		}
		return failure(dst, &tool.Error{
			Code:    tool.CodeNeedsConfirmation,
			Tool:    spec.Name,
			Message: "tool " + spec.Name + " needs a person's confirmation; nothing was run",
		})
	}
	return s.run(ctx, i, args, dst, appendTo)
}

// Offer returns the tools offered to the caller ctx carries: every tool,
// less those whose own Offered method declines (Spec.DecidesOffer). It
// returns Tools itself, without allocating, when no tool declines; the
// slice and the specs are shared: callers must not modify them. The bare
// registry applies no policy and checks no permission: that is the call
// service's work.
func (s *Static) Offer(ctx context.Context) []*tool.Spec {
	if s.offered == nil {
		return s.tools
	}
	var out []*tool.Spec
	for i := range s.tools {
		if s.selfOffered(ctx, i) {
			if out != nil {
				out = append(out, s.tools[i])
			}
			continue
		}
		if out == nil {
			out = make([]*tool.Spec, i, len(s.tools)-1)
			copy(out, s.tools[:i])
		}
	}
	if out == nil {
		return s.tools
	}
	return out
}

// Check validates the arguments of the named tool (ModeCheck) and runs
// nothing, whatever the tool's kind. It returns nil or a *tool.Error, as
// Call would report it.
func (s *Static) Check(ctx context.Context, name string, args []byte) error {
	i := s.find(name)
	if i < 0 {
		return toolerr.UnknownTool(s.tools, name)
	}
	if e := s.check(ctx, i, args); e != nil {
		return e
	}
	return nil
}

// failure returns e as Call (dst nil) and AppendCall report it: a Result
// the model can be sent, its Message appended to dst, and the error itself.
func failure(dst []byte, e *tool.Error) (tool.Result, error) {
	return tool.Result{Content: append(dst, e.Message...), IsError: true}, e
}

// run runs s.tools[i], whatever its kind, through the Runner: inline
// (runInline) when nothing can end it early, else on a worker.
func (s *Static) run(ctx context.Context, i int, args, dst []byte, appendTo bool) (tool.Result, error) {
	res, _, err := s.runEnded(ctx, i, args, dst, appendTo, nil)
	return res, err
}

// runEnded is run, reporting also whether the tool was entered: started
// is false only when the runner refused the run before it called the
// tool (its context was already done, or the tool was busy). onStart,
// when set, is called as the run begins, on its goroutine.
func (s *Static) runEnded(ctx context.Context, i int, args, dst []byte, appendTo bool, onStart func()) (res tool.Result, started bool, err error) {
	spec := s.tools[i]
	if spec.Timeout <= 0 && ctx.Done() == nil {
		return s.runInline(ctx, i, args, dst, appendTo, onStart)
	}
	c, _ := s.start(ctx, i, ModeCall, args)
	var job run.Job = c
	if onStart != nil {
		job = startingJob{c, onStart}
	}
	ended, err := s.runner.Run(ctx, i, spec.Name, spec.Timeout, job)
	switch ended {
	case run.Abandoned, run.Crashed:
		// The run keeps the codecs (Abandoned gives them back), or they
		// may be in any state: leave them to the collector.
		res, err = failure(dst, toolerr.Of(spec.Name, err))
		return res, true, err
	}
	if err != nil {
		s.release(c)
		res, err = failure(dst, toolerr.Of(spec.Name, err))
		return res, ended != run.Refused, err
	}
	if e := s.outputError(c, spec); e != nil {
		s.release(c)
		res, err = failure(dst, e)
		return res, true, err
	}
	res = tool.Result{Content: c.out.Bytes(), Structured: c.output == OutputStructured}
	if appendTo {
		res.Content = append(dst, res.Content...)
	} else {
		res.Content = bytes.Clone(res.Content)
	}
	s.release(c)
	return res, true, nil
}

// startingJob is a run's Job that calls onStart as it begins.
type startingJob struct {
	*codecs
	onStart func()
}

// Run implements run.Job.
func (j startingJob) Run(ctx context.Context) error {
	j.onStart()
	return j.codecs.Run(ctx)
}

// runInline is run for a call that nothing can end early (no
// Spec.Timeout, a context that can never be done), on pooled codecs
// (see codecs.callInline).
func (s *Static) runInline(ctx context.Context, i int, args, dst []byte, appendTo bool, onStart func()) (res tool.Result, started bool, err error) {
	name := s.tools[i].Name
	if e := s.runner.Refuse(i, name); e != nil {
		res, err = failure(dst, toolerr.Of(name, e))
		return res, false, err
	}
	if onStart != nil {
		onStart()
	}
	c := s.pool.Get().(*codecs)
	res, err = c.callInline(ctx, i, args, dst, appendTo)
	if c.crash != nil { // left to the collector
		res, err = failure(dst, c.crash)
		return res, true, err
	}
	s.release(c)
	return res, true, err
}

// callInline runs s.tools[i] in ModeCall on c, on the caller's goroutine,
// as run.Runner.Run would run a call that nothing can end early (the
// caller has checked Runner.Refuse): in one frame around the dispatch
// rather than through the Job interface, the call path of every program
// that calls its tools directly. With appendTo the output is encoded
// straight into dst, which nothing writes into once the call has
// returned (see codecs.own). When the tool panicked, c.crash is set and
// holds the call's failure, and c may be in any state: the caller leaves
// it to the collector. Otherwise c still refers to args until forget.
func (c *codecs) callInline(ctx context.Context, i int, args, dst []byte, appendTo bool) (res tool.Result, err error) {
	s := c.s
	if appendTo {
		if !c.appended {
			c.leaveOwn()
		}
		c.out.ResetAppend(dst)
	} else { // resetOut written out, a call saved on Call's path
		if c.appended {
			c.ownOut()
		}
		c.out.Reset()
	}
	c.dispatching = true
	defer c.recoverTool(i)
	// codecs.dispatch written out, its frame saved on the call path.
	if len(args) == 0 {
		args = s.emptyArgs
	}
	c.in.Reset(args, s.opts.Limits)
	c.in.SkipPaths()
	x := s.at[i] // dispatchAt written out: it is not inlined
	c.output, err = s.sets[x.Set](ctx, int(x.Tool), ModeCall, &c.in, &c.out)
	if err != nil && c.in.Err() != nil {
		c.i, c.mode = i, ModeCall // what again dispatches
		err = c.again(ctx, args)
	}
	c.dispatching = false
	if err != nil {
		name := s.tools[i].Name
		return failure(dst, toolerr.Of(name, toolerr.Returned(name, err)))
	}
	// One test of the output's state on the way out: outputError says
	// which failure it is.
	if out := &c.out; out.TooLarge() || out.Err() != nil || c.output-OutputText > OutputStructured-OutputText {
		return failure(dst, s.outputError(c, s.tools[i]))
	}
	res = tool.Result{Content: c.out.Bytes(), Structured: c.output == OutputStructured}
	if !appendTo {
		res.Content = bytes.Clone(res.Content)
	}
	return res, nil
}

// recoverTool is deferred by callInline: it recovers a panic of the run
// of s.tools[i] on c and records the call's failure in c.crash. A deferred
// method with one argument rather than a closure over callInline's
// results: less to store on every call; and it calls recover only when
// the dispatch did not return (c.dispatching still set). runtime.Goexit
// recovers nothing: it ends the caller's goroutine, as in any function
// the caller calls.
func (c *codecs) recoverTool(i int) {
	if !c.dispatching {
		return
	}
	if v := recover(); v != nil {
		name := c.s.tools[i].Name
		c.crash = toolerr.Of(name, run.Panicked(name, v))
	}
}

// outputError returns the failure of a run that returned but whose
// output cannot be sent: over the cap, an encoding error, or an Output
// the dispatch may not return; nil when the output is good.
func (s *Static) outputError(c *codecs, spec *tool.Spec) *tool.Error {
	switch {
	case c.out.TooLarge():
		// The encoder stopped at the cap: its memory is about the cap's.
		return &tool.Error{
			Code:    tool.CodeOutputTooLarge,
			Tool:    spec.Name,
			Message: "the tool's output exceeds " + strconv.Itoa(s.opts.MaxOutputBytes) + " bytes",
			Cause:   fmt.Errorf("tool %s wrote more than the cap of %d bytes of output", spec.Name, s.opts.MaxOutputBytes),
		}
	case c.out.Err() != nil:
		return &tool.Error{
			Code:    tool.CodeFailed,
			Tool:    spec.Name,
			Message: "the tool failed",
			Cause:   fmt.Errorf("encode output of tool %s: %w", spec.Name, c.out.Err()),
		}
	case c.output < OutputText || c.output > OutputStructured:
		return &tool.Error{
			Code:    tool.CodeFailed,
			Tool:    spec.Name,
			Message: "the tool failed",
			Cause:   fmt.Errorf("dispatch of tool %s returned invalid %s", spec.Name, c.output),
		}
	}
	return nil
}

// check decodes the arguments of s.tools[i] in ModeCheck, through the
// Runner; it returns nil or the failure as Call reports it. Spec.Timeout
// bounds what the tool does, not a check (decoding is bounded by the
// limits; the caller's context still applies).
func (s *Static) check(ctx context.Context, i int, args []byte) *tool.Error {
	spec := s.tools[i]
	c, mayAbandon := s.start(ctx, i, ModeCheck, args)
	ended, err := s.exec(ctx, c, args, mayAbandon, 0)
	switch {
	case ended == run.Abandoned || ended == run.Crashed:
		return toolerr.Of(spec.Name, err)
	case err != nil:
		s.release(c)
		return toolerr.Of(spec.Name, err)
	}
	s.release(c)
	return nil
}
