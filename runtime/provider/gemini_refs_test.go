package provider_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// refSiblings returns the pointers of the schemas of n that hold "$ref"
// beside a keyword not starting with "$", which Gemini's JSON Schema
// subset forbids.
func refSiblings(n *jsontree.Node) []string {
	var bad []string
	walkSchemas(n, "", func(s *jsontree.Node, ptr string) {
		if s.Get("$ref") == nil {
			return
		}
		for _, m := range s.Members {
			if !strings.HasPrefix(m.Key, "$") {
				bad = append(bad, ptr+"/"+m.Key)
			}
		}
	})
	return bad
}

// TestGeminiRefsAloneEverywhere walks every Gemini declaration toolgen
// precomputed for the sample registry (generated/providers), the golden
// array of this package, and the projection of every rule spec: no
// "$ref" stands beside a keyword that does not start with "$".
func TestGeminiRefsAloneEverywhere(t *testing.T) {
	t.Parallel()
	defs, err := providers.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	for _, tl := range defs.Tools() {
		d := parse(t, tl.Gemini.JSON)
		if params := d.Get("parametersJsonSchema"); params != nil {
			assert.Empty(t, refSiblings(params), "generated/providers: %s", tl.Spec.Name)
		}
	}
	b, err := os.ReadFile(filepath.Join("testdata", "gemini.json"))
	require.NoError(t, err)
	var golden []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	}
	require.NoError(t, json.Unmarshal(b, &golden))
	require.Len(t, golden, 1)
	require.NotEmpty(t, golden[0].FunctionDeclarations)
	for _, raw := range golden[0].FunctionDeclarations {
		d, err := jsontree.Parse(raw)
		require.NoError(t, err)
		if params := d.Get("parametersJsonSchema"); params != nil {
			assert.Empty(t, refSiblings(params), "testdata/gemini.json: %s", d.Get("name").Text)
		}
	}
	for _, spec := range ruleSpecs(t) {
		p, err := provider.Gemini(spec)
		require.NoError(t, err)
		if params := parse(t, p.JSON).Get("parametersJsonSchema"); params != nil {
			assert.Empty(t, refSiblings(params), spec.Name)
		}
	}
}

