package gen

import (
	"strconv"

	"github.com/toolgen-go/toolgen/provider"
	"github.com/toolgen-go/toolgen/schema"
)

// manifest renders tools.json: every tool, sorted by name, with what the
// model sees (name, description, schemas) and what the runtime reads (kind,
// hints, timeout, permissions, meta). It is pretty-printed for code review:
// a change to what the model sees shows up in the diff. The generated Go
// holds the exact compact bytes.
func manifest(tools []*toolModel, proj map[*toolModel]*provider.Precomputed) []byte {
	var list []*schema.Node
	for _, t := range tools {
		o := &schema.Node{Kind: schema.ObjectKind}
		add := func(k string, v *schema.Node) { o.Members = append(o.Members, schema.Member{Key: k, Value: v}) }
		add("name", str(t.name))
		if t.title != "" {
			add("title", str(t.title))
		}
		if t.verb != "" {
			add("verb", str(t.verb))
		}
		add("group", str(t.group))
		add("weight", &schema.Node{Kind: schema.NumberKind, Text: strconv.Itoa(t.weight)})
		add("kind", str(t.kind))
		add("readOnly", boolean(t.readOnly))
		add("destructive", boolean(t.destructive))
		add("idempotent", boolean(t.idempotent))
		add("openWorld", boolean(t.openWorld))
		if t.timeout > 0 {
			add("timeout", str(t.timeout.String()))
		}
		if len(t.permissions) > 0 {
			ps := &schema.Node{Kind: schema.ArrayKind}
			for _, p := range t.permissions {
				ps.Items = append(ps.Items, str(p))
			}
			add("permissions", ps)
		}
		if len(t.meta) > 0 {
			ms := &schema.Node{Kind: schema.ObjectKind}
			for _, kv := range t.meta {
				ms.Members = append(ms.Members, schema.Member{Key: kv[0], Value: str(kv[1])})
			}
			add("meta", ms)
		}
		add("output", str([]string{"text", "json", "structured"}[t.outKind]))
		add("package", str(t.pkg.PkgPath))
		add("type", str(t.obj.Name()))
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
	root := &schema.Node{Kind: schema.ArrayKind, Items: list}
	return append(root.Indent("", "  "), '\n')
}

// providerNote is what a reviewer needs to know of one provider's
// definition: strictness or form, why, and which keywords it leaves out
// (the decoder still enforces them).
func providerNote(key string, value *schema.Node, p provider.Projection) *schema.Node {
	o := &schema.Node{Kind: schema.ObjectKind, Members: []schema.Member{{Key: key, Value: value}}}
	if p.Reason != "" {
		o.Members = append(o.Members, schema.Member{Key: "reason", Value: str(p.Reason)})
	}
	if len(p.Dropped) > 0 {
		d := &schema.Node{Kind: schema.ArrayKind}
		for _, ptr := range p.Dropped {
			d.Items = append(d.Items, str(ptr))
		}
		o.Members = append(o.Members, schema.Member{Key: "dropped", Value: d})
	}
	return o
}

func str(s string) *schema.Node   { return &schema.Node{Kind: schema.StringKind, Text: s} }
func boolean(b bool) *schema.Node { return &schema.Node{Kind: schema.BoolKind, Bool: b} }
