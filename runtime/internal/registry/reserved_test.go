package registry_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// allCodes lists every code with its name and whether it is reserved to
// the runtime.
var allCodes = []struct {
	code     tool.Code
	name     string
	reserved bool
}{
	{tool.CodeUnknownTool, "unknown_tool", true},
	{tool.CodeInvalidArguments, "invalid_arguments", false},
	{tool.CodeNeedsConfirmation, "needs_confirmation", true},
	{tool.CodeFailed, "failed", false},
	{tool.CodePanic, "panic", true},
	{tool.CodeTimeout, "timeout", true},
	{tool.CodeOutputTooLarge, "output_too_large", true},
	{tool.CodeCancelled, "cancelled", true},
	{tool.CodeBusy, "busy", true},
	{tool.CodeRefused, "refused", true},
	{tool.CodeUnknownProposal, "unknown_proposal", true},
	{tool.CodeProposalExpired, "proposal_expired", true},
	{tool.CodeProposalRejected, "proposal_rejected", true},
	{tool.CodeAlreadyConfirmed, "already_confirmed", true},
	{tool.CodeOutcomeUnknown, "outcome_unknown", true},
	{tool.CodeNotProposal, "not_proposal", true},
	{tool.CodeCallIDReused, "call_id_reused", true},
}

func TestCodeRoundTrip(t *testing.T) {
	t.Parallel()
	require.Len(t, allCodes, int(tool.CodeCallIDReused), "every code is listed")
	seen := map[string]bool{}
	for i, c := range allCodes {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tool.Code(i+1), c.code, "codes are numbered from 1 without gaps")
			assert.Equal(t, c.name, c.code.String())
			got, err := tool.ParseCode(c.name)
			require.NoError(t, err)
			assert.Equal(t, c.code, got)
			assert.Equal(t, c.reserved, c.code.Reserved())
		})
		assert.False(t, seen[c.name], "names are unique")
		seen[c.name] = true
	}
}

func TestParseCodeRejects(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "Code(0)", "Code(18)", "FAILED", "Failed", " failed", "failed ", "unknown tool", "not-proposal"} {
		_, err := tool.ParseCode(s)
		assert.Error(t, err, "%q", s)
	}
	assert.Equal(t, "Code(0)", tool.Code(0).String())
	assert.Equal(t, "Code(18)", tool.Code(18).String())
	assert.True(t, tool.Code(0).Reserved(), "not a code a tool may return")
}

// TestReservedCodesFromTools checks that a tool that returns a *Error with
// a code reserved to the runtime is reported as failed, with its error
// kept in the cause chain, while invalid_arguments and failed pass
// through.
func TestReservedCodesFromTools(t *testing.T) {
	t.Parallel()
	table := []tool.Spec{
		{Name: "act", Kind: tool.KindAction},
		{Name: "proposer", Kind: tool.KindPropose},
	}
	var returned error // what the tools return, set per case before the calls
	dispatch := func(_ context.Context, _ int, mode registry.Mode, in *codec.Decoder, _ *codec.Encoder) (registry.Output, error) {
		in.Skip()
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil {
			return 0, err
		}
		if mode != registry.ModeCall {
			return 0, nil
		}
		return 0, returned
	}
	s, err := registry.New(tooltest.Table(table), nil, dispatch, nil)
	require.NoError(t, err)

	// Not parallel: the cases share returned.
	for _, c := range allCodes {
		for _, wrapped := range []bool{false, true} {
			name := c.name
			if wrapped {
				name += "/wrapped"
			}
			t.Run(name, func(t *testing.T) {
				orig := &tool.Error{Code: c.code, Tool: "someone_else", Message: "message of " + c.name, Cause: errNotFound}
				returned = orig
				if wrapped {
					returned = fmt.Errorf("layer: %w", orig)
				}
				for _, call := range []struct {
					name, tool string
					run        func() (tool.Result, error)
				}{
					{"Call", "act", func() (tool.Result, error) { return s.Call(t.Context(), "act", nil) }},
					{"AppendCall", "act", func() (tool.Result, error) { return s.AppendCall(t.Context(), nil, "act", nil) }},
					{"RunProposed", "proposer", func() (tool.Result, error) { return registry.RunProposed(t.Context(), s, "proposer", nil) }},
				} {
					res, err := call.run()
					te := requireFailure(t, res, err)
					assert.Equal(t, call.tool, te.Tool, "%s: Tool names the tool called", call.name)
					assert.ErrorIs(t, err, errNotFound, "%s: the tool's cause is in the chain", call.name)
					if c.reserved {
						assert.Equal(t, tool.CodeFailed, te.Code, call.name)
						assert.Equal(t, "the tool failed", te.Message, call.name)
						assert.ErrorIs(t, err, orig, "%s: the tool's error itself is in the cause chain", call.name)
						assert.Contains(t, te.Cause.Error(), "reserved to the runtime", call.name)
						assert.Contains(t, te.Cause.Error(), c.name, call.name)
					} else {
						// Passed through as Call always did: a copy with
						// Tool filled in.
						assert.Equal(t, c.code, te.Code, call.name)
						assert.Equal(t, "message of "+c.name, te.Message, call.name)
						assert.Same(t, errNotFound, te.Cause, call.name)
					}
				}
			})
		}
	}

	// A reserved code from the tool is not confused with the runtime's own
	// use of it: the runtime still reports confirmation and unknown tools.
	returned = &tool.Error{Code: tool.CodeFailed}
	_, err = s.Call(t.Context(), "proposer", nil)
	assert.Equal(t, tool.CodeNeedsConfirmation, tool.CodeOf(err))
	_, err = s.Call(t.Context(), "nope", nil)
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
}

// TestReservedCodesWithTimeout checks that a tool that fails with a
// reserved code after its Spec.Timeout passed is still a failed tool, not
// a timeout it claims.
func TestReservedCodesWithTimeout(t *testing.T) {
	t.Parallel()
	table := []tool.Spec{{Name: "slow", Kind: tool.KindRead, Timeout: 1}}
	s, err := registry.New(tooltest.Table(table), nil, func(ctx context.Context, _ int, _ registry.Mode, in *codec.Decoder, _ *codec.Encoder) (registry.Output, error) {
		in.Skip()
		in.End()
		<-ctx.Done()
		return 0, &tool.Error{Code: tool.CodeBusy, Message: "busy", Cause: ctx.Err()}
	}, nil)
	require.NoError(t, err)
	res, err := s.Call(t.Context(), "slow", nil)
	te := requireFailure(t, res, err)
	// The run is either abandoned at the deadline (timeout) or returns in
	// time with the tool's error (failed); never busy.
	assert.Contains(t, []tool.Code{tool.CodeTimeout, tool.CodeFailed}, te.Code)
	if te.Code == tool.CodeFailed {
		var inner *tool.Error
		require.True(t, errors.As(te.Cause, &inner))
		assert.Equal(t, tool.CodeBusy, inner.Code)
	}
}