// TestGeminiRefsAlone pins how the JSON Schema form rewrites a "$ref"
// with siblings: inlined (descriptions joined), or, when recursive or
// unresolved, wrapped in a one-alternative anyOf; definitions only
// inlined references named are removed.
func TestGeminiRefsAlone(t *testing.T) {
	t.Parallel()
	// open makes a schema fall back to parametersJsonSchema.
	const open = `"additionalProperties":{"type":"string"}`
	cases := []struct {
		name, schema, want string
		dropped            []string
	}{
		{"inlined, definition removed",
			`{"type":"object",` + open + `,"properties":{"c":{"$ref":"#/$defs/C","description":"Label."}},"$defs":{"C":{"type":"string","pattern":"^#"}}}`,
			`{"additionalProperties":{"type":"string"},"properties":{"c":{"description":"Label.","pattern":"^#","type":"string"}},"type":"object"}`, nil},
		{"descriptions joined, definition kept for a bare reference",
			`{"type":"object",` + open + `,"properties":{"p":{"$ref":"#/$defs/P","description":"Where."},"q":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"string","description":"A city."}}}`,
			`{"$defs":{"P":{"description":"A city.","type":"string"}},"additionalProperties":{"type":"string"},"properties":{"p":{"description":"Where.\n\nA city.","type":"string"},"q":{"$ref":"#/$defs/P"}},"propertyOrdering":["p","q"],"type":"object"}`, nil},
		{"unused definition kept",
			`{"type":"object",` + open + `,"$defs":{"U":{"type":"string"}}}`,
			`{"$defs":{"U":{"type":"string"}},"additionalProperties":{"type":"string"},"type":"object"}`, nil},
		{"recursive, wrapped",
			`{"type":"object",` + open + `,"properties":{"n":{"$ref":"#/$defs/N","description":"Top."}},"$defs":{"N":{"type":"object","properties":{"up":{"$ref":"#/$defs/N","description":"Up."}}}}}`,
			`{"$defs":{"N":{"properties":{"up":{"anyOf":[{"$ref":"#/$defs/N"}],"description":"Up."}},"type":"object"}},"additionalProperties":{"type":"string"},"properties":{"n":{"description":"Top.","properties":{"up":{"anyOf":[{"$ref":"#/$defs/N"}],"description":"Up."}},"type":"object"}},"type":"object"}`, nil},
		{"root, wrapped",
			`{"type":"object",` + open + `,"properties":{"child":{"$ref":"#","description":"A child.","$comment":"kept inside"}}}`,
			`{"additionalProperties":{"type":"string"},"properties":{"child":{"anyOf":[{"$comment":"kept inside","$ref":"#"}],"description":"A child."}},"type":"object"}`, nil},
		{"dangling, wrapped",
			`{"type":"object",` + open + `,"properties":{"v":{"$ref":"#/$defs/Missing","description":"V."}}}`,
			`{"additionalProperties":{"type":"string"},"properties":{"v":{"anyOf":[{"$ref":"#/$defs/Missing"}],"description":"V."}},"type":"object"}`, nil},
		{"anyOf beside a wrapped reference dropped",
			`{"type":"object",` + open + `,"properties":{"v":{"$ref":"#","anyOf":[{"type":"object"}],"description":"V."}}}`,
			`{"additionalProperties":{"type":"string"},"properties":{"v":{"anyOf":[{"$ref":"#"}],"description":"V."}},"type":"object"}`, []string{"/properties/v/anyOf"}},
		{"in items, definitions and anyOf",
			`{"type":"object",` + open + `,"properties":{"l":{"type":"array","items":{"$ref":"#/$defs/C","title":"T"}},"u":{"anyOf":[{"$ref":"#/$defs/C","description":"One."},{"type":"null"}]}},"$defs":{"C":{"type":"string"},"D":{"type":"object","properties":{"c":{"$ref":"#/$defs/C","description":"In D."}}}}}`,
			`{"$defs":{"D":{"properties":{"c":{"description":"In D.","type":"string"}},"type":"object"}},"additionalProperties":{"type":"string"},"properties":{"l":{"items":{"title":"T","type":"string"},"type":"array"},"u":{"anyOf":[{"description":"One.","type":"string"},{"type":"null"}]}},"propertyOrdering":["l","u"],"type":"object"}`, nil},
		{"escaped name",
			`{"type":"object",` + open + `,"properties":{"s":{"$ref":"#/$defs/a~1b","description":"S."}},"$defs":{"a/b":{"type":"string"}}}`,
			`{"additionalProperties":{"type":"string"},"properties":{"s":{"description":"S.","type":"string"}},"type":"object"}`, nil},
		{"anchor reference: definitions kept",
			`{"type":"object",` + open + `,"properties":{"s":{"$ref":"#/$defs/S","description":"S."},"a":{"$ref":"#x"}},"$defs":{"S":{"type":"string"},"X":{"$anchor":"x","type":"integer"}}}`,
			`{"$defs":{"S":{"type":"string"},"X":{"$anchor":"x","type":"integer"}},"additionalProperties":{"type":"string"},"properties":{"a":{"$ref":"#x"},"s":{"description":"S.","type":"string"}},"propertyOrdering":["s","a"],"type":"object"}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := provider.Gemini(&tool.Spec{Name: "refs", Description: "D.", InputSchema: []byte(c.schema)})
			require.NoError(t, err)
			require.Equal(t, provider.FormJSONSchema, p.Form)
			assert.Equal(t, `{"description":"D.","name":"refs","parametersJsonSchema":`+c.want+`}`, string(p.JSON))
			assert.Equal(t, c.dropped, p.Dropped)
		})
	}
}
