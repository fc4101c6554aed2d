package mcpserver

import (
	"net/http"
	"sync"
	"time"
)

// Session defaults of Handler, Serve and ListenAndServe.
const (
	// DefaultSessionTimeout closes a session that has received no request
	// for this long when HTTPOptions.SessionTimeout is zero.
	DefaultSessionTimeout = 10 * time.Minute
	// DefaultMaxSessions caps the live sessions of a handler when
	// HTTPOptions.MaxSessions is zero.
	DefaultMaxSessions = 1024
)

// sessionIDHeader is the streamable HTTP transport's session header.
const sessionIDHeader = "Mcp-Session-Id"

// sessionLimit refuses a request that would open a session (a POST
// without a session ID, to a stateful handler) while max sessions are
// live, with 503 Service Unavailable and a JSON-RPC error; requests of the
// sessions already open are served as before, and no session is ever
// closed to make room.
//
// It counts the session IDs its handler handed out (the SDK sets the
// header on the answer to initialize) plus the session-opening requests
// under way, and forgets the sessions the SDK has closed (timed out,
// deleted, failed to initialize) only when the count reaches max: no
// goroutine or hook per session.
type sessionLimit struct {
	next http.Handler
	srv  *Server
	max  int

	mu      sync.Mutex
	ids     map[string]struct{} // handed out, maybe closed since
	opening int                 // session-opening requests under way
}

// ServeHTTP admits or refuses a session-opening request, and serves the
// others as they are.
func (l *sessionLimit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get(sessionIDHeader) != "" {
		l.next.ServeHTTP(w, r)
		return
	}
	if !l.admit() {
		w.Header().Set("Retry-After", "10")
		writeLimitError(w, http.StatusServiceUnavailable, codeServerBusy, "too many sessions; try again later")
		return
	}
	defer func() { l.opened(w.Header().Get(sessionIDHeader)) }()
	l.next.ServeHTTP(w, r)
}

// admit reserves room for one more session, if there is any.
func (l *sessionLimit) admit() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ids)+l.opening >= l.max {
		l.forgetClosed()
	}
	if len(l.ids)+l.opening >= l.max {
		return false
	}
	l.opening++
	return true
}

// opened records the outcome of a session-opening request: id is the
// session it opened, or empty.
func (l *sessionLimit) opened(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.opening--
	if id != "" {
		l.ids[id] = struct{}{}
	}
}

// forgetClosed drops the IDs of the sessions the SDK no longer has.
// l.mu is held.
func (l *sessionLimit) forgetClosed() {
	live := make(map[string]bool, len(l.ids))
	for ss := range l.srv.sdk.Sessions() {
		if id := ss.ID(); id != "" {
			live[id] = true
		}
	}
	for id := range l.ids {
		if !live[id] {
			delete(l.ids, id)
		}
	}
}

// limitDefaults replaces the zero limits of o with their defaults.
func (o *HTTPOptions) limitDefaults() {
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxBatch == 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if o.MaxConns == 0 {
		o.MaxConns = DefaultMaxConns
	}
}

// limits wraps the SDK's handler in the session cap and the batch cap
// that o asks for (defaults applied), the batch cap first: a refused batch
// opens no session.
func (s *Server) limits(sdk http.Handler, o *HTTPOptions) http.Handler {
	h := sdk
	if o.MaxSessions > 0 && !o.Stateless {
		h = &sessionLimit{next: h, srv: s, max: o.MaxSessions, ids: make(map[string]struct{})}
	}
	if o.MaxBatch > 0 {
		h = &batchLimit{next: h, max: o.MaxBatch, maxBytes: o.MaxRequestBytes}
	}
	return h
}
