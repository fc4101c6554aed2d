package provider

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// geminiTypes maps JSON Schema type names to the OpenAPI subset's.
var geminiTypes = map[string]string{
	"string": "STRING", "number": "NUMBER", "integer": "INTEGER", "boolean": "BOOLEAN",
	"array": "ARRAY", "object": "OBJECT", "null": "NULL",
}

// geminiFormats lists the formats the subset supports, per type.
var geminiFormats = map[string][]string{
	"STRING":  {"date-time", "enum"},
	"INTEGER": {"int32", "int64"},
	"NUMBER":  {"float", "double"},
}

// geminiKept are the keywords the subset has under the same name and
// meaning, copied as they are.
var geminiKept = map[string]bool{
	"description": true, "title": true, "pattern": true, "default": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true,
	"minItems": true, "maxItems": true, "minProperties": true, "maxProperties": true,
}

// geminiUnsupported are the applicators the subset lacks: a schema that
// uses one falls back to parametersJsonSchema.
var geminiUnsupported = map[string]bool{
	"allOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentSchemas": true, "patternProperties": true, "propertyNames": true,
	"prefixItems": true, "contains": true, "unevaluatedItems": true,
	"unevaluatedProperties": true, "additionalItems": true,
}

// Gemini returns spec's function declaration:
//
//	{"description":D,"name":N,"parameters":P}
//	{"description":D,"name":N,"parametersJsonSchema":P}
//	{"description":D,"name":N}
//
// "parameters" when the input schema translates into the OpenAPI subset,
// "parametersJsonSchema" otherwise, with the reason (see the package
// documentation for the rule), and neither when the tool takes no
// arguments (see noArguments). Members are sorted at every level and
// numbers written as float64s, as the Go SDK sends them.
func Gemini(spec *tool.Spec) (Projection, error) {
	root, err := inputSchema(ProviderGemini, spec, geminiNamePattern)
	if err != nil {
		return Projection{}, err
	}
	if dropped, ok := noArguments(root); ok {
		def := object(
			jsontree.Member{Key: "description", Value: description(spec)},
			jsontree.Member{Key: "name", Value: str(spec.Name)},
		)
		canonical(def)
		return Projection{JSON: def.Compact(), Form: FormNone, Dropped: dropped}, nil
	}
	gp := &geminiProjector{root: root}
	params := gp.schema(root, "", []*jsontree.Node{root})
	p := Projection{Form: FormParameters, Dropped: gp.dropped}
	if len(gp.reasons) > 0 {
		addPropertyOrdering(root)
		params = root
		p = Projection{Form: FormJSONSchema, Reason: strings.Join(gp.reasons, "; ")}
	}
	def := object(
		jsontree.Member{Key: "description", Value: description(spec)},
		jsontree.Member{Key: "name", Value: str(spec.Name)},
		jsontree.Member{Key: string(p.Form), Value: params},
	)
	canonical(def)
	p.JSON = def.Compact()
	return p, nil
}

// geminiAnnotations are the keywords of a root schema that say nothing of
// the arguments: a tool without arguments may have them (see noArguments).
var geminiAnnotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "$defs": true, "definitions": true,
	"title": true, "description": true, "default": true, "examples": true,
}

// noArguments reports whether the object schema root says the tool takes
// no arguments: no properties (or none listed), none required, and
// "additionalProperties":false, beside annotations only. Such a tool is
// declared without parameters: the field is optional, and Gemini has
// refused "parameters":{"type":"OBJECT"} (an object without properties).
// dropped lists the annotations left out with the schema. An object open
// to any property is not such a tool: it may take arguments by any name.
func noArguments(root *jsontree.Node) (dropped []string, ok bool) {
	closed := false
	for _, m := range root.Members {
		v := m.Value
		switch {
		case m.Key == "type":
			// "object": inputSchema checked it.
		case m.Key == "properties":
			if v.Kind != jsonlex.Object || len(v.Members) > 0 {
				return nil, false
			}
		case m.Key == "required":
			if v.Kind != jsonlex.Array || len(v.Items) > 0 {
				return nil, false
			}
		case m.Key == "additionalProperties":
			if v.Kind != jsonlex.Bool || v.Bool {
				return nil, false
			}
			closed = true
		case geminiAnnotations[m.Key]:
			dropped = append(dropped, pointer("", m.Key))
		default:
			return nil, false
		}
	}
	if !closed {
		return nil, false
	}
	return dropped, true
}

