package registry

import (
	"context"
	"time"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/run"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// codecs is one call: the decoder and encoder it uses, pooled per Static,
// and what its dispatch needs. It is the run.Job the Static's Runner
// runs: an abandoned run keeps it until it ends, then gives it back to
// the pool.
type codecs struct {
	s      *Static
	i      int
	mode   Mode
	args   []byte // the call's arguments
	output Output // what the dispatch returned
	// in and out are the decoder and encoder, held in the codecs rather
	// than pointed to: one allocation, and one load less on each use.
	in  codec.Decoder
	out codec.Encoder
	// own is the encoder's own memory, which it writes into unless it
	// appends to a caller's buffer (AppendCall, appended set). A call
	// that appends leaves the encoder on the caller's buffer when it
	// ends; resetOut (or callInline) points it back at own before any
	// call that writes into the encoder's own memory. So the encoder
	// never writes into a caller's buffer once the call that passed it
	// has returned, and a loop of AppendCalls stores nothing of own
	// (each store of a pointer costs a write barrier while the collector
	// runs). Until then the codecs keep the caller's last buffer
	// reachable, and write nothing through it.
	own      []byte
	appended bool
	// crash is the failure of a call whose tool panicked on these
	// codecs (callInline), which are then left to the collector: set
	// once, on codecs never used again.
	crash *tool.Error
	// dispatching is set while callInline's dispatch runs: a panic
	// leaves it set, for the deferred recoverTool.
	dispatching bool
}

// Run decodes the arguments and dispatches the tool, on the Runner's
// goroutine.
func (c *codecs) Run(ctx context.Context) error {
	if err := c.dispatch(ctx, c.args); err != nil {
		return toolerr.Returned(c.s.tools[c.i].Name, err)
	}
	return nil
}

// dispatch decodes args and dispatches the tool, returning what the
// dispatch returned. It decodes without the decoder's paths
// (codec.Decoder.SkipPaths), which only tell where a problem is, and
// again with them when the first pass found problems: a dispatch refuses
// arguments before it runs the tool (the tool never runs with problems
// in the decoder), so the tool runs once at most, and refused arguments
// cost two passes over them.
func (c *codecs) dispatch(ctx context.Context, args []byte) (err error) {
	s := c.s
	if len(args) == 0 {
		args = s.emptyArgs
	}
	c.in.Reset(args, s.opts.Limits)
	c.in.SkipPaths()
	x := s.at[c.i] // dispatchAt written out: it is not inlined
	c.output, err = s.sets[x.Set](ctx, int(x.Tool), c.mode, &c.in, &c.out)
	if err != nil && c.in.Err() != nil {
		return c.again(ctx, args)
	}
	return err
}

// again is dispatch's second pass over arguments the first refused, with
// the decoder's paths: args is not empty (dispatch gave {} for empty
// arguments).
func (c *codecs) again(ctx context.Context, args []byte) (err error) {
	s := c.s
	c.in.Reset(args, s.opts.Limits)
	c.output, err = s.dispatchAt(ctx, c.i, c.mode, &c.in, &c.out)
	return err
}

// inline is Run on the caller's goroutine, run as run.Runner.Run runs a
// call that nothing can end early (no Spec.Timeout, a context that can
// never be done) but without the run.Job interface and the Runner's
// frames: the same refusal of a busy tool, the same recovered panic. The
// arguments are passed rather than kept in c, one pointer fewer to store
// and clear.
func (c *codecs) inline(ctx context.Context, args []byte) (ended run.Ended, err error) {
	s := c.s
	name := s.tools[c.i].Name
	if e := s.runner.Refuse(c.i, name); e != nil {
		return run.Refused, e
	}
	defer func() {
		if v := recover(); v != nil {
			ended, err = run.Crashed, run.Panicked(name, v)
		}
	}()
	if err := c.dispatch(ctx, args); err != nil {
		return run.Returned, toolerr.Returned(name, err)
	}
	return run.Returned, nil
}

// Abandoned gives the codecs of an abandoned run back to the pool once it
// has ended, unless it panicked (they may then be in any state: they are
// left to the collector).
func (c *codecs) Abandoned(healthy bool) {
	if healthy {
		c.s.release(c)
	}
}

// start prepares pooled codecs for a call of s.tools[i], and reports
// whether the run may be abandoned (a Spec.Timeout in ModeCall, or a
// context that can be done): exec then runs it through the Runner, with
// the arguments kept in c, and otherwise inline. The encoder writes into
// its own memory: an abandoned run never writes into a caller's buffer
// (an inline call may: see codecs.callInline). The arguments are not
// copied: an abandoned run may read them while it decodes (see Call).
func (s *Static) start(ctx context.Context, i int, mode Mode, args []byte) (c *codecs, mayAbandon bool) {
	c = s.pool.Get().(*codecs)
	c.i, c.mode = i, mode
	mayAbandon = mode == ModeCall && s.tools[i].Timeout > 0 || ctx.Done() != nil
	c.resetOut()
	if mayAbandon {
		c.args = args
	}
	return c, mayAbandon
}

// exec runs c, which start prepared, through the Runner when it may be
// abandoned, else inline.
func (s *Static) exec(ctx context.Context, c *codecs, args []byte, mayAbandon bool, timeout time.Duration) (run.Ended, error) {
	if mayAbandon {
		return s.runner.Run(ctx, c.i, s.tools[c.i].Name, timeout, c)
	}
	return c.inline(ctx, args)
}

// release returns healthy codecs to the pool, forgotten (see forget).
func (s *Static) release(c *codecs) {
	c.forget()
	s.pool.Put(c)
}

// forget drops c's references to the call's arguments, as codecs kept
// for a later call must; the encoder is left where the call left it (see
// own). Every field it clears is a pointer stored (with a write barrier
// while the collector runs): it clears only those the call set.
func (c *codecs) forget() {
	c.in.Forget()
	if c.args != nil {
		c.args = nil
	}
}

// resetOut empties the encoder in its own memory, for a call whose
// output is copied out of it: back from a caller's buffer if the last
// call appended to one.
func (c *codecs) resetOut() {
	if c.appended {
		c.ownOut()
	}
	c.out.Reset()
}

// ownOut points the encoder back at its own memory, from a caller's
// buffer.
func (c *codecs) ownOut() {
	c.out.ResetAppend(c.own)
	c.appended = false
}

// leaveOwn records the encoder's own memory in own, grown or not, before
// an AppendCall points it at a caller's buffer (callInline).
func (c *codecs) leaveOwn() {
	if own := c.out.Bytes(); cap(own) != cap(c.own) {
		c.own = own[:0] // the encoder grew its memory
	}
	c.appended = true
}
