package schema_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/a"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/b"
	nesteda "github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/nested/a"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

const thisPkg = "github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema_test"

// SearchInput is a tool input with invopop tags.
type SearchInput struct {
	Query string     `json:"query" jsonschema:"minLength=1,maxLength=200"`
	Limit int        `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50,default=10"`
	Sort  string     `json:"sort,omitempty" jsonschema:"enum=relevance,enum=newest,enum=oldest"`
	Tags  []string   `json:"tags,omitempty" jsonschema:"uniqueItems=true,maxItems=5"`
	Since *time.Time `json:"since,omitempty"`
	Note  string     `json:"note" jsonschema:"nullable,description=A <b>bold</b> note & more"`
}

// Ordered has fields whose names are not sorted.
type Ordered struct {
	Zeta  int    `json:"zeta"`
	Alpha string `json:"alpha"`
	Mid   bool   `json:"mid"`
}

// Outer nests a struct.
type Outer struct {
	Inner Inner `json:"inner"`
}

// Inner is nested in Outer.
type Inner struct {
	Deep struct {
		X int `json:"x"`
	} `json:"deep"`
}

// Both refers to two types named Item from two packages.
type Both struct {
	A a.Item `json:"a"`
	B b.Item `json:"b"`
}

// Three refers to three types named Item, two from packages named a.
type Three struct {
	A  a.Item       `json:"a"`
	B  b.Item       `json:"b"`
	NA nesteda.Item `json:"na"`
}

// OnlyA refers to one type named Item.
type OnlyA struct {
	A a.Item `json:"a"`
}

// List is a linked list.
type List struct {
	Value int   `json:"value"`
	Next  *List `json:"next,omitempty"`
}

// Tree is a tree.
type Tree struct {
	Name     string `json:"name"`
	Children []Tree `json:"children,omitempty"`
}

// Forest holds trees and a list, so their definitions are not the root's.
type Forest struct {
	Trees []Tree `json:"trees"`
	List  *List  `json:"list,omitempty"`
}

// Ping and Pong refer to each other.
type Ping struct {
	Pong *Pong `json:"pong,omitempty"`
}

// Pong refers back to Ping.
type Pong struct {
	Ping *Ping `json:"ping,omitempty"`
}

// Loose holds values of any shape.
type Loose struct {
	Any   any             `json:"any"`
	Iface interface{}     `json:"iface"` // spelt interface{} on purpose
	Raw   json.RawMessage `json:"raw"`
	Map   map[string]any  `json:"map"`
	Anys  []any           `json:"anys"`
	Empty Empty           `json:"empty"`
	Doc   any             `json:"doc"`
}

// Empty has a custom schema that accepts anything.
type Empty struct{}

// JSONSchema returns the empty schema.
func (Empty) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{} }

// Priority is a named int whose schema a hook refines.
type Priority int

// JSONSchemaExtend restricts priorities to 1..5.
func (Priority) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Enum = []any{1, 2, 3, 4, 5}
	s.Description = "1 is the highest"
}

// Color has a custom schema.
type Color string

// JSONSchema describes a color as a hex string.
func (Color) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: "^#[0-9a-f]{6}$"}
}

// Legacy is reflected as the type its alias names.
type Legacy struct{ Old string }

// JSONSchemaAlias publishes Legacy as Ordered.
func (Legacy) JSONSchemaAlias() any { return Ordered{} }

// Hooked uses the hooks above.
type Hooked struct {
	Priority Priority `json:"priority"`
	Color    Color    `json:"color,omitempty"`
	Legacy   Legacy   `json:"legacy"`
}

// Extended's hook edits the root schema.
type Extended struct {
	Name string `json:"name"`
}

// JSONSchemaExtend adds an example to the root.
func (Extended) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Examples = []any{map[string]any{"name": "x"}}
}

// Boom's hook panics.
type Boom struct{}

// JSONSchemaExtend panics.
func (Boom) JSONSchemaExtend(*jsonschema.Schema) { panic("boom in a hook") }

// HasBoom refers to Boom.
type HasBoom struct {
	B Boom `json:"b"`
}

// Chan has a field invopop cannot reflect.
type Chan struct {
	C chan int `json:"c"`
}

// Clash has an extra keyword that duplicates a real one.
type Clash struct {
	S string `json:"s" jsonschema_extras:"type=number"`
}

