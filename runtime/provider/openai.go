package provider

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Strict mode's documented size limits.
const (
	strictMaxProperties     = 5000    // object properties in the whole schema
	strictMaxDepth          = 10      // levels of nested objects
	strictMaxEnumValues     = 1000    // enum values in the whole schema
	strictMaxStringSize     = 120_000 // characters of property names, definition names, enum and const values
	strictLargeEnum         = 250     // an enum with more values than this...
	strictMaxLargeEnumChars = 15_000  // ...has at most this many characters of string values
)

// strictFormats are the string formats strict mode supports: the list of
// OpenAI's Structured Outputs guide (platform.openai.com/docs/guides/
// structured-outputs, "Supported properties", string restrictions), which
// SDKs generated from it repeat.
var strictFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true, "email": true,
	"hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// strictKept are the keywords strict mode supports that the projection
// copies as they are (the structural ones are handled one by one).
var strictKept = map[string]bool{
	"description": true, "title": true, "enum": true, "const": true, "pattern": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"multipleOf": true, "minItems": true, "maxItems": true,
}

// OpenAIChat returns spec's Chat Completions function tool:
//
//	{"type":"function","function":{"name":N,"description":D,"parameters":P,"strict":S}}
//
// with the parameters projected onto the strict subset when they can be
// (see the package documentation), else as published, with the reason.
func OpenAIChat(spec *tool.Spec) (Projection, error) {
	params, p, err := openAIParameters(spec)
	if err != nil {
		return Projection{}, err
	}
	def := object(
		jsontree.Member{Key: "type", Value: str("function")},
		jsontree.Member{Key: "function", Value: object(
			jsontree.Member{Key: "name", Value: str(spec.Name)},
			jsontree.Member{Key: "description", Value: description(spec)},
			jsontree.Member{Key: "parameters", Value: params},
			jsontree.Member{Key: "strict", Value: boolean(p.Strict)},
		)},
	)
	p.JSON = def.Compact()
	return p, nil
}

// OpenAIResponses returns spec's Responses API function tool:
//
//	{"type":"function","name":N,"description":D,"parameters":P,"strict":S}
//
// with the same parameters as OpenAIChat.
func OpenAIResponses(spec *tool.Spec) (Projection, error) {
	params, p, err := openAIParameters(spec)
	if err != nil {
		return Projection{}, err
	}
	def := object(
		jsontree.Member{Key: "type", Value: str("function")},
		jsontree.Member{Key: "name", Value: str(spec.Name)},
		jsontree.Member{Key: "description", Value: description(spec)},
		jsontree.Member{Key: "parameters", Value: params},
		jsontree.Member{Key: "strict", Value: boolean(p.Strict)},
	)
	p.JSON = def.Compact()
	return p, nil
}

// openAIParameters returns the parameters of spec's OpenAI definition and
// the Projection without its JSON.
func openAIParameters(spec *tool.Spec) (*jsontree.Node, Projection, error) {
	root, err := inputSchema(ProviderOpenAI, spec, openAINamePattern)
	if err != nil {
		return nil, Projection{}, err
	}
	published := root.Clone() // the strict projection edits root in place
	sp := &strictProjector{walk: walk{root: root, subset: "strict mode", grows: "merged", lacks: "strict mode does not support"}}
	out := sp.schema(root, "")
	if len(sp.reasons) == 0 {
		sp.limits(out)
	}
	if len(sp.reasons) > 0 {
		// Strict mode is off: send the schema as published.
		return published, Projection{Reason: strings.Join(sp.reasons, "; ")}, nil
	}
	return out, Projection{Strict: true, Dropped: sp.dropped}, nil
}

// strictProjector rewrites a schema into OpenAI's strict subset, in place.
type strictProjector struct {
	walk
	merging []*jsontree.Node // the definitions being merged into referring schemas, innermost last
}

// strictSchema is one schema being projected: the schema n found at ptr,
// typ its type name ("" when it has none), out its projection, and what
// its keywords said: its properties, the names it requires, and whether
// it has "additionalProperties":false, a type, or an alternative to a
// type (anyOf, enum, const).
type strictSchema struct {
	p                      *strictProjector
	n                      *jsontree.Node
	ptr, typ               string
	out, props             *jsontree.Node
	required               []string
	hasAP, hasType, hasAlt bool
}

