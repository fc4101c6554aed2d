package mcpserver_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// initializeBody is an initialize request of the legacy protocol.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

// httpServer serves srv's handler on a loopback test server.
func httpServer(t *testing.T, srv *mcpserver.Server, opts *mcpserver.HTTPOptions) *httptest.Server {
	t.Helper()
	h, err := srv.Handler(opts)
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// post sends body to url with the headers MCP asks for and more.
func post(t *testing.T, url, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

func TestHTTPClient(t *testing.T) {
	t.Parallel()
	reg, err := demo.Registry()
	require.NoError(t, err)
	srv, err := mcpserver.New(reg, nil)
	require.NoError(t, err)
	for _, opts := range []*mcpserver.HTTPOptions{nil, {Stateless: true}, {JSONResponse: true}} {
		ts := httpServer(t, srv, opts)
		client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
		require.NoError(t, err)
		res, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		assert.Len(t, res.Tools, len(reg.Offer(t.Context())), "what the registry offers a caller it knows nothing of")
		cres, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_get", Arguments: map[string]any{"id": "n1"}})
		require.NoError(t, err)
		assert.False(t, cres.IsError)
		assert.NotNil(t, cres.StructuredContent)
		require.NoError(t, cs.Close())
	}
}

func TestHTTPOriginAndHost(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t), nil)
	require.NoError(t, err)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{AllowedOrigins: []string{"https://app.example"}})
	self := ts.URL // http://127.0.0.1:PORT
	host := strings.TrimPrefix(self, "http://")
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no origin (not a browser)", nil, http.StatusOK},
		{"own origin", map[string]string{"Origin": self}, http.StatusOK},
		{"own origin, same-origin fetch", map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin"}, http.StatusOK},
		{"allowed origin", map[string]string{"Origin": "https://app.example"}, http.StatusOK},
		{"foreign origin", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"foreign origin, cross-site fetch", map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"other port on localhost", map[string]string{"Origin": "http://localhost:1"}, http.StatusForbidden},
		{"opaque origin", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"DNS rebinding", map[string]string{"Host": "evil.example:" + strings.Split(host, ":")[1]}, http.StatusForbidden},
		{"DNS rebinding with matching origin", map[string]string{"Host": "evil.example", "Origin": "http://evil.example"}, http.StatusForbidden},
		{"localhost by name", map[string]string{"Host": "localhost"}, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp := post(t, ts.URL, initializeBody, tc.header)
			assert.Equal(t, tc.want, resp.StatusCode)
		})
	}
	t.Run("GET from a foreign origin", func(t *testing.T) {
		t.Parallel()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL, nil)
		require.NoError(t, err)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Origin", "http://evil.example")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	})
}

func TestHTTPRequestSizeLimit(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t), nil)
	require.NoError(t, err)
	const limit = 1024
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{MaxRequestBytes: limit})
	big := strings.Replace(initializeBody, `"curl"`, `"`+strings.Repeat("x", limit)+`"`, 1)
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(t, ts.URL, big, nil).StatusCode)
	assert.Equal(t, http.StatusOK, post(t, ts.URL, initializeBody, nil).StatusCode)

	// The default limit is the SDK's.
	ts = httpServer(t, srv, nil)
	huge := strings.Replace(initializeBody, `"curl"`, `"`+strings.Repeat("x", mcpserver.DefaultMaxRequestBytes)+`"`, 1)
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(t, ts.URL, huge, nil).StatusCode)
}

func TestHandlerRefusesBadOptions(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t), nil)
	require.NoError(t, err)
	_, err = srv.Handler(&mcpserver.HTTPOptions{MaxRequestBytes: -1})
	assert.Error(t, err)
	_, err = srv.Handler(&mcpserver.HTTPOptions{AllowedOrigins: []string{"app.example"}})
	assert.Error(t, err)
}

func TestListenBindsLoopback(t *testing.T) {
	t.Parallel()
	ln, err := mcpserver.Listen(t.Context(), ":0")
	require.NoError(t, err)
	defer ln.Close()
	addr, ok := ln.Addr().(*net.TCPAddr)
	require.True(t, ok)
	assert.True(t, addr.IP.IsLoopback(), "bound %s", addr)

	_, err = mcpserver.Listen(t.Context(), "no-port")
	assert.Error(t, err)
}

func TestServeShutsDownGracefully(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	slow := fakeTool{
		spec: tool.Spec{Name: "slow", Kind: tool.KindRead},
		run: func(_ context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			in.Skip()
			close(started)
			<-release
			out.RawText("done")
			return toolimpl.OutputText, nil
		},
	}
	srv, err := mcpserver.New(newStatic(t, slow), nil)
	require.NoError(t, err)
	ln, err := mcpserver.Listen(t.Context(), "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, &mcpserver.HTTPOptions{ShutdownTimeout: waitLimit}) }()

	// A client with its standalone event stream open and a call in flight.
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {},
	})
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + mcpserver.DefaultPath}, nil)
	require.NoError(t, err)
	defer cs.Close()
	type callResult struct {
		res *mcp.CallToolResult
		err error
	}
	called := make(chan callResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
		called <- callResult{res, err}
	}()
	<-started

	stop() // as SIGINT would
	// The listener closes first: wait until connections are refused.
	deadline := time.Now().Add(waitLimit)
	for {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		conn.Close()
		require.True(t, time.Now().Before(deadline), "still accepting connections")
		time.Sleep(time.Millisecond)
	}
	close(release) // the call in flight still completes
	got := <-called
	require.NoError(t, got.err)
	assert.Equal(t, "done", textOf(t, got.res))
	select {
	case err := <-served:
		assert.NoError(t, err, "the shutdown ends the event streams and completes")
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return")
	}
}

// TestServeShutsDownPastUnusedConnections: a connection that never sends
// a request (an HTTP client's dial for a request it cancelled) does not
// hold the shutdown, which net/http alone would let wait five seconds for
// its first request, past the timeout.
func TestServeShutsDownPastUnusedConnections(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, slowTool(0)), nil)
	require.NoError(t, err)
	ln, err := mcpserver.Listen(t.Context(), "127.0.0.1:0")
	require.NoError(t, err)
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, &mcpserver.HTTPOptions{ShutdownTimeout: 3 * time.Second}) }()

	unused, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer unused.Close()
	// A request answered on another connection: the server is serving and
	// has accepted the unused one before it.
	resp, err := http.Get("http://" + ln.Addr().String() + "/none")
	require.NoError(t, err)
	resp.Body.Close()

	stop()
	select {
	case err := <-served:
		require.NoError(t, err, "the unused connection held the shutdown")
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return")
	}
	assert.True(t, closedWithin(unused, waitLimit), "the unused connection is closed")
}

func TestServeReportsListenerFailure(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t), nil)
	require.NoError(t, err)
	ln, err := mcpserver.Listen(t.Context(), "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	err = srv.Serve(t.Context(), ln, nil)
	require.Error(t, err)
	assert.True(t, errors.Is(err, net.ErrClosed), "%v", err)
}