// Page is generic.
type Page[T any] struct {
	Items []T `json:"items"`
}

// Paged refers to a generic instance.
type Paged struct {
	Page Page[a.Item] `json:"page"`
}

// Names is a named slice, an output type that is not a struct.
type Names []string

// Word is a named string.
type Word string

// reflectRaw returns invopop's output under toolgen's settings.
func reflectRaw(t *testing.T, typ reflect.Type) []byte {
	t.Helper()
	raw, err := json.Marshal(schema.Reflector(nil).ReflectFromType(typ))
	require.NoError(t, err)
	return raw
}

// reflectDefault returns invopop's output under its default settings.
func reflectDefault(t *testing.T, typ reflect.Type) []byte {
	t.Helper()
	raw, err := json.Marshal(new(jsonschema.Reflector).ReflectFromType(typ))
	require.NoError(t, err)
	return raw
}

func parse(t *testing.T, data []byte) *jsontree.Node {
	t.Helper()
	n, err := jsontree.Parse(data)
	require.NoError(t, err)
	return n
}

func reflectNode(t *testing.T, typ reflect.Type) (*jsontree.Node, []byte) {
	t.Helper()
	out, err := schema.Reflect(typ, nil)
	require.NoError(t, err)
	return parse(t, out), out
}

func keys(n *jsontree.Node) []string {
	var ks []string
	for _, m := range n.Members {
		ks = append(ks, m.Key)
	}
	return ks
}

// allRefs lists every "$ref" string anywhere in n.
func allRefs(n *jsontree.Node) []string {
	var refs []string
	var walk func(*jsontree.Node)
	walk = func(n *jsontree.Node) {
		if n == nil {
			return
		}
		for _, m := range n.Members {
			if m.Key == "$ref" && m.Value.Kind == jsonlex.String {
				refs = append(refs, m.Value.Text)
			}
			walk(m.Value)
		}
		for _, it := range n.Items {
			walk(it)
		}
	}
	walk(n)
	return refs
}

func TestReflectSimpleStruct(t *testing.T) {
	t.Parallel()
	comments := map[string]string{
		thisPkg + ".SearchInput":       "SearchInput is a tool input with invopop tags.",
		thisPkg + ".SearchInput.Query": "Query is what to look for.",
		thisPkg + ".SearchInput.Note":  "not used: the tag's description wins",
	}
	out, err := schema.Reflect(reflect.TypeFor[SearchInput](), comments)
	require.NoError(t, err)
	want := `{"properties":{` +
		`"query":{"type":"string","maxLength":200,"minLength":1,"description":"Query is what to look for."},` +
		`"limit":{"type":"integer","maximum":50,"minimum":1,"default":10},` +
		`"sort":{"type":"string","enum":["relevance","newest","oldest"]},` +
		`"tags":{"items":{"type":"string"},"type":"array","maxItems":5,"uniqueItems":true},` +
		`"since":{"type":"string","format":"date-time"},` +
		`"note":{"oneOf":[{"type":"string","description":"A \u003cb\u003ebold\u003c/b\u003e note \u0026 more"},{"type":"null"}]}` +
		`},"additionalProperties":false,"type":"object","required":["query","note"],` +
		`"description":"SearchInput is a tool input with invopop tags."}`
	assert.Equal(t, want, string(out))
}

// Described's hook gives its root a description of its own.
type Described struct {
	Name string `json:"name"`
}

// JSONSchemaExtend sets the root description.
func (Described) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Description = "What the model reads."
}

