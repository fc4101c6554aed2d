package registry

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
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
	in     *codec.Decoder
	out    *codec.Encoder
	// own is the encoder's own memory while it appends to a caller's
	// buffer (AppendCall); release gives it back.
	own      []byte
	appended bool
}

// Run decodes the arguments and dispatches the tool, on the Runner's
// goroutine.
func (c *codecs) Run(ctx context.Context) error {
	s, args := c.s, c.args
	if len(args) == 0 {
		args = s.emptyArgs
	}
	c.in.Reset(args, s.opts.Limits)
	var err error
	c.output, err = s.dispatch(ctx, s.id(c.i), c.mode, c.in, c.out)
	if err != nil {
		return toolerr.Returned(s.specs[c.i].Name, err)
	}
	return nil
}

// Abandoned gives the codecs of an abandoned run back to the pool once it
// has ended, unless it panicked (they may then be in any state: they are
// left to the collector).
func (c *codecs) Abandoned(healthy bool) {
	if healthy {
		c.s.release(c)
	}
}

// start prepares pooled codecs for a call of s.specs[i] that Run runs:
// the encoder appends to dst when appendTo and the run cannot be abandoned
// (otherwise an abandoned run could write into dst after the call
// returned). The arguments are not copied: an abandoned run may read them
// while it decodes (see Call).
func (s *Static) start(ctx context.Context, i int, mode Mode, args, dst []byte, appendTo bool) (c *codecs, direct bool) {
	c = s.pool.Get().(*codecs)
	c.i, c.mode = i, mode
	mayAbandon := mode == ModeCall && s.specs[i].Timeout > 0 || ctx.Done() != nil
	direct = appendTo && !mayAbandon
	if direct {
		c.own, c.appended = c.out.Bytes()[:0], true
		c.out.ResetAppend(dst)
	} else {
		c.out.Reset()
	}
	c.args = args
	return c, direct
}

// release returns healthy codecs to the pool, without a reference to the
// call's arguments or to a caller's buffer.
func (s *Static) release(c *codecs) {
	c.in.Forget()
	if c.appended {
		c.out.ResetAppend(c.own)
		c.own, c.appended = nil, false
	}
	c.args = nil
	s.pool.Put(c)
}
