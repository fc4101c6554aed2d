package palette

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/runtime/internal/byname"
	"github.com/toolgen-go/toolgen/runtime/internal/notify"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Options configures a Palette.
type Options struct {
	// ReadOnly binds the palette read-only when it is built, as
	// BindReadOnly does: for good.
	ReadOnly bool
	// Bind fixes arguments for this agent: by tool name, a JSON object
	// whose members are properties of that tool's input schema. The
	// palette offers the tool with those properties removed from its
	// schema (derived once, here) and fills them into every call; a call
	// that sends one is refused as an unknown property.
	Bind map[string]json.RawMessage
	// Requestable is the catalog request_tools admits from; nil means no
	// request_tools. The caller still decides what it offers.
	Requestable Selector
	// NativeSearch chooses the provider's own tool search over
	// request_tools for the catalog's deferred tools (//tool:defer,
	// Spec.Defer): they are offered with the palette's tools, for a host
	// that sends the offer through provider.NewSearch, where they carry
	// defer_loading and the provider loads them when the model searches;
	// request_tools keeps only the catalog's other tools. Set it for an
	// agent on a provider with native search (provider.NativeSearch:
	// Anthropic, OpenAI Responses); a Gemini agent keeps request_tools.
	NativeSearch bool
	// Skills is the registry's skills; with RequestableSkills, the
	// catalog request_skill attaches skills from.
	Skills *skill.Set
	// RequestableSkills names the skills of Skills request_skill may
	// attach; nil means no request_skill.
	RequestableSkills skill.Patterns
	// Admitted is the conversation's skills, which request_skill attaches
	// to and whose preamble the host sends; nil means a new, empty one
	// (see Palette.Admitted).
	Admitted *skill.Admitted
}

// Palette is a registry seen through a selector: the tools an agent is
// offered and may call. It implements tool.Caller and is safe for
// concurrent use.
type Palette struct {
	c     tool.Caller
	sel   Selector
	tools []*tool.Spec   // the registry's, sorted by name
	index map[string]int // position in tools, by name
	binds []*binding     // by position in tools; nil when nothing is bound
	mu    sync.Mutex     // serializes the writers of st
	st    atomic.Pointer[state]

	requestable   Selector   // request_tools' catalog
	native        bool       // the catalog's deferred tools are offered (NativeSearch)
	reqTools      *meta      // nil without request_tools
	skills        *skill.Set // request_skill's skills
	skillPatterns skill.Patterns
	skillCatalog  []*skill.Skill // the skills skillPatterns names, sorted by name
	admitted      *skill.Admitted
	reqSkill      *meta // nil without request_skill

	changes notify.List // Subscribe's subscribers
}

var _ tool.Notifier = (*Palette)(nil)

// Subscribe implements tool.Notifier, so that an MCP server serving the
// palette (runtime/mcpserver) tells its clients when the offer changes:
// changed is called after the palette is widened (Add, a request_tools
// grant), bound read-only, or request_skill attached a skill (its catalog
// shrank), and after every change its caller tells of when the caller is
// a tool.Notifier (the call service, of its dynamic tools).
func (p *Palette) Subscribe(changed func()) (cancel func()) {
	own := p.changes.Subscribe(changed)
	n, ok := p.c.(tool.Notifier)
	if !ok {
		return own
	}
	theirs := n.Subscribe(changed)
	return func() {
		own()
		theirs()
	}
}

// state is one immutable version of what a Palette holds: writers copy
// it, readers load it once per Offer or Call.
type state struct {
	in       []bool   // by position in tools
	extra    []string // tools admitted from outside the registry (dynamic), sorted
	readOnly bool     // a latch: never false again once true
	swept    []string
}

var _ tool.Caller = (*Palette)(nil)