// schema projects the schema n found at ptr and returns its projection
// (n itself, edited, or a replacement), which takes n's place in the tree
// even when the schema cannot be strict: a schema merged from it later
// (through a $ref) is a copy of that projection.
func (p *strictProjector) schema(n *jsontree.Node, ptr string) *jsontree.Node {
	if !p.open(n, ptr) {
		return n
	}
	if ref := n.Get("$ref"); ref != nil {
		return p.ref(n, ref, ptr)
	}
	typ, _, ok := p.typeOf(n, ptr)
	if !ok {
		return n
	}
	s := &strictSchema{p: p, n: n, ptr: ptr, typ: typ, out: &jsontree.Node{Kind: jsonlex.Object, Members: make([]jsontree.Member, 0, len(n.Members)+2)}}
	if p.keywords(n, ptr, s.keyword) {
		s.close()
	}
	return s.out
}

// keyword projects the member m (at at) of the schema, which passed the
// walk's checks, and reports whether strict mode can take it.
func (s *strictSchema) keyword(m jsontree.Member, at string) bool {
	p := s.p
	switch {
	case m.Key == "type":
		s.hasType = true
	case m.Key == "properties":
		s.props = m.Value
		for i := range s.props.Members {
			pm := &s.props.Members[i]
			pm.Value = p.schema(pm.Value, pointer(at, pm.Key))
		}
	case m.Key == "required":
		if m.Value.Kind == jsonlex.Array {
			for _, it := range m.Value.Items {
				if it.Kind == jsonlex.String {
					s.required = append(s.required, it.Text)
				}
			}
		}
		return true // rewritten by close, after properties
	case m.Key == "additionalProperties":
		if !p.closed(m.Value, s.ptr) {
			// Kept all the same: the schema is edited in place, and one
			// merged from it later (through a $ref) is refused for the
			// same reason.
			s.out.Members = append(s.out.Members, m)
			return false
		}
		s.hasAP = true
	case m.Key == "items":
		m.Value = p.schema(m.Value, at)
	case alternatives(s.n, m.Key):
		// A oneOf of distinct consts is an anyOf, which strict mode has.
		m.Key = "anyOf"
		s.hasAlt = true
		for i, it := range m.Value.Items {
			m.Value.Items[i] = p.schema(it, pointer(at, fmt.Sprint(i)))
		}
	case m.Key == "oneOf":
		alt, ok := s.oneOf(at)
		if !ok {
			return false
		}
		m = jsontree.Member{Key: "anyOf", Value: alt}
	case m.Key == "$defs" || m.Key == "definitions":
		if m.Value.Kind != jsonlex.Object {
			p.fail(at, "is not an object")
			return false
		}
		for i := range m.Value.Members {
			dm := &m.Value.Members[i]
			dm.Value = p.schema(dm.Value, pointer(at, dm.Key))
		}
	case m.Key == "format" && (m.Value.Kind != jsonlex.String || !strictFormats[m.Value.Text]):
		p.dropped = append(p.dropped, at)
		return true
	case m.Key == "format":
	case strictKept[m.Key]:
		if m.Key == "enum" || m.Key == "const" {
			s.hasAlt = true
		}
	default:
		p.dropped = append(p.dropped, at)
		return true
	}
	s.out.Members = append(s.out.Members, m)
	return true
}

// oneOf projects the schema's oneOf (at at), which is not one of distinct
// consts: strict mode takes only invopop's nullable form, S or null,
// exactly one, as the anyOf of S's projection and {"type":"null"} (S
// excludes null).
func (s *strictSchema) oneOf(at string) (*jsontree.Node, bool) {
	p, n := s.p, s.n
	if n.Get("anyOf") != nil {
		p.fail(s.ptr, "uses oneOf beside anyOf, which strict mode cannot express")
		return nil, false
	}
	sch := nullablePair(n, "oneOf")
	if sch == nil {
		p.fail(s.ptr, "uses oneOf, which %s", p.lacks)
		return nil, false
	}
	s.hasAlt = true
	return &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{
		p.schema(sch, pointer(at, "0")), {Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "type", Value: str("null")}}},
	}}, true
}

