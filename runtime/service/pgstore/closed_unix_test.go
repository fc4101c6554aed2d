//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package pgstore

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClosedByServerWhileAReaderWaits: the check answers at once while
// another goroutine is parked in a Read of the same connection (as
// pgconn's background reader may be when the pool hands the connection
// out), instead of waiting for that reader's lock; and it still sees the
// byte the server sends and the end of the stream.
func TestClosedByServerWhileAReaderWaits(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer client.Close()
	server := <-accepted
	defer server.Close()

	assert.False(t, closedByServer(client), "a connection at rest")

	read := make(chan struct{})
	go func() { // a reader parked on the connection, holding its read lock
		var b [1]byte
		_, _ = client.Read(b[:])
		close(read)
	}()
	time.Sleep(50 * time.Millisecond) // let it park
	answered := make(chan bool, 1)
	go func() { answered <- closedByServer(client) }()
	select {
	case closed := <-answered:
		assert.False(t, closed, "nothing was sent")
	case <-time.After(5 * time.Second):
		t.Fatal("closedByServer waited for the parked reader")
	}

	_, err = server.Write([]byte{'E'}) // the parked reader takes it
	require.NoError(t, err)
	<-read
	_, err = server.Write([]byte{'E'}) // a FATAL message's first byte, at rest
	require.NoError(t, err)
	require.Eventually(t, func() bool { return closedByServer(client) }, 5*time.Second, 10*time.Millisecond, "a byte waits")
}
