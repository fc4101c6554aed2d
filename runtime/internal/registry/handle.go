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
	// c is the handle's codecs: nil until its first inline call, while
	// a call runs on them, and after a tool panicked in them (they may
	// then be in any state).
	c *codecs
	// last is the position in s.specs of the tool last found: a loop that
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
	return h.call(ctx, name, args, nil, false)
}

// AppendCall runs the named tool as Static.AppendCall does.
func (h *Handle) AppendCall(ctx context.Context, dst []byte, name string, args []byte) (tool.Result, error) {
	return h.call(ctx, name, args, dst, true)
}

// call is Call and AppendCall.
func (h *Handle) call(ctx context.Context, name string, args, dst []byte, appendTo bool) (tool.Result, error) {
	s := h.s
	i := h.find(name)
	if i < 0 {
		return failure(dst, toolerr.UnknownTool(s.tools, name))
	}
	spec := &s.specs[i]
	if spec.Kind == tool.KindPropose || spec.Timeout > 0 || ctx.Done() != nil {
		return s.callAt(ctx, i, args, dst, appendTo)
	}
	if e := s.runner.Refuse(i, spec.Name); e != nil {
		return failure(dst, toolerr.Of(spec.Name, e))
	}
	c := h.codecs()
	res, healthy, err := c.callInline(ctx, i, args, dst, appendTo)
	h.keep(c, healthy)
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
	c.out.Reset()
	ended, err := c.inline(ctx, args)
	h.keep(c, ended != run.Crashed)
	if err != nil {
		return toolerr.Of(s.specs[i].Name, err)
	}
	return nil
}

// find is Static.find, trying the tool found last first.
func (h *Handle) find(name string) int {
	if i := h.last; i < len(h.s.specs) && h.s.specs[i].Name == name {
		return i
	}
	i := h.s.find(name)
	if i >= 0 {
		h.last = i
	}
	return i
}

// codecs returns the handle's codecs for a call, taking them from the
// registry's pool at the first call and after a panic. The handle holds
// none while the call runs: a call made from within it (a tool calling
// tools through the same Handle) takes codecs of its own.
func (h *Handle) codecs() *codecs {
	c := h.c
	if c == nil {
		c = h.s.pool.Get().(*codecs)
	}
	h.c = nil
	return c
}

// keep gives c back to the handle once its call has ended, the call
// forgotten, when the call left them healthy, and otherwise drops them,
// for the collector.
func (h *Handle) keep(c *codecs, healthy bool) {
	if healthy {
		c.forget()
		h.c = c
	}
}