// New returns the palette of the tools sel picks among tools, the
// registry's (reg.Tools(), sorted by name), served by c (the call service
// over that registry, or the registry itself). Tools the caller offers
// beyond the registry (a toolkit's) are in the palette when sel
// picks them.
func New(c tool.Caller, tools []*tool.Spec, sel Selector, opts *Options) (*Palette, error) {
	switch {
	case c == nil:
		return nil, errors.New("new palette: nil caller")
	case sel == nil:
		return nil, errors.New("new palette: nil selector")
	}
	if opts == nil {
		opts = &Options{}
	}
	p := &Palette{c: c, sel: sel, tools: tools, index: make(map[string]int, len(tools))}
	st := &state{in: make([]bool, len(tools))}
	for i, spec := range tools {
		if i > 0 && tools[i-1].Name >= spec.Name {
			return nil, fmt.Errorf("new palette: tools not sorted by name: %q before %q", tools[i-1].Name, spec.Name)
		}
		p.index[spec.Name] = i
		st.in[i] = sel.Match(spec)
	}
	var err error
	if p.binds, err = bindAll(tools, p.index, opts.Bind); err != nil {
		return nil, fmt.Errorf("new palette: %w", err)
	}
	if opts.NativeSearch && opts.Requestable == nil {
		return nil, errors.New("new palette: NativeSearch without a Requestable catalog: name the tools the provider's search may load")
	}
	if opts.Requestable != nil {
		if _, ok := p.index[RequestTools]; ok {
			return nil, fmt.Errorf("new palette: the registry has a tool named %q, the meta-tool's name", RequestTools)
		}
		p.requestable = opts.Requestable
		p.native = opts.NativeSearch
		p.reqTools = &meta{name: RequestTools, kind: tool.KindAction, desc: requestToolsDescription}
	}
	p.admitted = opts.Admitted
	if p.admitted == nil {
		p.admitted = &skill.Admitted{}
	}
	if opts.RequestableSkills != nil {
		if _, ok := p.index[RequestSkill]; ok {
			return nil, fmt.Errorf("new palette: the registry has a tool named %q, the meta-tool's name", RequestSkill)
		}
		p.skills, p.skillPatterns = opts.Skills, opts.RequestableSkills
		p.skillCatalog = skillCatalogOf(opts.Skills, p.skillPatterns)
		p.reqSkill = &meta{name: RequestSkill, kind: tool.KindRead, readOnly: true, desc: requestSkillDescription}
	}
	if opts.ReadOnly {
		p.sweep(st)
	}
	p.st.Store(st)
	return p, nil
}

// sweep binds st read-only, removing its mutating tools, and returns their
// names: the registry's, in its order, then request_tools, which can
// admit mutating tools. A dynamic tool is judged by the spec the caller
// offers, when it offers it (has): a mutating one is never offered or
// called again.
func (p *Palette) sweep(st *state) []string {
	first := !st.readOnly
	st.readOnly = true
	var swept []string
	for i, spec := range p.tools {
		if st.in[i] && !spec.ReadOnly {
			st.in[i] = false
			swept = append(swept, spec.Name)
		}
	}
	if first && p.reqTools != nil {
		swept = append(swept, RequestTools)
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
	st := p.clone()
	was := st.readOnly
	swept := p.sweep(st)
	p.st.Store(st)
	p.mu.Unlock()
	if !was {
		p.changes.Notify() // outside the lock: a subscriber may read the palette
	}
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
	changed, err := p.add(names)
	if changed {
		p.changes.Notify() // outside the lock: a subscriber may read the palette
	}
	return err
}

// add is Add under p.mu, reporting whether the palette changed.
func (p *Palette) add(names []string) (bool, error) {
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
		return false, errors.Join(errs...)
	}
	if slices.Equal(st.in, p.st.Load().in) {
		return false, nil
	}
	p.st.Store(st)
	return true, nil
}

// clone returns a copy of the current state to modify; p.mu is held.
func (p *Palette) clone() *state {
	cur := p.st.Load()
	return &state{in: slices.Clone(cur.in), extra: slices.Clone(cur.extra), readOnly: cur.readOnly, swept: slices.Clone(cur.swept)}
}

// admit adds spec, a tool the caller offers, to st.
func (st *state) admit(p *Palette, spec *tool.Spec) {
	if i, ok := p.index[spec.Name]; ok {
		st.in[i] = true
		return
	}
	if i, found := slices.BinarySearch(st.extra, spec.Name); !found {
		st.extra = slices.Insert(st.extra, i, spec.Name)
	}
}

