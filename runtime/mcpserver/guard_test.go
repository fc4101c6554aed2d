package mcpserver_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// callBody calls the tool "mutate".
const callBody = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mutate","arguments":{}}}`

// mutatingServer returns a server of one mutating tool and the count of
// its runs.
func mutatingServer(t *testing.T) (*mcpserver.Server, *atomic.Int64) {
	t.Helper()
	var runs atomic.Int64
	mutate := fakeTool{
		spec: tool.Spec{Name: "mutate", Kind: tool.KindAction},
		run: func(_ context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			in.Skip()
			runs.Add(1)
			out.RawText("mutated")
			return toolimpl.OutputText, nil
		},
	}
	srv, err := mcpserver.New(newStatic(t, mutate), nil)
	require.NoError(t, err)
	return srv, &runs
}

// serveAt serves one request to h as if it reached local (nil: unknown)
// and returns the response.
func serveAt(t *testing.T, h http.Handler, local net.Addr, method, body string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), method, "/mcp", strings.NewReader(body))
	req.Host = "192.0.2.10:8080"
	if local != nil {
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, local))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestHostChecked(t *testing.T) {
	t.Parallel()
	lan := &net.TCPAddr{IP: net.ParseIP("192.0.2.10"), Port: 8080}
	loop := &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}
	for _, tc := range []struct {
		name   string
		hosts  []string
		local  net.Addr
		header map[string]string
		want   int
	}{
		{"LAN, no allowed hosts, rebinding", nil, lan, map[string]string{"Host": "evil.example", "Origin": "http://evil.example"}, http.StatusForbidden},
		{"LAN, no allowed hosts, own address", nil, lan, nil, http.StatusForbidden},
		{"LAN, no allowed hosts, localhost", nil, lan, map[string]string{"Host": "localhost:8080"}, http.StatusForbidden},
		{"unknown local address", nil, nil, map[string]string{"Host": "localhost"}, http.StatusForbidden},
		{"LAN, allowed host", []string{"mcp.example.com"}, lan, map[string]string{"Host": "mcp.example.com"}, http.StatusOK},
		{"LAN, allowed host, any port", []string{"mcp.example.com"}, lan, map[string]string{"Host": "MCP.example.com.:8443"}, http.StatusOK},
		{"LAN, allowed host:port", []string{"mcp.example.com:8443"}, lan, map[string]string{"Host": "mcp.example.com:8443"}, http.StatusOK},
		{"LAN, allowed host, other port", []string{"mcp.example.com:8443"}, lan, map[string]string{"Host": "mcp.example.com:9"}, http.StatusForbidden},
		{"LAN, allowed host, no port", []string{"mcp.example.com:8443"}, lan, map[string]string{"Host": "mcp.example.com"}, http.StatusForbidden},
		{"LAN, allowed IP", []string{"192.0.2.10:8080"}, lan, nil, http.StatusOK},
		{"LAN, allowed IPv6", []string{"2001:db8::1"}, lan, map[string]string{"Host": "[2001:db8::1]:8080"}, http.StatusOK},
		{"LAN, rebinding", []string{"mcp.example.com"}, lan, map[string]string{"Host": "evil.example", "Origin": "http://evil.example"}, http.StatusForbidden},
		{"LAN, allowed host, own origin", []string{"mcp.example.com"}, lan, map[string]string{"Host": "mcp.example.com", "Origin": "https://mcp.example.com"}, http.StatusOK},
		{"LAN, allowed host, foreign origin", []string{"mcp.example.com"}, lan, map[string]string{"Host": "mcp.example.com", "Origin": "https://evil.example"}, http.StatusForbidden},
		{"LAN, allowed host, loopback origin", []string{"mcp.example.com"}, lan, map[string]string{"Host": "mcp.example.com", "Origin": "http://localhost:8080"}, http.StatusForbidden},
		{"LAN, malformed Host", []string{"mcp.example.com"}, lan, map[string]string{"Host": "mcp.example.com:x"}, http.StatusForbidden},
		{"loopback, proxied public name", []string{"mcp.example.com"}, loop, map[string]string{"Host": "mcp.example.com", "Origin": "https://mcp.example.com"}, http.StatusOK},
		{"loopback, origin on the port reached", nil, loop, map[string]string{"Host": "localhost:8080", "Origin": "http://localhost:8080"}, http.StatusOK},
		{"loopback, Host is no proof of origin", nil, loop, map[string]string{"Host": "localhost:9999", "Origin": "http://localhost:9999"}, http.StatusForbidden},
		{"loopback, cross-site without origin", nil, loop, map[string]string{"Host": "localhost", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"unix socket", nil, &net.UnixAddr{Name: "/tmp/mcp.sock", Net: "unix"}, map[string]string{"Host": "localhost"}, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, runs := mutatingServer(t)
			// A caller off loopback must be someone: every request has a
			// token, so that only the Host and the Origin decide.
			h, err := srv.Handler(&mcpserver.HTTPOptions{AllowedHosts: tc.hosts, Stateless: true, Auth: testAuth()})
			require.NoError(t, err)
			header := map[string]string{"Authorization": "Bearer " + anaToken}
			for k, v := range tc.header {
				header[k] = v
			}
			resp := serveAt(t, h, tc.local, http.MethodPost, callBody, header)
			assert.Equal(t, tc.want, resp.StatusCode)
			body, _ := io.ReadAll(resp.Body)
			if tc.want == http.StatusForbidden {
				assert.Zero(t, runs.Load(), "the tool ran")
				assert.Contains(t, []string{"Forbidden: Host not allowed\n", "Forbidden: Origin not allowed\n"}, string(body))
			} else {
				assert.Equal(t, int64(1), runs.Load())
			}
		})
	}
}

