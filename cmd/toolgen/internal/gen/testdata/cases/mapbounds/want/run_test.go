package want_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/mapbounds"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/mapbounds/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/mapbounds/want/mapboundstools"
)

// These tests run the golden output of the mapbounds case: toolgen's
// internal/gen tests run them with `go test` on this directory.

// TestMapBounds: minProperties and maxProperties, from the tag or a hook,
// at the top level, under a pointer and in a $defs entry, are enforced;
// an excess is reported once, at the map.
func TestMapBounds(t *testing.T) {
	reg, err := want.New([]want.Tools{mapboundstools.Tools{Label: mapbounds.Label{}}})
	require.NoError(t, err)
	for _, c := range []struct {
		name, args, problem string
	}{
		{"within", `{"attrs":{"a":"1","b":"2","c":"3"},"counts":{"x":1,"y":2},"meta":{"1":"","2":"","3":"","4":"","5":""},"items":[{"labels":{"1":"","2":"","3":"","4":""}}]}`, ""},
		{"too few", `{"attrs":{}}`, "/attrs: must have at least 1 property"},
		{"too many", `{"attrs":{"a":"1","b":"2","c":"3","d":"4"}}`, "/attrs: must have at most 3 properties"},
		{"too many, values past the limit not read", `{"attrs":{"a":"1","b":"2","c":"3","d":4,"e":[]}}`, "/attrs: must have at most 3 properties"},
		{"pointer", `{"attrs":{"a":""},"counts":{"x":1,"y":2,"z":3}}`, "/counts: must have at most 2 properties"},
		{"hook", `{"attrs":{"a":""},"meta":{"1":"","2":"","3":"","4":"","5":"","6":""}}`, "/meta: must have at most 5 properties"},
		{"in $defs", `{"attrs":{"a":""},"items":[{"labels":{"1":"","2":"","3":"","4":"","5":""}}]}`, "/items/0/labels: must have at most 4 properties"},
		{"duplicate", `{"attrs":{"a":"","a":""}}`, "/attrs/<key 1>: duplicate property"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := reg.Check(context.Background(), "label", []byte(c.args))
			if c.problem == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.problem)
			assert.NotContains(t, err.Error(), "/attrs/<key 3>", "a member past the limit is skipped, not decoded")
		})
	}
}
