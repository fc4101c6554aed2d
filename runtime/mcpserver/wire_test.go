package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// sentinel stands for a secret in a request: letters and digits only, so
// that no escaping hides an echo, and longer than a plain identifier, the
// most of a request a response may carry.
const sentinel = "sklive0SENTINEL0b7f3c2a9e8d1f4a6c5b0e9d8c7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1"

// maxEcho is the longest part of a request a response may carry: a plain
// identifier.
const maxEcho = 64

// errorBound is the bound on every error body (or event data line).
const errorBound = 1024

// wireCase is a request of the malformed corpus.
type wireCase struct {
	name   string
	method string // HTTP method; POST when empty
	header map[string]string
	body   string
	// noSession sends no Mcp-Session-Id (a stateful server then refuses
	// all but initialize).
	noSession bool
}

// rpc returns a JSON-RPC request.
func rpc(id, method, params string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":` + method + `,"params":` + params + `}`
}

// malformedCorpus returns the corpus: bad JSON, wrong types, odd names and
// methods, bad headers, batches, huge cursors and ids.
func malformedCorpus() []wireCase {
	secretArgs := `{"secret":"` + sentinel + `"}`
	long := strings.Repeat("lorem ipsum "+sentinel+" ", 10<<10/90)
	odd := []string{
		sentinel,
		`quote\"` + sentinel + `\"`,
		`line\n` + sentinel + `\r\nX-Injected: 1`,
		`<script>alert(\"` + sentinel + `\")</script>`,
		long,
	}
	cs := []wireCase{
		{name: "bad JSON", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_get","arguments":` + secretArgs},
		{name: "not JSON-RPC", body: `{"secret":"` + sentinel + `"}`},
		{name: "name is a number", body: rpc("2", `"tools/call"`, `{"name":5,"arguments":`+secretArgs+`}`)},
		{name: "name is an object", body: rpc("3", `"tools/call"`, `{"name":{"x":"`+sentinel+`"},"arguments":{}}`)},
		{name: "arguments is a string", body: rpc("4", `"tools/call"`, `{"name":"notes_get","arguments":"`+sentinel+`"}`)},
		{name: "arguments is an array", body: rpc("5", `"tools/call"`, `{"name":"notes_get","arguments":["`+sentinel+`"]}`)},
		{name: "params is a string", body: rpc("6", `"tools/call"`, `"`+sentinel+`"`)},
		{name: "list params wrong", body: rpc("7", `"tools/list"`, `{"cursor":{"a":"`+sentinel+`"}}`)},
		{name: "huge cursor", body: rpc("8", `"tools/list"`, `{"cursor":"`+strings.Repeat(sentinel+"!", 200)+`"}`)},
		{name: "id is a long string", body: rpc(`"`+sentinel+`"`, `"tools/call"`, `{"name":5}`)},
		{name: "id is markup", body: rpc(`"<b>`+sentinel+`</b>"`, `"nope/`+sentinel+`"`, `{}`)},
		{name: "method is a number", body: `{"jsonrpc":"2.0","id":9,"method":5,"params":` + secretArgs + `}`},
		{name: "meta protocol version", body: rpc("10", `"tools/list"`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+sentinel+`"}}`)},
		{name: "meta new protocol", body: rpc("11", `"tools/list"`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":"`+sentinel+`"}}`)},
		{name: "batch", body: `[` + rpc("12", `"`+sentinel+`"`, `{}`) + `,` + rpc("13", `"tools/call"`, `{"name":5,"arguments":`+secretArgs+`}`) + `]`},
		{name: "batch, legacy version", header: map[string]string{"Mcp-Protocol-Version": "2025-03-26"},
			body: `[` + rpc("14", `"`+sentinel+`"`, `{}`) + `,` + rpc("15", `"tools/call"`, `{"name":5,"arguments":`+secretArgs+`}`) + `]`},
		{name: "bad protocol version header", header: map[string]string{"Mcp-Protocol-Version": sentinel}, body: rpc("16", `"tools/list"`, `{}`)},
		{name: "new protocol version header", header: map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": sentinel, "Mcp-Name": sentinel},
			body: rpc("17", `"tools/call"`, `{"name":"notes_get","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)},
		{name: "unknown session", header: map[string]string{"Mcp-Session-Id": sentinel}, body: rpc("18", `"tools/list"`, `{}`)},
		{name: "bad content type", header: map[string]string{"Content-Type": "text/" + sentinel}, body: rpc("19", `"tools/list"`, `{}`)},
		{name: "bad accept", header: map[string]string{"Accept": "text/" + sentinel}, body: rpc("20", `"tools/list"`, `{}`)},
		{name: "Last-Event-ID on POST", header: map[string]string{"Last-Event-ID": sentinel}, body: rpc("21", `"tools/list"`, `{}`)},
		{name: "GET with bad Last-Event-ID", method: http.MethodGet, header: map[string]string{"Accept": "text/event-stream", "Last-Event-ID": sentinel}},
		{name: "DELETE unknown session", method: http.MethodDelete, header: map[string]string{"Mcp-Session-Id": sentinel}},
		{name: "PUT", method: http.MethodPut, body: sentinel},
		{name: "foreign Host", header: map[string]string{"Host": sentinel + ".example"}, body: rpc("22", `"tools/list"`, `{}`)},
		{name: "foreign Origin", header: map[string]string{"Origin": "http://" + sentinel + ".example"}, body: rpc("23", `"tools/list"`, `{}`)},
		{name: "initialize without session, bad params", noSession: true, body: rpc("24", `"initialize"`, `{"protocolVersion":5,"clientInfo":"`+sentinel+`"}`)},
		{name: "no session", noSession: true, body: rpc("25", `"tools/call"`, `{"name":5,"arguments":`+secretArgs+`}`)},
		{name: "notification with bad params", body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":"` + sentinel + `"}`},
		{name: "request named like a notification", body: rpc("26", `"notifications/`+sentinel+`"`, `{}`)},
		{name: "missing params", body: `{"jsonrpc":"2.0","id":27,"method":"tools/call"}`},
	}
	for i, name := range odd {
		cs = append(cs,
			wireCase{name: "unknown method " + string(rune('a'+i)), body: rpc("100", `"`+name+`"`, secretArgs)},
			wireCase{name: "unknown tool " + string(rune('a'+i)), body: rpc("101", `"tools/call"`, `{"name":"`+name+`","arguments":`+secretArgs+`}`)},
		)
	}
	return cs
}

// wireServer is one configuration of the HTTP handler under test, with a
// session when it is stateful.
type wireServer struct {
	name    string
	url     string
	session string
}

// startWireServers serves the demo tools in the handler's configurations.
func startWireServers(t *testing.T) []wireServer {
	t.Helper()
	reg, err := demo.Registry()
	require.NoError(t, err)
	srv, err := mcpserver.New(reg, nil)
	require.NoError(t, err)
	var out []wireServer
	for _, c := range []struct {
		name string
		opts *mcpserver.HTTPOptions
	}{
		{"stateful-sse", nil},
		{"stateful-json", &mcpserver.HTTPOptions{JSONResponse: true}},
		{"stateless", &mcpserver.HTTPOptions{Stateless: true}},
	} {
		ts := httpServer(t, srv, c.opts)
		ws := wireServer{name: c.name, url: ts.URL}
		if c.opts == nil || !c.opts.Stateless {
			resp := post(t, ts.URL, initializeBody, nil)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			ws.session = resp.Header.Get("Mcp-Session-Id")
			require.NotEmpty(t, ws.session)
			ack := post(t, ts.URL, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
				map[string]string{"Mcp-Session-Id": ws.session, "Mcp-Protocol-Version": "2025-06-18"})
			require.Equal(t, http.StatusAccepted, ack.StatusCode)
		}
		out = append(out, ws)
	}
	return out
}

// wireResponse is what the client saw of a response.
type wireResponse struct {
	status string
	header http.Header
	body   []byte
}

// text is the whole response as text.
func (r wireResponse) text() string {
	var b strings.Builder
	b.WriteString(r.status + "\n")
	_ = r.header.Write(&b)
	b.Write(r.body)
	return b.String()
}

// send sends c to ws and reads the whole response.
func (ws wireServer) send(t *testing.T, c wireCase) wireResponse {
	t.Helper()
	method := c.method
	if method == "" {
		method = http.MethodPost
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, ws.url, strings.NewReader(c.body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if ws.session != "" && !c.noSession {
		req.Header.Set("Mcp-Session-Id", ws.session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	for k, v := range c.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header[http.CanonicalHeaderKey(k)] = []string{v} // raw, newlines and all
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// net/http refuses to send some of the odd header values: nothing
		// reached the server.
		t.Logf("not sent: %v", err)
		return wireResponse{}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil && ctx.Err() == nil {
		require.NoError(t, err)
	}
	return wireResponse{status: resp.Status, header: resp.Header, body: body}
}

// requestParts returns the texts of c that must not come back.
func requestParts(c wireCase) []string {
	parts := []string{c.body}
	for _, v := range c.header {
		parts = append(parts, v)
	}
	return parts
}

// echoOf returns a part of req longer than maxEcho that resp contains, if
// any.
func echoOf(req []string, resp string) string {
	for _, part := range req {
		for i := 0; i+maxEcho < len(part); i++ {
			if w := part[i : i+maxEcho+1]; strings.Contains(resp, w) {
				return w
			}
		}
	}
	return ""
}

// checkErrorBounds checks that every error in resp is at most errorBound:
// a non-2xx body, a JSON error body, each data line carrying an error.
func checkErrorBounds(t *testing.T, resp wireResponse) {
	t.Helper()
	if resp.status == "" {
		return
	}
	if !strings.HasPrefix(resp.status, "2") {
		assert.LessOrEqual(t, len(resp.body), errorBound, "error body: %s", resp.body)
		return
	}
	var messages [][]byte
	if strings.HasPrefix(resp.header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(resp.body))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok {
				messages = append(messages, append([]byte(nil), d...))
			}
		}
	} else if len(resp.body) > 0 {
		messages = append(messages, resp.body)
	}
	for _, m := range messages {
		if bytes.Contains(m, []byte(`"error":`)) {
			assert.LessOrEqual(t, len(m), errorBound, "error message: %s", m)
		}
	}
}

// TestWireEchoesNothing sends the malformed corpus to every configuration
// of the handler: no response (status line, headers, body) carries the
// sentinel or any part of the request longer than a plain identifier, and
// every error is at most errorBound.
func TestWireEchoesNothing(t *testing.T) {
	t.Parallel()
	servers := startWireServers(t)
	for _, c := range malformedCorpus() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, ws := range servers {
				resp := ws.send(t, c)
				t.Logf("%s: %s %.300q", ws.name, resp.status, resp.body)
				text := resp.text()
				assert.NotContains(t, text, sentinel, "%s: %s", ws.name, text)
				assert.Empty(t, echoOf(requestParts(c), text), "%s: %s", ws.name, text)
				checkErrorBounds(t, resp)
			}
		})
	}
}

// TestWireKeepsCodes checks that rewritten errors keep the SDK's codes and
// the ids that are plain identifiers, and that results pass unchanged.
func TestWireKeepsCodes(t *testing.T) {
	t.Parallel()
	servers := startWireServers(t)
	for _, ws := range servers[1:2] { // JSON responses: one message a body
		for _, tc := range []struct {
			body string
			want string
		}{
			{rpc("1", `"tools/call"`, `{"name":5,"arguments":{"secret":"`+sentinel+`"}}`),
				`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params"}}`},
			{rpc(`"req-7"`, `"tools/call"`, `{"name":"notes_serch","arguments":{}}`),
				`{"jsonrpc":"2.0","id":"req-7","error":{"code":-32602,"message":"unknown tool \"notes_serch\"; did you mean notes_search? (13 tools available)"}}`},
			{rpc(`"a b"`, `"tools/call"`, `{"name":"<x>","arguments":{}}`),
				`{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"unknown tool; tool names are letters, digits, '_', '.' and '-', as tools/list lists them"}}`},
			{rpc("2", `"tools/list"`, `{"cursor":"!!`+sentinel+`"}`),
				`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid cursor"}}`},
		} {
			resp := ws.send(t, wireCase{body: tc.body})
			assert.JSONEq(t, tc.want, string(resp.body), "%s", tc.body)
		}
		// A result passes as the SDK wrote it.
		resp := ws.send(t, wireCase{body: rpc("3", `"tools/call"`, `{"name":"notes_get","arguments":{"id":"n1"}}`)})
		var res struct {
			Result mcp.CallToolResult `json:"result"`
		}
		require.NoError(t, json.Unmarshal(resp.body, &res), "%s", resp.body)
		assert.False(t, res.Result.IsError)
		assert.NotNil(t, res.Result.StructuredContent)
	}
}
