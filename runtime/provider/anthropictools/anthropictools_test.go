package anthropictools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// registry returns the sample tools over a fresh demo store.
func registry(t *testing.T) tool.Registry {
	t.Helper()
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, time.March, 20, 12, 0, 0, 0, time.UTC))))
	require.NoError(t, err)
	return reg
}

// capture is a fake Messages API that records each request body and
// answers with a short text message.
type capture struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.bodies = append(c.bodies, body)
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
}

func (c *capture) last(t *testing.T) []byte {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	require.NotEmpty(t, c.bodies)
	return c.bodies[len(c.bodies)-1]
}

// send makes one Messages request with tools through the real SDK to the
// fake and returns the body the SDK sent.
func send(t *testing.T, tools []anthropic.ToolUnionParam) []byte {
	t.Helper()
	fake := &capture{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	msg, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model:     "claude-test",
		MaxTokens: 64,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hello"))},
		Tools:     tools,
	})
	require.NoError(t, err)
	require.Equal(t, "ok", msg.Content[0].Text)
	return fake.last(t)
}

// TestToolsOnTheWire checks that the SDK sends the definitions' bytes as the
// request's tools, unchanged.
func TestToolsOnTheWire(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(registry(t))
	require.NoError(t, err)
	body := send(t, anthropictools.Tools(defs))
	assert.True(t, bytes.Contains(body, append([]byte(`"tools":`), defs.Anthropic()...)), "the request holds the definitions' tools array byte for byte:\n%s", body)
	n, err := jsontree.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, string(defs.Anthropic()), string(n.Get("tools").Compact()))

	// Marshalling the params gives the same bytes.
	b, err := json.Marshal(anthropictools.Tools(defs))
	require.NoError(t, err)
	assert.Equal(t, string(defs.Anthropic()), string(b))
}

func TestCachedTools(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(registry(t))
	require.NoError(t, err)
	body := send(t, anthropictools.CachedTools(defs))
	n, err := jsontree.Parse(body)
	require.NoError(t, err)
	tools := n.Get("tools")
	require.Len(t, tools.Items, defs.Len())
	all, err := jsontree.Parse(defs.Anthropic())
	require.NoError(t, err)
	for i, it := range tools.Items[:len(tools.Items)-1] {
		assert.Equal(t, string(all.Items[i].Compact()), string(it.Compact()), "tools before the last are unchanged")
	}
	last := tools.Items[len(tools.Items)-1]
	want := all.Items[len(all.Items)-1]
	want.Members = append(want.Members, jsontree.Member{Key: "cache_control", Value: &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "type", Value: &jsontree.Node{Kind: jsonlex.String, Text: "ephemeral"}}}}})
	assert.Equal(t, string(want.Compact()), string(last.Compact()))
	assert.Empty(t, anthropictools.CachedTools(mustDefinitions(t, nil)))
}

func mustDefinitions(t *testing.T, specs []tool.Spec) *provider.Definitions {
	t.Helper()
	reg, err := tooltest.NewRegistry(specs, func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return toolimpl.OutputText, nil
	})
	require.NoError(t, err)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	return defs
}

// TestCall checks the tool_result blocks Call makes, as the SDK writes them.
func TestCall(t *testing.T) {
	t.Parallel()
	reg := registry(t)
	cases := []struct {
		name, input string
		want        string // the tool_result block, as the SDK marshals it
		code        tool.Code
	}{
		{"notes_outline", `{"id":"n1"}`, `{"tool_use_id":"toolu_1","content":[{"text":"{\"id\":\"n1\",\"title\":\"Go generics cheat sheet\",`, 0},
		{"notes_search", `{"query":"go","limit":"five"}`, `{"tool_use_id":"toolu_1","is_error":true,"content":[{"text":"invalid arguments: /limit: expected integer (maximum 50, minimum 1), got string","type":"text"}],"type":"tool_result"}`, tool.CodeInvalidArguments},
		{"notes_delete", `{"id":"n2"}`, `{"tool_use_id":"toolu_1","is_error":true,"content":[{"text":"tool notes_delete needs a person's confirmation; nothing was run","type":"text"}],"type":"tool_result"}`, tool.CodeNeedsConfirmation},
		{"notes_serch", `{}`, `{"tool_use_id":"toolu_1","is_error":true,"content":[{"text":"unknown tool \"notes_serch\"; did you mean notes_search?`, tool.CodeUnknownTool},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var use anthropic.ToolUseBlock
			require.NoError(t, json.Unmarshal([]byte(`{"type":"tool_use","id":"toolu_1","name":"`+c.name+`","input":`+c.input+`}`), &use))
			block, err := anthropictools.Call(context.Background(), reg, use)
			b, merr := json.Marshal(block)
			require.NoError(t, merr)
			assert.Contains(t, string(b), c.want)
			if c.code == 0 {
				assert.NoError(t, err)
				return
			}
			var te *tool.Error
			require.ErrorAs(t, err, &te)
			assert.Equal(t, c.code, te.Code)
		})
	}
}

// TestCallEmptyOutput checks that an empty output gives a tool_result
// without content: the API refuses empty text blocks.
func TestCallEmptyOutput(t *testing.T) {
	t.Parallel()
	reg, err := tooltest.NewRegistry([]tool.Spec{{Name: "quiet", Kind: tool.KindAction, InputSchema: []byte(`{"type":"object","properties":{}}`)}},
		func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
			return toolimpl.OutputText, nil
		})
	require.NoError(t, err)
	block, err := anthropictools.Call(context.Background(), reg, anthropic.ToolUseBlock{ID: "toolu_2", Name: "quiet", Input: json.RawMessage(`{}`)})
	require.NoError(t, err)
	b, err := json.Marshal(block)
	require.NoError(t, err)
	assert.Equal(t, `{"tool_use_id":"toolu_2","type":"tool_result"}`, string(b))
}