// ReflectInput leaves out the root description that is the input type's
// own doc comment, keeps the fields', the "$defs" entry's of a type that
// refers to itself and a hook's, and is Reflect otherwise.
func TestReflectInput(t *testing.T) {
	t.Parallel()
	comments := map[string]string{
		thisPkg + ".SearchInput":       "SearchInput is a tool input with invopop tags.",
		thisPkg + ".SearchInput.Query": "Query is what to look for.",
		thisPkg + ".Tree":              "Tree is a tree.",
		thisPkg + ".Described":         "Described is described by its hook.",
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[SearchInput](), reflect.TypeFor[*SearchInput](), reflect.TypeFor[Tree](), reflect.TypeFor[Described]()} {
		t.Run(typ.String(), func(t *testing.T) {
			t.Parallel()
			full, err := schema.Reflect(typ, comments)
			require.NoError(t, err)
			got, err := schema.ReflectInput(typ, comments)
			require.NoError(t, err)
			want := parse(t, full)
			root := parse(t, got)
			switch typ.String() {
			case "schema_test.Described":
				assert.Equal(t, "What the model reads.", root.Get("description").Text, "a hook's description is published")
				assert.Equal(t, string(full), string(got))
				return
			case "schema_test.Tree":
				assert.Equal(t, "Tree is a tree.", root.Get("$defs").Get("Tree").Get("description").Text, "the definition keeps it")
			default:
				assert.Equal(t, "Query is what to look for.", root.Get("properties").Get("query").Get("description").Text)
			}
			assert.Nil(t, root.Get("description"), "the input type's doc comment is not the root's description")
			want.Members = slices.DeleteFunc(want.Members, func(m jsontree.Member) bool { return m.Key == "description" })
			assert.Equal(t, string(want.Compact()), string(got), "nothing else differs")
		})
	}
}

// Parity: Reflect is invopop under Reflector's settings plus PostProcess,
// nothing else.
func TestReflectIsReflectorPlusPostProcess(t *testing.T) {
	t.Parallel()
	types := []reflect.Type{
		reflect.TypeFor[SearchInput](), reflect.TypeFor[Ordered](), reflect.TypeFor[Outer](),
		reflect.TypeFor[Both](), reflect.TypeFor[Three](), reflect.TypeFor[List](), reflect.TypeFor[Tree](),
		reflect.TypeFor[Forest](), reflect.TypeFor[Ping](), reflect.TypeFor[Loose](), reflect.TypeFor[Hooked](),
		reflect.TypeFor[Extended](), reflect.TypeFor[Paged](), reflect.TypeFor[Names](), reflect.TypeFor[Word](),
		reflect.TypeFor[*Tree](), reflect.TypeFor[[]Tree](), reflect.TypeFor[map[string]Tree](),
	}
	comments := map[string]string{thisPkg + ".Tree": "Tree is a tree.", thisPkg + ".Tree.Name": "The name."}
	for _, typ := range types {
		t.Run(typ.String(), func(t *testing.T) {
			t.Parallel()
			raw, err := json.Marshal(schema.Reflector(comments).ReflectFromType(typ))
			require.NoError(t, err)
			want, err := schema.PostProcess(raw)
			require.NoError(t, err)
			got, err := schema.Reflect(typ, comments)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))

			again, err := schema.Reflect(typ, comments)
			require.NoError(t, err)
			assert.Equal(t, string(got), string(again), "deterministic")

			root := parse(t, got)
			for _, ref := range allRefs(root) {
				n := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "$ref", Value: &jsontree.Node{Kind: jsonlex.String, Text: ref}}}}
				assert.NotNil(t, n.Resolve(root), "%s resolves", ref)
			}
		})
	}
}

func TestReflectKeepsFieldOrder(t *testing.T) {
	t.Parallel()
	root, _ := reflectNode(t, reflect.TypeFor[Ordered]())
	assert.Equal(t, []string{"zeta", "alpha", "mid"}, keys(root.Get("properties")))
	assert.Equal(t, `["zeta","alpha","mid"]`, string(root.Get("required").Compact()))
}

// Sharp edge 1: invopop's root is a "$ref" with a "$id" derived from the
// package path; toolgen's root is the object schema itself.
func TestEdgeRootInlined(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Outer]()

	def := parse(t, reflectDefault(t, typ))
	assert.Equal(t, "#/$defs/Outer", def.Get("$ref").Text, "invopop's default root is a reference")
	assert.Equal(t, "https://github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema_test/outer", def.Get("$id").Text)
	assert.Nil(t, def.Get("type"))

	raw := parse(t, reflectRaw(t, typ))
	assert.NotNil(t, raw.Get("$ref"), "still a reference under toolgen's settings")
	assert.Nil(t, raw.Get("$id"), "Anonymous: no $id")

	root, _ := reflectNode(t, typ)
	assert.Nil(t, root.Get("$ref"))
	assert.Nil(t, root.Get("$id"))
	assert.Equal(t, "object", root.Get("type").Text)
	assert.Equal(t, []string{"inner"}, keys(root.Get("properties")))
	assert.Equal(t, []string{"properties", "additionalProperties", "type", "required", "$defs"}, keys(root), "$defs goes last")
	assert.Equal(t, []string{"Inner"}, keys(root.Get("$defs")), "the root's own definition is dropped: nothing refers to it")
}

