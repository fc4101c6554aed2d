//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package pgstore

import "net"

// closedByServer reports false: on this system the store does not look
// into a pooled connection's socket, and a connection is pinged only
// after a second idle.
func closedByServer(net.Conn) bool { return false }
