package mcpserver

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Who may call: every request passes the guard before the SDK sees it.
//
//  1. Host. A request whose local address is loopback may name a loopback
//     host (localhost, 127.0.0.1, [::1], any port) or one of
//     HTTPOptions.AllowedHosts; any other request (a non-loopback local
//     address, or none known) must name one of AllowedHosts, and without
//     that list every such request is refused. A browser puts the name it
//     resolved in Host, so a DNS-rebound name (evil.example resolving to
//     this machine) is refused whatever address it reached. Unix sockets
//     count as loopback.
//  2. Origin. A browser request (one with Origin) is served when its origin
//     is one of HTTPOptions.AllowedOrigins, or names one of AllowedHosts
//     (with that entry's port, when it has one), or, for a loopback request,
//     names a loopback host on the port the request actually reached (the
//     local address's, never the Host's). The request's own Host is never
//     taken as proof of anything: it is what the caller chose to send. A
//     request without Origin but with a Sec-Fetch-Site other than
//     same-origin or none (a browser's cross-site request) is refused.
//  3. CORS. A preflight (OPTIONS with Origin and Access-Control-Request-
//     Method) from an allowed origin is answered here; responses to allowed
//     origins carry Access-Control-Allow-Origin, others none.
//
// Refusals are 403 Forbidden with a short fixed body that quotes nothing
// of the request.

// Bodies of the guard's refusals.
const (
	refuseHost   = "Forbidden: Host not allowed\n"
	refuseOrigin = "Forbidden: Origin not allowed\n"
	refusePath   = "Not Found\n"
)

// hostRule is one entry of HTTPOptions.AllowedHosts: a lower-case host
// name or IP address and a port, "" for any.
type hostRule struct {
	host, port string
}

// guard checks who may call before handing a request on; see above.
type guard struct {
	next  http.Handler
	hosts []hostRule
	// origins maps each allowed origin, normalized, to itself.
	origins map[string]string
}

// httpConfig is the checked form of HTTPOptions' access options.
type httpConfig struct {
	hosts   []hostRule
	origins map[string]string
	// metadataURL is named in the WWW-Authenticate of Auth's 401s.
	metadataURL string
}

// Validate reports every problem with the options at once: a negative
// size limit or shutdown timeout, a malformed path, allowed host or
// allowed origin, an Auth without a Verifier or with a malformed URL.
// Handler, Serve and ListenAndServe validate their options too; call
// Validate to refuse bad options before announcing anything.
func (o *HTTPOptions) Validate() error {
	_, err := o.check()
	return err
}

// check validates the options and returns their checked form.
func (o *HTTPOptions) check() (*httpConfig, error) {
	if o == nil {
		return &httpConfig{}, nil
	}
	var errs []error
	if o.MaxRequestBytes < 0 {
		errs = append(errs, fmt.Errorf("negative request size limit %d", o.MaxRequestBytes))
	}
	if o.ShutdownTimeout < 0 {
		errs = append(errs, fmt.Errorf("negative shutdown timeout %s", o.ShutdownTimeout))
	}
	if o.Path != "" && (!strings.HasPrefix(o.Path, "/") || path.Clean(o.Path) != o.Path) {
		errs = append(errs, fmt.Errorf("path %q is not a clean absolute path", o.Path))
	}
	c := &httpConfig{origins: make(map[string]string, len(o.AllowedOrigins))}
	for _, h := range o.AllowedHosts {
		r, ok := parseHostRule(h)
		if !ok {
			errs = append(errs, fmt.Errorf("allowed host %q is not a host name or IP address with an optional port", h))
			continue
		}
		c.hosts = append(c.hosts, r)
	}
	for _, s := range o.AllowedOrigins {
		origin, _, _, ok := parseOrigin(strings.TrimSuffix(s, "/"))
		if !ok {
			errs = append(errs, fmt.Errorf("allowed origin %q is not a scheme (http or https) and host with an optional port", s))
			continue
		}
		c.origins[origin] = origin
	}
	if o.Auth != nil {
		url, err := o.Auth.check()
		if err != nil {
			errs = append(errs, err)
		}
		c.metadataURL = url
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("mcp http options: %w", err)
	}
	return c, nil
}

// parseHostRule parses an AllowedHosts entry: host, host:port, an IP
// address, [IPv6] or [IPv6]:port.
func parseHostRule(s string) (hostRule, bool) {
	if ip, err := netip.ParseAddr(s); err == nil && ip.Zone() == "" {
		return hostRule{host: ip.String()}, true // a bare IPv6 address has colons
	}
	host, port, ok := splitHost(s)
	return hostRule{host: host, port: port}, ok && host != ""
}

// splitHost splits a Host header or an authority into a lower-case host
// (without brackets or a final dot) and a port ("" when absent). It
// reports false for anything but a DNS name, an IPv4 address or a
// bracketed IPv6 address, with an optional decimal port.
func splitHost(s string) (host, port string, ok bool) {
	if s == "" || len(s) > 260 {
		return "", "", false
	}
	if s[0] == '[' {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", "", false
		}
		ip, err := netip.ParseAddr(s[1:end])
		if err != nil || !ip.Is6() || ip.Zone() != "" {
			return "", "", false
		}
		host, s = ip.String(), s[end+1:]
		if s == "" {
			return host, "", true
		}
		if s[0] != ':' || !isPort(s[1:]) {
			return "", "", false
		}
		return host, s[1:], true
	}
	host = s
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i+1:]
		if !isPort(port) {
			return "", "", false
		}
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if !isHostName(host) {
		return "", "", false
	}
	return host, port, true
}