// TestCORS sends the requests a browser sends (a preflight OPTIONS with
// Origin, Access-Control-Request-Method and -Headers, then the request
// with Origin) and checks the response headers that the Fetch standard's
// CORS check reads, for allowed and foreign origins. It uses raw requests
// rather than a browser engine on purpose: the only engine installable
// here is Debian's chromium, several hundred megabytes that CI would have
// to install and run headless as root (without its sandbox) on every run,
// to exercise the same headers this test asserts one by one.
func TestCORS(t *testing.T) {
	t.Parallel()
	srv, _ := mutatingServer(t)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{AllowedOrigins: []string{"https://App.example/"}})
	self := ts.URL
	preflight := func(t *testing.T, origin string) *http.Response {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodOptions, ts.URL, nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type, mcp-session-id, x-evil-"+sentinel)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}
	for _, origin := range []string{"https://app.example", self} {
		t.Run("preflight from "+origin, func(t *testing.T) {
			t.Parallel()
			resp := preflight(t, origin)
			assert.Equal(t, http.StatusNoContent, resp.StatusCode)
			h := resp.Header
			assert.Equal(t, origin, h.Get("Access-Control-Allow-Origin"))
			assert.Equal(t, "POST, GET, DELETE, OPTIONS", h.Get("Access-Control-Allow-Methods"))
			assert.Equal(t, "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID", h.Get("Access-Control-Allow-Headers"))
			assert.Equal(t, "Mcp-Session-Id, WWW-Authenticate", h.Get("Access-Control-Expose-Headers"))
			assert.NotEmpty(t, h.Get("Access-Control-Max-Age"))
			assert.Contains(t, h.Values("Vary"), "Origin")
			assert.NotContains(t, strings.ToLower(strings.Join(h.Values("Access-Control-Allow-Headers"), ",")), "x-evil")
		})
	}
	t.Run("preflight from a foreign origin", func(t *testing.T) {
		t.Parallel()
		resp := preflight(t, "https://evil.example")
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
	})
	t.Run("actual requests", func(t *testing.T) {
		t.Parallel()
		resp := post(t, ts.URL, initializeBody, map[string]string{"Origin": "https://app.example"})
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "https://app.example", resp.Header.Get("Access-Control-Allow-Origin"))
		assert.Equal(t, "Mcp-Session-Id, WWW-Authenticate", resp.Header.Get("Access-Control-Expose-Headers"))
		assert.Contains(t, resp.Header.Values("Vary"), "Origin")

		resp = post(t, ts.URL, initializeBody, nil)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
		assert.Contains(t, resp.Header.Values("Vary"), "Origin")

		resp = post(t, ts.URL, initializeBody, map[string]string{"Origin": "https://evil.example"})
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
	})
}

func TestValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	err := (&mcpserver.HTTPOptions{
		Path:            "mcp/../x",
		MaxRequestBytes: -1,
		AllowedHosts:    []string{"ok.example", "https://bad.example", "bad host", "h:port"},
		AllowedOrigins:  []string{"https://ok.example", "app.example", "https://a.example/path", "*"},
	}).Validate()
	require.Error(t, err)
	for _, want := range []string{"path", "negative request size", `"https://bad.example"`, `"bad host"`, `"h:port"`, `"app.example"`, `"https://a.example/path"`, `"*"`} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NotContains(t, err.Error(), `"ok.example"`)
	assert.NoError(t, (&mcpserver.HTTPOptions{AllowedHosts: []string{"localhost:8080", "[::1]", "::1", "10.0.0.1"}}).Validate())
	assert.NoError(t, (*mcpserver.HTTPOptions)(nil).Validate())
}

// fakeListener is a listener on an address other than loopback that
// accepts nothing.
type fakeListener struct{ closed chan struct{} }

func (l fakeListener) Accept() (net.Conn, error) { <-l.closed; return nil, net.ErrClosed }
func (l fakeListener) Close() error {
	select {
	case <-l.closed:
	default:
		close(l.closed)
	}
	return nil
}
func (l fakeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4zero, Port: 8080} }

func TestServeRefusesPublicListenerWithoutHostsOrAuth(t *testing.T) {
	t.Parallel()
	srv, _ := mutatingServer(t)
	err := srv.Serve(t.Context(), fakeListener{make(chan struct{})}, nil)
	require.ErrorIs(t, err, mcpserver.ErrNoAllowedHosts)
	err = srv.Serve(t.Context(), fakeListener{make(chan struct{})}, &mcpserver.HTTPOptions{AllowedHosts: []string{"mcp.example.com"}})
	require.ErrorIs(t, err, mcpserver.ErrNoAuth, "a caller off loopback must be someone")

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.NoError(t, srv.Serve(ctx, fakeListener{make(chan struct{})}, &mcpserver.HTTPOptions{AllowedHosts: []string{"mcp.example.com"}, Auth: testAuth()}))
}

// TestWireStreamsWithoutDelay checks that the wire layer passes each event
// of a stream as it is flushed (the handler waits for the client to read
// it), rewrites an error event however its writes are split, and passes
// a result event split across writes intact.
func TestWireStreamsWithoutDelay(t *testing.T) {
	t.Parallel()
	read := make(chan struct{})
	result := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + sentinel + `"}]}}`
	h := mcpserver.WireLayer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "event: message\nid: s_1\ndata: "+result+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-read:
		case <-time.After(waitLimit):
			return
		}
		for _, part := range []string{"event: message\nda", "ta: {\"jsonrpc\":\"2.0\",\"id\":2,", "\"error\":{\"code\":-32602,\"message\":\"", sentinel, "\"}}\n\n"} {
			io.WriteString(w, part)
		}
		for _, part := range []string{"data: {\"jsonrpc\":\"2.0\",\"i", result[len(`{"jsonrpc":"2.0","i`):], "\n\n"} {
			io.WriteString(w, part)
		}
	}))
	ts := httptest.NewServer(h)
	defer ts.Close()
	resp, err := http.Get(ts.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var lines []string
	for len(lines) < 4 {
		line, err := br.ReadString('\n')
		require.NoError(t, err)
		lines = append(lines, line)
	}
	assert.Equal(t, []string{"event: message\n", "id: s_1\n", "data: " + result + "\n", "\n"}, lines)
	close(read)
	rest, err := io.ReadAll(br)
	require.NoError(t, err)
	assert.Equal(t, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"invalid params\"}}\n\n"+
		"data: "+result+"\n\n", string(rest))
}
