package codecplan

import (
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// annotations are keywords that constrain nothing.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
	"$id": true, "$anchor": true, "contentMediaType": true,
}

// view is a schema position: the keywords at a site merged with those of
// the definition it references, and whether null is allowed there.
type view struct {
	kw       []jsontree.Member // site keywords then the referenced definition's
	nullable bool
	ref      *jsontree.Node // the referenced definition, if any
}

func (w view) get(key string) *jsontree.Node {
	for _, m := range w.kw {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// all returns every value of key (a $ref sibling and its target may both
// carry one; both must hold).
func (w view) all(key string) []*jsontree.Node {
	var out []*jsontree.Node
	for _, m := range w.kw {
		if m.Key == key {
			out = append(out, m.Value)
		}
	}
	return out
}

// requiredOf is the set of properties the object schema at w requires.
func requiredOf(w view) map[string]bool {
	required := map[string]bool{}
	if r := w.get("required"); r != nil {
		for _, it := range r.Items {
			required[it.Text] = true
		}
	}
	return required
}

// viewOf resolves a schema position against root. It recognises invopop's
// nullable form, {"oneOf":[S,{"type":"null"}]}, and a type list holding
// "null".
func viewOf(n, root *jsontree.Node) view {
	var w view
	if n == nil {
		return w
	}
	if one := n.Get("oneOf"); one != nil && one.Kind == jsonlex.Array && len(one.Items) == 2 {
		if t := one.Items[1].Get("type"); t != nil && t.Kind == jsonlex.String && t.Text == "null" && len(one.Items[1].Members) == 1 {
			inner := viewOf(one.Items[0], root)
			inner.nullable = true
			for _, m := range n.Members {
				if m.Key != "oneOf" {
					inner.kw = append([]jsontree.Member{m}, inner.kw...)
				}
			}
			return inner
		}
	}
	for _, m := range n.Members {
		if m.Key == "$ref" {
			continue
		}
		w.kw = append(w.kw, m)
	}
	if r := n.Get("$ref"); r != nil {
		def := n.Resolve(root)
		if def != nil && def != n {
			w.ref = def
			inner := viewOf(def, root)
			w.kw = append(w.kw, inner.kw...)
			w.nullable = w.nullable || inner.nullable
		}
	}
	if t := w.get("type"); t != nil && t.Kind == jsonlex.Array {
		var rest []*jsontree.Node
		for _, it := range t.Items {
			if it.Kind == jsonlex.String && it.Text == "null" {
				w.nullable = true
			} else {
				rest = append(rest, it)
			}
		}
		if len(rest) == 1 {
			for i, m := range w.kw {
				if m.Key == "type" {
					w.kw[i] = jsontree.Member{Key: "type", Value: rest[0]}
				}
			}
		}
	}
	return w
}

// allowed is the set of keywords a shape kind enforces.
func allowed(k shape.Kind) map[string]bool {
	set := func(keys ...string) map[string]bool {
		m := map[string]bool{"type": true}
		for _, k := range keys {
			m[k] = true
		}
		return m
	}
	switch k {
	case shape.String:
		return set("enum", "const", "minLength", "maxLength", "pattern", "format")
	case shape.TextMethod:
		return set("enum", "const", "minLength", "maxLength", "pattern", "format")
	case shape.Time:
		return set("format")
	case shape.Bytes:
		return set("contentEncoding")
	case shape.Int, shape.Uint, shape.Float:
		return set("enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
	case shape.Bool:
		return set("enum", "const")
	case shape.Slice, shape.Array:
		return set("items", "minItems", "maxItems", "uniqueItems")
	case shape.Map:
		return set("additionalProperties", "minProperties", "maxProperties")
	case shape.Struct:
		return set("properties", "required", "additionalProperties")
	case shape.JSONMethod:
		return set()
	}
	return map[string]bool{} // shape.Any: annotations only
}

// jsonType is the schema type a shape kind must publish.
func jsonType(k shape.Kind) string {
	switch k {
	case shape.String, shape.TextMethod, shape.Time, shape.Bytes:
		return "string"
	case shape.Int, shape.Uint:
		return "integer"
	case shape.Float:
		return "number"
	case shape.Bool:
		return "boolean"
	case shape.Slice, shape.Array:
		return "array"
	case shape.Map, shape.Struct:
		return "object"
	}
	return ""
}

// check reports every keyword at w that the shape cannot enforce, and a
// type that does not match the Go type.
func (g *Planner) check(s *shape.Shape, w view, at site) bool {
	ok := true
	ak := allowed(s.Kind)
	for _, m := range w.kw {
		if annotations[m.Key] || ak[m.Key] || (m.Key == "$defs" && s.Kind == shape.Struct) {
			continue
		}
		g.fail(at, "the schema keyword %q is published but toolgen cannot enforce it on %s; remove it (toolgen never publishes a constraint it does not check)", m.Key, shape.TypeString(s.Type))
		ok = false
	}
	if t := w.get("type"); t != nil {
		want := jsonType(s.Kind)
		switch {
		case t.Kind != jsonlex.String:
			g.fail(at, "the schema type %s is not supported; use one type (optionally with null via the nullable tag)", string(t.Compact()))
			ok = false
		case s.Kind == shape.JSONMethod:
		case t.Text != want:
			g.fail(at, "the schema says type %q but the Go type %s is decoded as %q", t.Text, shape.TypeString(s.Type), want)
			ok = false
		}
	}
	if f := w.get("format"); f != nil && (s.Kind == shape.String || s.Kind == shape.TextMethod || s.Kind == shape.Time) {
		if f.Text != "date-time" {
			g.fail(at, "format %q is not enforced by toolgen (only date-time is); remove it or check the value in Call and return tool.Errorf", f.Text)
			ok = false
		}
	}
	if c := w.get("contentEncoding"); c != nil && c.Text != "base64" {
		g.fail(at, "contentEncoding %q is not supported (only base64)", c.Text)
		ok = false
	}
	return ok
}

// want describes what a site declares, for "expected <want>, got <kind>".
func want(s *shape.Shape, w view) string {
	base := jsonType(s.Kind)
	if t := w.get("type"); t != nil && t.Kind == jsonlex.String {
		base = t.Text
	}
	if base == "" {
		base = "a JSON value"
	}
	var parts []string
	for _, m := range w.kw {
		switch m.Key {
		case "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "minProperties", "maxProperties", "pattern":
			parts = append(parts, m.Key+" "+literal(m.Value))
		case "format":
			parts = append(parts, "format "+m.Value.Text)
		case "enum":
			parts = append(parts, "one of "+enumList(m.Value))
		case "const":
			parts = append(parts, "const "+string(m.Value.Compact()))
		}
	}
	if s.Kind == shape.Time {
		base = "string"
		if len(parts) == 0 {
			parts = append(parts, "format date-time")
		}
	}
	if w.nullable {
		base += " or null"
	}
	if len(parts) > 0 {
		return base + " (" + strings.Join(parts, ", ") + ")"
	}
	return base
}

func literal(n *jsontree.Node) string {
	if n.Kind == jsonlex.String {
		return n.Text
	}
	return string(n.Compact())
}

func enumList(n *jsontree.Node) string {
	var vals []string
	for _, it := range n.Items {
		vals = append(vals, string(it.Compact()))
	}
	return strings.Join(vals, ", ")
}

// viewKey identifies a schema view for function reuse.
func viewKey(w view) string {
	var b strings.Builder
	for _, m := range w.kw {
		if m.Key == "$defs" {
			continue
		}
		b.WriteString(m.Key)
		b.WriteByte('=')
		b.Write(m.Value.Compact())
		b.WriteByte(';')
	}
	if w.nullable {
		b.WriteString("null")
	}
	return b.String()
}
