package jsonlex_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

func TestKindString(t *testing.T) {
	t.Parallel()
	want := map[jsonlex.Kind]string{
		jsonlex.Invalid: "invalid", jsonlex.Null: "null", jsonlex.Bool: "boolean", jsonlex.Number: "number",
		jsonlex.String: "string", jsonlex.Object: "object", jsonlex.Array: "array", jsonlex.Kind(99): "invalid",
	}
	for k, s := range want {
		assert.Equal(t, s, k.String(), "kind %d", k)
	}
}

// The zero Kind is Invalid: an unset kind never passes for null.
func TestKindZeroIsInvalid(t *testing.T) {
	t.Parallel()
	var k jsonlex.Kind
	assert.Equal(t, jsonlex.Invalid, k)
	assert.NotEqual(t, jsonlex.Null, k)
}

func TestKindOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		c    byte
		want jsonlex.Kind
	}{
		{'n', jsonlex.Null}, {'t', jsonlex.Bool}, {'f', jsonlex.Bool}, {'"', jsonlex.String},
		{'{', jsonlex.Object}, {'[', jsonlex.Array}, {'-', jsonlex.Number}, {'0', jsonlex.Number}, {'9', jsonlex.Number},
		{'}', jsonlex.Invalid}, {']', jsonlex.Invalid}, {' ', jsonlex.Invalid}, {'+', jsonlex.Invalid}, {'.', jsonlex.Invalid}, {0, jsonlex.Invalid},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, jsonlex.KindOf(tt.c), "%q", tt.c)
	}
}
