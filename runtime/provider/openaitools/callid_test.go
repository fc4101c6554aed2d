package openaitools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/provider/openaitools"
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

// TestCallsPassTheToolCallID checks that the callee finds the model's
// tool-call ID as the call ID, beside what the caller's context already
// carried: the Chat tool call's ID, the Responses item's CallID (not its
// own ID).
func TestCallsPassTheToolCallID(t *testing.T) {
	t.Parallel()
	var chat openai.ChatCompletionMessageToolCallUnion
	require.NoError(t, json.Unmarshal([]byte(`{"id":"call_chat1","type":"function","function":{"name":"notes_get","arguments":"{\"id\":\"n1\"}"}}`), &chat))
	var fc responses.ResponseFunctionToolCall
	require.NoError(t, json.Unmarshal([]byte(`{"type":"function_call","id":"fc_item1","call_id":"call_resp1","name":"notes_get","arguments":"{\"id\":\"n2\"}","status":"completed"}`), &fc))

	outer := &tool.Invocation{Principal: tool.Principal{ID: "user-7"}, Turn: "turn-1"}
	for name, ctx := range map[string]context.Context{
		"no invocation":   t.Context(),
		"the host's turn": tool.WithInvocation(t.Context(), outer),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			host, hasHost := tool.InvocationFrom(ctx)

			f := &fakeCaller{}
			msg, err := openaitools.ChatCall(ctx, f, chat)
			require.NoError(t, err)
			require.NotNil(t, f.inv)
			assert.Equal(t, "call_chat1", f.inv.CallID)
			assert.Equal(t, "notes_get", f.name)
			assert.Equal(t, `{"id":"n1"}`, f.args)
			assert.Equal(t, "call_chat1", msg.OfTool.ToolCallID)
			if hasHost {
				assert.Equal(t, host.Principal, f.inv.Principal)
				assert.Equal(t, host.Turn, f.inv.Turn)
			}

			f = &fakeCaller{}
			item, err := openaitools.ResponsesCall(ctx, f, fc)
			require.NoError(t, err)
			require.NotNil(t, f.inv)
			assert.Equal(t, "call_resp1", f.inv.CallID, "the call's ID, not the item's")
			assert.Equal(t, `{"id":"n2"}`, f.args)
			assert.Equal(t, "call_resp1", item.OfFunctionCallOutput.CallID.Value)
			if hasHost {
				assert.Equal(t, host.Principal, f.inv.Principal)
				assert.Empty(t, host.CallID, "the host's invocation is left alone")
			}
		})
	}
}
