package tool_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestCodeString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code tool.Code
		want string
	}{
		{tool.CodeUnknownTool, "unknown_tool"},
		{tool.CodeInvalidArguments, "invalid_arguments"},
		{tool.CodeNeedsConfirmation, "needs_confirmation"},
		{tool.CodeFailed, "failed"},
		{tool.CodePanic, "panic"},
		{tool.CodeTimeout, "timeout"},
		{tool.CodeOutputTooLarge, "output_too_large"},
		{tool.CodeCancelled, "cancelled"},
		{tool.CodeBusy, "busy"},
		{0, "Code(0)"},
		{42, "Code(42)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.code.String())
		})
	}
}

func TestErrorShowsOnlyTheMessage(t *testing.T) {
	t.Parallel()
	cause := errors.New("dial tcp 10.0.0.1:5432: secret")
	e := &tool.Error{Code: tool.CodeFailed, Tool: "x", Message: "the tool failed", Cause: cause}
	assert.Equal(t, "the tool failed", e.Error())
	assert.ErrorIs(t, e, cause)
	assert.Equal(t, "tool call failed: timeout", (&tool.Error{Code: tool.CodeTimeout}).Error(), "an empty message still says something")
}

func TestCodeOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want tool.Code
	}{
		{"nil", nil, 0},
		{"plain", io.EOF, 0},
		{"direct", &tool.Error{Code: tool.CodePanic}, tool.CodePanic},
		{"wrapped", fmt.Errorf("call: %w", &tool.Error{Code: tool.CodeTimeout}), tool.CodeTimeout},
		{"model error is not a call error", tool.Errorf("x"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tool.CodeOf(tt.err))
		})
	}
}

func TestErrorf(t *testing.T) {
	t.Parallel()
	errA, errB := errors.New("a"), errors.New("b")
	errSecret := errors.New("dial postgres://app:hunter2@db/notes: refused")
	tests := []struct {
		name    string
		err     error
		message string
		is      []error
		noCause bool
	}{
		{"no cause", tool.Errorf("no note %d", 7), "no note 7", nil, true},
		{"one cause", tool.Errorf("no note %d: %w", 7, errA), "no note 7: [error withheld]", []error{errA}, false},
		{"two causes", tool.Errorf("%w and %w", errA, errB), "[error withheld] and [error withheld]", []error{errA, errB}, false},
		{"%v keeps no cause", tool.Errorf("lost: %v", errA), "lost: a", nil, true},
		{"a secret stays in the cause", tool.Errorf("query notes: %w", errSecret), "query notes: [error withheld]", []error{errSecret}, false},
		{"a wrapped model error keeps its message", tool.Errorf("cannot save: %w", tool.Errorf("title too long")), "cannot save: title too long", nil, false},
		{"a model error deeper in the chain", tool.Errorf("cannot save: %w", fmt.Errorf("store: password=s3cret: %w", tool.Errorf("title too long"))), "cannot save: title too long", nil, false},
		{"explicit indexes", tool.Errorf("%[2]d: %[1]w", errSecret, 7), "7: [error withheld]", []error{errSecret}, false},
		{"star width before %w", tool.Errorf("%*d %w %s", 3, 7, errSecret, "x"), "  7 [error withheld] x", []error{errSecret}, false},
		{"percent sign", tool.Errorf("100%% %w", errSecret), "100% [error withheld]", []error{errSecret}, false},
		{"flags on %w", tool.Errorf("%+w!", errSecret), "[error withheld]!", []error{errSecret}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var me *tool.ModelError
			require.ErrorAs(t, tt.err, &me)
			assert.Equal(t, tt.message, me.Message)
			assert.Equal(t, tt.message, tt.err.Error())
			if tt.noCause {
				assert.NoError(t, me.Cause)
				assert.NoError(t, errors.Unwrap(tt.err))
			}
			for _, target := range tt.is {
				assert.ErrorIs(t, tt.err, target)
			}
		})
	}
}

func TestResultText(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "", tool.Result{}.Text())
	assert.Equal(t, `{"a":1}`, tool.Result{Content: []byte(`{"a":1}`), Structured: true}.Text())
}
