package provider

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// refsAlone rewrites root, the input schema a Gemini declaration sends as
// "parametersJsonSchema", in place, so that no "$ref" has a sibling
// keyword but those starting with "$". Gemini documents its JSON Schema
// subset in the reference of GenerationConfig.responseJsonSchema
// (https://ai.google.dev/api/generate-content#generationconfig), which
// parametersJsonSchema shares: "If $ref is set on a sub-schema, no other
// properties, except for than those starting as a $, may be set." invopop
// writes {"$ref":"#/$defs/Color","description":"Label color."} for a
// field of a named type, and the description is what the model reads.
//
// A reference with other siblings is replaced by the definition it names
// merged with the siblings (theirs win), as "parameters" inlines every
// reference, so the property keeps its description and the definition's
// constraints; when both have a description, the inlined schema has both
// (joinDescriptions). A recursive one (its definition is being inlined
// around it, or it names the root) or one that does not resolve cannot be
// inlined, and when inlining would grow the schema past maxVisits schemas
// none is: such a reference is wrapped instead,
//
//	{"anyOf":[{"$ref":R}],"description":D}
//
// a single alternative, which accepts exactly what R accepts, beside
// which the subset allows every keyword. A sibling "anyOf" cannot stand
// beside that one: it is left out and returned in dropped (the decoder
// still enforces it). Definitions of the root that references named
// before and none names once they are inlined are removed; others stay
// as the author wrote them.
func refsAlone(root *jsontree.Node) (dropped []string) {
	before := reachedDefinitions(root)
	trial := root.Clone()
	r := &refRewriter{root: trial, inlining: []*jsontree.Node{trial}}
	r.children(trial, "")
	if r.visits > maxVisits {
		// Inlining multiplies the schema: wrap every reference instead.
		r = &refRewriter{root: root, inlining: []*jsontree.Node{root}, wrapOnly: true}
		r.children(root, "")
	} else {
		*root = *trial
	}
	if before != nil {
		pruneDefinitions(root, before)
	}
	return r.dropped
}

// refRewriter is the walk of refsAlone.
type refRewriter struct {
	root     *jsontree.Node
	inlining []*jsontree.Node // the definitions being inlined around the schema walked, the root first
	wrapOnly bool             // wrap every reference with siblings, inline none
	visits   int
	dropped  []string
}

// rewrite returns the schema n (at ptr) with no "$ref" beside a keyword
// that does not start with "$", at any depth. It changes n in place, or
// returns a new schema.
func (r *refRewriter) rewrite(n *jsontree.Node, ptr string) *jsontree.Node {
	if n == nil || n.Kind != jsonlex.Object {
		return n
	}
	r.visits++
	ref := n.Get("$ref")
	if ref == nil || !hasPlainSibling(n) {
		r.children(n, ptr)
		return n
	}
	var target *jsontree.Node
	if ref.Kind == jsonlex.String {
		target = localRef(r.root, ref.Text)
	}
	if target == nil || slices.Contains(r.inlining, target) || r.wrapOnly {
		return r.wrap(n, ptr)
	}
	if r.visits > maxVisits {
		return n // refsAlone starts again, wrapping only
	}
	merged := merge(target, n, "$ref")
	// The definitions stay where they are (references are absolute).
	merged.Members = slices.DeleteFunc(merged.Members, func(m jsontree.Member) bool { return m.Key == "$defs" || m.Key == "definitions" })
	merged = merged.Clone()
	if d := joinDescriptions(n.Get("description"), target.Get("description")); d != nil {
		set(merged, "description", d)
	}
	r.inlining = append(r.inlining, target)
	defer func() { r.inlining = r.inlining[:len(r.inlining)-1] }()
	return r.rewrite(merged, ptr)
}

// joinDescriptions returns the description of a reference's schema
// inlined with its definition when both have one, and they differ: the
// reference's, then the definition's, as two paragraphs. Both describe
// the value (JSON Schema applies the annotations of both): the field's
// says what it is for, the type's what it looks like, and the model
// should read both.
func joinDescriptions(site, def *jsontree.Node) *jsontree.Node {
	if site == nil || def == nil || site.Kind != jsonlex.String || def.Kind != jsonlex.String ||
		def.Text == "" || site.Text == def.Text {
		return nil
	}
	if site.Text == "" {
		return def
	}
	return str(site.Text + "\n\n" + def.Text)
}

// wrap returns n (at ptr), a schema whose "$ref" has siblings that do not
// start with "$", as a one-alternative anyOf holding the reference, the
// siblings beside it.
func (r *refRewriter) wrap(n *jsontree.Node, ptr string) *jsontree.Node {
	inner := &jsontree.Node{Kind: jsonlex.Object}
	out := &jsontree.Node{Kind: jsonlex.Object}
	for _, m := range n.Members {
		switch {
		case strings.HasPrefix(m.Key, "$"):
			inner.Members = append(inner.Members, m)
		case m.Key == "anyOf":
			r.dropped = append(r.dropped, pointer(ptr, m.Key))
		default:
			out.Members = append(out.Members, m)
		}
	}
	out.Members = append(out.Members, jsontree.Member{Key: "anyOf", Value: &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{inner}}})
	out = out.Clone()
	r.children(out, ptr)
	return out
}

