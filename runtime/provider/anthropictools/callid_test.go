package anthropictools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// fakeCaller is a tool.Caller that records what each call sees: the call
// service stands behind the same interface.
type fakeCaller struct {
	inv        *tool.Invocation
	name, args string
}

func (*fakeCaller) Offer(context.Context) []*tool.Spec { return nil }

func (f *fakeCaller) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	f.inv, _ = tool.InvocationFrom(ctx)
	f.name, f.args = name, string(args)
	return tool.Result{Content: []byte("done")}, nil
}

// TestCallPassesTheToolUseID checks that the callee finds the tool_use
// block's ID as the call ID, beside what the caller's context already
// carried, which is left as it was.
func TestCallPassesTheToolUseID(t *testing.T) {
	t.Parallel()
	var use anthropic.ToolUseBlock
	require.NoError(t, json.Unmarshal([]byte(`{"type":"tool_use","id":"toolu_01A","name":"notes_get","input":{"id":"n1"}}`), &use))

	outer := &tool.Invocation{Principal: tool.Principal{ID: "user-7"}, Turn: "turn-1", State: new(tool.TurnState)}
	for name, ctx := range map[string]context.Context{
		"no invocation":   t.Context(),
		"the host's turn": tool.WithInvocation(t.Context(), outer),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := &fakeCaller{}
			block, err := anthropictools.Call(ctx, f, use)
			require.NoError(t, err)
			require.NotNil(t, f.inv)
			assert.Equal(t, "toolu_01A", f.inv.CallID)
			assert.Equal(t, "notes_get", f.name)
			assert.JSONEq(t, `{"id":"n1"}`, f.args)
			assert.Equal(t, "toolu_01A", block.OfToolResult.ToolUseID)
			if inv, ok := tool.InvocationFrom(ctx); ok {
				assert.Equal(t, inv.Principal, f.inv.Principal)
				assert.Equal(t, inv.Turn, f.inv.Turn)
				assert.Same(t, inv.State, f.inv.State)
				assert.Empty(t, inv.CallID, "the host's invocation is left alone")
			}
		})
	}
}
