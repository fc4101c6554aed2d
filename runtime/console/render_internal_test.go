package console

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrettyShowsWhatTheToolReads(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"a":"\u003cb\u003e \u0026"}`, "{\n  \"a\": \"<b> &\"\n}"},
		{`{"a":"\\u003c"}`, "{\n  \"a\": \"\\\\u003c\"\n}"}, // a backslash, then u003c
		{`{"a":"\"\u00e9\n"}`, "{\n  \"a\": \"\\\"\\u00e9\\n\"\n}"},
		{`not json <b>`, `not json <b>`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, pretty([]byte(tt.in)), tt.in)
	}
	assert.Equal(t, `{"a":"<b>"}`, plain([]byte(`{"a":"\u003cb\u003e"}`)))
	assert.Equal(t, `{"a":"\\u003c"}`, plain([]byte(`{"a":"\\u003c"}`)))
}
