package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP defaults.
const (
	// DefaultAddr is where ListenAndServe listens when addr is empty.
	DefaultAddr = "127.0.0.1:8080"
	// DefaultPath is where ListenAndServe serves the MCP endpoint when
	// HTTPOptions.Path is empty.
	DefaultPath = "/mcp"
	// DefaultMaxRequestBytes is the request size limit when
	// HTTPOptions.MaxRequestBytes is zero: the SDK's default, 4 MiB.
	DefaultMaxRequestBytes = mcp.DefaultMaxRequestBodyBytes
	// DefaultShutdownTimeout bounds a graceful shutdown when
	// HTTPOptions.ShutdownTimeout is zero.
	DefaultShutdownTimeout = 5 * time.Second
)

// HTTPOptions configures the streamable HTTP transport. The zero value is
// usable.
type HTTPOptions struct {
	// Path is where Serve and ListenAndServe serve the MCP endpoint; empty
	// means DefaultPath. Handler ignores it.
	Path string
	// MaxRequestBytes limits the body of one request; a larger one is
	// refused with 413 Request Entity Too Large. Zero means
	// DefaultMaxRequestBytes; it must not be negative.
	MaxRequestBytes int64
	// AllowedHosts lists the host names (or IP addresses) clients use to
	// reach the server, each "host" (any port) or "host:port": the Host
	// of every request must be one of them, or a loopback name
	// (localhost, 127.0.0.1, [::1]) when the request reached a loopback
	// address. Without them, requests reaching any other address are
	// refused with 403 Forbidden, and Serve refuses a listener on such an
	// address. Behind a reverse proxy, list the public name and have the
	// proxy pass the original Host: no X-Forwarded-* header is trusted.
	AllowedHosts []string
	// AllowedOrigins lists the origins ("https://app.example.com", scheme
	// and host with an optional port) that a browser may call the server
	// from besides those of AllowedHosts (and, on loopback, the loopback
	// names on the server's port). A browser request from another origin
	// is refused with 403 Forbidden; requests without Origin (clients other
	// than browsers) are not affected. Allowed origins get CORS answers.
	AllowedOrigins []string
	// Auth requires a bearer token of every request, and says who the
	// caller is (see Auth). Without it, only requests that reached a
	// loopback address are served (others get 403 Forbidden), they carry
	// no principal, and Serve refuses a listener on another address.
	Auth *Auth
	// Stateless serves every request in a session of its own: no session
	// IDs, and no notifications outside a request's response.
	Stateless bool
	// JSONResponse answers POST requests with application/json rather than
	// an event stream.
	JSONResponse bool
	// SessionTimeout closes a session that has received no request for
	// this long (a request under way pauses it; an open GET event stream
	// does not, so an abandoned stream ends with its session). Zero means
	// DefaultSessionTimeout, ten minutes; negative means never.
	SessionTimeout time.Duration
	// MaxSessions caps the live sessions: past it, a request that would
	// open one is refused with 503 Service Unavailable and a JSON-RPC
	// error, while the open sessions are served as before (none is closed
	// to make room). Zero means DefaultMaxSessions, 1024; negative means
	// no cap. Stateless handlers keep no sessions and ignore it.
	MaxSessions int
	// MaxBatch caps the messages of a JSON-RPC batch (which the SDK
	// accepts from clients of protocol 2025-03-26, or announcing no
	// version): a larger one is refused with 413 and a JSON-RPC error
	// before anything in it runs. Zero means DefaultMaxBatch, 16; negative
	// means no cap.
	MaxBatch int

	// The fields below configure the http.Server and listener of Serve
	// and ListenAndServe; Handler ignores them. Serve also bounds the
	// reading of a request's header (DefaultReadHeaderTimeout) and sets no
	// write timeout, which would cut event streams.

	// ReadTimeout bounds the reading of a request, header and body
	// (http.Server.ReadTimeout): a client sending it more slowly loses its
	// connection. net/http lifts the deadline once the body has been read,
	// so it never cuts the event stream of the answer. Zero means
	// DefaultReadTimeout, 30 seconds; negative means no limit.
	ReadTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that sends no new request
	// for this long. Zero means DefaultIdleTimeout, 60 seconds; negative
	// means never.
	IdleTimeout time.Duration
	// MaxHeaderBytes limits the size of a request's header (larger ones
	// get 431 Request Header Fields Too Large). Zero means
	// DefaultMaxHeaderBytes, 64 KiB.
	MaxHeaderBytes int
	// MaxConns caps the open connections: past it, a new connection is
	// answered 503 Service Unavailable and closed at once, while the open
	// ones are served as before. Zero means DefaultMaxConns, 2048;
	// negative means no cap.
	MaxConns int
	// ShutdownTimeout bounds how long Serve waits for requests in flight
	// when its context ends; zero means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
}

