package registry

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime/internal/run"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Handle is the tool.Handle of a Static (see NewHandle): codecs of its
// own for the calls that run inline, and the tool it found last. It is not
// safe for concurrent use.
type Handle struct {
	s *Static
	// c is the handle's codecs: nil until its first inline call and
	// after a tool panicked in them (they may then be in any state).
	c *codecs
	// busy is set while a call runs on c: a call made from within it
	// takes the pool's. A flag rather than c set to nil and back: a
	// store of a pointer costs a write barrier while the collector runs.
	busy bool
	// last is the position in s.tools of the tool last found: a loop that
	// calls one tool again and again finds it with one comparison.
	last int
}

var _ tool.Handle = (*Handle)(nil)

// NewHandle returns a tool.Handle on s, for one goroutine at a time: what
// tool.NewHandle returns for a registry New built. Only calls that
// nothing can end early (no Spec.Timeout, a context that can never be
// done) run on its own codecs, where no run can be abandoned; any other
// call, and a propose tool's, runs as Call runs it, on the pool's.
func (s *Static) NewHandle() tool.Handle { return &Handle{s: s} }

// Call runs the named tool as Static.Call does.
func (h *Handle) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	return h.AppendCall(ctx, nil, name, args)
}

// AppendCall runs the named tool as Static.AppendCall does (with dst nil,
// as Call does).
func (h *Handle) AppendCall(ctx context.Context, dst []byte, name string, args []byte) (tool.Result, error) {
	s := h.s
	appendTo := dst != nil // see Static.AppendCall
	// find written out, its frame saved on the call path.
	i := h.last
	if i >= len(s.tools) || s.tools[i].Name != name {
		if i = h.search(name); i < 0 {
			return failure(dst, toolerr.UnknownTool(s.tools, name))
		}
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
	c := h.codecs()
	res, err := c.callInline(ctx, i, args, dst, appendTo)
	if c.crash == nil && c == h.c { // keep's common case, without its frame
		h.busy = false
		c.forget()
		return res, err
	}
	h.keep(c, c.crash == nil)
	if c.crash != nil {
		return failure(dst, c.crash)
	}
	return res, err
}

// Check validates the arguments of the named tool as Static.Check does.
func (h *Handle) Check(ctx context.Context, name string, args []byte) error {
	s := h.s
	i := h.find(name)
	if i < 0 {
		return toolerr.UnknownTool(s.tools, name)
	}
	if ctx.Done() != nil {
		if e := s.check(ctx, i, args); e != nil {
			return e
		}
		return nil
	}
	c := h.codecs()
	c.i, c.mode = i, ModeCheck
	c.resetOut()
	ended, err := c.inline(ctx, args)
	h.keep(c, ended != run.Crashed)
	if err != nil {
		return toolerr.Of(s.tools[i].Name, err)
	}
	return nil
}

// find is Static.find, trying the tool found last first.
func (h *Handle) find(name string) int {
	if i := h.last; i < len(h.s.tools) && h.s.tools[i].Name == name {
		return i
	}
	return h.search(name)
}

// search is find past the tool found last: Static.find, remembering what
// it found.
func (h *Handle) search(name string) int {
	i := h.s.find(name)
	if i >= 0 {
		h.last = i
	}
	return i
}

// codecs returns the handle's codecs for a call, taking them from the
// registry's pool at the first call and after a panic. A call made while
// another runs on them (a tool calling tools through the same Handle)
// takes the pool's.
func (h *Handle) codecs() *codecs {
	if h.busy || h.c == nil {
		return h.s.pool.Get().(*codecs)
	}
	h.busy = true
	return h.c
}

// keep takes c back once its call has ended, the call forgotten, when
// the call left them healthy: the handle's own, or the pool's (then given
// back to the pool, or kept when the handle has none). Codecs a tool
// panicked in are dropped, for the collector.
func (h *Handle) keep(c *codecs, healthy bool) {
	switch {
	case c == h.c:
		h.busy = false
		if !healthy {
			h.c = nil
			return
		}
		c.forget()
	case !healthy:
	case h.c == nil:
		c.forget()
		h.c = c
	default:
		h.s.release(c)
	}
}
