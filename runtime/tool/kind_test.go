package tool_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestKindTextRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind tool.Kind
		text string
	}{
		{tool.KindRead, "read"},
		{tool.KindDisplay, "display"},
		{tool.KindPropose, "propose"},
		{tool.KindAction, "action"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.text, tt.kind.String())

			parsed, err := tool.ParseKind(tt.text)
			require.NoError(t, err)
			assert.Equal(t, tt.kind, parsed)

			text, err := tt.kind.MarshalText()
			require.NoError(t, err)
			assert.Equal(t, tt.text, string(text))

			var back tool.Kind
			require.NoError(t, back.UnmarshalText(text))
			assert.Equal(t, tt.kind, back)

			// Through encoding/json, as a config file or a listing would.
			data, err := json.Marshal(map[string]tool.Kind{"kind": tt.kind})
			require.NoError(t, err)
			assert.JSONEq(t, `{"kind":"`+tt.text+`"}`, string(data))
			var m map[string]tool.Kind
			require.NoError(t, json.Unmarshal(data, &m))
			assert.Equal(t, tt.kind, m["kind"])
		})
	}
}

func TestKindInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind tool.Kind
		want string
	}{
		{0, "Kind(0)"},
		{5, "Kind(5)"},
		{255, "Kind(255)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.kind.String())
			_, err := tt.kind.MarshalText()
			assert.Error(t, err)
		})
	}
}

func TestParseKindRejects(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "Read", "READ", "write", "Kind(1)", " read", "read "} {
		t.Run(s, func(t *testing.T) {
			t.Parallel()
			k, err := tool.ParseKind(s)
			require.Error(t, err)
			assert.Zero(t, k)
			assert.Contains(t, err.Error(), "unknown tool kind")

			var into tool.Kind = tool.KindAction
			require.Error(t, into.UnmarshalText([]byte(s)))
			assert.Equal(t, tool.KindAction, into, "a failed UnmarshalText leaves the kind as it was")
		})
	}
}