// geminiProjector translates a JSON Schema into the OpenAPI subset,
// building a new tree.
type geminiProjector struct {
	root    *jsontree.Node
	reasons []string // why the schema needs parametersJsonSchema, in order
	dropped []string // pointers of the keywords left out
	visits  int      // schemas translated so far, against the growth of inlined references
}

// fail records why the subset cannot express the schema.
func (g *geminiProjector) fail(ptr, format string, args ...any) {
	g.reasons = append(g.reasons, where(ptr)+" "+fmt.Sprintf(format, args...))
}

// schema translates the schema n found at ptr; refs are the definitions
// being inlined around it.
func (g *geminiProjector) schema(n *jsontree.Node, ptr string, refs []*jsontree.Node) *jsontree.Node {
	switch {
	case n.Kind == jsonlex.Bool && n.Bool:
		g.fail(ptr, "accepts any JSON value, which parameters cannot express")
		return n
	case n.Kind == jsonlex.Bool:
		g.fail(ptr, "accepts no value (the schema false), which parameters cannot express")
		return n
	case n.Kind != jsonlex.Object:
		g.fail(ptr, "is not a schema")
		return n
	}
	if g.visits++; g.visits > maxVisits {
		if g.visits == maxVisits+1 {
			g.fail("", "grows over %d schemas once its references are inlined", maxVisits)
		}
		return n
	}
	if ref := n.Get("$ref"); ref != nil {
		if ref.Kind != jsonlex.String {
			g.fail(pointer(ptr, "$ref"), "is not a string")
			return n
		}
		target := localRef(g.root, ref.Text)
		switch {
		case target == nil:
			g.fail(ptr, "has the reference %q, which does not resolve to a local definition", ref.Text)
			return n
		case slices.Contains(refs, target):
			g.fail(ptr, "is recursive (through %s): inlining it into parameters would never end", ref.Text)
			return n
		}
		return g.schema(merge(target, n, "$ref"), ptr, append(refs, target))
	}
	// S or null, as oneOf or anyOf, but not both: with the other beside
	// it, null is not necessarily accepted.
	for _, key := range []string{"oneOf", "anyOf"} {
		if s := nullablePair(n, key); s != nil && (n.Get("oneOf") == nil || n.Get("anyOf") == nil) {
			out := g.schema(merge(s, n, key), ptr, refs)
			if out.Kind == jsonlex.Object {
				set(out, "nullable", boolean(true))
			}
			return out
		}
	}
	out := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{}}
	typ := ""
	if t := n.Get("type"); t != nil {
		name, nullable := "", false
		switch t.Kind {
		case jsonlex.String:
			name = t.Text
		case jsonlex.Array:
			var ok bool
			if name, ok = typeOrNull(t); !ok {
				g.fail(ptr, "has the type union %s, which parameters cannot express", t.Compact())
				return n
			}
			nullable = name != "null" && len(t.Items) == 2
		}
		if typ = geminiTypes[name]; typ == "" {
			g.fail(pointer(ptr, "type"), "is not a type name")
			return n
		}
		out.Members = append(out.Members, jsontree.Member{Key: "type", Value: str(typ)})
		if nullable {
			out.Members = append(out.Members, jsontree.Member{Key: "nullable", Value: boolean(true)})
		}
	}
	// bad: a keyword of this very schema failed; say nothing more about it.
	bad := false
	failHere := func(ptr, format string, args ...any) {
		bad = true
		g.fail(ptr, format, args...)
	}
	for _, m := range n.Members {
		at := pointer(ptr, m.Key)
		v := m.Value
		switch {
		case m.Key == "type":
		case m.Key == "properties":
			if v.Kind != jsonlex.Object {
				failHere(at, "is not an object")
				continue
			}
			props := &jsontree.Node{Kind: jsonlex.Object, Members: make([]jsontree.Member, 0, len(v.Members))}
			for _, pm := range v.Members {
				props.Members = append(props.Members, jsontree.Member{Key: pm.Key, Value: g.schema(pm.Value, pointer(at, pm.Key), refs)})
			}
			if len(props.Members) > 0 {
				out.Members = append(out.Members, jsontree.Member{Key: "properties", Value: props})
			}
			if order := propertyOrdering(v); order != nil {
				out.Members = append(out.Members, jsontree.Member{Key: "propertyOrdering", Value: order})
			}
		case m.Key == "required":
			if v.Kind == jsonlex.Array && len(v.Items) > 0 {
				out.Members = append(out.Members, m)
			}
		case m.Key == "additionalProperties":
			switch {
			case v.Kind == jsonlex.Bool && !v.Bool:
				g.dropped = append(g.dropped, at)
			case v.Kind == jsonlex.Bool:
				failHere(ptr, "accepts any property (additionalProperties true), which parameters cannot express")
			default:
				failHere(ptr, "is a map (additionalProperties is a schema), which parameters cannot express")
			}
		case m.Key == "items":
			if v.Kind == jsonlex.Array {
				failHere(at, "is a tuple, which parameters cannot express")
				continue
			}
			out.Members = append(out.Members, jsontree.Member{Key: "items", Value: g.schema(v, at, refs)})
		case m.Key == "anyOf" || (m.Key == "oneOf" && constOneOf(n)):
			// A oneOf of distinct consts is an anyOf, which the subset has.
			if v.Kind != jsonlex.Array || len(v.Items) == 0 {
				failHere(at, "is not a non-empty array")
				continue
			}
			alt := &jsontree.Node{Kind: jsonlex.Array, Items: make([]*jsontree.Node, len(v.Items))}
			for i, it := range v.Items {
				alt.Items[i] = g.schema(it, pointer(at, strconv.Itoa(i)), refs)
			}
			out.Members = append(out.Members, jsontree.Member{Key: "anyOf", Value: alt})
		case m.Key == "enum" && v.Kind != jsonlex.Array:
			failHere(at, "is not an array")
		case m.Key == "enum":
			if !allStrings(v.Items) {
				failHere(at, "has values that are not strings, which parameters cannot express (its enums are strings)")
				continue
			}
			if len(v.Items) > 0 {
				out.Members = append(out.Members, m)
			}
		case m.Key == "const":
			if n.Get("enum") != nil {
				failHere(ptr, "has both enum and const, which parameters cannot express (const becomes an enum)")
				continue
			}
			if v.Kind != jsonlex.String {
				failHere(at, "is not a string, which parameters cannot express (its enums are strings)")
				continue
			}
			out.Members = append(out.Members, jsontree.Member{Key: "enum", Value: &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{v}}})
		case m.Key == "format":
			if v.Kind != jsonlex.String || !slices.Contains(geminiFormats[typ], v.Text) {
				g.dropped = append(g.dropped, at)
				continue
			}
			out.Members = append(out.Members, m)
		case m.Key == "examples":
			if v.Kind == jsonlex.Array && len(v.Items) > 0 && v.Items[0].Kind != jsonlex.Null {
				out.Members = append(out.Members, jsontree.Member{Key: "example", Value: v.Items[0]})
			}
		case m.Key == "$defs" || m.Key == "definitions":
			// Inlined where referenced.
		case geminiKept[m.Key]:
			if v.Kind == jsonlex.Null || (v.Kind == jsonlex.String && v.Text == "") {
				continue // the SDK leaves these out
			}
			out.Members = append(out.Members, m)
		case geminiUnsupported[m.Key]:
			failHere(ptr, "uses %s, which parameters cannot express", m.Key)
		default:
			g.dropped = append(g.dropped, at)
		}
	}
	if bad {
		return out
	}
	if typ == "" {
		switch {
		case n.Get("properties") != nil:
			out.Members = append(out.Members, jsontree.Member{Key: "type", Value: str("OBJECT")})
		case n.Get("anyOf") != nil || constOneOf(n):
		case n.Get("enum") != nil || n.Get("const") != nil:
			out.Members = append(out.Members, jsontree.Member{Key: "type", Value: str("STRING")})
		default:
			g.fail(ptr, "accepts any JSON value (it has no type), which parameters cannot express")
		}
	}
	if typ == "OBJECT" && n.Get("properties") == nil {
		if ap := n.Get("additionalProperties"); ap == nil {
			g.fail(ptr, "accepts any object, which parameters cannot express")
		}
	}
	return out
}

