package mcpserver_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// waitLimit bounds a wait for something that should happen at once; it
// only turns a hang into a failure.
const waitLimit = 30 * time.Second

func TestSourceChangeNotifiesSessions(t *testing.T) {
	t.Parallel()
	for _, proto := range protocols {
		t.Run(protocolName(proto), func(t *testing.T) {
			t.Parallel()
			before := namedTools("x", 3, 100)
			src := newFakeSource(newStatic(t, before...))
			srv, err := mcpserver.New(src, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = srv.Close() })

			notified := make(chan struct{}, 16)
			cs := connect(t, srv, proto, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { notified <- struct{}{} },
			})
			caps := cs.InitializeResult().Capabilities
			require.NotNil(t, caps.Tools)
			assert.True(t, caps.Tools.ListChanged)

			res, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			require.Len(t, res.Tools, 3)

			after := slices.Concat(before, []fakeTool{{spec: tool.Spec{Name: "x999", Kind: tool.KindRead}}})
			src.set(newStatic(t, after...))
			select {
			case <-notified:
			case <-time.After(waitLimit):
				t.Fatal("no notifications/tools/list_changed")
			}
			res, err = cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			require.Len(t, res.Tools, 4)
			assert.Equal(t, "x999", res.Tools[3].Name)
			for _, tl := range res.Tools {
				assert.NotEqual(t, "toolgen_tools_changed", tl.Name, "the change marker is never listed")
			}
			// The new tool is callable, the marker is not a tool.
			cres, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "x999"})
			require.NoError(t, err)
			assert.False(t, cres.IsError)
			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "toolgen_tools_changed"})
			assert.Error(t, err)
		})
	}
}

func TestRegistryDeclaresNoListChanged(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, namedTools("r", 2, 100)...), nil)
	require.NoError(t, err)
	cs := connect(t, srv, protocolLegacy, nil)
	caps := cs.InitializeResult().Capabilities
	require.NotNil(t, caps.Tools, "the tools capability is declared without registering tools with the SDK")
	assert.False(t, caps.Tools.ListChanged)
	assert.Nil(t, caps.Prompts)
	assert.Nil(t, caps.Resources)
}

func TestCloseEndsSubscription(t *testing.T) {
	t.Parallel()
	src := newFakeSource(newStatic(t))
	srv, err := mcpserver.New(src, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, src.subscribers())
	require.NoError(t, srv.Close())
	assert.Equal(t, 0, src.subscribers())
	require.NoError(t, srv.Close(), "Close is idempotent")
}
