package gen

import (
	"path/filepath"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
)

// manifestOf is the manifest phase: tools.json beside the registry.
func manifestOf(opts *Options, m *model, proj map[*toolModel]*provider.Precomputed) File {
	return File{Path: filepath.Join(opts.outDir(), manifestFile), Data: manifest(m, proj)}
}

// manifest renders tools.json: every tool, sorted by name, with what the
// model sees (name, description, schemas) and what the runtime reads (kind,
// hints, timeout, permissions, meta, and, when a tool has them, its
// secrets and whether it has Offered and LogArgs methods), then every
// skill, sorted by name (9_render_skills.go). It is
// pretty-printed for code review: a change to what the model sees shows up
// in the diff. The generated Go holds the exact compact bytes.
func manifest(m *model, proj map[*toolModel]*provider.Precomputed) []byte {
	var list []*jsontree.Node
	for _, t := range m.tools {
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
		add("description", str(t.description))
		if p := proj[t]; p != nil {
			add("openai", providerNote("strict", boolean(p.OpenAIChat.Strict), p.OpenAIChat))
			add("gemini", providerNote("form", str(string(p.Gemini.Form)), p.Gemini))
		}
		add("inputSchema", t.inNode)
		if t.outNode != nil {
			add("outputSchema", t.outNode)
		}
		list = append(list, o)
	}
	list = append(list, skillEntries(m.skills)...)
	root := &jsontree.Node{Kind: jsonlex.Array, Items: list}
	return append(root.Indent("", "  "), '\n')
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
