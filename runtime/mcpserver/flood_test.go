//go:build unix

package mcpserver_test

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// floodReports is how many reports flood makes at least (for two seconds
// at least), each with a message of MaxProgressMessageLen bytes: 100 MB
// and more, were each kept until sent.
const floodReports = 100_000

// TestProgressFloodToAClientThatNeverReads: a tool reports as fast as it
// can, with the longest messages, to an HTTP client that asked for
// progress and never reads its stream (its receive buffer small, so that
// the server's writes block at once). The tool is never held up by the
// client: it makes every report and returns, and its call is recorded;
// the server keeps the latest report unsent, not a queue of them, so its
// memory stays bounded; once the client goes away the request ends (the
// test server's Close waits for it).
func TestProgressFloodToAClientThatNeverReads(t *testing.T) {
	t.Parallel()
	returned := make(chan time.Duration, 1)
	msg := strings.Repeat("x", mcpserver.MaxProgressMessageLen)
	reg := newStatic(t, fakeTool{spec: tool.Spec{Name: "flood", Kind: tool.KindRead}, run: func(ctx context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		in.End()
		var slowest time.Duration
		end := time.Now().Add(2 * time.Second) // long enough to fill the sockets' buffers
		for i := 1; i <= floodReports || time.Now().Before(end); i++ {
			start := time.Now()
			tool.Progress(ctx, float64(i), 0, msg)
			slowest = max(slowest, time.Since(start))
		}
		returned <- slowest
		out.RawText("flooded")
		return toolimpl.OutputText, toolimpl.InvalidArguments(in.Err())
	}})
	recs := make(ends, 16)
	svc, err := service.New(reg, &service.Options{Observer: recs})
	require.NoError(t, err)
	srv, err := mcpserver.New(service.As(svc, &tool.Invocation{Principal: tool.Principal{ID: "ana"}}),
		&mcpserver.Options{ProgressInterval: time.Microsecond}) // every report it can send
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	h, err := srv.Handler(&mcpserver.HTTPOptions{Stateless: true})
	require.NoError(t, err)
	ts := httptest.NewUnstartedServer(h)
	ts.Listener = smallSendBuffers{ts.Listener}
	ts.Start()
	t.Cleanup(ts.Close)

	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.DialContext(t.Context(), "tcp", ts.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	body := `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"flood","arguments":{},"_meta":{"progressToken":"tok"}}}`
	_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
		ts.Listener.Addr(), len(body), body)
	require.NoError(t, err)

	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	slowest := recv(t, returned)
	r := waitRecord(t, recs, service.EventCall, "flood")
	assert.Equal(t, service.OutcomeOK, r.Outcome, "the call is recorded, though its client reads nothing")
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	assert.Less(t, grown, int64(16<<20), "heap in use grew by %d bytes over %d reports of %d bytes", grown, floodReports, len(msg))
	// The scenario: the server's sending goroutine is stuck writing to
	// the client, while the tool went on and returned.
	assert.Eventually(t, func() bool {
		buf := make([]byte, 1<<20)
		return strings.Contains(string(buf[:runtime.Stack(buf, true)]), "progressSender).flush")
	}, 10*time.Second, 10*time.Millisecond, "the server's write of a notification blocks: the client reads nothing")
	t.Logf("slowest report: %v; heap in use grew by %d bytes", slowest, grown)
	// The client goes away; the test server's Close (a cleanup) waits for
	// the request to end.
}

// smallSendBuffers gives each connection it accepts a small send buffer,
// so that a client that does not read blocks the server's writes soon.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}
