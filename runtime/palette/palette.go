package palette

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Options configures a Palette.
type Options struct {
	// ReadOnly binds the palette read-only when it is built, as
	// BindReadOnly does: for good.
	ReadOnly bool
}

// Palette is a registry seen through a selector: the tools an agent is
// offered and may call. It implements tool.Caller and is safe for
// concurrent use.
type Palette struct {
	c     tool.Caller
	tools []*tool.Spec   // the registry's, sorted by name
	index map[string]int // position in tools, by name
	mu    sync.Mutex     // serializes the writers of st
	st    atomic.Pointer[state]
}

// state is one immutable version of what a Palette holds: writers copy
// it, readers load it once per Offer or Call.
type state struct {
	in       []bool // by position in tools
	readOnly bool   // a latch: never false again once true
	swept    []string
}

var _ tool.Caller = (*Palette)(nil)

// New returns the palette of the tools sel picks among tools, the
// registry's (reg.Tools(), sorted by name), served by c (the call service
// over that registry, or the registry itself).
func New(c tool.Caller, tools []*tool.Spec, sel Selector, opts *Options) (*Palette, error) {
	switch {
	case c == nil:
		return nil, errors.New("new palette: nil caller")
	case sel == nil:
		return nil, errors.New("new palette: nil selector")
	}
	p := &Palette{c: c, tools: tools, index: make(map[string]int, len(tools))}
	st := &state{in: make([]bool, len(tools))}
	for i, spec := range tools {
		if i > 0 && tools[i-1].Name >= spec.Name {
			return nil, fmt.Errorf("new palette: tools not sorted by name: %q before %q", tools[i-1].Name, spec.Name)
		}
		p.index[spec.Name] = i
		st.in[i] = sel.Match(spec)
	}
	if opts != nil && opts.ReadOnly {
		sweep(st, tools)
	}
	p.st.Store(st)
	return p, nil
}

// sweep binds st read-only, removing its mutating tools, and returns their
// names.
func sweep(st *state, tools []*tool.Spec) []string {
	st.readOnly = true
	var swept []string
	for i, spec := range tools {
		if st.in[i] && !spec.ReadOnly {
			st.in[i] = false
			swept = append(swept, spec.Name)
		}
	}
	st.swept = append(st.swept, swept...)
	return swept
}

// BindReadOnly binds the palette read-only, for good: it sweeps every
// mutating tool (one that is not //tool:readonly) out of the palette and
// returns the names of those it removed, in the registry's order. From
// then on Add refuses mutating tools, and every Offer and Call is marked
// read-only (tool.WithReadOnly), so that the call service refuses a
// mutating tool however the palette was widened. Nothing unbinds it.
func (p *Palette) BindReadOnly() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.clone()
	swept := sweep(st, p.tools)
	p.st.Store(st)
	return swept
}

// ReadOnly reports whether the palette is bound read-only.
func (p *Palette) ReadOnly() bool { return p.st.Load().readOnly }

// Swept returns the names of the tools binding the palette read-only
// removed, in the order they were removed.
func (p *Palette) Swept() []string { return slices.Clone(p.st.Load().swept) }

// Add widens the palette with the named tools of the registry (what a
// request_tools tool does). It adds none of them when one is not in the
// registry, or, in a read-only palette, is mutating: the error names each.
func (p *Palette) Add(names ...string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.clone()
	var errs []error
	for _, name := range names {
		i, ok := p.index[name]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("palette: no tool %q in the registry", name))
		case st.readOnly && !p.tools[i].ReadOnly:
			errs = append(errs, fmt.Errorf("palette: read-only: tool %q is mutating (not //tool:readonly); not added", name))
		default:
			st.in[i] = true
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	p.st.Store(st)
	return nil
}

// clone returns a copy of the current state to modify; p.mu is held.
func (p *Palette) clone() *state {
	cur := p.st.Load()
	return &state{in: slices.Clone(cur.in), readOnly: cur.readOnly, swept: slices.Clone(cur.swept)}
}

// Tools returns the palette's tools, in the registry's order, before the
// caller decides what it offers (Offer).
func (p *Palette) Tools() []*tool.Spec {
	st := p.st.Load()
	var out []*tool.Spec
	for i, spec := range p.tools {
		if st.in[i] {
			out = append(out, spec)
		}
	}
	return out
}

// Offer implements tool.Caller: what the caller offers for ctx, kept to
// the palette's tools, in the caller's order (the registry's, sorted by
// name) and with the caller's specs, so that their precomputed provider
// definitions apply as they are. A read-only palette asks the caller with
// ctx marked read-only and keeps only //tool:readonly tools.
func (p *Palette) Offer(ctx context.Context) []*tool.Spec {
	st := p.st.Load()
	if st.readOnly {
		ctx = tool.WithReadOnly(ctx)
	}
	return p.offer(ctx, st)
}

// offer is Offer with the state loaded and ctx marked.
func (p *Palette) offer(ctx context.Context, st *state) []*tool.Spec {
	var out []*tool.Spec
	for _, spec := range p.c.Offer(ctx) {
		if p.has(st, spec) {
			out = append(out, spec)
		}
	}
	return out
}

// has reports whether spec is among st's tools (and, read-only, does not
// mutate).
func (p *Palette) has(st *state, spec *tool.Spec) bool {
	i, ok := p.index[spec.Name]
	return ok && st.in[i] && (!st.readOnly || spec.ReadOnly)
}

// Call implements tool.Caller: it runs a tool of the palette through the
// caller, with ctx marked read-only when the palette is, and refuses any
// other as the registry refuses an unknown tool, naming only the
// palette's offered tools (nothing runs; the caller does not see it). The
// caller's refusals of a palette tool name only the palette's offered
// tools too.
func (p *Palette) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	st := p.st.Load()
	if st.readOnly {
		ctx = tool.WithReadOnly(ctx)
	}
	i, ok := p.index[name]
	if !ok || !p.has(st, p.tools[i]) {
		return p.unknown(ctx, st, name)
	}
	res, err := p.c.Call(ctx, name, args)
	if tool.CodeOf(err) == tool.CodeUnknownTool {
		return p.unknown(ctx, st, name)
	}
	return res, err
}

// unknown is the refusal of a tool the palette does not offer.
func (p *Palette) unknown(ctx context.Context, st *state, name string) (tool.Result, error) {
	e := tool.UnknownTool(p.offer(ctx, st), name)
	return tool.Result{Content: []byte(e.Message), IsError: true}, e
}
