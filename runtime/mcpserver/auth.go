package mcpserver

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Who may call over HTTP, after the guard (guard.go) has checked the Host
// and the Origin:
//
//   - With HTTPOptions.Auth, every request needs a bearer token that
//     Auth.Verifier accepts (through the SDK's auth.RequireBearerToken).
//     Without one, or with one refused, the answer is 401 Unauthorized
//     with a WWW-Authenticate header naming the protected-resource
//     metadata (resource_metadata, RFC 9728, as the MCP authorization spec
//     asks) and a fixed body: nothing of the request, and nothing of the
//     verifier's error, is written. A token lacking one of Auth.Scopes is
//     403 Forbidden, likewise. The principal is then the token's (see
//     invocation.go), and the SDK binds each session to the token's
//     UserID: another token's holder cannot use it.
//   - Without Auth, requests carry no token, and are served only when they
//     reached a loopback address (or a Unix socket): any other is refused
//     with 403 Forbidden, and Serve refuses a listener on another address.
//     A host serves such callers as a principal it chooses (service.As),
//     or as nobody.

// Bodies of the refusals of the HTTP auth layer.
const (
	refuseNoToken    = "Unauthorized: a valid bearer token is required\n"
	refuseScope      = "Forbidden: the token lacks a scope this server requires\n"
	refuseBadRequest = "Bad Request: the token request is malformed\n"
	refuseVerifier   = "Internal Server Error: the token could not be verified\n"
	refuseNoAuth     = "Forbidden: without a bearer token, this server serves loopback callers only\n"
)

// WellKnownMetadataPath is where a protected resource's metadata is served
// (RFC 9728), at the host's root; Serve serves it there and at this path
// followed by the endpoint's path (RFC 9728 section 3.1).
const WellKnownMetadataPath = "/.well-known/oauth-protected-resource"

// Auth requires a bearer token of every request an HTTP handler serves: the
// resource-server side of the MCP authorization specification. Tokens are
// issued elsewhere (an OAuth authorization server, or the host, for
// StaticTokens); Verifier checks them.
type Auth struct {
	// Verifier checks a token and describes it: an error wrapping
	// auth.ErrInvalidToken for a token it refuses. The TokenInfo it
	// returns must have a UserID (the SDK binds each session to it, and
	// Options.Principal's default is it) and an Expiration (past it, the
	// token is refused). Required.
	Verifier auth.TokenVerifier
	// Metadata is the server's OAuth 2.0 protected resource metadata (RFC
	// 9728): its Resource is the MCP endpoint's URL, and
	// AuthorizationServers name where clients get tokens. Serve and
	// ListenAndServe serve it at WellKnownMetadataPath and at that path
	// followed by the endpoint's path; a host mounting Handler serves
	// MetadataHandler. nil serves none.
	Metadata *oauthex.ProtectedResourceMetadata
	// MetadataURL is where clients read the metadata, named in the
	// WWW-Authenticate header of every 401 (resource_metadata). Empty
	// means the URL Serve serves it at: Metadata.Resource's scheme and
	// host, WellKnownMetadataPath and Metadata.Resource's path.
	MetadataURL string
	// Scopes are required of every token: a token lacking one is refused
	// with 403 Forbidden.
	Scopes []string
	// ClockSkew tolerates that much difference between the issuer's clock
	// and this one when a token's Expiration is checked.
	ClockSkew time.Duration
}

// check validates a and returns the metadata URL of its 401s ("" for
// none).
func (a *Auth) check() (string, error) {
	var errs []error
	if a.Verifier == nil {
		errs = append(errs, errors.New("auth: nil Verifier"))
	}
	if a.ClockSkew < 0 {
		errs = append(errs, fmt.Errorf("auth: negative clock skew %s", a.ClockSkew))
	}
	metadataURL := a.MetadataURL
	if a.Metadata != nil {
		u, err := url.Parse(a.Metadata.Resource)
		if err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" {
			errs = append(errs, fmt.Errorf("auth: Metadata.Resource %q is not an absolute URL", a.Metadata.Resource))
		} else if metadataURL == "" {
			metadataURL = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: WellKnownMetadataPath + trimSlash(u.Path)}).String()
		}
	}
	if a.MetadataURL != "" {
		if u, err := url.Parse(a.MetadataURL); err != nil || !u.IsAbs() || u.Host == "" {
			errs = append(errs, fmt.Errorf("auth: MetadataURL %q is not an absolute URL", a.MetadataURL))
		}
	}
	return metadataURL, errors.Join(errs...)
}

// trimSlash drops a path's final slash ("/" becomes "").
func trimSlash(p string) string {
	if len(p) > 0 && p[len(p)-1] == '/' {
		return p[:len(p)-1]
	}
	return p
}

// authGate is the HTTP auth layer of a handler with Auth: the SDK's
// auth.RequireBearerToken, whose refusals it rewrites.
type authGate struct {
	gate http.Handler // auth.RequireBearerToken in front of pass
	next http.Handler
}

