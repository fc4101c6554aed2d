package provider_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// syntheticSchemas exercise what the sample tools do not: each is also run
// through the rule tests.
var syntheticSchemas = []struct{ name, schema string }{
	{"optional_scalars", `{"type":"object","properties":{"a":{"type":"string","minLength":1,"description":"A."},"b":{"type":"integer","minimum":0,"default":3},"c":{"type":"string","enum":["x","y"]},"d":{"type":"string","const":"k"},"e":{"type":"boolean"}},"required":["a"],"additionalProperties":false}`},
	{"refs_and_recursion", `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node","description":"The tree."},"color":{"$ref":"#/$defs/Color"}},"required":["root"],"additionalProperties":false,"$defs":{"Color":{"type":"string","pattern":"^#[0-9a-f]{6}$"},"Node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["name"],"additionalProperties":false}}}`},
	{"nullable_forms", `{"type":"object","properties":{"n":{"oneOf":[{"type":"string"},{"type":"null"}],"description":"N."},"t":{"type":["integer","null"]},"o":{"type":"object","properties":{"x":{"type":"number","exclusiveMinimum":0}},"required":["x"],"description":"O."},"r":{"oneOf":[{"$ref":"#/$defs/P"},{"type":"null"}]}},"required":["n"],"$defs":{"P":{"type":"object","properties":{"v":{"type":"string","format":"uri"}},"required":["v"],"additionalProperties":false}}}`},
	{"formats_examples_numbers", `{"type":"object","properties":{"when":{"type":"string","format":"date-time","examples":["2025-01-01T00:00:00Z"]},"site":{"type":"string","format":"uri"},"mail":{"type":"string","format":"email"},"ratio":{"type":"number","maximum":1E2,"minimum":0.50,"multipleOf":0.25},"list":{"type":"array","items":{"type":"string"},"uniqueItems":true,"minItems":1}},"required":["when","site","mail","ratio","list"],"additionalProperties":false}`},
	{"map", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`},
	{"any_value", `{"type":"object","properties":{"v":{"description":"Anything."}}}`},
	{"true_schema", `{"type":"object","properties":{"v":true}}`},
	{"type_union", `{"type":"object","properties":{"v":{"type":["string","integer"]}}}`},
	{"one_of", `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`},
	{"all_of", `{"type":"object","properties":{"v":{"allOf":[{"type":"string"}]}}}`},
	{"prefix_items", `{"type":"object","properties":{"v":{"type":"array","prefixItems":[{"type":"string"}]}}}`},
	{"items_array", `{"type":"object","properties":{"v":{"type":"array","items":[{"type":"string"}]}}}`},
	{"pattern_properties", `{"type":"object","patternProperties":{"^x":{"type":"string"}}}`},
	{"free_object", `{"type":"object","properties":{"v":{"type":"object"}}}`},
	{"open_object", `{"type":"object","properties":{},"additionalProperties":true}`},
	{"dangling_ref", `{"type":"object","properties":{"v":{"$ref":"#/$defs/Missing"}}}`},
	{"int_enum", `{"type":"object","properties":{"p":{"type":"integer","enum":[1,2,3]}},"required":["p"],"additionalProperties":false}`},
	{"recursive_ref_siblings", `{"type":"object","properties":{"node":{"$ref":"#/$defs/N","description":"Top."}},"required":["node"],"additionalProperties":false,"$defs":{"N":{"type":"object","properties":{"parent":{"$ref":"#/$defs/N","description":"Up."}},"additionalProperties":false}}}`},
	{"root_ref", `{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#","description":"A child."}},"required":["name"],"additionalProperties":false,"$defs":{"Unused":{"type":"string"}}}`},
	{"number_const", `{"type":"object","properties":{"p":{"type":"integer","const":1}},"required":["p"],"additionalProperties":false}`},
	// Tools without arguments, and objects that only look like them.
	{"no_arguments", `{"type":"object","properties":{},"additionalProperties":false}`},
	{"no_arguments_annotated", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"None","description":"Nothing to pass.","required":[],"additionalProperties":false}`},
	{"no_properties_open", `{"type":"object"}`},
	{"no_properties_bounded", `{"type":"object","properties":{},"additionalProperties":false,"maxProperties":0}`},
	// Found by FuzzProjections: each once produced a definition with a
	// member named twice.
	{"enum_and_const", `{"type":"object","properties":{"c":{"type":"string","enum":["x","y"],"const":"x","description":"C."}},"additionalProperties":false}`},
	{"enum_not_array", `{"type":"object","properties":{"e":{"type":"string","enum":"x"}},"required":["e"],"additionalProperties":false}`},
	// A palette's request_tools catalog: a oneOf of distinct consts,
	// which strict mode and Gemini's subset take as an anyOf.
	{"const_one_of", `{"type":"object","properties":{"names":{"type":"array","items":{"oneOf":[{"type":"string","const":"a_read","description":"Reads a note."},{"type":"string","const":"b_write"}]},"minItems":1,"description":"The names."}},"required":["names"],"additionalProperties":false}`},
	{"const_one_of_repeated", `{"type":"object","properties":{"v":{"oneOf":[{"const":"a"},{"const":"a","description":"Again."}]}},"required":["v"],"additionalProperties":false}`},
	{"one_of_beside_any_of", `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"}],"oneOf":[{"type":"string"},{"type":"null"}]}},"required":["v"],"additionalProperties":false}`},
}

// synthetic returns the spec of the synthetic schema name.
func synthetic(t *testing.T, name string) *tool.Spec {
	t.Helper()
	for _, c := range syntheticSchemas {
		if c.name == name {
			return &tool.Spec{Name: c.name, Description: "A synthetic tool.", InputSchema: []byte(c.schema)}
		}
	}
	require.FailNow(t, "no synthetic schema "+name)
	return nil
}

func TestOpenAIStrictProjection(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		want    string // the strict parameters
		dropped []string
	}{
		{
			name:    "optional_scalars",
			want:    `{"type":"object","properties":{"a":{"type":"string","description":"A."},"b":{"type":["integer","null"],"minimum":0},"c":{"type":["string","null"],"enum":["x","y",null]},"d":{"type":["string","null"],"enum":["k",null]},"e":{"type":["boolean","null"]}},"additionalProperties":false,"required":["a","b","c","d","e"]}`,
			dropped: []string{"/properties/a/minLength", "/properties/b/default"},
		},
		{
			name: "refs_and_recursion",
			want: `{"type":"object","properties":{` +
				`"root":{"type":"object","properties":{"name":{"type":"string"},"children":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Node"}},{"type":"null"}]}},"additionalProperties":false,"required":["name","children"],"description":"The tree."},` +
				`"color":{"anyOf":[{"$ref":"#/$defs/Color"},{"type":"null"}]}},` +
				`"additionalProperties":false,"required":["root","color"],"$defs":{"Color":{"type":"string","pattern":"^#[0-9a-f]{6}$"},` +
				`"Node":{"type":"object","properties":{"name":{"type":"string"},"children":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Node"}},{"type":"null"}]}},"additionalProperties":false,"required":["name","children"]}}}`,
		},
		{
			name: "nullable_forms",
			want: `{"type":"object","properties":{` +
				`"n":{"anyOf":[{"type":"string"},{"type":"null"}],"description":"N."},` +
				`"t":{"type":["integer","null"]},` +
				`"o":{"anyOf":[{"type":"object","properties":{"x":{"type":"number","exclusiveMinimum":0}},"additionalProperties":false,"required":["x"]},{"type":"null"}],"description":"O."},` +
				`"r":{"anyOf":[{"$ref":"#/$defs/P"},{"type":"null"}]}},` +
				`"additionalProperties":false,"required":["n","t","o","r"],` +
				`"$defs":{"P":{"type":"object","properties":{"v":{"type":"string"}},"additionalProperties":false,"required":["v"]}}}`,
			dropped: []string{"/$defs/P/properties/v/format"},
		},
		{
			name:    "formats_examples_numbers",
			want:    `{"type":"object","properties":{"when":{"type":"string","format":"date-time"},"site":{"type":"string"},"mail":{"type":"string","format":"email"},"ratio":{"type":"number","maximum":1E2,"minimum":0.50,"multipleOf":0.25},"list":{"type":"array","items":{"type":"string"},"minItems":1}},"additionalProperties":false,"required":["when","site","mail","ratio","list"]}`,
			dropped: []string{"/properties/when/examples", "/properties/site/format", "/properties/list/uniqueItems"},
		},
		{
			name: "int_enum",
			want: `{"type":"object","properties":{"p":{"type":"integer","enum":[1,2,3]}},"additionalProperties":false,"required":["p"]}`,
		},
		{
			// enum and const together: null cannot be added to both, so
			// the schema is wrapped as it is.
			name: "enum_and_const",
			want: `{"type":"object","properties":{"c":{"anyOf":[{"type":"string","enum":["x","y"],"const":"x"},{"type":"null"}],"description":"C."}},"additionalProperties":false,"required":["c"]}`,
		},
		{
			// A recursive reference with siblings is merged once, then kept
			// bare: strict mode takes no keyword beside $ref.
			name: "recursive_ref_siblings",
			want: `{"type":"object","properties":{` +
				`"node":{"type":"object","properties":{"parent":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"null"}]}},"additionalProperties":false,"required":["parent"],"description":"Top."}},` +
				`"additionalProperties":false,"required":["node"],"$defs":{"N":{"type":"object","properties":{` +
				`"parent":{"anyOf":[{"type":"object","properties":{"parent":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"null"}]}},"additionalProperties":false,"required":["parent"]},{"type":"null"}],"description":"Up."}},` +
				`"additionalProperties":false,"required":["parent"]}}}`,
			dropped: []string{"/properties/node/properties/parent/description", "/$defs/N/properties/parent/properties/parent/description"},
		},
		{
			// Merging the root into a property leaves its $defs at the root.
			name: "root_ref",
			want: `{"type":"object","properties":{"name":{"type":"string"},` +
				`"child":{"anyOf":[{"type":"object","properties":{"name":{"type":"string"},"child":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"additionalProperties":false,"required":["name","child"]},{"type":"null"}],"description":"A child."}},` +
				`"additionalProperties":false,"required":["name","child"],"$defs":{"Unused":{"type":"string"}}}`,
			dropped: []string{"/properties/child/properties/child/description"},
		},
		{
			// A oneOf of distinct consts (a palette's catalog) is an anyOf.
			name: "const_one_of",
			want: `{"type":"object","properties":{"names":{"type":"array","items":{"anyOf":[{"type":"string","const":"a_read","description":"Reads a note."},{"type":"string","const":"b_write"}]},"minItems":1,"description":"The names."}},"additionalProperties":false,"required":["names"]}`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			spec := synthetic(t, c.name)
			p, err := provider.OpenAIChat(spec)
			require.NoError(t, err)
			require.True(t, p.Strict, "reason: %s", p.Reason)
			assert.Empty(t, p.Reason)
			assert.Equal(t, c.dropped, p.Dropped)
			assert.Equal(t, `{"type":"function","function":{"name":"`+c.name+`","description":"A synthetic tool.","parameters":`+c.want+`,"strict":true}}`, string(p.JSON))
			r, err := provider.OpenAIResponses(spec)
			require.NoError(t, err)
			assert.Equal(t, `{"type":"function","name":"`+c.name+`","description":"A synthetic tool.","parameters":`+c.want+`,"strict":true}`, string(r.JSON))
		})
	}
}

