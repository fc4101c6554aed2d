//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package pgstore

import (
	"errors"
	"net"
	"syscall"
)

// closedByServer reports whether the server has sent something on conn,
// or closed it, since the driver last read from it: a connection at rest
// between statements has nothing to read, so a byte waiting (a FATAL
// message: the server shut down, or the backend was terminated) or the
// end of the stream means that the next statement would be written to a
// backend that is gone. It peeks without reading or blocking (MSG_PEEK,
// MSG_DONTWAIT): nothing the driver would read is consumed. A connection
// it cannot look into (not a socket) reports false.
//
// It peeks through Control, not Read: Read takes the descriptor's read
// lock, which a reader of the driver's may still hold, parked until the
// server writes (pgconn's background reader, stopping, finishes its read
// first), and the peek would wait for it for as long; Control takes no
// lock, and a peek consumes nothing that reader would get.
func closedByServer(conn net.Conn) bool {
	if tc, ok := conn.(interface{ NetConn() net.Conn }); ok {
		conn = tc.NetConn() // TLS: the bytes under it tell as much
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	closed := false
	var b [1]byte
	err = raw.Control(func(fd uintptr) {
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		// EAGAIN: nothing to read, the connection is at rest; otherwise a
		// byte waits, the stream ended (0 bytes, no error) or was reset.
		closed = !errors.Is(err, syscall.EAGAIN) && !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR)
	})
	return closed || err != nil
}
