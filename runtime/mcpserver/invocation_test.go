package mcpserver_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// invocations is a Caller of a static registry that keeps the Invocation
// of every Offer and Call.
type invocations struct {
	tool.Registry
	mu   sync.Mutex
	seen []tool.Invocation
}

func (c *invocations) keep(ctx context.Context) {
	inv, _ := tool.InvocationFrom(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if inv == nil {
		inv = &tool.Invocation{}
	}
	c.seen = append(c.seen, *inv)
}

func (c *invocations) Offer(ctx context.Context) []*tool.Spec {
	c.keep(ctx)
	return c.Registry.Offer(ctx)
}

func (c *invocations) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	c.keep(ctx)
	return c.Registry.Call(ctx, name, args)
}

// last returns the last Invocation seen.
func (c *invocations) last() tool.Invocation {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen[len(c.seen)-1]
}

// TestMetaNamesCallConversationAndTurn checks that the _meta keys of a
// request reach the Caller in its Invocation, over every protocol, and
// that the principal and conversation of the session's context are kept
// where the request names none.
func TestMetaNamesCallConversationAndTurn(t *testing.T) {
	t.Parallel()
	for _, protocol := range protocols {
		t.Run(protocolName(protocol), func(t *testing.T) {
			t.Parallel()
			caller := &invocations{Registry: newStatic(t, namedTools("t", 2, 100)...)}
			srv, err := mcpserver.New(caller, nil)
			require.NoError(t, err)
			ctx := tool.WithInvocation(t.Context(), &tool.Invocation{
				Principal: tool.Principal{ID: "local"}, Conversation: "session-conv", Turn: "session-turn",
			})
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.SDK().Connect(ctx, st, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = ss.Close() })
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
			require.NoError(t, err)
			t.Cleanup(func() { _ = cs.Close() })

			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t000", Arguments: map[string]any{"field_0": "x"}})
			require.NoError(t, err)
			got := caller.last()
			assert.Equal(t, "local", got.Principal.ID)
			assert.Equal(t, "session-conv", got.Conversation)
			assert.Empty(t, got.CallID, "no call ID: no deduplication")

			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{
				Meta: mcp.Meta{mcpserver.MetaCallID: "call_1", mcpserver.MetaConversation: "conv-9", mcpserver.MetaTurn: "turn-3"},
				Name: "t000", Arguments: map[string]any{"field_0": "x"},
			})
			require.NoError(t, err)
			got = caller.last()
			assert.Equal(t, "local", got.Principal.ID, "the session's principal")
			assert.Equal(t, "call_1", got.CallID)
			assert.Equal(t, "conv-9", got.Conversation)
			assert.Equal(t, "turn-3", got.Turn)

			_, err = cs.ListTools(t.Context(), &mcp.ListToolsParams{Meta: mcp.Meta{mcpserver.MetaConversation: "conv-10"}})
			require.NoError(t, err)
			got = caller.last()
			assert.Equal(t, "conv-10", got.Conversation, "tools/list reads the conversation too")
			assert.Empty(t, got.Turn, "the session's turn is another conversation's")
		})
	}
}

// TestMetaRefused checks that a _meta key holding anything but a short
// printable string refuses the request, naming the key, echoing nothing.
func TestMetaRefused(t *testing.T) {
	t.Parallel()
	caller := &invocations{Registry: newStatic(t, namedTools("t", 2, 100)...)}
	srv, err := mcpserver.New(caller, nil)
	require.NoError(t, err)
	cs := connect(t, srv, protocolLegacy, nil)
	for _, tc := range []struct {
		key string
		val any
	}{
		{mcpserver.MetaCallID, 7},
		{mcpserver.MetaCallID, ""},
		{mcpserver.MetaConversation, strings.Repeat("c", mcpserver.MaxMetaLen+1)},
		{mcpserver.MetaTurn, "a\x00b" + sentinel},
		{mcpserver.MetaTurn, map[string]any{"x": sentinel}},
	} {
		_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Meta: mcp.Meta{tc.key: tc.val}, Name: "t000", Arguments: map[string]any{"field_0": "x"}})
		we := wireError(t, err)
		assert.Equal(t, "the _meta key "+tc.key+" must hold a string of 1 to 256 bytes of printable text", we.Message)
		assert.NotContains(t, err.Error(), sentinel)
	}
	assert.Empty(t, caller.seen, "nothing reached the caller")
}

// TestPrincipalOption checks Options.Principal: what it makes of a token
// is the principal, and a token it refuses is refused.
func TestPrincipalOption(t *testing.T) {
	t.Parallel()
	caller := &invocations{Registry: newStatic(t, namedTools("t", 2, 100)...)}
	srv, err := mcpserver.New(caller, &mcpserver.Options{
		Principal: func(_ context.Context, info *auth.TokenInfo) (tool.Principal, error) {
			if info.UserID == "ben" {
				return tool.Principal{}, nil // no one
			}
			return tool.Principal{ID: "user:" + info.UserID, Permissions: []string{"role:editor"}}, nil
		},
	})
	require.NoError(t, err)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{Auth: testAuth()})
	ana := tokenClient(t, ts.URL, anaToken, protocolLegacy)
	_, err = ana.CallTool(t.Context(), &mcp.CallToolParams{Name: "t000", Arguments: map[string]any{"field_0": "x"}})
	require.NoError(t, err)
	got := caller.last()
	assert.Equal(t, tool.Principal{ID: "user:ana", Permissions: []string{"role:editor"}}, got.Principal)

	ben := tokenClient(t, ts.URL, benToken, protocolLegacy)
	_, err = ben.ListTools(t.Context(), nil)
	assert.Equal(t, "the bearer token names no principal this server serves", wireError(t, err).Message)
}