// Handler returns the streamable HTTP handler of the server's MCP endpoint,
// behind a guard of who may call and a wire layer that echoes nothing.
//
// With opts.Auth, every request needs a valid bearer token (401
// Unauthorized otherwise, with WWW-Authenticate naming the protected
// resource metadata; see auth.go), and runs for the token's principal.
// Without it, only requests that reached a loopback address are served.
//
// The guard refuses with 403 Forbidden a request whose Host is not allowed
// (a loopback name when the request reached a loopback address, else one of
// opts.AllowedHosts: without them, every request reaching another address
// is refused) and a browser request from an origin other than those of
// opts.AllowedOrigins, of opts.AllowedHosts and, on loopback, of the
// loopback names on the port reached; it answers CORS preflights from the
// allowed origins. It refuses a body over opts.MaxRequestBytes with 413.
// See guard.go for the rules and their reasons. It applies the session
// timeout, the session cap and the batch cap of opts (see HTTPOptions).
//
// The wire layer rewrites every JSON-RPC error and every error response so
// that nothing of a request reaches the client but a plain identifier (the
// SDK's own errors quote params, method names and headers): see
// sanitize.go and wire.go.
func (s *Server) Handler(opts *HTTPOptions) (http.Handler, error) {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	cfg, err := o.check()
	if err != nil {
		return nil, fmt.Errorf("mcp http handler: %w", err)
	}
	if o.MaxRequestBytes == 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	o.limitDefaults()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.sdk }, &mcp.StreamableHTTPOptions{
		Stateless:           o.Stateless,
		JSONResponse:        o.JSONResponse,
		Logger:              s.log,
		SessionTimeout:      max(o.SessionTimeout, 0),
		MaxRequestBodyBytes: o.MaxRequestBytes,
		// The guard checks the Host of every request, loopback or not,
		// against loopback names and AllowedHosts (the SDK's check would
		// refuse a reverse proxy's loopback requests for a public name).
		DisableLocalhostProtection: true,
	})
	// The limits answer with fixed messages of their own, outside the wire
	// layer, which scrubs what the SDK writes. Auth comes first: a request
	// without a valid token opens no session.
	var h http.Handler = s.limits(wireGuard{next: s.taskGate(s.requests.track(sdk), o.MaxRequestBytes)}, &o)
	if o.Auth != nil {
		h = newAuthGate(h, o.Auth, cfg.metadataURL)
	} else {
		h = loopbackOnly{next: h}
	}
	return &guard{next: h, hosts: cfg.hosts, origins: cfg.origins}, nil
}

// Listen listens on addr over TCP; an addr without a host (":8080") or an
// empty one (DefaultAddr) binds 127.0.0.1, so that the server is reachable
// from this machine only unless addr names another interface explicitly
// ("0.0.0.0:8080").
func Listen(ctx context.Context, addr string) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("mcp listen: %w", err)
	}
	if host == "" {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("mcp listen: %w", err)
	}
	return ln, nil
}

// ListenAndServe listens on addr as Listen does and serves as Serve does.
func (s *Server) ListenAndServe(ctx context.Context, addr string, opts *HTTPOptions) error {
	ln, err := Listen(ctx, addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln, opts)
}

// Serve serves the MCP endpoint at opts.Path over streamable HTTP on ln
// (and, with opts.Auth.Metadata, the protected-resource metadata at
// WellKnownMetadataPath and that path followed by opts.Path) until ctx
// ends, then shuts down gracefully: it stops accepting requests,
// ends the standalone event streams, waits up to opts.ShutdownTimeout for
// the requests in flight (closing, after a second, the connections that
// have not sent a request), and closes the server's HTTP sessions. It
// closes ln. It returns nil after a shutdown that completed in time.
func (s *Server) Serve(ctx context.Context, ln net.Listener, opts *HTTPOptions) error {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	if o.Path == "" {
		o.Path = DefaultPath
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	h, err := s.Handler(&o)
	if err == nil {
		err = checkListener(ln.Addr(), &o)
	}
	if err != nil {
		ln.Close()
		return err
	}
	o.limitDefaults()
	ln = limitConns(ln, o.MaxConns)
	// A GET request holds a session's event stream open for as long as the
	// client wants: end those when the shutdown starts, while POST
	// requests run to their end.
	streams, endStreams := context.WithCancel(context.WithoutCancel(ctx))
	defer endStreams()
	paths := []string{o.Path}
	mux := http.NewServeMux()
	if meta, err := s.MetadataHandler(&o); err != nil {
		ln.Close()
		return err
	} else if meta != nil {
		for _, p := range metadataPaths(o.Path) {
			mux.Handle(p, meta)
			paths = append(paths, p)
		}
	}
	mux.Handle(o.Path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			rctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			stop := context.AfterFunc(streams, cancel)
			defer stop()
			r = r.WithContext(rctx)
		}
		h.ServeHTTP(w, r)
	}))
	var fresh freshConns
	srv := httpServer(exactPath(paths, mux), &o, &fresh)
	srv.RegisterOnShutdown(endStreams)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("mcp http server: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.ShutdownTimeout)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(sctx) }()
	grace := time.NewTimer(min(freshGrace, o.ShutdownTimeout/2))
	defer grace.Stop()
	select {
	case err = <-shut:
	case <-grace.C:
		fresh.close() // connections that never sent a request: no work to wait for
		err = <-shut
	}
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	s.closeHTTPSessions()
	if err != nil {
		srv.Close()
		return fmt.Errorf("mcp http server shutdown: %w", err)
	}
	return nil
}

// closeHTTPSessions closes the sessions that have a session ID: those of
// stateful streamable HTTP (stdio and in-memory sessions have none).
func (s *Server) closeHTTPSessions() {
	for ss := range s.sdk.Sessions() {
		if ss.ID() != "" {
			ss.Close()
		}
	}
}
