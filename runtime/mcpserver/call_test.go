package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// lockedBuffer is a log destination safe for concurrent writes and reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// failingTools are fake tools that fail in every way a call can.
func failingTools() []fakeTool {
	return []fakeTool{
		{
			spec: tool.Spec{Name: "boom", Kind: tool.KindAction, InputSchema: []byte(`{"type":"object"}`)},
			run: func(context.Context, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
				panic("secret panic detail")
			},
		},
		{
			spec: tool.Spec{Name: "nap", Kind: tool.KindRead, Timeout: time.Millisecond, InputSchema: []byte(`{"type":"object"}`)},
			run: func(ctx context.Context, in *codec.Decoder, _ *codec.Encoder) (toolimpl.Output, error) {
				in.Skip()
				<-ctx.Done() // returns once the tool's timeout passed
				return 0, context.Cause(ctx)
			},
		},
		{
			spec: tool.Spec{Name: "oops", Kind: tool.KindRead, InputSchema: []byte(`{"type":"object"}`)},
			run: func(_ context.Context, in *codec.Decoder, _ *codec.Encoder) (toolimpl.Output, error) {
				in.Skip()
				return 0, &tool.ModelError{Message: "the quota is used up; try tomorrow", Cause: assert.AnError}
			},
		},
	}
}

// textOf returns the text of a result's only content block.
func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content %T", res.Content[0])
	return tc.Text
}

func TestCallDemoTools(t *testing.T) {
	t.Parallel()
	for _, proto := range protocols {
		t.Run(protocolName(proto), func(t *testing.T) {
			t.Parallel()
			reg, err := demo.Registry()
			require.NoError(t, err)
			srv, err := mcpserver.New(reg, nil)
			require.NoError(t, err)
			cs := connect(t, srv, proto, nil)
			call := func(name string, args any) *mcp.CallToolResult {
				t.Helper()
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
				require.NoError(t, err)
				return res
			}

			// A struct output: structuredContent, and the same JSON as text.
			res := call("notes_get", map[string]any{"id": "n1"})
			assert.False(t, res.IsError)
			require.NotNil(t, res.StructuredContent)
			structured, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			assert.JSONEq(t, string(structured), textOf(t, res))
			assert.Equal(t, "n1", res.StructuredContent.(map[string]any)["id"])

			// A text output: text only.
			res = call("notes_render", map[string]any{"id": "n1", "format": "plain"})
			assert.False(t, res.IsError)
			assert.Nil(t, res.StructuredContent)
			assert.Contains(t, textOf(t, res), "Go generics cheat sheet")

			// Non-struct JSON output: text.
			res = call("clock_zones", nil)
			assert.False(t, res.IsError)
			assert.Nil(t, res.StructuredContent)
			assert.Contains(t, textOf(t, res), `"Europe/Lisbon"`)

			// Invalid arguments: every problem, never the value sent.
			res = call("notes_search", map[string]any{"query": "", "limit": 500, "sort": "sekrit-value", "colour": "red"})
			assert.True(t, res.IsError)
			assert.Nil(t, res.StructuredContent)
			msg := textOf(t, res)
			for _, want := range []string{"/query", "/limit", "/sort", "/colour"} {
				assert.Contains(t, msg, want)
			}
			assert.NotContains(t, msg, "sekrit-value")
			assert.NotContains(t, msg, "500")

			// A propose tool: validated, not run.
			res = call("notes_delete", map[string]any{"id": "n2"})
			assert.True(t, res.IsError)
			assert.Contains(t, textOf(t, res), "confirmation")
			res = call("notes_get", map[string]any{"id": "n2"})
			assert.False(t, res.IsError, "n2 was not deleted")

			// An error the tool wrote for the model.
			res = call("notes_get", map[string]any{"id": "n999"})
			assert.True(t, res.IsError)
			assert.Contains(t, textOf(t, res), "not found")
		})
	}
}

func TestCallUnknownToolIsProtocolError(t *testing.T) {
	t.Parallel()
	for _, proto := range protocols {
		t.Run(protocolName(proto), func(t *testing.T) {
			t.Parallel()
			reg, err := demo.Registry()
			require.NoError(t, err)
			srv, err := mcpserver.New(reg, nil)
			require.NoError(t, err)
			cs := connect(t, srv, proto, nil)
			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_serch", Arguments: map[string]any{}})
			require.Error(t, err)
			we := wireError(t, err)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code)
			assert.Contains(t, we.Message, "notes_search", "the message suggests the close name")
			// The session goes on.
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "clock_zones"})
			require.NoError(t, err)
			assert.False(t, res.IsError)
		})
	}
}