func TestEdgeRootWithoutDefinitions(t *testing.T) {
	t.Parallel()
	_, out := reflectNode(t, reflect.TypeFor[Ordered]())
	assert.Equal(t, `{"properties":{"zeta":{"type":"integer"},"alpha":{"type":"string"},"mid":{"type":"boolean"}},"additionalProperties":false,"type":"object","required":["zeta","alpha","mid"]}`, string(out))
}

// Sharp edge 1, why not ExpandedStruct: it deletes the root's definition
// even when the root type refers to itself.
func TestEdgeExpandedStructBreaksRecursiveRoots(t *testing.T) {
	t.Parallel()
	r := schema.Reflector(nil)
	r.ExpandedStruct = true
	raw, err := json.Marshal(r.ReflectFromType(reflect.TypeFor[List]()))
	require.NoError(t, err)
	expanded := parse(t, raw)
	next := expanded.Get("properties").Get("next")
	require.NotNil(t, next.Get("$ref"))
	assert.Nil(t, next.Resolve(expanded), "ExpandedStruct leaves a dangling $ref")

	root, _ := reflectNode(t, reflect.TypeFor[List]())
	next = root.Get("properties").Get("next")
	assert.Equal(t, "#/$defs/List", next.Get("$ref").Text)
	require.NotNil(t, next.Resolve(root))
	assert.Equal(t, "object", next.Resolve(root).Get("type").Text)
}

// Sharp edge 2: additionalProperties false on every struct.
func TestEdgeAdditionalPropertiesFalse(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Outer]()
	structs := func(root *jsontree.Node, innerKey string) []*jsontree.Node {
		inner := root.Get("$defs").Get(innerKey)
		return []*jsontree.Node{root, inner, inner.Get("properties").Get("deep")}
	}
	raw := parse(t, reflectRaw(t, typ))
	// invopop's references to fully qualified names are not valid JSON
	// Pointers (they contain '/'): look the root's definition up by name.
	rawRoot := raw.Get("$defs").Get(thisPkg + ".Outer")
	rawRoot.Members = append(rawRoot.Members, jsontree.Member{Key: "$defs", Value: raw.Get("$defs")})
	for _, s := range structs(rawRoot, thisPkg+".Inner") {
		assert.Equal(t, "false", string(s.Get("additionalProperties").Compact()), "invopop's own default")
	}
	// Reflect must keep it (and never turn it into {}).
	root, _ := reflectNode(t, typ)
	for _, s := range structs(root, "Inner") {
		assert.Equal(t, "object", s.Get("type").Text)
		assert.Equal(t, "false", string(s.Get("additionalProperties").Compact()))
	}
}

// Sharp edge 3: by default two Item types from two packages share one
// definition, so one of them is described by the other's schema.
func TestEdgeDefinitionNamesCollide(t *testing.T) {
	t.Parallel()
	def := parse(t, reflectDefault(t, reflect.TypeFor[Both]()))
	both := def.Resolve(def)
	assert.Equal(t, "#/$defs/Item", both.Get("properties").Get("a").Get("$ref").Text)
	assert.Equal(t, "#/$defs/Item", both.Get("properties").Get("b").Get("$ref").Text)
	assert.Equal(t, []string{"Both", "Item"}, keys(def.Get("$defs")), "one Item survived")

	root, out := reflectNode(t, reflect.TypeFor[Both]())
	assert.Equal(t, []string{"a.Item", "b.Item"}, keys(root.Get("$defs")))
	a := root.Get("properties").Get("a")
	b := root.Get("properties").Get("b")
	assert.Equal(t, "#/$defs/a.Item", a.Get("$ref").Text)
	assert.Equal(t, "#/$defs/b.Item", b.Get("$ref").Text)
	assert.Equal(t, []string{"name"}, keys(a.Resolve(root).Get("properties")))
	assert.Equal(t, []string{"count"}, keys(b.Resolve(root).Get("properties")))
	assert.NotContains(t, string(out), "github.com", "no import path when the last element disambiguates")
}

