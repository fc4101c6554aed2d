package palette

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/byname"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The names of the meta-tools a palette can offer.
const (
	// RequestTools is the meta-tool that admits tools of the palette's
	// catalog (Options.Requestable) into the palette.
	RequestTools = "request_tools"
	// RequestSkill is the meta-tool that attaches skills of the palette's
	// skill catalog (Options.Skills, Options.RequestableSkills) to the
	// conversation.
	RequestSkill = "request_skill"
)

// maxRequested bounds the names one request may carry.
const maxRequested = 64

// The reasons a request rejects a name with.
const (
	ReasonNotInCatalog = "not in this agent's catalog"
	ReasonNotOffered   = "not offered to you"
	ReasonReadOnly     = "read-only palette: tool mutates"
	ReasonUnknownTool  = "unknown tool"
	ReasonUnknownSkill = "unknown skill"
)

// UnknownName stands in a rejection for a requested name that is not an
// identifier (codec.IsIdentifier): what a model sent is repeated only when
// it is a plain name.
const UnknownName = "an unknown name"

// RequestOutputSchema is the output schema of both meta-tools: the names
// admitted (already present ones included), and those rejected, each with
// its reason.
const RequestOutputSchema = `{"type":"object","properties":{"admitted":{"type":"array","items":{"type":"string"},"description":"The names admitted, including those already present."},"rejected":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"reason":{"type":"string"}},"required":["name","reason"],"additionalProperties":false},"description":"The names refused, each with the reason."}},"required":["admitted","rejected"],"additionalProperties":false}`

// The meta-tools' descriptions.
const (
	requestToolsDescription = "Adds tools to your tool list, from the catalog in the names parameter; each entry says what the tool does. The tools you are given are available from your next turn."
	requestSkillDescription = "Attaches skills (instructions for a kind of task) to this conversation, from the catalog in the names parameter; each entry says what the skill is for. Their instructions apply from your next turn."
)

// entry is one name a meta-tool's catalog offers, with its description.
type entry struct{ name, description string }

// catalog is a meta-tool's spec for one admissible set, kept while the set
// is unchanged so that its bytes (and pointer) are the same turn after
// turn.
type catalog struct {
	entries []entry
	spec    *tool.Spec
}

// meta is one meta-tool of a palette: its last catalog.
type meta struct {
	name     string
	kind     tool.Kind
	readOnly bool
	desc     string
	last     atomic.Pointer[catalog]
}

// spec returns the meta-tool's spec for the entries next yields in turn
// (name and description, in name order; n of them, or fewer when the set
// shrank while it was read, as when a skill is attached at the same
// time): the cached one when they are the cached entries, else a new one,
// cached. It returns nil when there are none.
func (m *meta) spec(n int, next func() (entry, bool)) *tool.Spec {
	if n == 0 {
		return nil
	}
	var entries []entry // allocated only when the catalog changed
	if last := m.last.Load(); last != nil && len(last.entries) == n {
		i := 0
		for ; i < n; i++ {
			e, ok := next()
			if !ok || e != last.entries[i] {
				entries = append(make([]entry, 0, n), last.entries[:i]...)
				if ok {
					entries = append(entries, e)
				}
				break
			}
		}
		if i == n {
			return last.spec
		}
	} else {
		entries = make([]entry, 0, n)
	}
	for len(entries) < n {
		e, ok := next()
		if !ok {
			break
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return nil
	}
	c := &catalog{entries: entries}
	c.spec = &tool.Spec{
		Name:         m.name,
		Title:        m.name,
		Kind:         m.kind,
		ReadOnly:     m.readOnly,
		Idempotent:   true,
		Description:  m.desc,
		InputSchema:  catalogSchema(c.entries),
		OutputSchema: []byte(RequestOutputSchema),
	}
	m.last.Store(c)
	return c.spec
}

// catalogSchema is a meta-tool's input schema for the entries: a list of
// names, each one of the catalog's, as a oneOf of consts each carrying its
// description, so that a provider enforcing schemas refuses a name off the
// catalog.
func catalogSchema(entries []entry) []byte {
	alts := &jsontree.Node{Kind: jsonlex.Array, Items: make([]*jsontree.Node, len(entries))}
	for i, e := range entries {
		alt := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{
			{Key: "type", Value: str("string")},
			{Key: "const", Value: str(e.name)},
		}}
		if e.description != "" {
			alt.Members = append(alt.Members, jsontree.Member{Key: "description", Value: str(e.description)})
		}
		alts.Items[i] = alt
	}
	names := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{
		{Key: "type", Value: str("array")},
		{Key: "items", Value: &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "oneOf", Value: alts}}}},
		{Key: "minItems", Value: &jsontree.Node{Kind: jsonlex.Number, Text: "1"}},
		{Key: "description", Value: str("Names from this catalog.")},
	}}
	root := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{
		{Key: "type", Value: str("object")},
		{Key: "properties", Value: &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "names", Value: names}}}},
		{Key: "required", Value: &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{str("names")}}},
		{Key: "additionalProperties", Value: &jsontree.Node{Kind: jsonlex.Bool}},
	}}
	return root.Compact()
}