// merge returns the members of target overridden by those of site, but
// for the member named skip, as a new node sharing their values.
func merge(target, site *jsontree.Node, skip string) *jsontree.Node {
	out := &jsontree.Node{Kind: jsonlex.Object, Members: slices.Clone(target.Members)}
	for _, m := range site.Members {
		if m.Key != skip {
			set(out, m.Key, m.Value)
		}
	}
	return out
}

// allStrings reports whether every node is a string.
func allStrings(items []*jsontree.Node) bool {
	for _, it := range items {
		if it.Kind != jsonlex.String {
			return false
		}
	}
	return true
}

// propertyOrdering returns the names of the members of props as an array,
// or nil when there are fewer than two.
func propertyOrdering(props *jsontree.Node) *jsontree.Node {
	if len(props.Members) < 2 {
		return nil
	}
	order := &jsontree.Node{Kind: jsonlex.Array, Items: make([]*jsontree.Node, len(props.Members))}
	for i, pm := range props.Members {
		order.Items[i] = str(pm.Key)
	}
	return order
}

// schemaMembers are the keywords whose value is a schema; schemaMaps and
// schemaLists those whose value maps names to schemas or lists schemas.
var (
	schemaMembers = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
	schemaMaps  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaLists = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// addPropertyOrdering adds "propertyOrdering" after "properties" in every
// schema of the tree n (not in values such as defaults or examples) that
// has at least two properties and no propertyOrdering yet.
func addPropertyOrdering(n *jsontree.Node) {
	if n == nil || n.Kind != jsonlex.Object {
		return
	}
	if props := n.Get("properties"); props != nil && props.Kind == jsonlex.Object && n.Get("propertyOrdering") == nil {
		if order := propertyOrdering(props); order != nil {
			insertAfter(n, "properties", "propertyOrdering", order)
		}
	}
	for _, k := range schemaMembers {
		addPropertyOrdering(n.Get(k))
	}
	for _, k := range schemaMaps {
		if v := n.Get(k); v != nil && v.Kind == jsonlex.Object {
			for _, m := range v.Members {
				addPropertyOrdering(m.Value)
			}
		}
	}
	for _, k := range schemaLists {
		if v := n.Get(k); v != nil && v.Kind == jsonlex.Array {
			for _, it := range v.Items {
				addPropertyOrdering(it)
			}
		}
	}
}

// canonical rewrites n as encoding/json writes a map[string]any holding
// it: members sorted byte-wise at every level, numbers as float64s.
func canonical(n *jsontree.Node) {
	switch n.Kind {
	case jsonlex.Object:
		slices.SortStableFunc(n.Members, func(a, b jsontree.Member) int { return strings.Compare(a.Key, b.Key) })
		for _, m := range n.Members {
			canonical(m.Value)
		}
	case jsonlex.Array:
		for _, it := range n.Items {
			canonical(it)
		}
	case jsonlex.Number:
		n.Text = float64Literal(n.Text)
	}
}

// float64Literal returns the number literal s as encoding/json writes the
// float64 it parses to; s itself when it is out of range.
func float64Literal(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}