func TestEdgeDefinitionNames(t *testing.T) {
	t.Parallel()
	const td = "github.com.toolgen-go.toolgen.cmd.toolgen.internal.schema.testdata."
	tests := []struct {
		name string
		typ  reflect.Type
		want []string
	}{
		{"unique name stays short", reflect.TypeFor[OnlyA](), []string{"Item"}},
		{"same name, different last elements", reflect.TypeFor[Both](), []string{"a.Item", "b.Item"}},
		{"same last element too", reflect.TypeFor[Three](), []string{"b.Item", td + "a.Item", td + "nested.a.Item"}},
		{"generic instance", reflect.TypeFor[Paged](), []string{"Item", "Page[github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/a.Item]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, _ := reflectNode(t, tt.typ)
			assert.Equal(t, tt.want, keys(root.Get("$defs")))
			for _, ref := range allRefs(root) {
				n := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "$ref", Value: &jsontree.Node{Kind: jsonlex.String, Text: ref}}}}
				assert.NotNil(t, n.Resolve(root), "%s resolves", ref)
			}
		})
	}
}

func TestEdgeGenericReferenceIsEscaped(t *testing.T) {
	t.Parallel()
	root, _ := reflectNode(t, reflect.TypeFor[Paged]())
	ref := root.Get("properties").Get("page").Get("$ref").Text
	assert.Equal(t, "#/$defs/Page[github.com~1toolgen-go~1toolgen~1cmd~1toolgen~1internal~1schema~1testdata~1a.Item]", ref, "'/' in a name is escaped as a JSON Pointer token")
}

// Sharp edge 4: recursive types keep their definitions and valid
// references.
func TestEdgeRecursiveTypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		typ      reflect.Type
		wantDefs []string
	}{
		{"linked list root", reflect.TypeFor[List](), []string{"List"}},
		{"tree root", reflect.TypeFor[Tree](), []string{"Tree"}},
		{"pointer to a recursive root", reflect.TypeFor[*Tree](), []string{"Tree"}},
		{"recursive types below the root", reflect.TypeFor[Forest](), []string{"List", "Tree"}},
		{"mutual recursion", reflect.TypeFor[Ping](), []string{"Ping", "Pong"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, _ := reflectNode(t, tt.typ)
			assert.Equal(t, "object", root.Get("type").Text)
			assert.Equal(t, tt.wantDefs, keys(root.Get("$defs")))
			refs := allRefs(root)
			require.NotEmpty(t, refs)
			for _, ref := range refs {
				n := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "$ref", Value: &jsontree.Node{Kind: jsonlex.String, Text: ref}}}}
				target := n.Resolve(root)
				require.NotNil(t, target, "%s resolves", ref)
				assert.Equal(t, "object", target.Get("type").Text)
			}
		})
	}
}

// Sharp edge 5: invopop writes any, interface{} and json.RawMessage as the
// boolean schema true.
func TestEdgeTrueSchemasBecomeEmptyObjects(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Loose]()
	comments := map[string]string{thisPkg + ".Loose.Doc": "Anything at all."}
	raw, err := json.Marshal(schema.Reflector(comments).ReflectFromType(typ))
	require.NoError(t, err)
	rawRoot := parse(t, raw)
	props := rawRoot.Get("$defs").Get(thisPkg + ".Loose").Get("properties")
	for _, p := range []string{"any", "iface", "raw"} {
		assert.Equal(t, "true", string(props.Get(p).Compact()), "invopop writes %s as true", p)
	}
	assert.Equal(t, "true", string(props.Get("anys").Get("items").Compact()))
	assert.Equal(t, "true", string(rawRoot.Get("$defs").Get(thisPkg+".Empty").Compact()))

	out, err := schema.Reflect(typ, comments)
	require.NoError(t, err)
	root := parse(t, out)
	props = root.Get("properties")
	for _, p := range []string{"any", "iface", "raw"} {
		assert.Equal(t, "{}", string(props.Get(p).Compact()), p)
	}
	assert.Equal(t, `{"type":"object"}`, string(props.Get("map").Compact()))
	assert.Equal(t, `{"items":{},"type":"array"}`, string(props.Get("anys").Compact()))
	assert.Equal(t, `{"description":"Anything at all."}`, string(props.Get("doc").Compact()), "a described any is already an object")
	assert.Equal(t, "{}", string(root.Get("$defs").Get("Empty").Compact()), "a true definition too")
	assert.Equal(t, "false", string(root.Get("additionalProperties").Compact()), "false stays false")
	assert.NotContains(t, string(out), "true")
}

