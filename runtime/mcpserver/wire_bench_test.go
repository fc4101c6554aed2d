package mcpserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// BenchmarkHTTP measures a tools/call and a tools/list of the benchmark
// tools over streamable HTTP on loopback, event streams and JSON
// responses: what the handler's guard and the wire layer add is the
// difference with a build without them.
func BenchmarkHTTP(b *testing.B) {
	srv, err := mcpserver.New(newStatic(b, newBenchTools()...), nil)
	require.NoError(b, err)
	for _, mode := range []struct {
		name string
		opts *mcpserver.HTTPOptions
	}{{"sse", nil}, {"json", &mcpserver.HTTPOptions{JSONResponse: true}}} {
		h, err := srv.Handler(mode.opts)
		require.NoError(b, err)
		ts := httptest.NewServer(h)
		b.Cleanup(ts.Close)
		client := ts.Client()
		send := func(b *testing.B, session, body string) (*http.Response, int) {
			req, err := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
			require.NoError(b, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", protocolLegacy)
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
			}
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				b.Fatalf("status %d", resp.StatusCode)
			}
			return resp, int(n)
		}
		resp, _ := send(b, "", initializeBody)
		sid := resp.Header.Get("Mcp-Session-Id")
		send(b, sid, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
		b.Run(mode.name+"/call", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				send(b, sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tool_500","arguments":{"field_0":"x"}}}`)
			}
		})
		b.Run(mode.name+"/list", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, n := send(b, sid, `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{}}`)
				b.SetBytes(int64(n))
			}
		})
	}
}
