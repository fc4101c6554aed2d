package jsontree_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

func TestParseCompactRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
	}{
		{"null", `null`},
		{"true", `true`},
		{"false", `false`},
		{"integer", `-12`},
		{"number literal kept", `1.50e+10`},
		{"zero", `0`},
		{"string", `"hello"`},
		{"empty object", `{}`},
		{"empty array", `[]`},
		{"order kept", `{"z":1,"a":2,"m":{"y":[3,{"b":null,"a":true}],"x":"s"}}`},
		{"escapes as encoding/json writes them", `"\u003cb\u003e \u0026 \"q\" \\ \n\t\r\b\f \u0001 \u2028\u2029 é 😀"`},
		{"large object", `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10}`},
		{"nested arrays", `[[],[[]],[{}],[1,[2,[3]]]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n, err := jsontree.Parse([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.in, string(n.Compact()))
		})
	}
}

func TestParseKeepsMemberOrder(t *testing.T) {
	t.Parallel()
	n, err := jsontree.Parse([]byte(" {\"zeta\" : 1 ,\n\"alpha\":2,\t\"mid\":[\"x\"]} "))
	require.NoError(t, err)
	require.Equal(t, jsonlex.Object, n.Kind)
	var keys []string
	for _, m := range n.Members {
		keys = append(keys, m.Key)
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid"}, keys)
	assert.Equal(t, `{"zeta":1,"alpha":2,"mid":["x"]}`, string(n.Compact()))
}

func TestParseValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want *jsontree.Node
	}{
		{"null", `null`, &jsontree.Node{Kind: jsonlex.Null}},
		{"true", `true`, &jsontree.Node{Kind: jsonlex.Bool, Bool: true}},
		{"false", ` false `, &jsontree.Node{Kind: jsonlex.Bool}},
		{"number", `-0.5E-3`, &jsontree.Node{Kind: jsonlex.Number, Text: "-0.5E-3"}},
		{"escapes decoded", `"\u00e9\ud83d\ude00\/\"\\\n"`, &jsontree.Node{Kind: jsonlex.String, Text: "é😀/\"\\\n"}},
		{"raw UTF-8", `"héllo 😀"`, &jsontree.Node{Kind: jsonlex.String, Text: "héllo 😀"}},
		{"array", `[1,"a"]`, &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{
			{Kind: jsonlex.Number, Text: "1"}, {Kind: jsonlex.String, Text: "a"},
		}}},
		{"object", `{"a":{}}`, &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{
			{Key: "a", Value: &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{}}},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n, err := jsontree.Parse([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, n)
		})
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		msg    string
		offset int
	}{
		{"empty", ``, "unexpected end of input", 0},
		{"white space only", "  \n", "unexpected end of input", 3},
		{"duplicate member", `{"a":1,"b":2,"a":3}`, `duplicate member name "a"`, 13},
		{"duplicate member in a large object", `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":3}`, `duplicate member name "k3"`, 71},
		{"duplicate member nested", `[{"x":{"y":1,"y":2}}]`, `duplicate member name "y"`, 13},
		{"duplicate after unescaping", `{"a":1,"\u0061":2}`, `duplicate member name "a"`, 7},
		{"trailing data", `{} {}`, "unexpected data after the top-level value", 3},
		{"trailing comma in object", `{"a":1,}`, "expected a member name", 7},
		{"trailing comma in array", `[1,]`, "unexpected character ']'", 3},
		{"missing colon", `{"a" 1}`, "expected ':'", 5},
		{"missing comma", `[1 2]`, "expected ',' or ']'", 3},
		{"unclosed object", `{"a":1`, "expected ',' or '}'", 6},
		{"unclosed string", `"abc`, "unterminated string", 4},
		{"single quotes", `'a'`, "unexpected character", 0},
		{"bad literal", `tru`, "expected true", 0},
		{"leading zero", `01`, "leading zero in a number", 1},
		{"plus sign", `+1`, "unexpected character '+'", 0},
		{"bare fraction", `.5`, "unexpected character '.'", 0},
		{"trailing dot", `1.`, "after the decimal point", 2},
		{"empty exponent", `1e`, "in the exponent", 2},
		{"minus alone", `-`, "expected a digit", 1},
		{"NaN", `NaN`, "unexpected character 'N'", 0},
		{"control character", "\"a\tb\"", "control character", 2},
		{"invalid escape", `"\x"`, "invalid escape in a string", 1},
		{"short unicode escape", `"\u12"`, `invalid \u escape`, 1},
		{"lone high surrogate", `"\ud800"`, "unpaired surrogate", 1},
		{"lone low surrogate", `"\udc00x"`, "unpaired surrogate", 1},
		{"high surrogate and a letter", `"\ud800\u0041"`, "unpaired surrogate", 1},
		{"invalid UTF-8", "\"a\xffb\"", "invalid UTF-8", 2},
		{"invalid UTF-8 after an escape", "\"\\n\xc3\"", "invalid UTF-8", 3},
		{"comment", `{} // x`, "unexpected data", 3},
		{"too deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "nesting deeper than 10000 levels", 10000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := jsontree.Parse([]byte(tt.in))
			var se *jsontree.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, se.Msg, tt.msg)
			assert.Equal(t, tt.offset, se.Offset)
			assert.Contains(t, err.Error(), "invalid JSON at byte")
		})
	}
}

func TestCompactEscapesStringsLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	var ascii strings.Builder
	for c := range 0x80 {
		ascii.WriteByte(byte(c))
	}
	tests := []struct {
		name string
		s    string
	}{
		{"every ASCII byte", ascii.String()},
		{"HTML", "<script>alert('x') & </script>"},
		{"line separators", "a\u2028b\u2029c"},
		{"invalid UTF-8", "a\xffb\xc3(c\xed\xa0\x80"},
		{"multibyte", "héllo, 世界 😀"},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, err := json.Marshal(tt.s)
			require.NoError(t, err)
			n := &jsontree.Node{Kind: jsonlex.String, Text: tt.s}
			assert.Equal(t, string(want), string(n.Compact()))
			// Member names are escaped the same way.
			obj := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: tt.s, Value: &jsontree.Node{}}}}
			assert.Equal(t, "{"+string(want)+":null}", string(obj.Compact()))
		})
	}
}

func TestIndentMatchesJSONIndent(t *testing.T) {
	t.Parallel()
	docs := []string{
		`{}`,
		`[]`,
		`"s"`,
		`{"a":1,"b":[],"c":{},"d":[1,{"e":null,"f":[true,false]}],"g":"\u003c"}`,
		`[[[]],{"z":{"y":{"x":{}}}}]`,
	}
	for _, doc := range docs {
		for _, layout := range []struct{ prefix, indent string }{{"", "  "}, {"", "\t"}, {">", " "}, {"", ""}} {
			n, err := jsontree.Parse([]byte(doc))
			require.NoError(t, err)
			var want bytes.Buffer
			require.NoError(t, json.Indent(&want, []byte(doc), layout.prefix, layout.indent))
			assert.Equal(t, want.String(), string(n.Indent(layout.prefix, layout.indent)), "%s with %q %q", doc, layout.prefix, layout.indent)

			if layout.prefix == "" {
				back, err := jsontree.Parse(n.Indent(layout.prefix, layout.indent))
				require.NoError(t, err)
				assert.Equal(t, doc, string(back.Compact()), "indented form parses back")
			}
		}
	}
}

func TestNilNode(t *testing.T) {
	t.Parallel()
	var n *jsontree.Node
	assert.Equal(t, "null", string(n.Compact()))
	assert.Equal(t, "null", string(n.Indent("", "  ")))
	assert.Nil(t, n.Get("a"))
	assert.Nil(t, n.Resolve(nil))
}