// isPort reports whether s is a decimal port number.
func isPort(s string) bool {
	n, err := strconv.ParseUint(s, 10, 16)
	return err == nil && n > 0 && s[0] != '0' && s[0] != '+'
}

// isHostName reports whether s is a lower-case DNS name or IPv4 address:
// labels of letters, digits, '-' and '_'.
func isHostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// isLoopbackHost reports whether host (as splitHost returns it) names this
// machine: localhost or a loopback address.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// parseOrigin parses an Origin (scheme://host[:port], nothing more) and
// returns it normalized (lower case, without the scheme's default port),
// its host and its port (explicit or the scheme's default).
func parseOrigin(s string) (origin, host, port string, ok bool) {
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" ||
		strings.HasSuffix(s, "?") || strings.HasSuffix(s, "#") {
		return "", "", "", false
	}
	scheme := strings.ToLower(u.Scheme)
	def := map[string]string{"http": "80", "https": "443"}[scheme]
	if def == "" {
		return "", "", "", false
	}
	host, port, ok = splitHost(u.Host)
	if !ok || host == "" {
		return "", "", "", false
	}
	authority := host
	if strings.Contains(host, ":") {
		authority = "[" + host + "]"
	}
	if port == "" || port == def {
		port = def
	} else {
		authority += ":" + port
	}
	return scheme + "://" + authority, host, port, true
}

// localAddr returns whether the request reached a loopback address (or a
// Unix socket) and the port it reached ("" when unknown).
func localAddr(r *http.Request) (loopback bool, port string) {
	switch a := r.Context().Value(http.LocalAddrContextKey).(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback(), strconv.Itoa(a.Port)
	case *net.UnixAddr:
		return true, ""
	case net.Addr:
		ap, err := netip.ParseAddrPort(a.String())
		if err != nil {
			return false, ""
		}
		return ap.Addr().Unmap().IsLoopback(), strconv.Itoa(int(ap.Port()))
	}
	return false, ""
}

// hostAllowed reports whether a request may name host:port.
func (g *guard) hostAllowed(host, port string, loopback bool) bool {
	if loopback && isLoopbackHost(host) {
		return true
	}
	for _, h := range g.hosts {
		if h.host == host && (h.port == "" || h.port == port) {
			return true
		}
	}
	return false
}

// allowedOrigin returns the normalized origin when a browser on origin may
// call, "" when not.
func (g *guard) allowedOrigin(origin string, loopback bool, localPort string) string {
	o, host, port, ok := parseOrigin(origin)
	if !ok {
		return ""
	}
	if a, ok := g.origins[o]; ok {
		return a
	}
	for _, h := range g.hosts {
		if h.host == host && (h.port == "" || h.port == port) {
			return o
		}
	}
	if loopback && isLoopbackHost(host) && port == localPort {
		return o
	}
	return ""
}

// ServeHTTP checks the Host and the Origin, answers preflights, and serves
// the rest.
func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	loopback, localPort := localAddr(r)
	host, port, ok := splitHost(r.Host)
	if !ok || !g.hostAllowed(host, port, loopback) {
		refuse(w, http.StatusForbidden, refuseHost)
		return
	}
	h := w.Header()
	h.Add("Vary", "Origin")
	var allowed string
	switch origins := r.Header.Values("Origin"); len(origins) {
	case 0:
		switch r.Header.Get("Sec-Fetch-Site") {
		case "", "same-origin", "none":
		default:
			refuse(w, http.StatusForbidden, refuseOrigin)
			return
		}
	case 1:
		if allowed = g.allowedOrigin(origins[0], loopback, localPort); allowed == "" {
			refuse(w, http.StatusForbidden, refuseOrigin)
			return
		}
	default:
		refuse(w, http.StatusForbidden, refuseOrigin)
		return
	}
	if allowed != "" {
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			preflight(w, allowed)
			return
		}
		corsHeaders(h, allowed)
	}
	g.next.ServeHTTP(w, r)
}

// refuse answers with status and a fixed body.
func refuse(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// exactPath serves next at the paths ps only: any other path gets 404
// with a fixed body, before http.ServeMux would redirect an unclean path
// to a Location quoting it.
func exactPath(ps []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(ps, r.URL.Path) {
			refuse(w, http.StatusNotFound, refusePath)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopbackListener reports whether addr, a listener's address, is
// reachable from this machine only.
func isLoopbackListener(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.UnixAddr:
		return true
	}
	ap, err := netip.ParseAddrPort(addr.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// ErrNoAllowedHosts is Serve's error for a listener on an address other
// than loopback without HTTPOptions.AllowedHosts: every request would be
// refused.
var ErrNoAllowedHosts = errors.New("listening on an address other than loopback requires HTTPOptions.AllowedHosts, the host names clients use to reach the server (the Host header is checked against them to stop DNS rebinding)")

// ErrNoAuth is Serve's error for a listener on an address other than
// loopback without HTTPOptions.Auth: a caller off this machine must be
// someone, and without Auth every one of its requests would be refused.
var ErrNoAuth = errors.New("listening on an address other than loopback requires HTTPOptions.Auth, the bearer tokens that say who each caller is")

// checkListener refuses to serve a non-loopback listener without allowed
// hosts or without Auth.
func checkListener(addr net.Addr, o *HTTPOptions) error {
	if isLoopbackListener(addr) {
		return nil
	}
	if len(o.AllowedHosts) == 0 {
		return fmt.Errorf("mcp http server on %s: %w", addr, ErrNoAllowedHosts)
	}
	if o.Auth == nil {
		return fmt.Errorf("mcp http server on %s: %w", addr, ErrNoAuth)
	}
	return nil
}