// Sharp edge 6: "$schema" is not published.
func TestEdgeSchemaKeywordRemoved(t *testing.T) {
	t.Parallel()
	for _, typ := range []reflect.Type{reflect.TypeFor[Ordered](), reflect.TypeFor[Tree](), reflect.TypeFor[Word]()} {
		raw := parse(t, reflectRaw(t, typ))
		assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", raw.Get("$schema").Text)
		root, _ := reflectNode(t, typ)
		assert.Nil(t, root.Get("$schema"), typ.String())
	}
}

func TestReflectHooks(t *testing.T) {
	t.Parallel()
	root, _ := reflectNode(t, reflect.TypeFor[Hooked]())
	props := root.Get("properties")
	// invopop resets a property's description from the field's tags after
	// the type's hook ran: the hook's description is lost, as in invopop.
	assert.Equal(t, `{"type":"integer","enum":[1,2,3,4,5]}`, string(props.Get("priority").Compact()), "JSONSchemaExtend")
	assert.Equal(t, `{"$ref":"#/$defs/Color"}`, string(props.Get("color").Compact()))
	assert.Equal(t, `{"type":"string","pattern":"^#[0-9a-f]{6}$"}`, string(props.Get("color").Resolve(root).Compact()), "JSONSchema")
	assert.Equal(t, []string{"zeta", "alpha", "mid"}, keys(props.Get("legacy").Resolve(root).Get("properties")), "JSONSchemaAlias")
	assert.Equal(t, []string{"Color", "Ordered"}, keys(root.Get("$defs")))

	ext, _ := reflectNode(t, reflect.TypeFor[Extended]())
	assert.Equal(t, `[{"name":"x"}]`, string(ext.Get("examples").Compact()), "a hook on the root type")
}

