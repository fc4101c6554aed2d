package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Protocol versions the tests speak: the SDK client's default (the
// sessionless protocol, with server/discover and subscriptions/listen) and
// the last version with the initialize handshake, which the TypeScript
// client speaks.
const (
	protocolLatest = "" // the SDK's latest
	protocolLegacy = "2025-11-25"
)

// protocols lists the protocol versions every client-level test runs with.
var protocols = []string{protocolLatest, protocolLegacy}

// protocolName names a protocol version in subtest names.
func protocolName(v string) string {
	if v == "" {
		return "latest"
	}
	return v
}

// connect serves srv over an in-memory transport and returns a connected
// SDK client session speaking protocol (protocolLatest or a version).
func connect(t *testing.T, srv *mcpserver.Server, protocol string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, copts)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// rawClient speaks JSON-RPC to a server directly, to see the exact bytes
// of its results (the SDK client decodes them into Go values).
type rawClient struct {
	conn mcp.Connection
	next int64
}

// dialRaw connects a raw client to sdk over an in-memory transport and
// completes the initialize handshake with the legacy protocol.
func dialRaw(tb testing.TB, sdk *mcp.Server) *rawClient {
	tb.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := sdk.Connect(ctx, st, nil)
	require.NoError(tb, err)
	conn, err := ct.Connect(ctx)
	require.NoError(tb, err)
	c := &rawClient{conn: conn}
	tb.Cleanup(func() {
		_ = conn.Close()
		_ = ss.Close()
	})
	_, err = c.call(ctx, "initialize", `{"protocolVersion":"`+protocolLegacy+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	require.NoError(tb, err)
	require.NoError(tb, conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}))
	return c
}

// call sends a request and returns the raw result, or the response's error
// (a *jsonrpc.Error for a protocol error). Messages other than the response
// are dropped.
func (c *rawClient) call(ctx context.Context, method, params string) (json.RawMessage, error) {
	c.next++
	id, err := jsonrpc.MakeID(fmt.Sprintf("raw-%d", c.next))
	if err != nil {
		return nil, err
	}
	if err := c.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}); err != nil {
		return nil, fmt.Errorf("write %s: %w", method, err)
	}
	for {
		msg, err := c.conn.Read(ctx)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", method, err)
		}
		if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID == id {
			if resp.Error != nil {
				return nil, resp.Error
			}
			return resp.Result, nil
		}
	}
}

// wireError returns the JSON-RPC error in err's chain.
func wireError(t *testing.T, err error) *jsonrpc.Error {
	t.Helper()
	var we *jsonrpc.Error
	require.True(t, errors.As(err, &we), "not a JSON-RPC error: %v", err)
	return we
}

// fakeTool is one tool of a synthetic registry: its spec and what a call
// does.
type fakeTool struct {
	spec tool.Spec
	run  func(ctx context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error)
}

// newStatic builds a registry of fake tools (sorted by the caller).
func newStatic(tb testing.TB, tools ...fakeTool) tool.Registry {
	tb.Helper()
	specs := make([]tool.Spec, len(tools))
	runs := make(map[string]func(context.Context, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error), len(tools))
	for i, ft := range tools {
		specs[i] = ft.spec
		runs[ft.spec.Name] = ft.run
	}
	reg, err := tooltest.NewRegistry(specs, func(ctx context.Context, name string, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		run := runs[name]
		if run == nil {
			run = skipArgs
		}
		if mode == toolimpl.ModeCheck {
			in.Skip()
			in.End()
			return 0, toolimpl.InvalidArguments(in.Err())
		}
		return run(ctx, in, out)
	})
	require.NoError(tb, err)
	return reg
}

// skipArgs accepts any arguments and answers "ok" as text.
func skipArgs(_ context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	in.Skip()
	in.End()
	if err := in.Err(); err != nil {
		return 0, toolimpl.InvalidArguments(err)
	}
	out.RawText("ok")
	return toolimpl.OutputText, nil
}

// namedTools returns n fake tools named prefix000, prefix001, ... with a
// schema of about schemaBytes bytes each.
func namedTools(prefix string, n, schemaBytes int) []fakeTool {
	tools := make([]fakeTool, n)
	for i := range tools {
		name := fmt.Sprintf("%s%03d", prefix, i)
		tools[i] = fakeTool{spec: tool.Spec{
			Name:        name,
			Title:       "Tool " + name,
			Kind:        tool.KindRead,
			ReadOnly:    i%2 == 0,
			Description: "Does thing number " + name + " for the model, with care.",
			InputSchema: schemaOfSize(name, schemaBytes),
		}}
	}
	return tools
}

// schemaOfSize returns a compact object schema of about n bytes, with
// string properties described at length.
func schemaOfSize(name string, n int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; b.Len() < n-60; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"field_%d":{"type":"string","maxLength":200,"description":"Field %d of %s, a string the model fills in."}`, i, i, name)
	}
	b.WriteString(`},"additionalProperties":false,"required":["field_0"]}`)
	return []byte(b.String())
}

// fakeSource is a Source whose tools the test replaces.
type fakeSource struct {
	cur  atomic.Pointer[tool.Registry]
	mu   sync.Mutex
	subs map[int]func()
	next int
}

var _ mcpserver.Source = (*fakeSource)(nil)

// newFakeSource returns a source offering reg.
func newFakeSource(reg tool.Registry) *fakeSource {
	s := &fakeSource{subs: map[int]func(){}}
	s.cur.Store(&reg)
	return s
}

// Offer returns the current registry's offer.
func (s *fakeSource) Offer(ctx context.Context) []*tool.Spec { return (*s.cur.Load()).Offer(ctx) }

// Call calls the current registry.
func (s *fakeSource) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	return (*s.cur.Load()).Call(ctx, name, args)
}

// Subscribe registers changed.
func (s *fakeSource) Subscribe(changed func()) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.next
	s.next++
	s.subs[id] = changed
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.subs, id)
	}
}

// subscribers counts the subscriptions.
func (s *fakeSource) subscribers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs)
}

// set replaces the tools and tells the subscribers.
func (s *fakeSource) set(reg tool.Registry) {
	s.cur.Store(&reg)
	s.mu.Lock()
	subs := make([]func(), 0, len(s.subs))
	for _, f := range s.subs {
		subs = append(subs, f)
	}
	s.mu.Unlock()
	for _, f := range subs {
		f()
	}
}
