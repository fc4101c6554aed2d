//go:build toolgen

package notes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/schema"
)

// TestSchemaHooks checks the schemas toolgen publishes for Priority and
// Color, which come from their invopop/jsonschema hooks.
func TestSchemaHooks(t *testing.T) {
	t.Parallel()
	type in struct {
		Priority Priority `json:"priority"`
		Color    *Color   `json:"color,omitempty"`
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
