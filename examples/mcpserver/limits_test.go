package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionFlags(t *testing.T) {
	t.Parallel()
	var help bytes.Buffer
	_ = run(t.Context(), []string{"-h"}, nil, io.Discard, &help)
	assert.Contains(t, help.String(), "-session-timeout")
	assert.Contains(t, help.String(), "-max-sessions")

	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	stderr := &lineWriter{lines: make(chan string, 64)}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-http", "127.0.0.1:0", "-max-sessions", "1", "-session-timeout", "300ms"}, nil, io.Discard, stderr)
	}()
	url := awaitURL(t, stderr.lines)

	initialize := func() *http.Response {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	cs, err := newClient().Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	require.NoError(t, err)
	defer cs.Close()
	assert.Equal(t, http.StatusServiceUnavailable, initialize().StatusCode, "-max-sessions 1")
	require.NoError(t, cs.Ping(t.Context(), nil))
	// -session-timeout 300ms closes the idle session and makes room.
	require.Eventually(t, func() bool { return initialize().StatusCode == http.StatusOK }, waitLimit, 100*time.Millisecond)

	// Hang up before the shutdown: a client still connected can hold it
	// up to its timeout, which is not what this test is about.
	require.NoError(t, cs.Close())
	http.DefaultClient.CloseIdleConnections()
	stop()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(waitLimit):
		t.Fatal("the server did not shut down")
	}
}