func TestOpenAINotStrict(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, reason string }{
		{"map", "/properties/m is a map (additionalProperties is a schema), which strict mode cannot express"},
		{"any_value", "/properties/v accepts any JSON value (it has no type), which strict mode cannot express"},
		{"true_schema", "/properties/v accepts any JSON value, which strict mode cannot express"},
		{"type_union", `/properties/v has the type union ["string","integer"], which strict mode cannot express`},
		{"one_of", "/properties/v uses oneOf, which strict mode does not support"},
		{"all_of", "/properties/v uses allOf, which strict mode does not support"},
		{"prefix_items", "/properties/v uses prefixItems, which strict mode does not support"},
		{"items_array", "/properties/v/items is a tuple, which strict mode cannot express"},
		{"pattern_properties", "the root uses patternProperties, which strict mode does not support"},
		{"free_object", "/properties/v accepts any object, which strict mode cannot express"},
		{"open_object", "the root accepts any property (additionalProperties true), which strict mode cannot express"},
		{"dangling_ref", `/properties/v has the reference "#/$defs/Missing", which does not resolve to a local definition`},
		{"enum_not_array", "/properties/e/enum is not an array"},
		{"one_of_beside_any_of", "/properties/v uses oneOf beside anyOf, which strict mode cannot express"},
		{"const_one_of_repeated", "/properties/v uses oneOf, which strict mode does not support"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			spec := synthetic(t, c.name)
			p, err := provider.OpenAIChat(spec)
			require.NoError(t, err)
			assert.False(t, p.Strict)
			assert.Equal(t, c.reason, p.Reason)
			assert.Empty(t, p.Dropped)
			assert.Equal(t, `{"type":"function","function":{"name":"`+c.name+`","description":"A synthetic tool.","parameters":`+string(spec.InputSchema)+`,"strict":false}}`, string(p.JSON))
		})
	}
}

