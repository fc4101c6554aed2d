package mcpserver_test

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// runSession serves srv with Run over pipes, initializes a session, and
// returns a function that sends one line and returns the answer ("" when
// the session ended).
func runSession(t *testing.T, srv *mcpserver.Server) func(msg string) string {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	go func() {
		_ = srv.Run(t.Context(), &mcp.IOTransport{Reader: serverIn, Writer: serverOut})
		serverOut.Close()
	}()
	t.Cleanup(func() { clientOut.Close() })
	lines := bufio.NewScanner(clientIn)
	lines.Buffer(nil, 1<<20)
	send := func(msg string) string {
		t.Helper()
		if _, err := io.WriteString(clientOut, msg+"\n"); err != nil {
			return ""
		}
		got := make(chan string, 1)
		go func() {
			if lines.Scan() {
				got <- lines.Text()
			}
			close(got)
		}()
		select {
		case line := <-got:
			return line
		case <-time.After(waitLimit):
			t.Fatal("no answer")
			return ""
		}
	}
	require.Contains(t, send(rpc("0", `"initialize"`, `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)), `"result"`)
	_, err := io.WriteString(clientOut, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`+"\n")
	require.NoError(t, err)
	return send
}

// TestRunEchoesNothing sends the malformed corpus's calls over a
// stdio-like transport served by Run, each in a session of its own (the
// SDK ends a session on some of them): the error responses quote nothing
// of them but the id, which the transport writes as the client sent it.
func TestRunEchoesNothing(t *testing.T) {
	t.Parallel()
	reg, err := demo.Registry()
	require.NoError(t, err)
	srv, err := mcpserver.New(reg, nil)
	require.NoError(t, err)
	for _, c := range malformedCorpus() {
		if c.header != nil || c.method != "" || c.noSession || strings.HasPrefix(c.body, "[") ||
			!strings.Contains(c.body, `"id":`) || !json.Valid([]byte(c.body)) {
			continue // HTTP only, a batch, a notification or bad JSON: no answer to wait for
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			line := runSession(t, srv)(c.body)
			t.Logf("%.300s", line)
			if strings.Contains(line, `"error"`) {
				assert.LessOrEqual(t, len(line), errorBound)
			}
			if !strings.Contains(c.body, `"id":"`) {
				assert.NotContains(t, line, sentinel)
				assert.Empty(t, echoOf([]string{c.body}, line))
			}
		})
	}
}