func str(s string) *jsontree.Node { return &jsontree.Node{Kind: jsonlex.String, Text: s} }

// isMeta reports whether name is one of the palette's meta-tools.
func (p *Palette) isMeta(name string) bool {
	return (p.reqTools != nil && name == RequestTools) || (p.reqSkill != nil && name == RequestSkill)
}

// requestToolsSpec returns request_tools' spec for the tools of src (the
// caller's offer) the palette could still admit, or nil when there are
// none, when the palette has no catalog, or when it is read-only
// (request_tools can admit any tool of its catalog: it is swept like a
// mutating tool).
func (p *Palette) requestToolsSpec(st *state, src []*tool.Spec) *tool.Spec {
	if p.reqTools == nil || st.readOnly {
		return nil
	}
	// Two passes over src rather than a slice of the admissible tools:
	// Offer allocates nothing per tool.
	admissible := func(c *cursor, s *tool.Spec) (int, bool, bool) {
		i, reg := c.pos(s)
		return i, reg, p.requestable.Match(s) && !p.holds(st, s, i, reg) && !p.isMeta(s.Name)
	}
	n := 0
	c := p.cursor()
	for _, s := range src {
		if _, _, ok := admissible(&c, s); ok {
			n++
		}
	}
	c = p.cursor()
	j := 0 // the next position of src to look at
	return p.reqTools.spec(n, func() (entry, bool) {
		for ; j < len(src); j++ {
			if i, reg, ok := admissible(&c, src[j]); ok {
				s := p.shown(src[j], i, reg)
				j++
				return entry{s.Name, s.Description}, true
			}
		}
		return entry{}, false
	})
}

// requestSkillSpec returns request_skill's spec for the skills of the
// palette's skill catalog not yet attached to the conversation, or nil
// when there are none or the palette has no skill catalog.
func (p *Palette) requestSkillSpec() *tool.Spec {
	if p.reqSkill == nil {
		return nil
	}
	n := 0
	for _, s := range p.skillCatalog {
		if !p.admitted.Has(s.Name) {
			n++
		}
	}
	j := 0 // the next position of the catalog to look at
	return p.reqSkill.spec(n, func() (entry, bool) {
		for ; j < len(p.skillCatalog); j++ {
			if s := p.skillCatalog[j]; !p.admitted.Has(s.Name) {
				j++
				return entry{s.Name, s.Description}, true
			}
		}
		return entry{}, false // attached meanwhile
	})
}

// metaTool is a meta-tool as a tool.Dynamic, for one call: the spec it was
// offered with and what it admits.
type metaTool struct {
	spec  *tool.Spec
	admit func(ctx context.Context, names []string) verdicts
}