// A schema the strict projection refuses keeps its place in the tree it
// edits: a later copy of it, merged through a $ref, is refused for the
// same reason, and every reason is listed in the order met.
func TestOpenAIRefusedSchemaMergedAgain(t *testing.T) {
	t.Parallel()
	spec := &tool.Spec{Name: "again", InputSchema: []byte(`{"type":"object","properties":{` +
		`"vault":{"type":"object","additionalProperties":{"type":"string"}},` +
		`"whole":{"$ref":"#","description":"The same object again."}}}`)}
	p, err := provider.OpenAIChat(spec)
	require.NoError(t, err)
	assert.False(t, p.Strict)
	assert.Equal(t, "/properties/vault is a map (additionalProperties is a schema), which strict mode cannot express; "+
		"/properties/whole/properties/vault is a map (additionalProperties is a schema), which strict mode cannot express", p.Reason)
}

// TestOpenAILimits checks strict mode's size limits: a schema over one is
// sent non-strict.
func TestOpenAILimits(t *testing.T) {
	t.Parallel()
	props := func(n int, name func(int) string) string {
		var b, req strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
				req.WriteByte(',')
			}
			fmt.Fprintf(&b, `%q:{"type":"string"}`, name(i))
			fmt.Fprintf(&req, `%q`, name(i))
		}
		return `{"type":"object","properties":{` + b.String() + `},"required":[` + req.String() + `],"additionalProperties":false}`
	}
	enum := func(n, width int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%0*d"`, width, i)
		}
		return `{"type":"object","properties":{"e":{"type":"string","enum":[` + b.String() + `]}},"required":["e"],"additionalProperties":false}`
	}
	nested := func(levels int) string {
		s := `{"type":"string"}`
		for range levels - 1 {
			s = `{"type":"object","properties":{"x":` + s + `},"required":["x"],"additionalProperties":false}`
		}
		return `{"type":"object","properties":{"x":` + s + `},"required":["x"],"additionalProperties":false}`
	}
	short := func(i int) string { return fmt.Sprintf("p%d", i) }
	long := func(i int) string { return fmt.Sprintf("%061d", i) }
	cases := []struct {
		name, schema, reason string // reason "" means strict
	}{
		{"5000 properties", props(5000, short), ""},
		{"5001 properties", props(5001, short), "the root has 5001 properties, over strict mode's limit of 5000"},
		{"10 levels", nested(10), ""},
		{"11 levels", nested(11), "the root nests 11 levels of objects, over strict mode's limit of 10"},
		{"1000 enum values", enum(1000, 4), ""},
		{"1001 enum values", enum(1001, 4), "the root has 1001 enum values, over strict mode's limit of 1000"},
		{"251 short enum values", enum(251, 59), ""},
		{"251 long enum values", enum(251, 60), "/properties/e/enum has more than 250 values with over 15000 characters, over strict mode's limit"},
		{"long names", props(2000, long), "the root has 122000 characters of names and enum values, over strict mode's limit of 120000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := provider.OpenAIChat(&tool.Spec{Name: "big", InputSchema: []byte(c.schema)})
			require.NoError(t, err)
			assert.Equal(t, c.reason == "", p.Strict)
			assert.Equal(t, c.reason, p.Reason)
		})
	}
}