// close ends the projection of a schema whose keywords all projected: an
// object schema gets its properties, "additionalProperties":false and
// every property required, the optional ones made nullable.
func (s *strictSchema) close() {
	p, out := s.p, s.out
	if !s.hasType && !s.hasAlt {
		if s.props == nil {
			p.untyped(s.ptr)
			return
		}
		s.typ = "object"
		out.Members = append([]jsontree.Member{{Key: "type", Value: str("object")}}, out.Members...)
	}
	if s.typ != "object" {
		return
	}
	props := s.props
	if props == nil {
		if !s.hasAP {
			p.anyObject(s.ptr)
			return
		}
		props = &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{}}
		insertAfter(out, "type", "properties", props)
	}
	if !s.hasAP {
		insertAfter(out, "properties", "additionalProperties", boolean(false))
	}
	all := &jsontree.Node{Kind: jsonlex.Array, Items: make([]*jsontree.Node, 0, len(props.Members))}
	for i := range props.Members {
		pm := &props.Members[i]
		all.Items = append(all.Items, str(pm.Key))
		if !contains(s.required, pm.Key) {
			pm.Value = nullableStrict(pm.Value)
		}
	}
	insertAfter(out, "additionalProperties", "required", all)
}

// ref projects a schema holding "$ref". A bare reference stays (strict
// mode follows local references, recursive ones included); a reference
// with sibling keywords is replaced by its target merged with the
// siblings, which strict mode requires.
func (p *strictProjector) ref(n, ref *jsontree.Node, ptr string) *jsontree.Node {
	target := p.target(ref, ptr)
	if target == nil {
		return n
	}
	if len(n.Members) == 1 {
		return n
	}
	if slices.Contains(p.merging, target) {
		// A recursive reference with siblings: strict mode takes a bare
		// $ref only, and merging would never end, so the siblings go.
		for _, m := range n.Members {
			if m.Key != "$ref" {
				p.dropped = append(p.dropped, pointer(ptr, m.Key))
			}
		}
		return &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "$ref", Value: ref}}}
	}
	merged := merge(target, n, "$ref")
	// The definitions stay where they are (references are absolute).
	merged.Members = slices.DeleteFunc(merged.Members, func(m jsontree.Member) bool { return m.Key == "$defs" || m.Key == "definitions" })
	merged = merged.Clone()
	p.merging = append(p.merging, target)
	defer func() { p.merging = p.merging[:len(p.merging)-1] }()
	return p.schema(merged, ptr)
}

// nullableStrict makes an optional property's projected schema accept null
// too: a type list for scalars (with null added to an enum, and a const
// turned into an enum), otherwise {"anyOf":[S,{"type":"null"}]} with the
// description and title lifted to the wrapper.
func nullableStrict(n *jsontree.Node) *jsontree.Node {
	if n.Kind != jsonlex.Object {
		return n
	}
	t := n.Get("type")
	if t != nil && t.Kind == jsonlex.Array {
		for _, it := range t.Items {
			if it.Kind == jsonlex.String && it.Text == "null" {
				return n // already nullable
			}
		}
	}
	if alt := n.Get("anyOf"); alt != nil && alt.Kind == jsonlex.Array {
		for _, it := range alt.Items {
			if isNullSchema(it) {
				return n
			}
		}
	}
	if t != nil && t.Kind == jsonlex.String {
		switch t.Text {
		case "null":
			return n
		case "string", "number", "integer", "boolean":
			if n.Get("const") != nil && n.Get("enum") != nil {
				break // both: the anyOf wrapper below keeps them as they are
			}
			set(n, "type", &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{str(t.Text), str("null")}})
			if e := n.Get("enum"); e != nil && e.Kind == jsonlex.Array && !hasNull(e) {
				e.Items = append(e.Items, &jsontree.Node{Kind: jsonlex.Null})
			}
			for i, m := range n.Members {
				if m.Key == "const" {
					n.Members[i] = jsontree.Member{Key: "enum", Value: &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{m.Value, {Kind: jsonlex.Null}}}}
				}
			}
			return n
		}
	}
	inner := &jsontree.Node{Kind: jsonlex.Object}
	wrapper := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "anyOf", Value: &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{
		inner, {Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "type", Value: str("null")}}},
	}}}}}
	for _, m := range n.Members {
		if m.Key == "description" || m.Key == "title" {
			wrapper.Members = append(wrapper.Members, m)
		} else {
			inner.Members = append(inner.Members, m)
		}
	}
	if len(inner.Members) == 1 && inner.Members[0].Key == "anyOf" {
		// An anyOf alone: add null as one more alternative.
		alt := inner.Members[0].Value
		alt.Items = append(alt.Items, wrapper.Members[0].Value.Items[1])
		wrapper.Members[0].Value = alt
	}
	return wrapper
}

