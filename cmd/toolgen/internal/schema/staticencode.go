package schema

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// node is the part of invopop's Schema that its reflection sets from a
// type's structure and tags; the fields keep the Schema's order, which is
// the order json.Marshal writes them in.
type node struct {
	boolean *bool // FalseSchema's false; never set with anything else

	anchor   string
	ref      string
	anyOf    []*node
	oneOf    []*node
	items    *node
	hasProps bool // a struct: "properties" is written, even empty
	props    []prop
	// patternProps has at most one member (int-keyed maps).
	patternProps     map[string]*node
	additional       *node
	typ              string
	enum             []any
	multipleOf       string
	maximum          string
	exclusiveMaximum string
	minimum          string
	exclusiveMinimum string
	maxLength        *uint64
	minLength        *uint64
	pattern          string
	maxItems         *uint64
	minItems         *uint64
	uniqueItems      bool
	maxProperties    *uint64
	minProperties    *uint64
	required         []string
	format           string
	contentEncoding  string
	title            string
	description      string
	def              any // nil when unset
	readOnly         bool
	writeOnly        bool
	examples         []any
	extras           map[string]any
	extrasOrder      []string
}

type prop struct {
	name   string
	schema *node
}

// number is a json.Number: its literal is written as is.
type number string

func falseNode() *node {
	f := false
	return &node{boolean: &f}
}

// encodeRoot encodes the root as ReflectFromType returns it: "$schema",
// then the schema, with the definitions.
func encodeRoot(root *node, defs map[string]*node) (*jsontree.Node, error) {
	out := &jsontree.Node{Kind: jsonlex.Object}
	out.Members = append(out.Members, jsontree.Member{Key: "$schema", Value: str("https://json-schema.org/draft/2020-12/schema")})
	body, err := root.encodeWith(defs)
	if err != nil {
		return nil, err
	}
	if body.Kind == jsonlex.Object {
		out.Members = append(out.Members, body.Members...)
	}
	return out, nil
}

func str(s string) *jsontree.Node { return &jsontree.Node{Kind: jsonlex.String, Text: s} }

func uintNode(n uint64) *jsontree.Node {
	return &jsontree.Node{Kind: jsonlex.Number, Text: strconv.FormatUint(n, 10)}
}

func (n *node) encode() (*jsontree.Node, error) { return n.encodeWith(nil) }

// encodeWith is invopop's Schema.MarshalJSON for n, with defs as its
// "$defs" (the root's).
func (n *node) encodeWith(defs map[string]*node) (*jsontree.Node, error) {
	if n.boolean != nil {
		return &jsontree.Node{Kind: jsonlex.Bool, Bool: *n.boolean}, nil
	}
	var e encoder
	e.str("$anchor", n.anchor)
	e.str("$ref", n.ref)
	if len(defs) > 0 {
		names := make([]string, 0, len(defs))
		for k := range defs {
			names = append(names, k)
		}
		slices.Sort(names)
		m := &jsontree.Node{Kind: jsonlex.Object}
		for _, k := range names {
			m.Members = append(m.Members, jsontree.Member{Key: k, Value: e.schema(defs[k])})
		}
		e.add("$defs", m)
	}
	e.schemas("anyOf", n.anyOf)
	e.schemas("oneOf", n.oneOf)
	if n.items != nil {
		e.add("items", e.schema(n.items))
	}
	if n.hasProps {
		m := &jsontree.Node{Kind: jsonlex.Object}
		for _, p := range n.props {
			m.Members = append(m.Members, jsontree.Member{Key: p.name, Value: e.schema(p.schema)})
		}
		e.add("properties", m)
	}
	for k, v := range n.patternProps {
		e.add("patternProperties", &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: k, Value: e.schema(v)}}})
	}
	if n.additional != nil {
		e.add("additionalProperties", e.schema(n.additional))
	}
	e.str("type", n.typ)
	e.values("enum", n.enum)
	for _, kv := range [...]struct{ k, v string }{{"multipleOf", n.multipleOf}, {"maximum", n.maximum}, {"exclusiveMaximum", n.exclusiveMaximum}, {"minimum", n.minimum}, {"exclusiveMinimum", n.exclusiveMinimum}} {
		if kv.v != "" {
			e.add(kv.k, e.value(number(kv.v)))
		}
	}
	e.uint("maxLength", n.maxLength)
	e.uint("minLength", n.minLength)
	e.str("pattern", n.pattern)
	e.uint("maxItems", n.maxItems)
	e.uint("minItems", n.minItems)
	e.bool("uniqueItems", n.uniqueItems)
	e.uint("maxProperties", n.maxProperties)
	e.uint("minProperties", n.minProperties)
	if len(n.required) > 0 {
		e.add("required", e.value(n.required))
	}
	e.str("format", n.format)
	e.str("contentEncoding", n.contentEncoding)
	e.str("title", n.title)
	e.str("description", n.description)
	if n.def != nil {
		e.add("default", e.value(n.def))
	}
	e.bool("readOnly", n.readOnly)
	e.bool("writeOnly", n.writeOnly)
	e.values("examples", n.examples)
	e.extras(n)
	if e.err != nil {
		return nil, e.err
	}
	if len(e.out.Members) == 0 {
		return &jsontree.Node{Kind: jsonlex.Bool, Bool: true}, nil // invopop's empty schema
	}
	return &e.out, nil
}