// TestReferenceGrowth checks that a schema whose references multiply when
// merged or inlined stops the projection instead of exhausting memory.
func TestReferenceGrowth(t *testing.T) {
	t.Parallel()
	var defs strings.Builder
	const levels = 24
	for i := range levels {
		fmt.Fprintf(&defs, `"D%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/D%d","description":"a"},"b":{"$ref":"#/$defs/D%d","description":"b"}},"required":["a","b"],"additionalProperties":false},`, i, i+1, i+1)
	}
	fmt.Fprintf(&defs, `"D%d":{"type":"string"}`, levels)
	spec := &tool.Spec{Name: "growth", InputSchema: []byte(`{"type":"object","properties":{"x":{"$ref":"#/$defs/D0","description":"x"}},"required":["x"],"additionalProperties":false,"$defs":{` + defs.String() + `}}`)}
	p, err := provider.OpenAIChat(spec)
	require.NoError(t, err)
	assert.False(t, p.Strict)
	assert.Equal(t, "the root grows over 20000 schemas once its references are merged", p.Reason)
	g, err := provider.Gemini(spec)
	require.NoError(t, err)
	assert.Equal(t, provider.FormJSONSchema, g.Form)
	assert.Equal(t, "the root grows over 20000 schemas once its references are inlined", g.Reason)
	// Inlining the references with siblings would grow as much: every one
	// is wrapped instead, and the definitions stay.
	params := parse(t, g.JSON).Get("parametersJsonSchema")
	assert.Equal(t, `{"anyOf":[{"$ref":"#/$defs/D0"}],"description":"x"}`, string(params.Get("properties").Get("x").Compact()))
	assert.Equal(t, `{"anyOf":[{"$ref":"#/$defs/D24"}],"description":"b"}`, string(params.Get("$defs").Get("D23").Get("properties").Get("b").Compact()))
	assert.Len(t, params.Get("$defs").Members, levels+1)
	assert.Less(t, len(g.JSON), 10_000, "the declaration does not multiply")
}

