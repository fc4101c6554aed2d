package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// initializeBatchBody opens a session of protocol 2025-03-26, the last one
// with JSON-RPC batches.
const initializeBatchBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

// serve runs srv.Serve on a loopback port with opts until the test ends
// and returns the address.
func serve(t *testing.T, srv *mcpserver.Server, opts *mcpserver.HTTPOptions) string {
	t.Helper()
	ln, err := mcpserver.Listen(t.Context(), "127.0.0.1:0")
	require.NoError(t, err)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, opts) }()
	t.Cleanup(func() {
		stop()
		<-served
	})
	return ln.Addr().String()
}

// openSession initializes a session with body and returns its ID.
func openSession(t *testing.T, url, body string) string {
	t.Helper()
	resp := post(t, url, body, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	_, _ = io.Copy(io.Discard, resp.Body)
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	post(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": id}).Body.Close()
	return id
}

// ping sends a ping in session id and returns the status.
func ping(t *testing.T, url, id string) int {
	t.Helper()
	resp := post(t, url, `{"jsonrpc":"2.0","id":7,"method":"ping"}`, map[string]string{"Mcp-Session-Id": id})
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// closedWithin reports whether the server closes conn within d (reading
// and discarding what it sends before).
func closedWithin(conn net.Conn, d time.Duration) bool {
	_ = conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	ne, ok := err.(net.Error)
	return !ok || !ne.Timeout()
}

// slowTool answers after d, or when its context ends.
func slowTool(d time.Duration) fakeTool {
	return fakeTool{
		spec: tool.Spec{Name: "slow", Kind: tool.KindRead},
		run: func(ctx context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			in.Skip()
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return 0, ctx.Err()
			}
			out.RawText("done")
			return toolimpl.OutputText, nil
		},
	}
}

func TestLimitDefaults(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 10*time.Minute, mcpserver.DefaultSessionTimeout)
	assert.Equal(t, 1024, mcpserver.DefaultMaxSessions)
	assert.Equal(t, 16, mcpserver.DefaultMaxBatch)
	assert.Equal(t, 30*time.Second, mcpserver.DefaultReadTimeout)
	assert.Equal(t, 60*time.Second, mcpserver.DefaultIdleTimeout)
	assert.Equal(t, 64<<10, mcpserver.DefaultMaxHeaderBytes)
	assert.Equal(t, 2048, mcpserver.DefaultMaxConns)
}

func TestSessionTimeout(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, slowTool(600*time.Millisecond)), nil)
	require.NoError(t, err)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{SessionTimeout: 300 * time.Millisecond})

	t.Run("an abandoned event stream ends with its session", func(t *testing.T) {
		t.Parallel()
		id := openSession(t, ts.URL, initializeBody)
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL, nil)
		require.NoError(t, err)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		start := time.Now()
		ended := make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, resp.Body)
			close(ended)
		}()
		select {
		case <-ended:
			assert.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond)
		case <-time.After(waitLimit):
			t.Fatal("the event stream kept its session alive")
		}
		// The SDK forgets the session just after closing its streams.
		assert.Eventually(t, func() bool { return ping(t, ts.URL, id) == http.StatusNotFound }, waitLimit, 10*time.Millisecond)
	})
	t.Run("a session mid-request is not closed", func(t *testing.T) {
		t.Parallel()
		id := openSession(t, ts.URL, initializeBody)
		resp := post(t, ts.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
			map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"})
		require.Equal(t, http.StatusOK, resp.StatusCode)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Contains(t, string(body), `"done"`)
		assert.Equal(t, http.StatusOK, ping(t, ts.URL, id), "the call took longer than the timeout")
	})
}

func TestSessionCap(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, slowTool(300*time.Millisecond)), nil)
	require.NoError(t, err)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{MaxSessions: 3})
	ids := []string{openSession(t, ts.URL, initializeBody), openSession(t, ts.URL, initializeBody)}

	// The third session is mid-request when the fourth is asked for.
	ids = append(ids, openSession(t, ts.URL, initializeBody))
	called := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", ids[2])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			called <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		called <- string(b)
	}()
	time.Sleep(50 * time.Millisecond)

	resp := post(t, ts.URL, initializeBody, nil)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Mcp-Session-Id"))
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var msg struct {
		Error struct {
			Code    int
			Message string
		}
	}
	require.NoError(t, json.Unmarshal(body, &msg), "%s", body)
	assert.Equal(t, "too many sessions; try again later", msg.Error.Message)
	assert.NotContains(t, string(body), "curl", "names nothing the client sent")

	assert.Contains(t, <-called, `"done"`, "the session mid-request is served to its end")
	for _, id := range ids {
		assert.Equal(t, http.StatusOK, ping(t, ts.URL, id), "open sessions keep working")
	}

	// A closed session makes room.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, ts.URL, nil)
	require.NoError(t, err)
	req.Header.Set("Mcp-Session-Id", ids[0])
	dresp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	dresp.Body.Close()
	openSession(t, ts.URL, initializeBody)

	// Stateless handlers keep no sessions.
	sl := httpServer(t, srv, &mcpserver.HTTPOptions{MaxSessions: 1, Stateless: true})
	for range 3 {
		assert.Equal(t, http.StatusOK, post(t, sl.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil).StatusCode)
	}
}