func TestCallFailuresKeepServing(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	tools := append(failingTools(), fakeTool{spec: tool.Spec{Name: "ping", Kind: tool.KindRead, InputSchema: []byte(`{"type":"object"}`)}})
	srv, err := mcpserver.New(newStatic(t, tools...), &mcpserver.Options{
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	require.NoError(t, err)
	cs := connect(t, srv, protocolLatest, nil)

	for _, tc := range []struct {
		tool, want, code string
	}{
		{"boom", "the tool failed", "panic"},
		{"nap", "the tool timed out after 1ms", "timeout"},
		{"oops", "the quota is used up; try tomorrow", "failed"},
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: map[string]any{}})
		require.NoError(t, err, tc.tool)
		assert.True(t, res.IsError, tc.tool)
		assert.Equal(t, tc.want, textOf(t, res), tc.tool)
		assert.NotContains(t, textOf(t, res), "secret", tc.tool)

		// The server keeps serving.
		res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ping"})
		require.NoError(t, err)
		assert.False(t, res.IsError)
		assert.Equal(t, "ok", textOf(t, res))
	}
	log := logs.String()
	assert.Contains(t, log, "secret panic detail", "the cause goes to the log")
	assert.Contains(t, log, "code=panic")
	assert.Contains(t, log, "code=timeout")
	assert.Contains(t, log, "code=failed")
	assert.Contains(t, log, assert.AnError.Error())
}

func TestCallNullArguments(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, fakeTool{spec: tool.Spec{Name: "ping", Kind: tool.KindRead}}), nil)
	require.NoError(t, err)
	c := dialRaw(t, srv.SDK())
	for _, params := range []string{`{"name":"ping"}`, `{"name":"ping","arguments":null}`, `{"name":"ping","arguments":{}}`} {
		res, err := c.call(t.Context(), "tools/call", params)
		require.NoError(t, err, params)
		assert.JSONEq(t, `{"content":[{"type":"text","text":"ok"}]}`, string(res), params)
	}
}

func TestCallStructuredExactJSON(t *testing.T) {
	t.Parallel()
	out := `{"n":1,"s":"a\"b"}`
	srv, err := mcpserver.New(newStatic(t, fakeTool{
		spec: tool.Spec{Name: "st", Kind: tool.KindRead, OutputSchema: []byte(`{"type":"object"}`)},
		run: func(_ context.Context, in *codec.Decoder, e *codec.Encoder) (toolimpl.Output, error) {
			in.Skip()
			e.JSON([]byte(out), nil)
			return toolimpl.OutputStructured, nil
		},
	}), nil)
	require.NoError(t, err)
	res, err := dialRaw(t, srv.SDK()).call(t.Context(), "tools/call", `{"name":"st"}`)
	require.NoError(t, err)
	text, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":[{"type":"text","text":`+string(text)+`}],"structuredContent":`+out+`}`, string(res))
}

// panicky is a Caller whose Call panics: not a registry, which never
// does.
type panicky struct{ tool.Registry }

func (panicky) Call(context.Context, string, []byte) (tool.Result, error) { panic("registry bug") }

// plainErrors is a Caller whose Call fails without a *tool.Error.
type plainErrors struct{ tool.Registry }

func (plainErrors) Call(context.Context, string, []byte) (tool.Result, error) {
	return tool.Result{}, assert.AnError
}

// resultErrors is a Caller that reports failures in the Result alone.
type resultErrors struct{ tool.Registry }

func (resultErrors) Call(context.Context, string, []byte) (tool.Result, error) {
	return tool.Result{Content: []byte("try again later"), IsError: true}, nil
}

func TestCallOtherCallers(t *testing.T) {
	t.Parallel()
	base := newStatic(t, fakeTool{spec: tool.Spec{Name: "ping", Kind: tool.KindRead}})
	for _, tc := range []struct {
		name string
		reg  tool.Caller
		want string
	}{
		{"panics", panicky{base}, "the tool failed"},
		{"plain error", plainErrors{base}, "the tool failed"},
		{"error in result", resultErrors{base}, "try again later"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, err := mcpserver.New(tc.reg, nil)
			require.NoError(t, err)
			cs := connect(t, srv, protocolLegacy, nil)
			for range 2 { // the second call proves the session survived
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ping"})
				require.NoError(t, err)
				assert.True(t, res.IsError)
				assert.Equal(t, tc.want, textOf(t, res))
			}
		})
	}
}