func TestGet(t *testing.T) {
	t.Parallel()
	n, err := jsontree.Parse([]byte(`{"a":1,"b":{"c":"d"},"e":[1]}`))
	require.NoError(t, err)
	tests := []struct {
		name string
		node *jsontree.Node
		key  string
		want string // compact form, "" for nil
	}{
		{"member", n, "a", "1"},
		{"object member", n, "b", `{"c":"d"}`},
		{"nested", n.Get("b"), "c", `"d"`},
		{"absent", n, "z", ""},
		{"not an object", n.Get("e"), "a", ""},
		{"a string", n.Get("b").Get("c"), "c", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.node.Get(tt.key)
			if tt.want == "" {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tt.want, string(got.Compact()))
		})
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	root, err := jsontree.Parse([]byte(`{
		"type": "object",
		"properties": {
			"item": {"$ref": "#/$defs/Item", "description": "an item"},
			"alias": {"$ref": "#/$defs/Alias"},
			"loop": {"$ref": "#/$defs/Loop1"},
			"missing": {"$ref": "#/$defs/Nope"},
			"remote": {"$ref": "https://example.com/schema.json"},
			"escaped": {"$ref": "#/$defs/Page[example.com~1m~1a.Item]"},
			"tilde": {"$ref": "#/$defs/a~0b"},
			"deep": {"$ref": "#/$defs/Item/properties/name"},
			"index": {"$ref": "#/$defs/List/prefixItems/1"},
			"badIndex": {"$ref": "#/$defs/List/prefixItems/01"},
			"root": {"$ref": "#"},
			"plain": {"type": "string"}
		},
		"$defs": {
			"Item": {"type": "object", "properties": {"name": {"type": "string"}}},
			"Alias": {"$ref": "#/$defs/Item"},
			"Loop1": {"$ref": "#/$defs/Loop2"},
			"Loop2": {"$ref": "#/$defs/Loop1"},
			"Page[example.com/m/a.Item]": {"type": "array"},
			"a~b": {"type": "null"},
			"List": {"prefixItems": [{"type": "integer"}, {"type": "boolean"}]}
		}
	}`))
	require.NoError(t, err)
	props := root.Get("properties")
	tests := []struct {
		prop string
		want string // compact form, "" for nil
	}{
		{"item", `{"type":"object","properties":{"name":{"type":"string"}}}`},
		{"alias", `{"type":"object","properties":{"name":{"type":"string"}}}`},
		{"loop", ""},
		{"missing", ""},
		{"remote", ""},
		{"escaped", `{"type":"array"}`},
		{"tilde", `{"type":"null"}`},
		{"deep", `{"type":"string"}`},
		{"index", `{"type":"boolean"}`},
		{"badIndex", ""},
		{"plain", `{"type":"string"}`},
	}
	for _, tt := range tests {
		t.Run(tt.prop, func(t *testing.T) {
			t.Parallel()
			got := props.Get(tt.prop).Resolve(root)
			if tt.want == "" {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tt.want, string(got.Compact()))
		})
	}
	t.Run("root", func(t *testing.T) {
		t.Parallel()
		assert.Same(t, root, props.Get("root").Resolve(root))
	})
	t.Run("no $ref returns the node itself", func(t *testing.T) {
		t.Parallel()
		plain := props.Get("plain")
		assert.Same(t, plain, plain.Resolve(root))
	})
}

// A Node nobody set has the zero Kind, jsonlex.Invalid, not jsonlex.Null;
// it is still written as null.
func TestZeroNode(t *testing.T) {
	t.Parallel()
	var n jsontree.Node
	assert.Equal(t, jsonlex.Invalid, n.Kind)
	assert.Equal(t, "null", string(n.Compact()))
	assert.Equal(t, "null", string(n.Indent("", "  ")))
	parsed, err := jsontree.Parse([]byte(`null`))
	require.NoError(t, err)
	assert.Equal(t, jsonlex.Null, parsed.Kind)
}