func TestGeminiParameters(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		want    string // the parameters
		dropped []string
	}{
		{
			name:    "optional_scalars",
			want:    `{"properties":{"a":{"description":"A.","minLength":1,"type":"STRING"},"b":{"default":3,"minimum":0,"type":"INTEGER"},"c":{"enum":["x","y"],"type":"STRING"},"d":{"enum":["k"],"type":"STRING"},"e":{"type":"BOOLEAN"}},"propertyOrdering":["a","b","c","d","e"],"required":["a"],"type":"OBJECT"}`,
			dropped: []string{"/additionalProperties"},
		},
		{
			name: "nullable_forms",
			want: `{"properties":{` +
				`"n":{"description":"N.","nullable":true,"type":"STRING"},` +
				`"o":{"description":"O.","properties":{"x":{"type":"NUMBER"}},"required":["x"],"type":"OBJECT"},` +
				`"r":{"nullable":true,"properties":{"v":{"type":"STRING"}},"required":["v"],"type":"OBJECT"},` +
				`"t":{"nullable":true,"type":"INTEGER"}},` +
				`"propertyOrdering":["n","t","o","r"],"required":["n"],"type":"OBJECT"}`,
			dropped: []string{"/properties/o/properties/x/exclusiveMinimum", "/properties/r/properties/v/format", "/properties/r/additionalProperties"},
		},
		{
			name: "formats_examples_numbers",
			want: `{"properties":{` +
				`"list":{"items":{"type":"STRING"},"minItems":1,"type":"ARRAY"},` +
				`"mail":{"type":"STRING"},` +
				`"ratio":{"maximum":100,"minimum":0.5,"type":"NUMBER"},` +
				`"site":{"type":"STRING"},` +
				`"when":{"example":"2025-01-01T00:00:00Z","format":"date-time","type":"STRING"}},` +
				`"propertyOrdering":["when","site","mail","ratio","list"],"required":["when","site","mail","ratio","list"],"type":"OBJECT"}`,
			dropped: []string{"/properties/site/format", "/properties/mail/format", "/properties/ratio/multipleOf", "/properties/list/uniqueItems", "/additionalProperties"},
		},
		{
			// A oneOf of distinct consts (a palette's catalog) is an anyOf.
			name:    "const_one_of",
			want:    `{"properties":{"names":{"description":"The names.","items":{"anyOf":[{"description":"Reads a note.","enum":["a_read"],"type":"STRING"},{"enum":["b_write"],"type":"STRING"}]},"minItems":1,"type":"ARRAY"}},"required":["names"],"type":"OBJECT"}`,
			dropped: []string{"/additionalProperties"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := provider.Gemini(synthetic(t, c.name))
			require.NoError(t, err)
			require.Equal(t, provider.FormParameters, p.Form, "reason: %s", p.Reason)
			assert.Empty(t, p.Reason)
			assert.Equal(t, c.dropped, p.Dropped)
			assert.Equal(t, `{"description":"A synthetic tool.","name":"`+c.name+`","parameters":`+c.want+`}`, string(p.JSON))
		})
	}
}

