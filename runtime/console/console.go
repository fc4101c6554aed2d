package console

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Defaults and bounds of Options.
const (
	// MinKeyLen is the shortest Options.Key.
	MinKeyLen = 32
	// DefaultPageSize is how many records a page of the record shows when
	// Options.PageSize is zero.
	DefaultPageSize = 50
	// MaxPageSize bounds Options.PageSize and the API's limit.
	MaxPageSize = 500
	// DefaultTokenTTL is how long a CSRF token is accepted.
	DefaultTokenTTL = 12 * time.Hour
)

// Options configures a Console.
type Options struct {
	// Principal says who makes a request: the person the console shows
	// things for and confirms as. false (no one) answers a page with the
	// sign-in page and the API with 401 Unauthorized. BearerTokens is a
	// ready-made one; a host with its own sign-in passes a function that
	// reads its own session. It must be safe for concurrent use. Required.
	Principal func(r *http.Request) (tool.Principal, bool)
	// Key signs the CSRF tokens and the sessions of the sign-in form
	// (HMAC-SHA256): at least MinKeyLen secret random bytes, the same on
	// every instance serving one address, so that a form one instance
	// served may be posted to another and a session made on one is
	// accepted by all. Required.
	Key []byte
	// OperatorPermission is a permission whose holders see every
	// principal's record (and may filter it by principal); "" means no
	// one does. Everyone else sees their own.
	OperatorPermission string
	// Definitions are the provider definitions of the registry's tools,
	// precomputed (a generated providers package's NewDefinitions): the catalog
	// shows these bytes. A tool it lacks, or holds with another
	// description or input schema (a tool known only at run time), is
	// projected when shown. nil projects every tool when shown.
	Definitions *provider.Definitions
	// MCP returns the tools of an offer as an MCP server lists them, one
	// JSON object per tool in the offer's order (runtime/servicemcp's
	// Lister.List); nil leaves MCP out of the catalog.
	MCP func(ctx context.Context, offer []*tool.Spec) ([][]byte, error)
	// SignInURL is where a person without a principal is sent (the host's
	// sign-in page); "" serves the console's own sign-in form, which
	// checks a pasted bearer token with Principal (as an Authorization
	// header) and starts a session for its principal: SessionCookie holds
	// the session's random secret, never the token, and the service's
	// store the secret's hash (service.Session), so that every instance
	// sharing the store knows it and signing out ends it on all. The
	// session keeps the principal and permissions Principal gave at sign-in
	// until it ends.
	SignInURL string
	// SessionTTL is how long a session of the sign-in form lasts, however
	// much it is used; 0 means DefaultSessionTTL.
	SessionTTL time.Duration
	// SessionIdle ends a session not used for that long; 0 means
	// DefaultSessionIdle. Use is written to the store at most every
	// minute (every quarter of SessionIdle, when that is shorter).
	SessionIdle time.Duration
	// SecureCookies marks the session cookie Secure (the browser sends it
	// over HTTPS only) whatever the request: set it when TLS ends at a
	// proxy in front of the console. Without it the cookie is Secure when
	// the request came over TLS, to the console or to a proxy of
	// TrustedProxies.
	SecureCookies bool
	// TrustedProxies are the peers whose X-Forwarded-Proto header the
	// console believes: a request from one of them with
	// X-Forwarded-Proto: https came over TLS. The header of any other
	// peer is ignored (a client could send it).
	TrustedProxies []netip.Prefix
	// PageSize is how many records a page of the record shows; 0 means
	// DefaultPageSize, at most MaxPageSize.
	PageSize int
	// Title names the console in its pages; "" means "toolgen console".
	Title string
	// Logger receives what goes wrong (a store that fails); nil discards.
	Logger *slog.Logger
	// Now tells the time; nil means time.Now.
	Now func() time.Time
}

