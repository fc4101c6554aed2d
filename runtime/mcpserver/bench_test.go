package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// The benchmarks compare, side by side, three servers: the SDK's server
// with no tools ("sdk-empty", the floor), this package's server of a
// synthetic registry of benchTools tools with schemas of about
// benchSchemaBytes bytes ("toolgen"), and the SDK's server with the same
// tools registered through the low-level Server.AddTool with the same raw
// schemas ("sdk-addtool"). Sessions run over the SDK's in-memory transport
// with a raw JSON-RPC client, so that the client's decoding is not
// measured.
const (
	benchTools       = 1000
	benchSchemaBytes = 700
)

// benchImpl identifies the benchmark servers.
var benchImpl = &mcp.Implementation{Name: "bench", Version: "1"}

// newBenchTools returns the synthetic tools.
func newBenchTools() []fakeTool { return namedTools("tool_", benchTools, benchSchemaBytes) }

// newSDKAddTool returns an SDK server with tools registered through the
// low-level Server.AddTool, with the raw schema bytes.
func newSDKAddTool(tools []fakeTool) *mcp.Server {
	s := mcp.NewServer(benchImpl, nil)
	handler := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	}
	for _, ft := range tools {
		sp := ft.spec
		destructive, openWorld := sp.Destructive, sp.OpenWorld
		s.AddTool(&mcp.Tool{
			Name:        sp.Name,
			Title:       sp.Title,
			Description: sp.Description,
			InputSchema: json.RawMessage(sp.InputSchema),
			Annotations: &mcp.ToolAnnotations{
				Title:           sp.Title,
				ReadOnlyHint:    sp.ReadOnly,
				DestructiveHint: &destructive,
				IdempotentHint:  sp.Idempotent,
				OpenWorldHint:   &openWorld,
			},
		}, handler)
	}
	return s
}

// session connects a raw client to sdk and completes the handshake; end
// closes both sides.
func session(tb testing.TB, sdk *mcp.Server) (c *rawClient, end func()) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := sdk.Connect(ctx, st, nil)
	require.NoError(tb, err)
	conn, err := ct.Connect(ctx)
	require.NoError(tb, err)
	c = &rawClient{conn: conn}
	_, err = c.call(ctx, "initialize", `{"protocolVersion":"`+protocolLegacy+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	require.NoError(tb, err)
	require.NoError(tb, conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}))
	return c, func() {
		_ = conn.Close()
		_ = ss.Close()
	}
}

// BenchmarkNew measures building a server, without a session.
func BenchmarkNew(b *testing.B) {
	tools := newBenchTools()
	reg := newStatic(b, tools...)
	b.Run("sdk-empty", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = mcp.NewServer(benchImpl, nil)
		}
	})
	b.Run("toolgen-1000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := mcpserver.New(reg, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sdk-addtool-1000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = newSDKAddTool(tools)
		}
	})
}

// BenchmarkStartup measures start-up to a served session: building the
// server, connecting a transport and the initialize handshake.
func BenchmarkStartup(b *testing.B) {
	tools := newBenchTools()
	reg := newStatic(b, tools...)
	for _, tc := range []struct {
		name string
		new  func() *mcp.Server
	}{
		{"sdk-empty", func() *mcp.Server { return mcp.NewServer(benchImpl, nil) }},
		{"toolgen-1000", func() *mcp.Server {
			srv, err := mcpserver.New(reg, nil)
			require.NoError(b, err)
			return srv.SDK()
		}},
		{"sdk-addtool-1000", func() *mcp.Server { return newSDKAddTool(tools) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, end := session(b, tc.new())
				end()
			}
		})
	}
}

