package mcpclient_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpclient"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// fixedTool adds a tool without arguments that answers res.
func fixedTool(srv *mcp.Server, name string, res *mcp.CallToolResult) {
	mcp.AddTool(srv, &mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return res, nil, nil
	})
}

func TestResults(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	fixedTool(srv, "mixed", &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "first"},
		&mcp.ImageContent{Data: []byte{1, 2}, MIMEType: "image/png"},
		&mcp.AudioContent{Data: []byte{1, 2}, MIMEType: "audio/wav"},
		&mcp.ResourceLink{URI: "file:///a", Name: "a"},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///b", Text: "embedded text"}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///c", Blob: []byte{1}}},
	}})
	fixedTool(srv, "unschemed", &mcp.CallToolResult{StructuredContent: map[string]any{"a": 1}})
	fixedTool(srv, "failed.quietly", &mcp.CallToolResult{IsError: true})
	fixedTool(srv, "failed.loudly", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("e", 120)}}})
	fixedTool(srv, "long", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", 120)}}})
	m := &memServer{srv: srv}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote", MaxResultBytes: 100, Trusted: true})
	ctx := t.Context()
	require.Len(t, p.Tools(ctx), 5, "every page of the listing (2 tools a page)")

	local := func(remote string) string {
		l, ok := p.Local(remote)
		require.True(t, ok, remote)
		return l
	}
	tests := []struct {
		name   string
		remote string
		want   tool.Result
		code   tool.Code
	}{
		{"text joined, other content named", "mixed", tool.Result{Content: []byte("first\n[image content]\n[audio content]\n[resource link]\nembedded text\n[resource]")}, 0},
		{"structured without an output schema: plain JSON", "unschemed", tool.Result{Content: []byte(`{"a":1}`)}, 0},
		{"error without text", "failed.quietly", tool.Result{Content: []byte("the tool failed"), IsError: true}, tool.CodeFailed},
		{"error text over the cap", "failed.loudly", tool.Result{Content: []byte("the tool's result exceeds 100 bytes"), IsError: true}, tool.CodeFailed},
		{"text over the cap", "long", tool.Result{Content: []byte("the tool's result exceeds 100 bytes"), IsError: true}, tool.CodeFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := p.Call(ctx, local(tt.remote), nil)
			assert.Equal(t, tt.want, res)
			assert.Equal(t, tt.code, tool.CodeOf(err))
		})
	}
}

func TestEndlessListingIsRefused(t *testing.T) {
	t.Parallel()
	srv := newSDKServer(&blocker{})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				return &mcp.ListToolsResult{NextCursor: "again"}, nil
			}
			return next(ctx, method, req)
		}
	})
	m := &memServer{srv: srv}
	p := newToolkit(t, mcpclient.Options{Group: "remote", Connect: m.connect}, nil)
	assert.False(t, p.Available(t.Context()))
	assert.Nil(t, p.Tools(t.Context()))
}
