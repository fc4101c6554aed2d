package provider

import (
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
	gp := &geminiProjector{walk: walk{root: root, subset: "parameters", grows: "inlined", lacks: "parameters cannot express"}}
	params := gp.schema(root, "", []*jsontree.Node{root})
	p := Projection{Form: FormParameters, Dropped: gp.dropped}
	if len(gp.reasons) > 0 {
		dropped := refsAlone(root)
		addPropertyOrdering(root)
		params = root
		p = Projection{Form: FormJSONSchema, Reason: strings.Join(gp.reasons, "; "), Dropped: dropped}
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
	walk
}

// geminiSchema is one schema being translated: the schema n found at ptr,
// refs the definitions being inlined around it, typ its type in the
// subset ("" when it has none yet) and out the translation.
type geminiSchema struct {
	g    *geminiProjector
	n    *jsontree.Node
	ptr  string
	refs []*jsontree.Node
	typ  string
	out  *jsontree.Node
}

// schema translates the schema n found at ptr; refs are the definitions
// being inlined around it. On failure the translation is of no use (the
// reasons are what counts).
func (g *geminiProjector) schema(n *jsontree.Node, ptr string, refs []*jsontree.Node) *jsontree.Node {
	if !g.open(n, ptr) {
		return n
	}
	if ref := n.Get("$ref"); ref != nil {
		return g.inline(n, ref, ptr, refs)
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
	name, nullable, ok := g.typeOf(n, ptr)
	if !ok {
		return n
	}
	s := &geminiSchema{g: g, n: n, ptr: ptr, refs: refs, out: &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{}}}
	if n.Get("type") != nil {
		if s.typ = geminiTypes[name]; s.typ == "" {
			g.fail(pointer(ptr, "type"), "is not a type name")
			return n
		}
		s.out.Members = append(s.out.Members, jsontree.Member{Key: "type", Value: str(s.typ)})
		if nullable {
			s.out.Members = append(s.out.Members, jsontree.Member{Key: "nullable", Value: boolean(true)})
		}
	}
	if g.keywords(n, ptr, s.keyword) {
		s.close()
	}
	return s.out
}

// inline translates the schema n holding "$ref" (ref) as the definition
// it names merged with n's other members: the subset has no references.
func (g *geminiProjector) inline(n, ref *jsontree.Node, ptr string, refs []*jsontree.Node) *jsontree.Node {
	target := g.target(ref, ptr)
	switch {
	case target == nil:
		return n
	case slices.Contains(refs, target):
		g.fail(ptr, "is recursive (through %s): inlining it into parameters would never end", ref.Text)
		return n
	}
	return g.schema(merge(target, n, "$ref"), ptr, append(refs, target))
}

// keyword translates the member m (at at) of the schema, which passed the
// walk's checks, and reports whether the subset can take it.
func (s *geminiSchema) keyword(m jsontree.Member, at string) bool {
	g, v := s.g, m.Value
	switch {
	case m.Key == "type":
	case m.Key == "properties":
		s.properties(v, at)
	case m.Key == "required":
		if v.Kind == jsonlex.Array && len(v.Items) > 0 {
			s.add(m)
		}
	case m.Key == "additionalProperties":
		if !g.closed(v, s.ptr) {
			return false
		}
		g.dropped = append(g.dropped, at)
	case m.Key == "items":
		s.add(jsontree.Member{Key: "items", Value: g.schema(v, at, s.refs)})
	case alternatives(s.n, m.Key):
		// A oneOf of distinct consts is an anyOf, which the subset has.
		alt := &jsontree.Node{Kind: jsonlex.Array, Items: make([]*jsontree.Node, len(v.Items))}
		for i, it := range v.Items {
			alt.Items[i] = g.schema(it, pointer(at, strconv.Itoa(i)), s.refs)
		}
		s.add(jsontree.Member{Key: "anyOf", Value: alt})
	case m.Key == "oneOf":
		g.fail(s.ptr, "uses oneOf, which %s", g.lacks)
		return false
	case m.Key == "enum" || m.Key == "const":
		return s.enum(m, at)
	case m.Key == "format":
		if v.Kind != jsonlex.String || !slices.Contains(geminiFormats[s.typ], v.Text) {
			g.dropped = append(g.dropped, at)
			return true
		}
		s.add(m)
	case m.Key == "examples":
		if v.Kind == jsonlex.Array && len(v.Items) > 0 && v.Items[0].Kind != jsonlex.Null {
			s.add(jsontree.Member{Key: "example", Value: v.Items[0]})
		}
	case m.Key == "$defs" || m.Key == "definitions":
		// Inlined where referenced.
	case geminiKept[m.Key]:
		if v.Kind == jsonlex.Null || (v.Kind == jsonlex.String && v.Text == "") {
			return true // the SDK leaves these out
		}
		s.add(m)
	default:
		g.dropped = append(g.dropped, at)
	}
	return true
}

// add appends a member to the translation.
func (s *geminiSchema) add(m jsontree.Member) { s.out.Members = append(s.out.Members, m) }

// properties translates "properties" (props, at at), and records their
// order in "propertyOrdering": the SDK sends them as a map.
func (s *geminiSchema) properties(props *jsontree.Node, at string) {
	out := &jsontree.Node{Kind: jsonlex.Object, Members: make([]jsontree.Member, 0, len(props.Members))}
	for _, pm := range props.Members {
		out.Members = append(out.Members, jsontree.Member{Key: pm.Key, Value: s.g.schema(pm.Value, pointer(at, pm.Key), s.refs)})
	}
	if len(out.Members) > 0 {
		s.add(jsontree.Member{Key: "properties", Value: out})
	}
	if order := propertyOrdering(props); order != nil {
		s.add(jsontree.Member{Key: "propertyOrdering", Value: order})
	}
}

// enum translates "enum" or "const" (m, at at): the subset's enums are
// strings, and a const is an enum of one.
func (s *geminiSchema) enum(m jsontree.Member, at string) bool {
	g, v := s.g, m.Value
	switch {
	case m.Key == "enum" && !allStrings(v.Items):
		g.fail(at, "has values that are not strings, which parameters cannot express (its enums are strings)")
		return false
	case m.Key == "enum":
		if len(v.Items) > 0 {
			s.add(m)
		}
	case s.n.Get("enum") != nil:
		g.fail(s.ptr, "has both enum and const, which parameters cannot express (const becomes an enum)")
		return false
	case v.Kind != jsonlex.String:
		g.fail(at, "is not a string, which parameters cannot express (its enums are strings)")
		return false
	default:
		s.add(jsontree.Member{Key: "enum", Value: &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{v}}})
	}
	return true
}

// close ends the translation of a schema whose keywords all translated:
// it gives a schema without a type the one its keywords imply, and
// refuses one that accepts any value or any object.
func (s *geminiSchema) close() {
	n := s.n
	if s.typ == "" {
		switch {
		case n.Get("properties") != nil:
			s.add(jsontree.Member{Key: "type", Value: str("OBJECT")})
		case n.Get("anyOf") != nil || constOneOf(n):
		case n.Get("enum") != nil || n.Get("const") != nil:
			s.add(jsontree.Member{Key: "type", Value: str("STRING")})
		default:
			s.g.untyped(s.ptr)
		}
	}
	if s.typ == "OBJECT" && n.Get("properties") == nil && n.Get("additionalProperties") == nil {
		s.g.anyObject(s.ptr)
	}
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
