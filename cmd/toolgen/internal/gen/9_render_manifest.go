package gen

import (
	"path/filepath"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
)

// manifestOf is the manifest phase: tools.json beside the registry, from
// the entries of its tools (manifestPart), in the model's order.
func manifestOf(opts *Options, m *model, parts [][]byte) File {
	return File{Path: filepath.Join(opts.outDir(), manifestFile), Data: manifest(parts, m.skills)}
}

// manifest renders tools.json: every tool, sorted by name, with what the
// model sees (name, description, schemas) and what the runtime reads (kind,
// hints, timeout, permissions, meta, and, when a tool has them, its
// secrets and whether it has Offered and LogArgs methods), then every
// skill, sorted by name (9_render_skills.go). It is
// pretty-printed for code review: a change to what the model sees shows up
// in the diff. The generated Go holds the exact compact bytes.
//
// It lays the array out as jsontree's Indent does, from the entries of the
// tools, each indented at the depth of an element (manifestPart), which
// the units render and cache.
func manifest(parts [][]byte, skills []*skillModel) []byte {
	for _, e := range skillEntries(skills) {
		parts = append(parts, manifestIndent(e))
	}
	if len(parts) == 0 {
		return []byte("[]\n")
	}
	n := 4
	for _, p := range parts {
		n += len(p) + 4
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, p := range parts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		b = append(b, p...)
	}
	return append(b, "\n]\n"...)
}

// manifestIndent is e indented as an element of tools.json's array.
func manifestIndent(e *jsontree.Node) []byte { return e.Indent("  ", "  ") }

// manifestPart is the entry of tool t in tools.json, p its provider
// definitions, indented as an element of the array.
func manifestPart(t *toolModel, p *provider.Precomputed) []byte {
	return manifestIndent(manifestEntry(t, p))
}

// manifestEntry is the entry of tool t in tools.json.
func manifestEntry(t *toolModel, p *provider.Precomputed) *jsontree.Node {
	o := &jsontree.Node{Kind: jsonlex.Object}
	add := func(k string, v *jsontree.Node) { o.Members = append(o.Members, jsontree.Member{Key: k, Value: v}) }
	add("name", str(t.name))
	if t.title != "" {
		add("title", str(t.title))
	}
	if t.verb != "" {
		add("verb", str(t.verb))
	}
	add("group", str(t.group))
	if t.groupDesc != "" {
		add("groupDescription", str(t.groupDesc))
	}
	add("weight", &jsontree.Node{Kind: jsonlex.Number, Text: strconv.Itoa(t.weight)})
	add("kind", str(t.kind))
	add("readOnly", boolean(t.readOnly))
	add("destructive", boolean(t.destructive))
	add("idempotent", boolean(t.idempotent))
	add("openWorld", boolean(t.openWorld))
	if t.timeout > 0 {
		add("timeout", str(t.timeout.String()))
	}
	if len(t.permissions) > 0 {
		ps := &jsontree.Node{Kind: jsonlex.Array}
		for _, p := range t.permissions {
			ps.Items = append(ps.Items, str(p))
		}
		add("permissions", ps)
	}
	if len(t.meta) > 0 {
		ms := &jsontree.Node{Kind: jsonlex.Object}
		for _, kv := range t.meta {
			ms.Members = append(ms.Members, jsontree.Member{Key: kv[0], Value: str(kv[1])})
		}
		add("meta", ms)
	}
	add("output", str([]string{"text", "json", "structured"}[t.outKind]))
	add("package", str(t.pkg.PkgPath))
	add("type", str(t.obj.Name()))
	if len(t.secrets) > 0 {
		ss := &jsontree.Node{Kind: jsonlex.Array}
		for _, p := range t.secrets {
			ss.Items = append(ss.Items, str(p))
		}
		add("secrets", ss)
	}
	if t.hasOffered {
		add("decidesOffer", boolean(true))
	}
	if t.hasLogArgs {
		add("logsArgs", boolean(true))
	}
	if t.deferred {
		add("defer", boolean(true))
	}
	if ui := manifestUI(&t.ui); ui != nil {
		add("ui", ui)
	}
	add("description", str(t.description))
	if p != nil {
		add("openai", providerNote("strict", boolean(p.OpenAIChat.Strict), p.OpenAIChat))
		add("gemini", providerNote("form", str(string(p.Gemini.Form)), p.Gemini))
	}
	add("inputSchema", t.inNode)
	if t.outNode != nil {
		add("outputSchema", t.outNode)
	}
	return o
}

// providerNote is what a reviewer needs to know of one provider's
// definition: strictness or form, why, and which keywords it leaves out
// (the decoder still enforces them).
func providerNote(key string, value *jsontree.Node, p provider.Projection) *jsontree.Node {
	o := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: key, Value: value}}}
	if p.Reason != "" {
		o.Members = append(o.Members, jsontree.Member{Key: "reason", Value: str(p.Reason)})
	}
	if len(p.Dropped) > 0 {
		d := &jsontree.Node{Kind: jsonlex.Array}
		for _, ptr := range p.Dropped {
			d.Items = append(d.Items, str(ptr))
		}
		o.Members = append(o.Members, jsontree.Member{Key: "dropped", Value: d})
	}
	return o
}

func str(s string) *jsontree.Node   { return &jsontree.Node{Kind: jsonlex.String, Text: s} }
func boolean(b bool) *jsontree.Node { return &jsontree.Node{Kind: jsonlex.Bool, Bool: b} }
