package anthropictools_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
)

// searchOf returns the native tool search form of the sample tools, whose
// notes_outline and notes_render are deferred.
func searchOf(t *testing.T, st provider.SearchTool) *provider.Search {
	t.Helper()
	defs, err := provider.NewDefinitions(registry(t))
	require.NoError(t, err)
	search, err := provider.NewSearch(defs, st)
	require.NoError(t, err)
	require.Equal(t, 2, search.Deferred())
	return search
}

// TestSearchToolsOnTheWire: the SDK sends the search's array byte for
// byte, and reads it back as its own tool params, the deferred ones
// flagged and the tool search tool last.
func TestSearchToolsOnTheWire(t *testing.T) {
	t.Parallel()
	for _, st := range []provider.SearchTool{provider.SearchBM25, provider.SearchRegex} {
		t.Run(string(st), func(t *testing.T) {
			t.Parallel()
			search := searchOf(t, st)
			body := send(t, anthropictools.SearchTools(search))
			n, err := jsontree.Parse(body)
			require.NoError(t, err)
			assert.Equal(t, string(search.Anthropic()), string(n.Get("tools").Compact()))
			b, err := json.Marshal(anthropictools.SearchTools(search))
			require.NoError(t, err)
			assert.Equal(t, string(search.Anthropic()), string(b))

			var params []anthropic.ToolUnionParam
			require.NoError(t, json.Unmarshal(search.Anthropic(), &params))
			require.Len(t, params, search.Definitions().Len()+1)
			var deferred []string
			for _, p := range params[:len(params)-1] {
				require.NotNil(t, p.OfTool)
				if p.OfTool.DeferLoading.Valid() {
					assert.True(t, p.OfTool.DeferLoading.Value)
					deferred = append(deferred, p.OfTool.Name)
				}
			}
			assert.Equal(t, []string{"notes_outline", "notes_render"}, deferred)
			last := params[len(params)-1]
			switch st {
			case provider.SearchBM25:
				require.NotNil(t, last.OfToolSearchToolBm25_20251119)
				assert.Equal(t, string(st), string(last.OfToolSearchToolBm25_20251119.Type))
			case provider.SearchRegex:
				require.NotNil(t, last.OfToolSearchToolRegex20251119)
				assert.Equal(t, string(st), string(last.OfToolSearchToolRegex20251119.Type))
			}
		})
	}
}

// scripted is a fake Messages API that answers the first request with a
// message in which the model searched for a tool, loaded it and called
// it, and records the body of every request.
type scripted struct {
	mu     sync.Mutex
	bodies [][]byte
}

const searchedContent = `[
	{"type":"text","text":"Let me find a tool for outlines."},
	{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25","input":{"query":"outline a note"}},
	{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"notes_outline"}]}},
	{"type":"tool_use","id":"toolu_1","name":"notes_outline","input":{"id":"n1"}}
]`

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	first := len(s.bodies) == 1
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if first {
		_, _ = io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":`+searchedContent+`,"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
		return
	}
	_, _ = io.WriteString(w, `{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
}

// TestSearchRoundTrip: a response in which the model searched, loaded a
// deferred tool through a tool_reference and called it. The tool_use runs
// through Call; the search blocks pass through the SDK untouched into the
// next request, with the tool result.
func TestSearchRoundTrip(t *testing.T) {
	t.Parallel()
	reg := registry(t)
	search := searchOf(t, provider.SearchBM25)
	fake := &scripted{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	ctx := context.Background()

	messages := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("outline n1"))}
	msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 64, Messages: messages, Tools: anthropictools.SearchTools(search)})
	require.NoError(t, err)
	var results []anthropic.ContentBlockParamUnion
	for _, block := range msg.Content {
		if use, ok := block.AsAny().(anthropic.ToolUseBlock); ok {
			res, err := anthropictools.Call(ctx, reg, use)
			require.NoError(t, err)
			results = append(results, res)
		}
	}
	require.Len(t, results, 1, "only the tool_use runs here: the search ran on the server")
	messages = append(messages, msg.ToParam(), anthropic.NewUserMessage(results...))
	_, err = client.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 64, Messages: messages, Tools: anthropictools.SearchTools(search)})
	require.NoError(t, err)

	fake.mu.Lock()
	require.Len(t, fake.bodies, 2)
	second := fake.bodies[1]
	fake.mu.Unlock()
	n, err := jsontree.Parse(second)
	require.NoError(t, err)
	assert.Equal(t, string(search.Anthropic()), string(n.Get("tools").Compact()), "the same tools on every request")
	sent := n.Get("messages")
	require.Len(t, sent.Items, 3)
	var content []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(searchedContent), &content))
	assistant := sent.Items[1].Get("content")
	require.Len(t, assistant.Items, len(content))
	for i, want := range content {
		assert.JSONEq(t, string(want), string(assistant.Items[i].Compact()), "block %d goes back as it came", i)
	}
	outline, err := reg.Call(ctx, "notes_outline", []byte(`{"id":"n1"}`))
	require.NoError(t, err)
	result := sent.Items[2].Get("content").Items[0]
	assert.Equal(t, "tool_result", result.Get("type").Text)
	assert.Equal(t, "toolu_1", result.Get("tool_use_id").Text)
	assert.Equal(t, outline.Text(), result.Get("content").Items[0].Get("text").Text)
}
