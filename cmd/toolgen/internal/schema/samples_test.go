//go:build toolgen

package schema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/tools/clock"
	"github.com/toolgen-go/toolgen/tools/notes"
	"github.com/toolgen-go/toolgen/tools/weather"
)

// The tests in this file and parity_test.go read the sample tools of
// tools/ and the registry generated from them: their hooks live in files
// built only with the toolgen tag, as toolgen's bootstrap program builds
// them (make test runs them with -tags toolgen).

// TestSchemas reflects the sample's argument and result types the way
// toolgen does (schema.Reflect) and checks that each tag and hook says
// what the sample means it to say.
func TestSchemas(t *testing.T) {
	t.Parallel()
	type check struct {
		path []string // member names from the root; "$ref" is followed
		want string   // JSON the node must equal
	}
	tests := []struct {
		name   string
		typ    reflect.Type
		checks []check
	}{
		{
			name: "search arguments",
			typ:  reflect.TypeFor[notes.SearchInput](),
			checks: []check{
				{[]string{"required"}, `["query"]`},
				{[]string{"properties", "query"}, `{"type":"string","maxLength":200,"minLength":1}`},
				{[]string{"properties", "limit"}, `{"type":"integer","maximum":50,"minimum":1}`},
				{[]string{"properties", "tags"}, `{"items":{"type":"string"},"type":"array","maxItems":10,"uniqueItems":true}`},
				{[]string{"properties", "since"}, `{"type":"string","format":"date-time"}`},
				{[]string{"properties", "sort", "enum"}, `["relevance","newest","oldest"]`},
			},
		},
		{
			name: "search result",
			typ:  reflect.TypeFor[notes.SearchOutput](),
			checks: []check{
				{[]string{"properties", "tag_counts"}, `{"additionalProperties":{"type":"integer"},"type":"object"}`},
				{[]string{"properties", "notes", "items", "$ref", "required"}, `["id","title","snippet","tags","priority","score","created","updated"]`},
			},
		},
		{
			name: "note",
			typ:  reflect.TypeFor[notes.Note](),
			checks: []check{
				{[]string{"properties", "color", "$ref"}, `{"type":"string","pattern":"^#[0-9a-fA-F]{6}$","examples":["#ff8800"]}`},
				{[]string{"properties", "attributes"}, `{"additionalProperties":{"type":"string"},"type":"object"}`},
				{[]string{"properties", "author", "$ref", "required"}, `["name"]`},
				{[]string{"properties", "checksum"}, `{"type":"string","contentEncoding":"base64"}`},
				{[]string{"properties", "data"}, `{}`},
				{[]string{"properties", "created"}, `{"type":"string","format":"date-time"}`}, // embedded, flattened
				{[]string{"required"}, `["id","title","body","tags","priority","author","revision","checksum","created","updated"]`},
			},
		},
		{
			name: "create arguments",
			typ:  reflect.TypeFor[notes.CreateInput](),
			checks: []check{
				{[]string{"required"}, `["title"]`},
				{[]string{"properties", "priority"}, `{"type":"integer","enum":[1,2,3,4,5],"default":3}`},
				{[]string{"properties", "tags", "items"}, `{"type":"string","pattern":"^[a-z0-9][a-z0-9-]*$"}`},
				{[]string{"properties", "due"}, `{"type":"string","format":"date-time"}`},
				{[]string{"properties", "attributes"}, `{"additionalProperties":{"type":"string"},"type":"object","maxProperties":32}`}, // toolgen's map-bounds step
			},
		},
		{
			name: "update arguments",
			typ:  reflect.TypeFor[notes.UpdateInput](),
			checks: []check{
				{[]string{"required"}, `["id"]`},
				{[]string{"properties", "id", "pattern"}, `"^n[1-9][0-9]*$"`},
				{[]string{"properties", "title"}, `{"type":"string","maxLength":200,"minLength":1}`},
				{[]string{"properties", "data"}, `{}`},
				{[]string{"properties", "if_checksum"}, `{"type":"string","contentEncoding":"base64"}`},
				{[]string{"properties", "attributes"}, `{"additionalProperties":{"type":"string"},"type":"object","maxProperties":32}`},
			},
		},
		{
			name: "share arguments",
			typ:  reflect.TypeFor[notes.ShareInput](),
			checks: []check{
				{[]string{"required"}, `["id","passphrase"]`},
				{[]string{"properties", "id", "pattern"}, `"^n[1-9][0-9]*$"`},
				{[]string{"properties", "passphrase"}, `{"type":"string","maxLength":200,"minLength":8}`}, // the toolgen tag publishes nothing
				{[]string{"properties", "hours"}, `{"type":"integer","maximum":168,"minimum":1,"default":24}`},
			},
		},
		{
			name: "outline, a recursive result",
			typ:  reflect.TypeFor[notes.Outline](),
			checks: []check{
				{[]string{"properties", "sections", "items", "$ref", "required"}, `["heading","level","line"]`},
				{[]string{"$defs", "Section", "properties", "sections", "items"}, `{"$ref":"#/$defs/Section"}`},
			},
		},
		{
			name:   "zones arguments",
			typ:    reflect.TypeFor[clock.ZonesInput](),
			checks: []check{{[]string{"properties", "prefix"}, `{"type":"string","maxLength":64,"examples":["Europe/"]}`}},
		},
		{
			name:   "zones result, neither struct nor string",
			typ:    reflect.TypeFor[[]string](),
			checks: []check{{nil, `{"items":{"type":"string"},"type":"array"}`}},
		},
		{
			name: "sync result",
			typ:  reflect.TypeFor[clock.Sync](),
			checks: []check{
				{[]string{"properties", "offset"}, `{"type":"integer"}`}, // time.Duration: nanoseconds
				{[]string{"properties", "in_sync"}, `{"type":"boolean"}`},
			},
		},
		{
			name: "forecast arguments",
			typ:  reflect.TypeFor[weather.ForecastInput](),
			checks: []check{
				{[]string{"required"}, `["place"]`},
				// Place publishes words and examples only: its UnmarshalJSON
				// enforces the two forms, and toolgen refuses to publish
				// constraints (type, oneOf) that its decoders do not check.
				{[]string{"properties", "place", "$ref"}, `{
					"description":"A city's name in English, such as \"Lisbon\", or coordinates in degrees: {\"lat\": 38.72, \"lon\": -9.14} with lat from -90 to 90 (north positive) and lon from -180 to 180 (east positive).",
					"examples":["Lisbon",{"lat":38.72,"lon":-9.14}]}`},
				{[]string{"properties", "units", "enum"}, `["metric","imperial"]`},
			},
		},
		{
			name: "forecast result",
			typ:  reflect.TypeFor[weather.Forecast](),
			checks: []check{
				{[]string{"properties", "place", "required"}, `["name","coordinates"]`}, // an anonymous struct, inline
				{[]string{"properties", "place", "properties", "coordinates"}, `{"items":{"type":"number"},"type":"array","maxItems":2,"minItems":2,"description":"Latitude and longitude in degrees"}`},
				{[]string{"properties", "days", "items", "$ref", "properties", "rain"}, `{"type":"number"}`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := schema.Reflect(tt.typ, nil)
			require.NoError(t, err)
			root, err := jsontree.Parse(b)
			require.NoError(t, err)
			for _, c := range tt.checks {
				n := root
				for _, key := range c.path {
					if key == "$ref" {
						n = n.Resolve(root)
					} else {
						n = n.Get(key)
					}
					require.NotNil(t, n, "no %v in %s", c.path, b)
				}
				assert.JSONEq(t, c.want, string(n.Compact()), "at %v", c.path)
			}
			var v any
			assert.NoError(t, json.Unmarshal(b, &v))
		})
	}
}

// TestSchemaHooks checks the schemas toolgen publishes for Priority and
// Color, which come from their invopop/jsonschema hooks.
func TestSchemaHooks(t *testing.T) {
	t.Parallel()
	type in struct {
		Priority notes.Priority `json:"priority"`
		Color    *notes.Color   `json:"color,omitempty"`
	}
	b, err := schema.Reflect(reflect.TypeFor[in](), nil)
	require.NoError(t, err)
	var got struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(b, &got))
	assert.JSONEq(t, `{"type":"integer","enum":[1,2,3,4,5]}`, string(got.Properties["priority"]))
	assert.JSONEq(t, `{"type":"string","pattern":"^#[0-9a-fA-F]{6}$","examples":["#ff8800"]}`, string(got.Defs["Color"]))
	assert.Equal(t, []string{"priority"}, got.Required)
}