func TestGeminiFallback(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, reason string }{
		{"refs_and_recursion", `/properties/root/properties/children/items is recursive (through #/$defs/Node): inlining it into parameters would never end`},
		{"map", "/properties/m is a map (additionalProperties is a schema), which parameters cannot express"},
		{"any_value", "/properties/v accepts any JSON value (it has no type), which parameters cannot express"},
		{"true_schema", "/properties/v accepts any JSON value, which parameters cannot express"},
		{"type_union", `/properties/v has the type union ["string","integer"], which parameters cannot express`},
		{"one_of", "/properties/v uses oneOf, which parameters cannot express"},
		{"all_of", "/properties/v uses allOf, which parameters cannot express"},
		{"prefix_items", "/properties/v uses prefixItems, which parameters cannot express"},
		{"items_array", "/properties/v/items is a tuple, which parameters cannot express"},
		{"pattern_properties", "the root uses patternProperties, which parameters cannot express"},
		{"free_object", "/properties/v accepts any object, which parameters cannot express"},
		{"open_object", "the root accepts any property (additionalProperties true), which parameters cannot express"},
		{"dangling_ref", `/properties/v has the reference "#/$defs/Missing", which does not resolve to a local definition`},
		{"int_enum", "/properties/p/enum has values that are not strings, which parameters cannot express (its enums are strings)"},
		{"number_const", "/properties/p/const is not a string, which parameters cannot express (its enums are strings)"},
		{"recursive_ref_siblings", "/properties/node/properties/parent is recursive (through #/$defs/N): inlining it into parameters would never end"},
		{"root_ref", "/properties/child is recursive (through #): inlining it into parameters would never end"},
		{"enum_and_const", "/properties/c has both enum and const, which parameters cannot express (const becomes an enum)"},
		{"enum_not_array", "/properties/e/enum is not an array"},
		{"one_of_beside_any_of", "/properties/v uses oneOf, which parameters cannot express"},
		{"const_one_of_repeated", "/properties/v uses oneOf, which parameters cannot express"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := provider.Gemini(synthetic(t, c.name))
			require.NoError(t, err)
			assert.Equal(t, provider.FormJSONSchema, p.Form)
			assert.Equal(t, c.reason, p.Reason)
			assert.Empty(t, p.Dropped)
		})
	}
}

