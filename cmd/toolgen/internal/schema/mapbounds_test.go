package schema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
)

// Bounded holds maps bounded in every way the map-bounds step reads.
type Bounded struct {
	Attrs    map[string]string  `json:"attrs" jsonschema:"minProperties=1,maxProperties=3"`
	Nullable *map[string]string `json:"nullable,omitempty" jsonschema:"nullable,maxProperties=2"`
	Hooked   map[string]int     `json:"hooked" jsonschema:"maxProperties=9"`
	Nested   []BoundedItem      `json:"nested"`
	Skipped  map[string]int     `json:"-" jsonschema:"maxProperties=1"`
	Escaped  map[string]string  `json:"escaped" jsonschema:"description=a\\,b,maxProperties=4"`
	Bad      map[string]string  `json:"bad" jsonschema:"maxProperties=-1"`
	BoundedEmbed
}

// BoundedItem is reached through $defs.
type BoundedItem struct {
	Labels map[string]string `json:"labels" jsonschema:"maxProperties=7"`
}

// BoundedEmbed is embedded: its fields are inlined.
type BoundedEmbed struct {
	Inlined map[string]string `json:"inlined" jsonschema:"maxProperties=6"`
}

// JSONSchemaExtend sets Hooked's bound: a hook's value wins over the tag's.
func (Bounded) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("hooked"); ok {
		n := uint64(5)
		p.MaxProperties = &n
	}
}

// TestMapBounds: the step publishes minProperties and maxProperties from
// the tag, as numbers, where invopop alone publishes nothing.
func TestMapBounds(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Bounded]()
	out, err := schema.Reflect(typ, nil)
	require.NoError(t, err)
	var doc struct {
		Properties map[string]map[string]any
		Defs       map[string]struct{ Properties map[string]map[string]any } `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(out, &doc), "%s", out)
	p := doc.Properties
	assert.Equal(t, 1.0, p["attrs"]["minProperties"])
	assert.Equal(t, 3.0, p["attrs"]["maxProperties"])
	assert.Equal(t, 5.0, p["hooked"]["maxProperties"], "the hook's value is kept")
	assert.Equal(t, 4.0, p["escaped"]["maxProperties"])
	assert.Equal(t, "a,b", p["escaped"]["description"])
	assert.NotContains(t, p["bad"], "maxProperties", "not a non-negative integer: left out")
	assert.Equal(t, 6.0, p["inlined"]["maxProperties"])
	oneOf, ok := p["nullable"]["oneOf"].([]any)
	require.True(t, ok, "%v", p["nullable"])
	assert.Equal(t, 2.0, oneOf[0].(map[string]any)["maxProperties"])
	assert.Equal(t, 7.0, doc.Defs["BoundedItem"].Properties["labels"]["maxProperties"])

	// invopop alone reads none of them.
	raw, err := json.Marshal(schema.Reflector(nil).ReflectFromType(typ))
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "minProperties")
	assert.NotContains(t, string(raw), `"maxProperties":3`)
}