// Tools returns the palette's tools of the registry, in its order, before
// the caller decides what it offers (Offer), with the registry's specs
// (Offer has the derived spec of a tool with bound arguments). Dynamic
// tools and the meta-tools are only in Offer.
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
// the palette's tools, in the caller's order (sorted by name) and with the
// caller's specs, so that their precomputed provider definitions apply as
// they are; but a tool with bound arguments (Options.Bind) has its derived
// spec, the same pointer every time. The meta-tools request_tools and
// request_skill join in name order while they have something to offer.
// A read-only palette asks the caller with ctx marked read-only and keeps
// only //tool:readonly tools.
//
// A caller that records (tool.Recorder: the call service) records it,
// with the read-only mark; the palette's own uses of its offer (an
// unknown tool's suggestions, request_tools' catalog) are not offers and
// are not recorded.
//
// Offer allocates the result and nothing per tool (BenchmarkPaletteOffer).
func (p *Palette) Offer(ctx context.Context) []*tool.Spec {
	st := p.st.Load()
	if st.readOnly {
		ctx = tool.WithReadOnly(ctx)
	}
	out := p.offer(ctx, st)
	if r, ok := p.c.(tool.Recorder); ok {
		r.RecordOffer(ctx, out)
	}
	return out
}

// offer is Offer with the state loaded and ctx marked.
func (p *Palette) offer(ctx context.Context, st *state) []*tool.Spec {
	return p.offerFrom(st, p.c.Offer(ctx))
}

// offerFrom is offer from src, the caller's offer for the call's context.
func (p *Palette) offerFrom(st *state, src []*tool.Spec) []*tool.Spec {
	var buf [2]*tool.Spec
	metas := buf[:0] // sorted by name: request_skill < request_tools
	if s := p.requestSkillSpec(); s != nil {
		metas = append(metas, s)
	}
	if s := p.requestToolsSpec(st, src); s != nil {
		metas = append(metas, s)
	}
	n := len(metas)
	c := p.cursor()
	for _, spec := range src {
		if i, reg := c.pos(spec); p.holds(st, spec, i, reg) && !p.isMeta(spec.Name) {
			n++
		}
	}
	out := make([]*tool.Spec, 0, n)
	c = p.cursor()
	for _, spec := range src {
		i, reg := c.pos(spec)
		if !p.holds(st, spec, i, reg) || p.isMeta(spec.Name) {
			continue
		}
		for len(metas) > 0 && metas[0].Name < spec.Name {
			out = append(out, metas[0])
			metas = metas[1:]
		}
		out = append(out, p.shown(spec, i, reg))
	}
	return append(out, metas...)
}

// shown returns the spec the model sees for spec, at position i of the
// registry when reg: the derived one when the palette binds some of its
// arguments.
func (p *Palette) shown(spec *tool.Spec, i int, reg bool) *tool.Spec {
	if reg && p.binds != nil && p.binds[i] != nil {
		return p.binds[i].spec
	}
	return spec
}

// has reports whether spec is among st's tools (and, read-only, does not
// mutate): a registry tool when st holds it; another (a dynamic tool)
// when the selector picks it or it was admitted.
func (p *Palette) has(st *state, spec *tool.Spec) bool {
	i, reg := p.index[spec.Name]
	return p.holds(st, spec, i, reg)
}

// holds is has for spec at position i of the registry when reg.
func (p *Palette) holds(st *state, spec *tool.Spec, i int, reg bool) bool {
	if st.readOnly && !spec.ReadOnly {
		return false
	}
	if p.native && spec.Defer && p.requestable.Match(spec) {
		return true
	}
	if reg {
		return st.in[i]
	}
	if p.sel.Match(spec) {
		return true
	}
	_, found := slices.BinarySearch(st.extra, spec.Name)
	return found
}

// cursor returns a cursor at the start of the registry's tools.
func (p *Palette) cursor() cursor { return cursor{p: p} }