// TestGeminiJSONSchemaForm checks the fallback's bytes: the input schema
// sorted, with numbers as float64s and propertyOrdering in every schema
// with properties, but not in values such as defaults and examples.
// TestGeminiNoArguments checks that a tool without arguments is declared
// without parameters, and that objects that accept some are not.
func TestGeminiNoArguments(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		form    provider.GeminiForm
		json    string
		dropped []string
	}{
		{"no_arguments", provider.FormNone, `{"description":"A synthetic tool.","name":"no_arguments"}`, nil},
		{"no_arguments_annotated", provider.FormNone, `{"description":"A synthetic tool.","name":"no_arguments_annotated"}`, []string{"/$schema", "/title", "/description"}},
		{"no_properties_open", provider.FormJSONSchema, `{"description":"A synthetic tool.","name":"no_properties_open","parametersJsonSchema":{"type":"object"}}`, nil},
		{"no_properties_bounded", provider.FormParameters, `{"description":"A synthetic tool.","name":"no_properties_bounded","parameters":{"maxProperties":0,"type":"OBJECT"}}`, []string{"/additionalProperties"}},
		{"open_object", provider.FormJSONSchema, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := provider.Gemini(synthetic(t, c.name))
			require.NoError(t, err)
			assert.Equal(t, c.form, p.Form)
			if c.json != "" {
				assert.Equal(t, c.json, string(p.JSON))
			}
			assert.Equal(t, c.dropped, p.Dropped)
			if c.form == provider.FormNone {
				assert.Empty(t, p.Reason)
			}
		})
	}
}

func TestGeminiJSONSchemaForm(t *testing.T) {
	t.Parallel()
	spec := &tool.Spec{Name: "fallback", Description: "D.", InputSchema: []byte(
		`{"type":"object","properties":{"z":{"type":"object","properties":{"k":{"type":"string"},"j":{"type":"number","maximum":1E2}},"default":{"b":1,"a":2}},` +
			`"m":{"type":"object","additionalProperties":{"$ref":"#/$defs/D"}}},"examples":[{"z":{"k":"v","j":1}}],` +
			`"$defs":{"D":{"type":"object","properties":{"y":{"type":"string"},"x":{"type":"string"}}}}}`)}
	p, err := provider.Gemini(spec)
	require.NoError(t, err)
	require.Equal(t, provider.FormJSONSchema, p.Form)
	assert.Equal(t, `{"description":"D.","name":"fallback","parametersJsonSchema":{`+
		`"$defs":{"D":{"properties":{"x":{"type":"string"},"y":{"type":"string"}},"propertyOrdering":["y","x"],"type":"object"}},`+
		`"examples":[{"z":{"j":1,"k":"v"}}],`+
		`"properties":{"m":{"additionalProperties":{"$ref":"#/$defs/D"},"type":"object"},`+
		`"z":{"default":{"a":2,"b":1},"properties":{"j":{"maximum":100,"type":"number"},"k":{"type":"string"}},"propertyOrdering":["k","j"],"type":"object"}},`+
		`"propertyOrdering":["z","m"],"type":"object"}}`, string(p.JSON))
}