// encoder writes the members of one schema object.
type encoder struct {
	out jsontree.Node
	err error
}

func (e *encoder) add(key string, v *jsontree.Node) {
	e.out.Kind = jsonlex.Object
	e.out.Members = append(e.out.Members, jsontree.Member{Key: key, Value: v})
}

func (e *encoder) str(key, v string) {
	if v != "" {
		e.add(key, str(v))
	}
}

func (e *encoder) uint(key string, v *uint64) {
	if v != nil {
		e.add(key, uintNode(*v))
	}
}

func (e *encoder) bool(key string, v bool) {
	if v {
		e.add(key, &jsontree.Node{Kind: jsonlex.Bool, Bool: true})
	}
}

func (e *encoder) schema(n *node) *jsontree.Node {
	out, err := n.encode()
	if err != nil {
		e.err = err
		return &jsontree.Node{Kind: jsonlex.Null}
	}
	return out
}

func (e *encoder) schemas(key string, list []*node) {
	if len(list) == 0 {
		return
	}
	arr := &jsontree.Node{Kind: jsonlex.Array}
	for _, s := range list {
		arr.Items = append(arr.Items, e.schema(s))
	}
	e.add(key, arr)
}

func (e *encoder) values(key string, list []any) {
	if len(list) > 0 {
		e.add(key, e.value(list))
	}
}

// value encodes a tag's value as encoding/json does: a string, a bool, a
// json.Number (number), an int, or a slice of them.
func (e *encoder) value(v any) *jsontree.Node {
	switch v := v.(type) {
	case string:
		return str(v)
	case bool:
		return &jsontree.Node{Kind: jsonlex.Bool, Bool: v}
	case int:
		return &jsontree.Node{Kind: jsonlex.Number, Text: strconv.Itoa(v)}
	case number:
		if !validNumber(string(v)) {
			e.err = fmt.Errorf("%q is not a JSON number (json.Marshal fails on it)", string(v))
		}
		return &jsontree.Node{Kind: jsonlex.Number, Text: string(v)}
	case []any:
		arr := &jsontree.Node{Kind: jsonlex.Array}
		for _, it := range v {
			arr.Items = append(arr.Items, e.value(it))
		}
		return arr
	case []string:
		arr := &jsontree.Node{Kind: jsonlex.Array}
		for _, it := range v {
			arr.Items = append(arr.Items, str(it))
		}
		return arr
	}
	e.err = fmt.Errorf("toolgen bug: a value of type %T", v)
	return &jsontree.Node{Kind: jsonlex.Null}
}

// extras appends the jsonschema_extras members, sorted by key, as
// invopop's MarshalJSON appends its Extras map. A key the schema already
// has would be written twice: that is refused.
func (e *encoder) extras(n *node) {
	if len(n.extras) == 0 {
		return
	}
	keys := make([]string, 0, len(n.extras))
	for k := range n.extras {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if e.out.Get(k) != nil {
			e.err = fmt.Errorf("jsonschema_extras repeats the keyword %q", k)
			return
		}
		e.add(k, e.value(n.extras[k]))
	}
}

// validNumber reports whether s is a JSON number literal, which
// encoding/json requires of a json.Number.
func validNumber(s string) bool {
	if s == "" {
		return false
	}
	next, _, msg := jsonlex.ScanNumber([]byte(s), 0)
	return msg == "" && next == len(s)
}
