package openaitools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/provider/openaitools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// registry returns the sample tools over a fresh demo store.
func registry(t *testing.T) tool.Registry {
	t.Helper()
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, time.March, 20, 12, 0, 0, 0, time.UTC))))
	require.NoError(t, err)
	return reg
}

// capture is a fake OpenAI API that records the last request body and
// answers with a short text reply, for Chat Completions and Responses.
type capture struct {
	mu   sync.Mutex
	body []byte
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.body = body
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"ok","refusal":null},"finish_reason":"stop","logprobs":null}]}`)
	case strings.HasSuffix(r.URL.Path, "/responses"):
		_, _ = io.WriteString(w, `{"id":"resp_1","object":"response","created_at":1,"model":"gpt-test","status":"completed","output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"ok","annotations":[]}]}]}`)
	default:
		http.NotFound(w, r)
	}
}

func newClient(t *testing.T) (openai.Client, *capture) {
	t.Helper()
	fake := &capture{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0)), fake
}

// TestToolsOnTheWire checks that the SDK sends the definitions' bytes as the
// request's tools, unchanged, for both APIs.
func TestToolsOnTheWire(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(registry(t))
	require.NoError(t, err)
	ctx := context.Background()

	t.Run("chat completions", func(t *testing.T) {
		t.Parallel()
		client, fake := newClient(t)
		c, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model:    "gpt-test",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello")},
			Tools:    openaitools.ChatTools(defs),
		})
		require.NoError(t, err)
		require.Equal(t, "ok", c.Choices[0].Message.Content)
		assertTools(t, fake.body, defs.OpenAIChat())
		b, err := json.Marshal(openaitools.ChatTools(defs))
		require.NoError(t, err)
		assert.Equal(t, string(defs.OpenAIChat()), string(b))
	})
	t.Run("responses", func(t *testing.T) {
		t.Parallel()
		client, fake := newClient(t)
		r, err := client.Responses.New(ctx, responses.ResponseNewParams{
			Model: "gpt-test",
			Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hello")},
			Tools: openaitools.ResponsesTools(defs),
		})
		require.NoError(t, err)
		require.Equal(t, "ok", r.OutputText())
		assertTools(t, fake.body, defs.OpenAIResponses())
		b, err := json.Marshal(openaitools.ResponsesTools(defs))
		require.NoError(t, err)
		assert.Equal(t, string(defs.OpenAIResponses()), string(b))
	})
}

// assertTools checks that body's tools member is want, byte for byte.
func assertTools(t *testing.T, body, want []byte) {
	t.Helper()
	assert.True(t, bytes.Contains(body, append([]byte(`"tools":`), want...)), "the request holds the definitions' tools array byte for byte:\n%s", body)
	n, err := jsontree.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(n.Get("tools").Compact()))
}

// TestChatCall checks the tool messages ChatCall makes, including for the
// arguments of a strict call, with null for what the model left out.
func TestChatCall(t *testing.T) {
	t.Parallel()
	reg := registry(t)
	ctx := context.Background()
	direct, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go"}`))
	require.NoError(t, err)
	cases := []struct {
		name, args, content string
		code                tool.Code
	}{
		{"notes_search", `{"query":"go","limit":null,"tags":null,"since":null,"sort":null}`, direct.Text(), 0},
		{"notes_search", `{"query":"go","limit":"five","tags":null,"since":null,"sort":null}`, "invalid arguments: /limit: expected integer (maximum 50, minimum 1), got string", tool.CodeInvalidArguments},
		{"notes_delete", `{"id":"n2"}`, "tool notes_delete needs a person's confirmation; nothing was run", tool.CodeNeedsConfirmation},
	}
	for _, c := range cases {
		var call openai.ChatCompletionMessageToolCallUnion
		raw, err := json.Marshal(map[string]any{"id": "call_1", "type": "function", "function": map[string]string{"name": c.name, "arguments": c.args}})
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(raw, &call))
		msg, err := openaitools.ChatCall(ctx, reg, call)
		assert.Equal(t, c.code, tool.CodeOf(err), c.args)
		b, merr := json.Marshal(msg)
		require.NoError(t, merr)
		want, merr := json.Marshal(map[string]string{"content": c.content, "tool_call_id": "call_1", "role": "tool"})
		require.NoError(t, merr)
		assert.JSONEq(t, string(want), string(b), c.args)
	}
}

func TestResponsesCall(t *testing.T) {
	t.Parallel()
	reg := registry(t)
	var call responses.ResponseFunctionToolCall
	require.NoError(t, json.Unmarshal([]byte(`{"type":"function_call","id":"fc_1","call_id":"call_7","name":"notes_get","arguments":"{\"id\":\"n999\"}"}`), &call))
	item, err := openaitools.ResponsesCall(context.Background(), reg, call)
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	b, err := json.Marshal(item)
	require.NoError(t, err)
	assert.JSONEq(t, `{"call_id":"call_7","output":"note n999: not found; notes_search finds notes and their IDs","type":"function_call_output"}`, string(b))
}
