package mcpserver

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Connection defaults of Serve and ListenAndServe. Handler, which runs in
// an http.Server of the caller's, uses none of them.
const (
	// DefaultReadHeaderTimeout bounds the reading of a request's header
	// (or ReadTimeout, when shorter).
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout bounds the reading of a request, header and
	// body, when HTTPOptions.ReadTimeout is zero.
	DefaultReadTimeout = 30 * time.Second
	// DefaultIdleTimeout closes a keep-alive connection that sends no new
	// request for this long when HTTPOptions.IdleTimeout is zero.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultMaxHeaderBytes limits a request's header when
	// HTTPOptions.MaxHeaderBytes is zero.
	DefaultMaxHeaderBytes = 64 << 10
	// DefaultMaxConns caps the open connections when HTTPOptions.MaxConns
	// is zero.
	DefaultMaxConns = 2048
)

// tooManyConns is written, best effort, on a connection closed because
// the cap is reached; it names nothing the client sent.
const tooManyConns = "HTTP/1.1 503 Service Unavailable\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\n" +
	"Content-Length: 21\r\n" +
	"Retry-After: 1\r\n" +
	"Connection: close\r\n\r\n" +
	"too many connections\n"

// httpServer returns the http.Server of Serve, its timeouts and limits
// taken from o (defaults already applied).
//
// ReadTimeout is safe for event streams: net/http lifts the connection's
// read deadline once a request's body has been read (when it starts
// watching for the client to go away), so the deadline bounds the request
// and never the answer. WriteTimeout would cut every event stream (a GET,
// or a POST answered with text/event-stream) while it writes: it stays
// unset.
//
// Its ConnState hook keeps fresh, the connections that have not sent a
// request yet.
func httpServer(h http.Handler, o *HTTPOptions, fresh *freshConns) *http.Server {
	header := DefaultReadHeaderTimeout
	if o.ReadTimeout > 0 && o.ReadTimeout < header {
		header = o.ReadTimeout
	}
	// Negative durations mean no timeout to net/http, as to HTTPOptions.
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: header,
		ReadTimeout:       o.ReadTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
		ConnState:         fresh.track,
	}
}

// freshGrace is how long a shutdown waits before it closes the
// connections that have sent no request (at most half the shutdown's
// timeout).
const freshGrace = time.Second

// freshConns are the connections accepted that have not sent a byte of a
// request (http.StateNew). http.Server.Shutdown waits for such a
// connection's first request for five seconds, longer than the default
// shutdown timeout: an HTTP client dials connections it may never use (a
// request cancelled while its connection was being dialed leaves the
// connection in the client's pool), so a shutdown would fail for want of
// a request that never comes. Serve closes them after freshGrace: they
// carry no work.
type freshConns struct {
	mu sync.Mutex
	m  map[net.Conn]struct{}
}

// track is the http.Server's ConnState hook.
func (f *freshConns) track(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st == http.StateNew {
		if f.m == nil {
			f.m = make(map[net.Conn]struct{})
		}
		f.m[c] = struct{}{}
		return
	}
	delete(f.m, c)
}

// close closes the connections that have sent no request yet.
func (f *freshConns) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.m {
		c.Close()
		delete(f.m, c)
	}
}

// limitListener accepts at most cap(slots) connections at a time. Past
// the cap it accepts a connection only to write tooManyConns on it and
// close it, so that clients learn at once rather than wait in the
// listen backlog, and the connections it holds keep being served.
type limitListener struct {
	net.Listener
	slots chan struct{}
}

// limitConns caps ln at n connections; n <= 0 means no cap.
func limitConns(ln net.Listener, n int) net.Listener {
	if n <= 0 {
		return ln
	}
	return &limitListener{Listener: ln, slots: make(chan struct{}, n)}
}

// Accept returns the next connection within the cap.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
		}
		// A fresh socket's send buffer takes these bytes at once; the
		// deadline is there for the impossible case.
		_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		_, _ = io.WriteString(c, tooManyConns)
		_ = c.Close()
	}
}

// limitedConn frees its slot when closed.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// CloseWrite half-closes the connection when it can, as net/http does
// before closing a connection whose request it refused.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Close closes the connection and frees its slot, once.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