// cursor finds the registry positions of the specs of a caller's offer,
// sorted by name as the registry is, by walking the registry alongside:
// no map lookup for the registry's own tools, which is what makes Offer
// cheap for a thousand tools. A spec it cannot place (a dynamic tool; a
// caller out of order) is looked up by name.
type cursor struct {
	p *Palette
	j int
}

// pos returns the position of spec in the registry, and whether it is
// there.
func (c *cursor) pos(spec *tool.Spec) (int, bool) {
	tools := c.p.tools
	for c.j < len(tools) && tools[c.j] != spec && tools[c.j].Name < spec.Name {
		c.j++
	}
	if c.j < len(tools) && (tools[c.j] == spec || tools[c.j].Name == spec.Name) {
		c.j++ // an offer names each tool once: the next spec is further on
		return c.j - 1, true
	}
	i, ok := c.p.index[spec.Name]
	return i, ok
}

// Call implements tool.Caller: it runs a tool of the palette through the
// caller, with ctx marked read-only when the palette is, and refuses any
// other as the registry refuses an unknown tool, naming only the
// palette's offered tools (nothing runs; a caller that is a
// tool.Recorder, as the call service is, records the refusal). The
// caller's refusals of a palette tool name only the palette's offered
// tools too. A tool with bound arguments gets them filled in before the
// caller validates the arguments; a bound member the model sent is
// refused as an unknown property, and nothing runs. A meta-tool runs
// through the caller's CallDynamic when it is a tool.Recorder.
func (p *Palette) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	st := p.st.Load()
	if st.readOnly {
		ctx = tool.WithReadOnly(ctx)
	}
	if p.isMeta(name) {
		return p.callMeta(ctx, st, name, args)
	}
	if i, ok := p.index[name]; ok {
		if !p.holds(st, p.tools[i], i, true) {
			return p.refuse(ctx, st, name, p.c.Offer(ctx))
		}
		if p.binds != nil && p.binds[i] != nil {
			merged, e := p.binds[i].apply(name, args)
			if e != nil {
				p.record(ctx, name, e)
				return tool.Result{Content: []byte(e.Message), IsError: true}, e
			}
			args = merged
		}
	} else if src := p.c.Offer(ctx); !p.offers(st, src, name) {
		// Not the registry's: a dynamic tool, judged by the spec the
		// caller offers.
		return p.refuse(ctx, st, name, src)
	}
	res, err := p.c.Call(ctx, name, args)
	if tool.CodeOf(err) == tool.CodeUnknownTool {
		return p.unknown(st, name, p.c.Offer(ctx))
	}
	return res, err
}

// offers reports whether the palette offers the tool of that name among
// src, the caller's offer.
func (p *Palette) offers(st *state, src []*tool.Spec, name string) bool {
	spec, _ := byname.Find(src, name)
	return spec != nil && p.has(st, spec)
}

// refuse is the refusal of a tool the palette does not offer, recorded
// by the caller when it records refusals (the call service does); src is
// the caller's offer.
func (p *Palette) refuse(ctx context.Context, st *state, name string, src []*tool.Spec) (tool.Result, error) {
	res, err := p.unknown(st, name, src)
	p.record(ctx, name, err.(*tool.Error))
	return res, err
}

// record has the caller record a refusal the palette made, when it is a
// tool.Recorder.
func (p *Palette) record(ctx context.Context, name string, e *tool.Error) {
	if r, ok := p.c.(tool.Recorder); ok {
		r.RecordRefusal(ctx, name, e)
	}
}

// unknown is the refusal of a tool the palette does not offer, naming
// those it offers from src, the caller's offer.
func (p *Palette) unknown(st *state, name string, src []*tool.Spec) (tool.Result, error) {
	e := toolerr.UnknownTool(p.offerFrom(st, src), name)
	return tool.Result{Content: []byte(e.Message), IsError: true}, e
}

// Admitted returns the conversation's skills (Options.Admitted, or the
// palette's own): request_skill attaches to it, and the host puts its
// Preamble in the system prompt of every turn.
func (p *Palette) Admitted() *skill.Admitted { return p.admitted }