func TestReflectOutputsThatAreNotStructs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"named slice", reflect.TypeFor[Names](), `{"items":{"type":"string"},"type":"array"}`},
		{"named string", reflect.TypeFor[Word](), `{"type":"string"}`},
		{"string", reflect.TypeFor[string](), `{"type":"string"}`},
		{"slice of structs", reflect.TypeFor[[]Ordered](), `{"items":{"$ref":"#/$defs/Ordered"},"type":"array","$defs":{"Ordered":{"properties":{"zeta":{"type":"integer"},"alpha":{"type":"string"},"mid":{"type":"boolean"}},"additionalProperties":false,"type":"object","required":["zeta","alpha","mid"]}}}`},
		{"any", reflect.TypeFor[any](), `{}`},
		{"raw message", reflect.TypeFor[json.RawMessage](), `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := schema.Reflect(tt.typ, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(out))
		})
	}
}

func TestReflectErrors(t *testing.T) {
	t.Parallel()
	t.Run("panicking hook", func(t *testing.T) {
		t.Parallel()
		_, err := schema.Reflect(reflect.TypeFor[HasBoom](), nil)
		var pe *schema.PanicError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, reflect.TypeFor[HasBoom](), pe.Type)
		assert.Equal(t, "boom in a hook", pe.Value)
		assert.Regexp(t, `^reflect_test\.go:\d+ in schema_test\.Boom\.JSONSchemaExtend$`, pe.Site)
		assert.Equal(t, "reflecting the JSON Schema of schema_test.HasBoom panicked: boom in a hook (at "+pe.Site+")", err.Error())
	})
	t.Run("unsupported type", func(t *testing.T) {
		t.Parallel()
		_, err := schema.Reflect(reflect.TypeFor[Chan](), nil)
		var pe *schema.PanicError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "unsupported type chan int", pe.Value)
	})
	t.Run("extra keyword duplicating a keyword", func(t *testing.T) {
		t.Parallel()
		_, err := schema.Reflect(reflect.TypeFor[Clash](), nil)
		var se *jsontree.SyntaxError
		require.ErrorAs(t, err, &se)
		assert.Contains(t, err.Error(), `duplicate member name "type"`)
		assert.Contains(t, err.Error(), "schema_test.Clash")
	})
	t.Run("nil type", func(t *testing.T) {
		t.Parallel()
		_, err := schema.Reflect(nil, nil)
		assert.Error(t, err)
	})
}

func TestPostProcess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  string
		want string
		err  string
	}{
		{
			name: "unreachable definitions dropped, sorted by new name",
			raw:  `{"$schema":"x","$ref":"#/$defs/p/z.Root","$defs":{"p/z.Root":{"type":"object","properties":{"b":{"$ref":"#/$defs/q/y.B"}}},"q/y.B":{"type":"object","properties":{"a":{"$ref":"#/$defs/r/x.A"}}},"r/x.A":{"type":"string"},"s/w.Unused":{"type":"object","properties":{"u":{"$ref":"#/$defs/t/v.OnlyFromUnused"}}},"t/v.OnlyFromUnused":{}}}`,
			want: `{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}},"$defs":{"A":{"type":"string"},"B":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}}}`,
		},
		{
			name: "data positions untouched",
			raw:  `{"type":"object","properties":{"p":{"default":true,"enum":[true,{"$ref":"#/$defs/x/a.T"}],"const":true,"examples":[true],"x-extra":true}},"additionalProperties":true,"$defs":{"x/a.T":true}}`,
			want: `{"type":"object","properties":{"p":{"default":true,"enum":[true,{"$ref":"#/$defs/x/a.T"}],"const":true,"examples":[true],"x-extra":true}},"additionalProperties":{}}`,
		},
		{
			name: "every schema position",
			raw:  `{"allOf":[true],"anyOf":[true],"oneOf":[true],"not":true,"if":true,"then":true,"else":true,"items":true,"prefixItems":[true],"contains":true,"patternProperties":{"^a":true},"dependentSchemas":{"a":true},"propertyNames":true,"contentSchema":true,"unevaluatedProperties":false}`,
			want: `{"allOf":[{}],"anyOf":[{}],"oneOf":[{}],"not":{},"if":{},"then":{},"else":{},"items":{},"prefixItems":[{}],"contains":{},"patternProperties":{"^a":{}},"dependentSchemas":{"a":{}},"propertyNames":{},"contentSchema":{},"unevaluatedProperties":false}`,
		},
		{
			name: "references deeper than a definition and foreign references",
			raw:  `{"properties":{"a":{"$ref":"#/$defs/x/a.T/properties/n"},"b":{"$ref":"https://example.com/s"},"c":{"$ref":"#/$defs/NotADef"}},"$defs":{"x/a.T":{"properties":{"n":{"type":"null"}}}}}`,
			want: `{"properties":{"a":{"$ref":"#/$defs/T/properties/n"},"b":{"$ref":"https://example.com/s"},"c":{"$ref":"#/$defs/NotADef"}},"$defs":{"T":{"properties":{"n":{"type":"null"}}}}}`,
		},
		{
			name: "a root defined as true",
			raw:  `{"$ref":"#/$defs/x/a.T","$defs":{"x/a.T":true}}`,
			want: `{}`,
		},
		{name: "invalid JSON", raw: `{"a":}`, err: "invalid JSON"},
		{name: "root not an object", raw: `true`, err: "the root is boolean"},
		{name: "dangling root reference", raw: `{"$ref":"#/$defs/x.T"}`, err: `refers to "#/$defs/x.T", which is not in $defs`},
		{name: "root defined as false", raw: `{"$ref":"#/$defs/x.T","$defs":{"x.T":false}}`, err: "is boolean, want an object"},
		{name: "definitions not an object", raw: `{"$defs":[]}`, err: "$defs is array"},
		{name: "root and definition clash", raw: `{"title":"a","$ref":"#/$defs/x.T","$defs":{"x.T":{"title":"b"}}}`, err: `has a member "title" that the root already has`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := schema.PostProcess([]byte(tt.raw))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(out))
		})
	}
}

func TestReflectorSettings(t *testing.T) {
	t.Parallel()
	comments := map[string]string{"k": "v"}
	r := schema.Reflector(comments)
	assert.True(t, r.Anonymous)
	assert.False(t, r.AllowAdditionalProperties)
	assert.False(t, r.RequiredFromJSONSchemaTags)
	assert.False(t, r.DoNotReference)
	assert.False(t, r.ExpandedStruct)
	assert.Equal(t, comments, r.CommentMap)
	require.NotNil(t, r.Namer)
	assert.Equal(t, "github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/a.Item", r.Namer(reflect.TypeFor[a.Item]()))
	assert.Empty(t, r.Namer(reflect.TypeFor[[]int]()), "unnamed types keep invopop's naming")
	assert.True(t, strings.HasSuffix(r.Namer(reflect.TypeFor[Page[a.Item]]()), "schema_test.Page[github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/a.Item]"))
}