// batchOf returns a JSON-RPC batch of n tools/call requests.
func batchOf(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"secret":"hunter2"}}}`, i+10)
	}
	return " \n[" + strings.Join(parts, ",") + "]"
}

func TestBatchCap(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, fakeTool{spec: tool.Spec{Name: "echo", Kind: tool.KindRead}, run: skipArgs}), nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		opts *mcpserver.HTTPOptions
		max  int
	}{
		{"default", nil, mcpserver.DefaultMaxBatch},
		{"MaxBatch 4", &mcpserver.HTTPOptions{MaxBatch: 4}, 4},
		{"stateless", &mcpserver.HTTPOptions{MaxBatch: 4, Stateless: true}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := httpServer(t, srv, tc.opts)
			header := map[string]string{}
			if tc.opts == nil || !tc.opts.Stateless {
				header["Mcp-Session-Id"] = openSession(t, ts.URL, initializeBatchBody)
			}
			for _, version := range []string{"2025-03-26", ""} {
				if version != "" {
					header["Mcp-Protocol-Version"] = version
				} else {
					delete(header, "Mcp-Protocol-Version")
				}
				resp := post(t, ts.URL, batchOf(tc.max), header)
				require.Equal(t, http.StatusOK, resp.StatusCode, "version %q", version)
				body, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				assert.Equal(t, tc.max, strings.Count(string(body), `"ok"`), "every call answered")

				resp = post(t, ts.URL, batchOf(tc.max+1), header)
				assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "version %q", version)
				body, err = io.ReadAll(resp.Body)
				require.NoError(t, err)
				assert.JSONEq(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batch of more than %d messages"}}`, tc.max), string(body))
			}
		})
	}
}

// TestBatchRetention checks what a session keeps after a large batch: the
// SDK keeps every decoded request of its largest burst alive until the
// session's next request; a batch past the cap never reaches it. Not
// parallel: it reads the heap.
func TestBatchRetention(t *testing.T) {
	srv, err := mcpserver.New(newStatic(t, fakeTool{spec: tool.Spec{Name: "echo", Kind: tool.KindRead}, run: skipArgs}), nil)
	require.NoError(t, err)
	ts := httpServer(t, srv, nil)
	id := openSession(t, ts.URL, initializeBatchBody)
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	batch := batchOf(4000) // about 0.5 MiB
	resp := post(t, ts.URL, batch, map[string]string{"Mcp-Session-Id": id})
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	http.DefaultClient.CloseIdleConnections()
	batch = ""
	kept := int64(heap()) - int64(before)
	assert.Less(t, kept, int64(512<<10), "the session keeps %d bytes after one batch", kept)
	assert.Equal(t, http.StatusOK, ping(t, ts.URL, id))
}

func TestServeSlowAndIdleConnections(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, slowTool(500*time.Millisecond)), nil)
	require.NoError(t, err)
	const timeout = 250 * time.Millisecond
	addr := serve(t, srv, &mcpserver.HTTPOptions{ReadTimeout: timeout, IdleTimeout: timeout})
	url := "http://" + addr + mcpserver.DefaultPath

	t.Run("a body sent one byte at a time is cut", func(t *testing.T) {
		t.Parallel()
		// The server's read deadline starts when it accepts the
		// connection: time from before the dial.
		start := time.Now()
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{", addr)
		cut := make(chan time.Duration, 1)
		go func() {
			for i := 0; i < 40; i++ { // at most 2 s
				time.Sleep(50 * time.Millisecond)
				if _, err := conn.Write([]byte(" ")); err != nil {
					break
				}
			}
		}()
		go func() {
			if closedWithin(conn, waitLimit) {
				cut <- time.Since(start)
			}
			close(cut)
		}()
		d, ok := <-cut
		require.True(t, ok, "the slow body was not cut")
		assert.GreaterOrEqual(t, d, timeout)
		assert.Less(t, d, waitLimit)
	})
	t.Run("an idle keep-alive connection is closed", func(t *testing.T) {
		t.Parallel()
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		fmt.Fprintf(conn, "GET /none HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		start := time.Now()
		assert.True(t, closedWithin(conn, waitLimit), "the idle connection stayed open")
		assert.GreaterOrEqual(t, time.Since(start), timeout/2)
	})
	t.Run("event streams outlive the read timeout", func(t *testing.T) {
		t.Parallel()
		client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		require.NoError(t, err)
		defer cs.Close()
		// An answer streamed for twice the read timeout.
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "slow"})
		require.NoError(t, err)
		assert.Equal(t, "done", textOf(t, res))
		require.NoError(t, cs.Ping(t.Context(), nil))

		// A GET stream open for four times the read timeout.
		id := openSession(t, url, initializeBody)
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
		require.NoError(t, err)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		ended := make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, resp.Body)
			close(ended)
		}()
		select {
		case <-ended:
			t.Fatal("the event stream ended")
		case <-time.After(4 * timeout):
		}
	})
	t.Run("a header past the limit is refused", func(t *testing.T) {
		t.Parallel()
		resp := post(t, url, initializeBody, map[string]string{"X-Padding": strings.Repeat("p", 2*mcpserver.DefaultMaxHeaderBytes)})
		assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
	})
}

func TestServeConnectionCap(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t), nil)
	require.NoError(t, err)
	addr := serve(t, srv, &mcpserver.HTTPOptions{MaxConns: 2})
	get := func(conn net.Conn) (int, error) {
		fmt.Fprintf(conn, "GET /none HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	var held []net.Conn
	for range 2 {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		held = append(held, conn)
		status, err := get(conn)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNotFound, status)
	}
	// The third connection is answered 503 (or reset) and closed.
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	status, err := get(conn)
	if err == nil {
		assert.Equal(t, http.StatusServiceUnavailable, status)
	}
	assert.True(t, closedWithin(conn, waitLimit))
	// The connections within the cap keep being served.
	status, err = get(held[0])
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, status)
	// A closed one makes room.
	held[1].Close()
	require.Eventually(t, func() bool {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return false
		}
		defer conn.Close()
		status, err := get(conn)
		return err == nil && status == http.StatusNotFound
	}, waitLimit, 20*time.Millisecond)
}
