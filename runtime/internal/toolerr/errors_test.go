package toolerr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestInvalidArguments(t *testing.T) {
	t.Parallel()
	ae := &codec.ArgumentsError{Problems: []codec.Problem{
		{Pointer: "/a", Message: "expected string, got number"},
		{Pointer: "/b", Message: "required property is missing"},
	}}
	tests := []struct {
		name    string
		err     error
		message string
	}{
		{"arguments error", ae, "invalid arguments: /a: expected string, got number; /b: required property is missing"},
		{"wrapped arguments error", fmt.Errorf("decode: %w", ae), "invalid arguments: /a: expected string, got number; /b: required property is missing"},
		{"model error", tool.Errorf("start must be before end"), "start must be before end"},
		{"other error", errors.New("internal: secret"), "invalid arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := InvalidArguments(tt.err)
			var te *tool.Error
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tool.CodeInvalidArguments, te.Code)
			assert.Equal(t, tt.message, te.Message)
			assert.ErrorIs(t, err, tt.err, "the cause is kept")
		})
	}
	assert.NoError(t, InvalidArguments(nil))
}
