package geminitools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/runtime/provider/geminitools"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// fakeCaller is a tool.Caller that records what each call sees: the call
// service stands behind the same interface.
type fakeCaller struct {
	ctx        context.Context
	name, args string
}

func (*fakeCaller) Offer(context.Context) []*tool.Spec { return nil }

func (f *fakeCaller) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	f.ctx = ctx
	f.name, f.args = name, string(args)
	return tool.Result{Content: []byte("done")}, nil
}

// TestCallPassesTheFunctionCallID checks that the callee finds the
// function call's ID as the call ID when it has one, and the caller's
// context as it was when it has none.
func TestCallPassesTheFunctionCallID(t *testing.T) {
	t.Parallel()
	outer := &tool.Invocation{Principal: tool.Principal{ID: "user-7"}, Turn: "turn-1", CallID: "host-call"}
	host := tool.WithInvocation(t.Context(), outer)

	f := &fakeCaller{}
	part, err := geminitools.Call(host, f, &genai.FunctionCall{ID: "fc-1", Name: "notes_get", Args: map[string]any{"id": "n1"}})
	require.NoError(t, err)
	inv, ok := tool.InvocationFrom(f.ctx)
	require.True(t, ok)
	assert.Equal(t, "fc-1", inv.CallID)
	assert.Equal(t, outer.Principal, inv.Principal)
	assert.Equal(t, "turn-1", inv.Turn)
	assert.Equal(t, "host-call", outer.CallID, "the host's invocation is left alone")
	assert.Equal(t, "notes_get", f.name)
	assert.JSONEq(t, `{"id":"n1"}`, f.args)
	assert.Equal(t, "fc-1", part.FunctionResponse.ID)

	f = &fakeCaller{}
	_, err = geminitools.Call(t.Context(), f, &genai.FunctionCall{ID: "fc-2", Name: "clock_now"})
	require.NoError(t, err)
	inv, ok = tool.InvocationFrom(f.ctx)
	require.True(t, ok, "a new invocation")
	assert.Equal(t, "fc-2", inv.CallID, "holding the ID")
	assert.Empty(t, f.args, "no arguments mean {}")

	// Without an ID, the context is the caller's as it was.
	f = &fakeCaller{}
	part, err = geminitools.Call(host, f, &genai.FunctionCall{Name: "clock_now"})
	require.NoError(t, err)
	assert.Equal(t, host, f.ctx)
	assert.Empty(t, part.FunctionResponse.ID)
	f = &fakeCaller{}
	_, err = geminitools.Call(t.Context(), f, &genai.FunctionCall{Name: "clock_now"})
	require.NoError(t, err)
	_, ok = tool.InvocationFrom(f.ctx)
	assert.False(t, ok, "no invocation made up")
}