var _ tool.Dynamic = (*metaTool)(nil)

// Spec implements tool.Dynamic.
func (m *metaTool) Spec() *tool.Spec { return m.spec }

// Check implements tool.Dynamic: the arguments must be {"names":[...]},
// one to 64 strings. Whether each name may be admitted is not checked
// here: the call answers that, name by name.
func (m *metaTool) Check(_ context.Context, args []byte) error {
	if _, e := requestedNames(m.spec.Name, args); e != nil {
		return e
	}
	return nil
}

// Call implements tool.Dynamic: it admits what it may of the names and
// answers with the names admitted and those rejected, with reasons.
func (m *metaTool) Call(ctx context.Context, args []byte) (tool.Result, error) {
	names, e := requestedNames(m.spec.Name, args)
	if e != nil {
		return tool.Result{Content: []byte(e.Message), IsError: true}, e
	}
	return tool.Result{Content: m.admit(ctx, names).json(), Structured: true}, nil
}

// requestedNames reads a meta-tool's arguments, refusing them as the
// generated decoder would (pointers and constraints, never values).
func requestedNames(name string, args []byte) ([]string, *tool.Error) {
	root, e := objectArgs(name, args)
	if e != nil {
		return nil, e
	}
	var problems []codec.Problem
	var names *jsontree.Node
	for _, m := range root.Members {
		if m.Key == "names" {
			names = m.Value
			continue
		}
		problems = append(problems, codec.Problem{Pointer: pointerTo(m.Key), Message: "unknown property (additional properties are not allowed)"})
	}
	switch {
	case names == nil:
		problems = append(problems, codec.Problem{Pointer: "/names", Message: "required property is missing"})
	case names.Kind != jsonlex.Array:
		problems = append(problems, codec.Problem{Pointer: "/names", Message: "expected array, got " + names.Kind.String()})
	case len(names.Items) == 0:
		problems = append(problems, codec.Problem{Pointer: "/names", Message: "must have at least 1 item"})
	case len(names.Items) > maxRequested:
		problems = append(problems, codec.Problem{Pointer: "/names", Message: "must have at most " + strconv.Itoa(maxRequested) + " items"})
	default:
		for i, it := range names.Items {
			if it.Kind != jsonlex.String {
				problems = append(problems, codec.Problem{Pointer: "/names/" + strconv.Itoa(i), Message: "expected string, got " + it.Kind.String()})
			}
		}
	}
	if len(problems) > 0 {
		return nil, invalidArguments(name, problems...)
	}
	out := make([]string, len(names.Items))
	for i, it := range names.Items {
		out[i] = it.Text
	}
	return out, nil
}

// verdicts is a request's answer.
type verdicts struct {
	admitted []string
	rejected []entry // name, reason
}

// add records the verdict on name: admitted when reason is "".
func (v *verdicts) add(name, reason string) {
	if reason == "" {
		for _, a := range v.admitted {
			if a == name {
				return
			}
		}
		v.admitted = append(v.admitted, name)
		return
	}
	if !codec.IsIdentifier(name) {
		name = UnknownName
	}
	v.rejected = append(v.rejected, entry{name, reason})
}

// json is the answer as RequestOutputSchema describes it.
func (v verdicts) json() []byte {
	admitted := &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{}}
	for _, a := range v.admitted {
		admitted.Items = append(admitted.Items, str(a))
	}
	rejected := &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{}}
	for _, r := range v.rejected {
		rejected.Items = append(rejected.Items, &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{
			{Key: "name", Value: str(r.name)}, {Key: "reason", Value: str(r.description)},
		}})
	}
	return (&jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{
		{Key: "admitted", Value: admitted}, {Key: "rejected", Value: rejected},
	}}).Compact()
}