// newAuthGate returns next behind a's bearer tokens; metadataURL is named
// in the refusals' WWW-Authenticate.
func newAuthGate(next http.Handler, a *Auth, metadataURL string) *authGate {
	g := &authGate{next: next}
	verifier := a.Verifier
	verify := func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		info, err := verifier(ctx, token, r)
		if err == nil && info != nil && info.UserID == "" {
			// A session bound to no user could be used by any token's
			// holder: refuse the token.
			return nil, fmt.Errorf("%w: the token names no user", auth.ErrInvalidToken)
		}
		return info, err
	}
	g.gate = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: metadataURL,
		Scopes:              slices.Clone(a.Scopes),
		ClockSkew:           a.ClockSkew,
	})(http.HandlerFunc(g.pass))
	return g
}

// authWriter is the ResponseWriter the SDK's middleware writes to: a
// refusal is held (and replaced); a request let through is served to the
// real writer.
type authWriter struct {
	real   http.ResponseWriter
	header http.Header
	status int
	passed bool
}

func (w *authWriter) Header() http.Header         { return w.header }
func (w *authWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *authWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

// ServeHTTP serves a request whose token is valid, and refuses any other.
func (g *authGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	aw := &authWriter{real: w, header: http.Header{}}
	g.gate.ServeHTTP(aw, r)
	if aw.passed {
		return
	}
	body := refuseVerifier
	switch aw.status {
	case http.StatusUnauthorized:
		body = refuseNoToken
	case http.StatusForbidden:
		body = refuseScope
	case http.StatusBadRequest:
		body = refuseBadRequest
	case 0:
		aw.status = http.StatusInternalServerError
	}
	h := w.Header()
	// Built from the options, never from the request.
	h["Www-Authenticate"] = aw.header["Www-Authenticate"]
	if aw.status == http.StatusUnauthorized && len(h["Www-Authenticate"]) == 0 {
		h.Set("WWW-Authenticate", "Bearer")
	}
	h.Set("Cache-Control", "no-store")
	refuse(w, aw.status, body)
}

// pass serves a request the SDK's middleware let through, with the
// verified TokenInfo in its context, to the real writer.
func (g *authGate) pass(w http.ResponseWriter, r *http.Request) {
	aw := w.(*authWriter)
	aw.passed = true
	g.next.ServeHTTP(aw.real, r)
}

// loopbackOnly serves the requests that reached a loopback address (or a
// Unix socket) and refuses the others: what a handler without Auth
// serves.
type loopbackOnly struct {
	next http.Handler
}

// ServeHTTP serves a loopback request and refuses any other.
func (l loopbackOnly) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if loopback, _ := localAddr(r); !loopback {
		refuse(w, http.StatusForbidden, refuseNoAuth)
		return
	}
	l.next.ServeHTTP(w, r)
}

// MetadataHandler returns the handler of the protected resource metadata
// of opts.Auth (the SDK's auth.ProtectedResourceMetadataHandler) behind
// the guard of Handler, for a host that mounts Handler in its own server
// (Serve serves it itself); nil when opts has no Auth or no metadata.
func (s *Server) MetadataHandler(opts *HTTPOptions) (http.Handler, error) {
	if opts == nil || opts.Auth == nil || opts.Auth.Metadata == nil {
		return nil, nil
	}
	cfg, err := opts.check()
	if err != nil {
		return nil, fmt.Errorf("mcp metadata handler: %w", err)
	}
	return &guard{next: auth.ProtectedResourceMetadataHandler(opts.Auth.Metadata), hosts: cfg.hosts, origins: cfg.origins}, nil
}

// metadataPaths returns the paths Serve serves the metadata at.
func metadataPaths(endpoint string) []string {
	paths := []string{WellKnownMetadataPath}
	if p := trimSlash(endpoint); p != "" {
		paths = append(paths, WellKnownMetadataPath+p)
	}
	return paths
}

// StaticTokens returns a Verifier of bearer tokens the host configures,
// each the token of one principal: for a small deployment, a test, an
// example. A token is looked up by its SHA-256, so that no comparison
// with a configured token depends on where they differ. Its TokenInfo has
// the principal's ID as UserID and its permissions as Scopes (which
// Options.Principal's default makes the principal of again), and expires
// an hour after the verification: a static token is valid until the host
// removes it. Any other token is auth.ErrInvalidToken. Empty tokens are
// ignored.
func StaticTokens(tokens map[string]tool.Principal) auth.TokenVerifier {
	byHash := make(map[[sha256.Size]byte]tool.Principal, len(tokens))
	for tok, p := range tokens {
		if tok != "" {
			p.Permissions = slices.Clone(p.Permissions)
			byHash[sha256.Sum256([]byte(tok))] = p
		}
	}
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		p, ok := byHash[sha256.Sum256([]byte(token))]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{
			UserID:     p.ID,
			Scopes:     slices.Clone(p.Permissions),
			Expiration: time.Now().Add(time.Hour),
		}, nil
	}
}