// BenchmarkListTools measures one tools/list of all the tools (one page)
// in an open session; "toolgen-1000-cold" builds a new server for each
// listing, so that it includes writing the listing's bytes.
func BenchmarkListTools(b *testing.B) {
	tools := newBenchTools()
	reg := newStatic(b, tools...)
	list := func(b *testing.B, c *rawClient) {
		res, err := c.call(context.Background(), "tools/list", `{}`)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(res)))
	}
	b.Run("toolgen-1000", func(b *testing.B) {
		srv, err := mcpserver.New(reg, nil)
		require.NoError(b, err)
		c, end := session(b, srv.SDK())
		defer end()
		b.ReportAllocs()
		for b.Loop() {
			list(b, c)
		}
	})
	b.Run("toolgen-1000-cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			srv, err := mcpserver.New(reg, nil)
			require.NoError(b, err)
			c, end := session(b, srv.SDK())
			list(b, c)
			end()
		}
	})
	b.Run("sdk-addtool-1000", func(b *testing.B) {
		c, end := session(b, newSDKAddTool(tools))
		defer end()
		b.ReportAllocs()
		for b.Loop() {
			list(b, c)
		}
	})
}

// jsonrpcMarshal marshals a result as the SDK's JSON-RPC layer does.
func jsonrpcMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

// BenchmarkListToolsServerSide measures what the server itself does for one
// tools/list of all the tools, without a transport: answering the request
// and marshaling the result as the SDK's JSON-RPC layer does. For
// "sdk-addtool-1000" that is marshaling a ListToolsResult of the tools as
// Server.AddTool keeps them (raw schemas).
func BenchmarkListToolsServerSide(b *testing.B) {
	tools := newBenchTools()
	b.Run("toolgen-1000", func(b *testing.B) {
		srv, err := mcpserver.New(newStatic(b, tools...), nil)
		require.NoError(b, err)
		b.ReportAllocs()
		for b.Loop() {
			res, err := mcpserver.ListFirstPage(context.Background(), srv)
			if err != nil {
				b.Fatal(err)
			}
			out, err := jsonrpcMarshal(res)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
		}
	})
	b.Run("toolgen-1000-answer-only", func(b *testing.B) {
		// The middleware's part alone: the answer and its MarshalJSON,
		// without the SDK's validation and copy of the bytes.
		srv, err := mcpserver.New(newStatic(b, tools...), nil)
		require.NoError(b, err)
		b.ReportAllocs()
		for b.Loop() {
			res, err := mcpserver.ListFirstPage(context.Background(), srv)
			if err != nil {
				b.Fatal(err)
			}
			out, err := res.(json.Marshaler).MarshalJSON()
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
		}
	})
	b.Run("sdk-addtool-1000", func(b *testing.B) {
		res := &mcp.ListToolsResult{}
		res.CacheScope = "public"
		for _, ft := range tools {
			sp := ft.spec
			destructive, openWorld := sp.Destructive, sp.OpenWorld
			res.Tools = append(res.Tools, &mcp.Tool{
				Name:        sp.Name,
				Title:       sp.Title,
				Description: sp.Description,
				InputSchema: json.RawMessage(sp.InputSchema),
				Annotations: &mcp.ToolAnnotations{
					Title:           sp.Title,
					ReadOnlyHint:    sp.ReadOnly,
					DestructiveHint: &destructive,
					IdempotentHint:  sp.Idempotent,
					OpenWorldHint:   &openWorld,
				},
			})
		}
		b.ReportAllocs()
		for b.Loop() {
			out, err := jsonrpcMarshal(res)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
		}
	})
}

// BenchmarkCallTool measures one tools/call of a tool that answers "ok".
func BenchmarkCallTool(b *testing.B) {
	tools := newBenchTools()
	args := `{"name":"tool_500","arguments":{"field_0":"x"}}`
	b.Run("toolgen-1000", func(b *testing.B) {
		srv, err := mcpserver.New(newStatic(b, tools...), nil)
		require.NoError(b, err)
		c, end := session(b, srv.SDK())
		defer end()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.call(context.Background(), "tools/call", args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sdk-addtool-1000", func(b *testing.B) {
		c, end := session(b, newSDKAddTool(tools))
		defer end()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.call(context.Background(), "tools/call", args); err != nil {
				b.Fatal(err)
			}
		}
	})
}