// admitTools is request_tools' admission, judged by the palette's
// declarations: a tool is admitted when its catalog (Options.Requestable)
// picks it and the caller offers it for ctx; one already in the palette
// and offered reads as admitted. The admitted tools join the palette
// together, in one change.
//
// src is the caller's offer for the call (the one request_tools' spec was
// built from).
func (p *Palette) admitTools(src []*tool.Spec, names []string) verdicts {
	v, changed := p.admitToolsLocked(src, names)
	if changed {
		p.changes.Notify() // outside the lock: a subscriber may read the palette
	}
	return v
}

// admitToolsLocked is admitTools under p.mu, reporting whether the
// palette changed.
func (p *Palette) admitToolsLocked(src []*tool.Spec, names []string) (verdicts, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.clone()
	var v verdicts
	changed := false
	for _, name := range names {
		if !codec.IsIdentifier(name) || p.isMeta(name) {
			v.add(name, ReasonUnknownTool)
			continue
		}
		spec, offered := byname.Find(src, name)
		if spec == nil {
			if i, ok := p.index[name]; ok {
				spec = p.tools[i]
			}
		}
		switch {
		case spec == nil:
			v.add(name, ReasonUnknownTool)
		case !p.has(st, spec) && !p.requestable.Match(spec):
			v.add(name, ReasonNotInCatalog)
		case !offered:
			v.add(name, ReasonNotOffered)
		case p.has(st, spec):
			v.add(name, "")
		case st.readOnly && !spec.ReadOnly:
			v.add(name, ReasonReadOnly)
		default:
			st.admit(p, spec)
			changed = true
			v.add(name, "")
		}
	}
	if changed {
		p.st.Store(st)
	}
	return v, changed
}

// admitSkills is request_skill's admission: a skill is attached to the
// conversation when the palette's skill catalog names it; one already
// attached reads as admitted.
func (p *Palette) admitSkills(_ context.Context, names []string) verdicts {
	var v verdicts
	for _, name := range names {
		s, ok := p.skills.Lookup(name)
		switch {
		case !codec.IsIdentifier(name) || !ok:
			v.add(name, ReasonUnknownSkill)
		case !p.skillPatterns.Admits(name):
			v.add(name, ReasonNotInCatalog)
		default:
			if len(p.admitted.Admit(s)) > 0 {
				p.changes.Notify() // request_skill's catalog shrank
			}
			v.add(name, "")
		}
	}
	return v
}

// callMeta runs the meta-tool m with the arguments: through the caller's
// CallDynamic when it is a tool.Recorder (the call service, which
// refuses and records it as any call), else directly. A meta-tool the
// palette does not offer now (no catalog left, or request_tools in a
// read-only palette) is an unknown tool.
func (p *Palette) callMeta(ctx context.Context, st *state, name string, args []byte) (tool.Result, error) {
	d := &metaTool{}
	var src []*tool.Spec
	asked := false // src is the caller's offer
	switch name {
	case RequestTools:
		src, asked = p.c.Offer(ctx), true
		d.spec = p.requestToolsSpec(st, src)
		d.admit = func(_ context.Context, names []string) verdicts { return p.admitTools(src, names) }
	case RequestSkill:
		d.spec, d.admit = p.requestSkillSpec(), p.admitSkills
	}
	if d.spec == nil {
		if !asked {
			src = p.c.Offer(ctx)
		}
		return p.refuse(ctx, st, name, src)
	}
	if dc, ok := p.c.(tool.Recorder); ok {
		return dc.CallDynamic(ctx, d, args)
	}
	return d.Call(ctx, args)
}

// skillCatalogOf returns the skills of set that ps names, sorted by name:
// request_skill's catalog, fixed when the palette is built (a Set never
// changes).
func skillCatalogOf(set *skill.Set, ps skill.Patterns) []*skill.Skill {
	var out []*skill.Skill
	for _, s := range set.All() {
		if ps.Admits(s.Name) {
			out = append(out, s)
		}
	}
	return out
}
