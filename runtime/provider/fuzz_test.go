package provider_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// FuzzProjections feeds arbitrary input schemas to every projection: none
// may panic, and each definition is compact JSON, with Gemini's in the
// exact form encoding/json gives a map[string]any.
func FuzzProjections(f *testing.F) {
	for _, c := range syntheticSchemas {
		f.Add([]byte(c.schema))
	}
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#/properties/a"}}}`))
	f.Add([]byte(`{"type":"object","$defs":{"A":{"$ref":"#/$defs/A","description":"x"}},"properties":{"a":{"$ref":"#/$defs/A","title":"t"}}}`))
	// Found by fuzzing in CI: "enum" written twice.
	f.Add([]byte(`{"type":"object","properties":{"0":{"type":"000000"},"2":{"type":"string","enum":"","const":""}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		spec := &tool.Spec{Name: "fuzz", Description: "Fuzz.", InputSchema: in}
		for _, project := range []func(*tool.Spec) (provider.Projection, error){
			provider.OpenAIChat, provider.OpenAIResponses, provider.Anthropic, provider.Gemini,
		} {
			p, err := project(spec)
			if err != nil {
				continue
			}
			n, err := jsontree.Parse(p.JSON)
			if err != nil {
				t.Fatalf("invalid definition %s: %v", p.JSON, err)
			}
			if got := n.Compact(); string(got) != string(p.JSON) {
				t.Fatalf("definition not compact:\n%s\n%s", p.JSON, got)
			}
			if p.Form != "" {
				var v any
				if err := json.Unmarshal(p.JSON, &v); err != nil {
					t.Fatalf("gemini definition %s: %v", p.JSON, err)
				}
				again, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if string(again) != string(p.JSON) {
					t.Fatalf("gemini definition not as the SDK sends it:\n%s\n%s", p.JSON, again)
				}
			}
		}
	})
}
