package shape

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSplitSchemaTag splits as invopop's splitOnUnescapedCommas: a comma
// after a backslash stays in the value.
func TestSplitSchemaTag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tag  string
		want []string
	}{
		{"minimum=1,maximum=2", []string{"minimum=1", "maximum=2"}},
		{`description=a\, b,required`, []string{"description=a, b", "required"}},
		{"enum=a,,enum=b,", []string{"enum=a", "enum=b"}},
		{"pattern=^a=b$", []string{"pattern=^a=b$"}},
	} {
		var got []string
		for _, e := range splitSchemaTag(tc.tag) {
			got = append(got, e.text)
		}
		assert.Equal(t, tc.want, got, tc.tag)
	}
}

// TestNumericBounds: exclusive bounds leave nothing when they meet, and
// on integers they move to the next integer.
func TestNumericBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		vals        map[string]string
		integer     bool
		contradicts bool
	}{
		{map[string]string{"minimum": "1", "maximum": "1"}, false, false},
		{map[string]string{"exclusiveMinimum": "1", "maximum": "1"}, false, true},
		{map[string]string{"exclusiveMinimum": "1", "exclusiveMaximum": "2"}, false, false},
		{map[string]string{"exclusiveMinimum": "1", "exclusiveMaximum": "2"}, true, true},
		{map[string]string{"minimum": "1.5", "maximum": "1.9"}, true, true},
		{map[string]string{"minimum": "1.5", "maximum": "2"}, true, false},
		{map[string]string{"minimum": "-2.5", "exclusiveMaximum": "-2"}, true, true},
	} {
		lo, hi := numericBounds(tc.vals, tc.integer)
		assert.Equal(t, tc.contradicts, lo.excludes(hi), "%v integer=%v", tc.vals, tc.integer)
	}
}