func TestProjectionErrors(t *testing.T) {
	t.Parallel()
	obj := []byte(`{"type":"object","properties":{}}`)
	type project func(*tool.Spec) (provider.Projection, error)
	all := map[string]project{
		provider.ProviderOpenAI + "/chat":      provider.OpenAIChat,
		provider.ProviderOpenAI + "/responses": provider.OpenAIResponses,
		provider.ProviderAnthropic:             provider.Anthropic,
		provider.ProviderGemini:                provider.Gemini,
	}
	cases := []struct {
		name   string
		spec   *tool.Spec
		failOn []string // the projections that fail; the others succeed
		msg    string   // the failures' message, after "tool NAME: "
		cause  any      // the type of the underlying error, if any
	}{
		{"nil spec", nil, []string{"openai/chat", "openai/responses", "anthropic", "gemini"}, "no spec: nil spec", nil},
		{"empty name", &tool.Spec{InputSchema: obj}, []string{"openai/chat", "openai/responses", "anthropic", "gemini"}, "the name does not match", nil},
		{"dotted name", &tool.Spec{Name: "notes.search", InputSchema: obj}, []string{"openai/chat", "openai/responses", "anthropic"}, "the name does not match ^[a-zA-Z0-9_-]{1,64}$", nil},
		{"leading digit", &tool.Spec{Name: "1notes", InputSchema: obj}, []string{"gemini"}, "the name does not match ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$", nil},
		{"64 characters", &tool.Spec{Name: strings.Repeat("a", 64), InputSchema: obj}, nil, "", nil},
		{"65 characters", &tool.Spec{Name: strings.Repeat("a", 65), InputSchema: obj}, []string{"openai/chat", "openai/responses", "anthropic", "gemini"}, "the name does not match", nil},
		{"not an object schema", &tool.Spec{Name: "t", InputSchema: []byte(`{"type":"array"}`)}, []string{"openai/chat", "openai/responses", "anthropic", "gemini"}, `the input schema is not an object schema ("type":"object")`, nil},
		{"untyped root", &tool.Spec{Name: "t", InputSchema: []byte(`{"properties":{}}`)}, []string{"openai/chat", "openai/responses", "anthropic", "gemini"}, `the input schema is not an object schema ("type":"object")`, nil},
		{"invalid JSON", &tool.Spec{Name: "t", InputSchema: []byte(`{"type":`)}, []string{"openai/chat", "openai/responses", "anthropic", "gemini"}, "invalid input schema: schema: invalid JSON", &jsontree.SyntaxError{}},
		{"top-level anyOf", &tool.Spec{Name: "t", InputSchema: []byte(`{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`)}, []string{"anthropic"}, "the input schema has anyOf at the top level, which the Messages API refuses", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for which, f := range all {
				_, err := f(c.spec)
				fails := false
				for _, w := range c.failOn {
					fails = fails || w == which
				}
				if !fails {
					assert.NoError(t, err, which)
					continue
				}
				var pe *provider.Error
				require.ErrorAs(t, err, &pe, which)
				assert.Equal(t, strings.Split(which, "/")[0], pe.Provider, which)
				assert.Contains(t, err.Error(), c.msg, which)
				if c.spec != nil {
					assert.Equal(t, c.spec.Name, pe.Tool, which)
					assert.True(t, strings.HasPrefix(err.Error(), "provider "+pe.Provider+": tool "+c.spec.Name+": "), err.Error())
				}
				if c.cause != nil {
					var se *jsontree.SyntaxError
					assert.True(t, errors.As(err, &se), "%s: the cause is kept", which)
				}
			}
		})
	}
}

// TestEmptyDescription checks that a tool without a description gets no
// description member.
func TestEmptyDescription(t *testing.T) {
	t.Parallel()
	spec := &tool.Spec{Name: "t", InputSchema: []byte(`{"type":"object","properties":{},"additionalProperties":false}`)}
	for _, c := range []struct {
		f    func(*tool.Spec) (provider.Projection, error)
		want string
	}{
		{provider.OpenAIChat, `{"type":"function","function":{"name":"t","parameters":{"type":"object","properties":{},"additionalProperties":false,"required":[]},"strict":true}}`},
		{provider.OpenAIResponses, `{"type":"function","name":"t","parameters":{"type":"object","properties":{},"additionalProperties":false,"required":[]},"strict":true}`},
		{provider.Anthropic, `{"name":"t","input_schema":{"type":"object","properties":{},"additionalProperties":false}}`},
		{provider.Gemini, `{"name":"t"}`}, // no arguments: no parameters
	} {
		p, err := c.f(spec)
		require.NoError(t, err)
		assert.Equal(t, c.want, string(p.JSON))
	}
}