// Console is a person's view of the call service, an http.Handler a host
// mounts (see the package doc). Create it with New; it is safe for
// concurrent use and keeps nothing in memory that another instance needs.
type Console struct {
	svc      *service.Service
	who      func(r *http.Request) (tool.Principal, bool)
	key      []byte
	operator string
	defs     *provider.Definitions
	mcp      func(ctx context.Context, offer []*tool.Spec) ([][]byte, error)
	signIn   string
	pageSize int
	title    string
	log      *slog.Logger
	now      func() time.Time
	cross    *http.CrossOriginProtection
	sessions service.SessionStore
	// sessionTTL, sessionIdle and seeEvery are the sessions' lifetime,
	// idle timeout, and how often their use is written.
	sessionTTL, sessionIdle, seeEvery time.Duration
	secureCookies                     bool
	proxies                           []netip.Prefix
	pages                             map[string]*template.Template
	mux                               *http.ServeMux
}

// New returns a Console of svc.
func New(svc *service.Service, opts *Options) (*Console, error) {
	if svc == nil {
		return nil, errors.New("new console: nil service")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	var errs []error
	if o.Principal == nil {
		errs = append(errs, errors.New("nil Principal"))
	}
	if len(o.Key) < MinKeyLen {
		errs = append(errs, fmt.Errorf("the key has %d bytes, fewer than %d", len(o.Key), MinKeyLen))
	}
	if o.PageSize < 0 || o.PageSize > MaxPageSize {
		errs = append(errs, fmt.Errorf("PageSize %d is not between 0 and %d", o.PageSize, MaxPageSize))
	}
	if o.SignInURL != "" && !strings.HasPrefix(o.SignInURL, "/") && !strings.HasPrefix(o.SignInURL, "https://") && !strings.HasPrefix(o.SignInURL, "http://") {
		errs = append(errs, errors.New("SignInURL is neither a path nor an http(s) URL"))
	}
	if o.SessionTTL < 0 || o.SessionIdle < 0 {
		errs = append(errs, errors.New("a negative SessionTTL or SessionIdle"))
	}
	for _, p := range o.TrustedProxies {
		if !p.IsValid() {
			errs = append(errs, errors.New("an invalid prefix in TrustedProxies"))
			break
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("new console: %w", err)
	}
	c := &Console{
		svc: svc, who: o.Principal, key: append([]byte(nil), o.Key...), operator: o.OperatorPermission,
		defs: o.Definitions, mcp: o.MCP, signIn: o.SignInURL, pageSize: o.PageSize, title: o.Title,
		log: o.Logger, now: o.Now, cross: http.NewCrossOriginProtection(), sessions: svc.Store(),
		sessionTTL: cmp.Or(o.SessionTTL, DefaultSessionTTL), sessionIdle: cmp.Or(o.SessionIdle, DefaultSessionIdle),
		secureCookies: o.SecureCookies, proxies: slices.Clone(o.TrustedProxies),
	}
	c.seeEvery = min(c.sessionIdle/4, time.Minute)
	for i, p := range c.proxies {
		if p.Addr().Is4In6() && p.Bits() >= 96 { // an IPv4 prefix written in IPv6, as a peer's address is not
			c.proxies[i] = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
	}
	if c.pageSize == 0 {
		c.pageSize = DefaultPageSize
	}
	if c.title == "" {
		c.title = "toolgen console"
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.now == nil {
		c.now = time.Now
	}
	pages, err := parsePages()
	if err != nil {
		return nil, fmt.Errorf("new console: %w", err)
	}
	c.pages = pages
	c.routes()
	return c, nil
}

// routes registers every route; paths are relative to where the console
// is mounted (the host strips its prefix).
func (c *Console) routes() {
	m := http.NewServeMux()
	m.Handle("GET /static/", staticHandler())
	m.HandleFunc("GET /signin", c.signInPage)
	m.HandleFunc("POST /signin", c.signInPost)
	m.HandleFunc("POST /signout", c.person(c.signOut))

	m.HandleFunc("GET /{$}", c.page(c.proposalsPage))
	m.HandleFunc("GET /proposals/{id}", c.page(c.proposalPage))
	m.HandleFunc("POST /proposals/{id}/confirm", c.person(c.decidePage(true)))
	m.HandleFunc("POST /proposals/{id}/reject", c.person(c.decidePage(false)))
	m.HandleFunc("GET /tasks", c.page(c.tasksPage))
	m.HandleFunc("POST /tasks/{id}/cancel", c.person(c.cancelTaskPage))
	m.HandleFunc("GET /record", c.page(c.recordPage))
	m.HandleFunc("GET /catalog", c.page(c.catalogPage))

	m.HandleFunc("GET /api/me", c.api(c.apiMe))
	m.HandleFunc("GET /api/proposals", c.api(c.apiProposals))
	m.HandleFunc("GET /api/proposals/{id}", c.api(c.apiProposal))
	m.HandleFunc("POST /api/proposals/{id}/confirm", c.api(c.apiDecide(true)))
	m.HandleFunc("POST /api/proposals/{id}/reject", c.api(c.apiDecide(false)))
	m.HandleFunc("GET /api/tasks", c.api(c.apiTasks))
	m.HandleFunc("POST /api/tasks/{id}/cancel", c.api(c.apiCancelTask))
	m.HandleFunc("GET /api/records", c.api(c.apiRecords))
	m.HandleFunc("GET /api/catalog", c.api(c.apiCatalog))
	c.mux = m
}

// contentSecurityPolicy lets a page load its own style sheet, script and
// images and nothing else: no inline script or style, no frames, no form
// posted elsewhere.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// ServeHTTP implements http.Handler: every answer carries the security
// headers, and a request that changes anything (any method but GET and
// HEAD) is refused when it comes from another site.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if err := c.cross.Check(r); err != nil {
			c.refuse(w, r, http.StatusForbidden, "cross_site", "a request from another site may change nothing here")
			return
		}
	}
	c.mux.ServeHTTP(w, r)
}

// handler is a route served for a principal.
type handler func(w http.ResponseWriter, r *http.Request, who tool.Principal)

// page serves a page for the principal of the request; a request without
// one is sent to sign in.
func (c *Console) page(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		who, ok := c.principal(r)
		if !ok {
			c.toSignIn(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		h(w, r, who)
	}
}

// person serves a form's post for the principal of the request, once its
// CSRF token is checked.
func (c *Console) person(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		who, ok := c.principal(r)
		if !ok {
			c.toSignIn(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			c.refuse(w, r, http.StatusBadRequest, "bad_form", "the form could not be read")
			return
		}
		if !c.validToken(r.PostForm.Get(csrfField), who.ID) {
			c.refuse(w, r, http.StatusForbidden, "bad_csrf_token", "this form has expired or is not yours: reload the page and try again")
			return
		}
		h(w, r, who)
	}
}

// api serves a JSON API route for the principal of the request: 401
// without one; a POST needs the CSRF token in its X-CSRF-Token header.
func (c *Console) api(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		who, ok := c.principal(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeError(w, http.StatusUnauthorized, "unauthorized", "sign in: a valid bearer token is required")
			return
		}
		if r.Method == http.MethodPost && !c.validToken(r.Header.Get(csrfHeader), who.ID) {
			writeError(w, http.StatusForbidden, "bad_csrf_token", "the "+csrfHeader+" header must hold a token from GET api/me")
			return
		}
		h(w, r, who)
	}
}

// principal returns the principal of r, if any, with an ID: the one
// Options.Principal finds, else the one r's session was made for.
func (c *Console) principal(r *http.Request) (tool.Principal, bool) {
	if p, ok := c.who(r); ok && p.ID != "" {
		return p, true
	}
	return c.sessionPrincipal(r)
}

// isOperator reports whether who sees everyone's record.
func (c *Console) isOperator(who tool.Principal) bool {
	return c.operator != "" && who.Has(c.operator)
}

// as returns ctx carrying who, for the service.
func as(ctx context.Context, who tool.Principal) context.Context {
	return tool.WithInvocation(ctx, &tool.Invocation{Principal: who})
}

// refuse answers a refused request: a JSON error under api/, a page
// otherwise.
func (c *Console) refuse(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		writeError(w, status, code, msg)
		return
	}
	who, _ := c.principal(r)
	c.render(w, r, status, "error", who, &errorData{Status: status, Code: code, Message: msg})
}