// children rewrites, in place, every schema n (at ptr) holds: the values
// of the keywords that hold schemas, the members of those that map names
// to schemas, the items of those that list them. A definition is walked
// as being inlined: a reference to it from inside it is recursive.
func (r *refRewriter) children(n *jsontree.Node, ptr string) {
	for i := range n.Members {
		m := &n.Members[i]
		at := pointer(ptr, m.Key)
		switch v := m.Value; {
		case slices.Contains(schemaMaps, m.Key) && v.Kind == jsonlex.Object:
			for j := range v.Members {
				def := m.Key == "$defs" || m.Key == "definitions"
				if def {
					r.inlining = append(r.inlining, v.Members[j].Value)
				}
				v.Members[j].Value = r.rewrite(v.Members[j].Value, pointer(at, v.Members[j].Key))
				if def {
					r.inlining = r.inlining[:len(r.inlining)-1]
				}
			}
		case slices.Contains(schemaLists, m.Key) && v.Kind == jsonlex.Array:
			for j, it := range v.Items {
				v.Items[j] = r.rewrite(it, pointer(at, strconv.Itoa(j)))
			}
		case slices.Contains(schemaMembers, m.Key):
			m.Value = r.rewrite(v, at)
		}
	}
}

// hasPlainSibling reports whether the schema n has a member whose name
// does not start with "$".
func hasPlainSibling(n *jsontree.Node) bool {
	return slices.ContainsFunc(n.Members, func(m jsontree.Member) bool { return !strings.HasPrefix(m.Key, "$") })
}

// reachedDefinitions returns the names of the definitions of root (members
// of its "$defs" or "definitions", as "$defs/NAME") that references reach:
// references from root outside them, then from the definitions those
// reach. It returns nil when a reference is not a JSON Pointer fragment
// ("#/..." or "#"), such as one naming an $anchor, which could reach any
// of them.
func reachedDefinitions(root *jsontree.Node) map[string]bool {
	reached := map[string]bool{}
	var queue []*jsontree.Node
	unknown := false
	var collect func(n *jsontree.Node, top bool)
	collect = func(n *jsontree.Node, top bool) {
		switch n.Kind {
		case jsonlex.Object:
			for _, m := range n.Members {
				switch {
				case top && (m.Key == "$defs" || m.Key == "definitions"):
				case m.Key == "$ref" && m.Value.Kind == jsonlex.String:
					ref := m.Value.Text
					if ref != "#" && !strings.HasPrefix(ref, "#/") {
						unknown = true
					}
					if name, def := definitionOf(root, ref); def != nil && !reached[name] {
						reached[name] = true
						queue = append(queue, def)
					}
				default:
					collect(m.Value, false)
				}
			}
		case jsonlex.Array:
			for _, it := range n.Items {
				collect(it, false)
			}
		}
	}
	collect(root, true)
	for len(queue) > 0 {
		def := queue[0]
		queue = queue[1:]
		collect(def, false)
	}
	if unknown {
		return nil
	}
	return reached
}

// pruneDefinitions removes from root the definitions before names (see
// reachedDefinitions) that references no longer reach, and a "$defs" or
// "definitions" left empty by that.
func pruneDefinitions(root *jsontree.Node, before map[string]bool) {
	after := reachedDefinitions(root)
	if after == nil {
		return
	}
	root.Members = slices.DeleteFunc(root.Members, func(m jsontree.Member) bool {
		if (m.Key != "$defs" && m.Key != "definitions") || m.Value.Kind != jsonlex.Object || len(m.Value.Members) == 0 {
			return false
		}
		m.Value.Members = slices.DeleteFunc(m.Value.Members, func(d jsontree.Member) bool {
			name := m.Key + "/" + d.Key
			return before[name] && !after[name]
		})
		return len(m.Value.Members) == 0
	})
}

// definitionOf returns the definition of root (a member of its "$defs" or
// "definitions") that the local reference ref names or points into, and
// its name as "$defs/NAME"; nil when there is none.
func definitionOf(root *jsontree.Node, ref string) (string, *jsontree.Node) {
	for _, key := range []string{"$defs", "definitions"} {
		rest, ok := strings.CutPrefix(ref, "#/"+key+"/")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		defs := root.Get(key)
		if defs == nil || defs.Kind != jsonlex.Object {
			return "", nil
		}
		for _, m := range defs.Members {
			if m.Key == unescapeToken(name) {
				return key + "/" + m.Key, m.Value
			}
		}
	}
	return "", nil
}

// unescapeToken undoes the escapes of a JSON Pointer token: "~1" is "/",
// "~0" is "~".
func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