// hasNull reports whether the array node holds null.
func hasNull(a *jsontree.Node) bool {
	for _, it := range a.Items {
		if it.Kind == jsonlex.Null {
			return true
		}
	}
	return false
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// limits checks the projected schema against strict mode's size limits.
func (p *strictProjector) limits(root *jsontree.Node) {
	var c struct{ props, enums, chars int }
	largeEnum := ""
	var walk func(n *jsontree.Node, ptr string)
	walk = func(n *jsontree.Node, ptr string) {
		if n == nil || n.Kind != jsonlex.Object {
			return
		}
		for _, m := range n.Members {
			at := pointer(ptr, m.Key)
			switch m.Key {
			case "properties", "$defs", "definitions":
				if m.Value.Kind != jsonlex.Object {
					continue
				}
				for _, pm := range m.Value.Members {
					if m.Key == "properties" {
						c.props++
					}
					c.chars += utf8.RuneCountInString(pm.Key)
					walk(pm.Value, pointer(at, pm.Key))
				}
			case "items":
				walk(m.Value, at)
			case "anyOf":
				for i, it := range m.Value.Items {
					walk(it, pointer(at, fmt.Sprint(i)))
				}
			case "enum":
				chars := 0
				for _, it := range m.Value.Items {
					if it.Kind == jsonlex.String {
						chars += utf8.RuneCountInString(it.Text)
					}
				}
				c.enums += len(m.Value.Items)
				c.chars += chars
				if len(m.Value.Items) > strictLargeEnum && chars > strictMaxLargeEnumChars && largeEnum == "" {
					largeEnum = at
				}
			case "const":
				if m.Value.Kind == jsonlex.String {
					c.chars += utf8.RuneCountInString(m.Value.Text)
				}
			}
		}
	}
	walk(root, "")
	switch {
	case c.props > strictMaxProperties:
		p.fail("", "has %d properties, over strict mode's limit of %d", c.props, strictMaxProperties)
	case c.enums > strictMaxEnumValues:
		p.fail("", "has %d enum values, over strict mode's limit of %d", c.enums, strictMaxEnumValues)
	case c.chars > strictMaxStringSize:
		p.fail("", "has %d characters of names and enum values, over strict mode's limit of %d", c.chars, strictMaxStringSize)
	case largeEnum != "":
		p.fail(largeEnum, "has more than %d values with over %d characters, over strict mode's limit", strictLargeEnum, strictMaxLargeEnumChars)
	}
	if d := depth(p.root, root, map[*jsontree.Node]bool{}); d > strictMaxDepth {
		p.fail("", "nests %d levels of objects, over strict mode's limit of %d", d, strictMaxDepth)
	}
}

// depth returns how many levels of object schemas n nests, following
// local references (resolved against root) except into a schema already
// on the path.
func depth(root, n *jsontree.Node, onPath map[*jsontree.Node]bool) int {
	if n == nil || n.Kind != jsonlex.Object || onPath[n] {
		return 0
	}
	if ref := n.Get("$ref"); ref != nil && ref.Kind == jsonlex.String {
		if target := localRef(root, ref.Text); target != nil && target != n {
			onPath[n] = true
			d := depth(root, target, onPath)
			delete(onPath, n)
			return d
		}
		return 0
	}
	onPath[n] = true
	defer delete(onPath, n)
	deepest := 0
	if props := n.Get("properties"); props != nil && props.Kind == jsonlex.Object {
		for _, pm := range props.Members {
			deepest = max(deepest, depth(root, pm.Value, onPath))
		}
	}
	if it := n.Get("items"); it != nil {
		deepest = max(deepest, depth(root, it, onPath))
	}
	if alt := n.Get("anyOf"); alt != nil && alt.Kind == jsonlex.Array {
		for _, it := range alt.Items {
			deepest = max(deepest, depth(root, it, onPath))
		}
	}
	if n.Get("properties") != nil {
		return deepest + 1
	}
	return deepest
}
