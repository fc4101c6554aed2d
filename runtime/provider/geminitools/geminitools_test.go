package geminitools_test

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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/provider/geminitools"
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

// capture is a fake generateContent endpoint that records the last request
// body and answers with a short text reply.
type capture struct {
	mu   sync.Mutex
	path string
	body []byte
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.path, c.body = r.URL.Path, body
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}`)
}

// TestToolsOnTheWire checks that the SDK sends the definitions' bytes as the
// request's tools, unchanged, for declarations in both forms.
func TestToolsOnTheWire(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(registry(t))
	require.NoError(t, err)
	forms := map[provider.GeminiForm]int{}
	for _, tl := range defs.Tools() {
		forms[tl.Gemini.Form]++
	}
	require.Positive(t, forms[provider.FormParameters], "the sample has declarations in the parameters form")
	require.Positive(t, forms[provider.FormJSONSchema], "and in the parametersJsonSchema form")
	require.Positive(t, forms[provider.FormNone], "and without parameters (tools without arguments)")

	tools, err := geminitools.Tools(defs)
	require.NoError(t, err)
	b, err := json.Marshal(tools)
	require.NoError(t, err)
	assert.Equal(t, string(defs.Gemini()), string(b), "the SDK values marshal to the definitions' bytes")

	fake := &capture{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:      "test",
		Backend:     genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	require.NoError(t, err)
	resp, err := client.Models.GenerateContent(ctx, "gemini-test", genai.Text("hello"), &genai.GenerateContentConfig{Tools: tools})
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.Text())
	assert.True(t, strings.HasSuffix(fake.path, "/models/gemini-test:generateContent"), fake.path)
	assert.True(t, bytes.Contains(fake.body, append([]byte(`"tools":`), defs.Gemini()...)), "the request holds the definitions' tools array byte for byte:\n%s", fake.body)
	n, err := jsontree.Parse(bytes.TrimSpace(fake.body))
	require.NoError(t, err)
	assert.Equal(t, string(defs.Gemini()), string(n.Get("tools").Compact()))
}

func TestToolsEmpty(t *testing.T) {
	t.Parallel()
	reg, err := tooltest.NewRegistry(nil, func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return toolimpl.OutputText, nil
	})
	require.NoError(t, err)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	tools, err := geminitools.Tools(defs)
	require.NoError(t, err)
	assert.Empty(t, tools)
}

func TestDeclarationErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		p    provider.Projection
		msg  string
	}{
		{"not JSON", provider.Projection{JSON: []byte(`{`), Form: provider.FormParameters}, "gemini function declaration: schema: invalid JSON"},
		{"no name", provider.Projection{JSON: []byte(`{"parameters":{}}`), Form: provider.FormParameters}, "gemini function declaration: no name"},
		{"no parameters", provider.Projection{JSON: []byte(`{"name":"t"}`), Form: provider.FormParameters}, `gemini function declaration t: no "parameters" member`},
		{"bad parameters", provider.Projection{JSON: []byte(`{"name":"t","parameters":{"enum":[1]}}`), Form: provider.FormParameters}, "gemini function declaration t: parameters: json: cannot unmarshal"},
		{"unknown form", provider.Projection{JSON: []byte(`{"name":"t","x":{}}`), Form: "x"}, `gemini function declaration t: unknown form "x"`},
		{"parameters without a form", provider.Projection{JSON: []byte(`{"name":"t","parameters":{"type":"OBJECT"}}`), Form: provider.FormNone}, `gemini function declaration t: a "parameters" member, but no parameters were expected`},
		{"parametersJsonSchema without a form", provider.Projection{JSON: []byte(`{"name":"t","parametersJsonSchema":{}}`), Form: provider.FormNone}, `gemini function declaration t: a "parametersJsonSchema" member, but no parameters were expected`},
	} {
		_, err := geminitools.Declaration(c.p)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.msg, c.name)
	}
}

// TestDeclarationWithoutArguments checks that a tool without arguments
// becomes a FunctionDeclaration with neither Parameters nor
// ParametersJsonSchema, sent as just its name and description.
func TestDeclarationWithoutArguments(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(registry(t))
	require.NoError(t, err)
	var none int
	for _, tl := range defs.Tools() {
		d, err := geminitools.Declaration(tl.Gemini)
		require.NoError(t, err, tl.Spec.Name)
		if tl.Gemini.Form != provider.FormNone {
			assert.True(t, d.Parameters != nil || d.ParametersJsonSchema != nil, tl.Spec.Name)
			continue
		}
		none++
		assert.Nil(t, d.Parameters, tl.Spec.Name)
		assert.Nil(t, d.ParametersJsonSchema, tl.Spec.Name)
		assert.NotEmpty(t, d.Description, tl.Spec.Name)
		b, err := json.Marshal(d)
		require.NoError(t, err)
		assert.Equal(t, string(tl.Gemini.JSON), string(b), "the SDK writes the declaration as the definitions have it")
		assert.NotContains(t, string(b), "arameters", tl.Spec.Name)
	}
	assert.Equal(t, 2, none, "clock_now and clock_sync take no arguments")
}

// TestCall checks the function responses Call makes, as the SDK writes them.
func TestCall(t *testing.T) {
	t.Parallel()
	reg := registry(t)
	ctx := context.Background()
	outline, err := reg.Call(ctx, "notes_outline", []byte(`{"id":"n1"}`))
	require.NoError(t, err)
	zones, err := reg.Call(ctx, "clock_zones", []byte(`{"prefix":"Europe/"}`))
	require.NoError(t, err)
	errJSON := func(msg string) string {
		b, err := json.Marshal(msg)
		require.NoError(t, err)
		return `{"error":` + string(b) + `}`
	}
	textJSON := func(s string) string {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		return `{"output":` + string(b) + `}`
	}
	cases := []struct {
		name     string
		args     map[string]any
		response string // the response member, as JSON
		code     tool.Code
	}{
		{"notes_outline", map[string]any{"id": "n1"}, `{"output":` + outline.Text() + `}`, 0},
		{"clock_zones", map[string]any{"prefix": "Europe/"}, textJSON(zones.Text()), 0},
		{"clock_now", nil, "", 0},
		{"notes_search", map[string]any{"query": "go", "limit": "five"}, errJSON("invalid arguments: /limit: expected integer (maximum 50, minimum 1), got string"), tool.CodeInvalidArguments},
		{"notes_delete", map[string]any{"id": "n2"}, errJSON("tool notes_delete needs a person's confirmation; nothing was run"), tool.CodeNeedsConfirmation},
	}
	for _, c := range cases {
		part, err := geminitools.Call(ctx, reg, &genai.FunctionCall{ID: "c1", Name: c.name, Args: c.args})
		assert.Equal(t, c.code, tool.CodeOf(err), c.name)
		require.NotNil(t, part.FunctionResponse, c.name)
		assert.Equal(t, "c1", part.FunctionResponse.ID)
		assert.Equal(t, c.name, part.FunctionResponse.Name)
		got, err := json.Marshal(part.FunctionResponse.Response)
		require.NoError(t, err)
		if c.response == "" {
			assert.Contains(t, string(got), `{"output":{"time":"2025-03-20T12:00:00Z"`, c.name)
			continue
		}
		assert.JSONEq(t, c.response, string(got), c.name)
	}
}
