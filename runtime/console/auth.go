package console

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// SessionCookie is the cookie the console's sign-in form sets: an opaque
// session (see Options.SessionTTL), never the bearer token the person
// pasted. It is HttpOnly, SameSite=Strict, scoped to the console's path,
// and Secure as Options.SecureCookies and Options.TrustedProxies say.
const SessionCookie = "toolgen_console_session"

// The CSRF token's form field and API header.
const (
	csrfField  = "csrf"
	csrfHeader = "X-CSRF-Token"
)

// maxFormBytes bounds a form's body.
const maxFormBytes = 16 << 10

// BearerTokens returns an Options.Principal of bearer tokens the host
// configures, each the token of one principal, as
// runtime/mcpserver.StaticTokens does for MCP: a token is read from the
// request's "Authorization: Bearer" header (an API client, and the
// console's sign-in form, which pastes one and keeps a session instead)
// and looked up by its SHA-256, so that no comparison with a configured
// token depends on where they differ. No cookie is read: a browser signed
// in with the form holds a session (SessionCookie). Empty tokens are
// ignored.
func BearerTokens(tokens map[string]tool.Principal) func(r *http.Request) (tool.Principal, bool) {
	byHash := make(map[[sha256.Size]byte]tool.Principal, len(tokens))
	for tok, p := range tokens {
		if tok != "" {
			p.Permissions = slices.Clone(p.Permissions)
			byHash[sha256.Sum256([]byte(tok))] = p
		}
	}
	return func(r *http.Request) (tool.Principal, bool) {
		tok := ""
		if h := r.Header.Get("Authorization"); len(h) > len("Bearer ") && strings.EqualFold(h[:len("Bearer ")], "Bearer ") {
			tok = strings.TrimSpace(h[len("Bearer "):])
		}
		if tok == "" {
			return tool.Principal{}, false
		}
		p, ok := byHash[sha256.Sum256([]byte(tok))]
		if !ok {
			return tool.Principal{}, false
		}
		p.Permissions = slices.Clone(p.Permissions)
		return p, true
	}
}

// A CSRF token is base64url(expiry as 8 bytes, big-endian Unix seconds,
// then HMAC-SHA256 under Options.Key of the principal's ID and the
// expiry): bound to one principal, valid until its expiry, on every
// instance that shares the key. It holds nothing secret.
const csrfLabel = "toolgen console csrf\x00"

// token returns a CSRF token for the principal id.
func (c *Console) token(id string) string {
	var exp [8]byte
	binary.BigEndian.PutUint64(exp[:], uint64(c.now().Add(DefaultTokenTTL).Unix()))
	return base64.RawURLEncoding.EncodeToString(append(exp[:], c.tokenMAC(id, exp[:])...))
}

// tokenMAC is the MAC of a token of the principal id with expiry exp.
func (c *Console) tokenMAC(id string, exp []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(csrfLabel))
	m.Write(exp)
	m.Write([]byte(id))
	return m.Sum(nil)
}

// validToken reports whether tok is a current CSRF token of the principal
// id.
func (c *Console) validToken(tok, id string) bool {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) != 8+sha256.Size {
		return false
	}
	exp := int64(binary.BigEndian.Uint64(b[:8]))
	if c.now().Unix() >= exp {
		return false
	}
	return hmac.Equal(b[8:], c.tokenMAC(id, b[:8]))
}

// base returns the path the console is mounted at, with a final slash:
// the request's path less the part the console routes on (the host
// strips the rest).
func base(r *http.Request) string {
	full, _, _ := strings.Cut(r.RequestURI, "?")
	p, ok := strings.CutSuffix(full, r.URL.EscapedPath())
	if !ok || !strings.HasPrefix(p, "/") {
		return "/"
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// toSignIn answers a page request without a principal: a redirect to the
// host's sign-in page, or the console's own.
func (c *Console) toSignIn(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if c.signIn != "" {
		http.Redirect(w, r, c.signIn, http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, base(r)+"signin", http.StatusSeeOther)
}

// signInPage serves the sign-in form.
func (c *Console) signInPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if c.signIn != "" {
		http.Redirect(w, r, c.signIn, http.StatusSeeOther)
		return
	}
	c.render(w, r, http.StatusOK, "signin", tool.Principal{}, &signInData{})
}

// signInPost signs in with a pasted bearer token: when Options.Principal
// accepts it (in an Authorization header, as an API client sends it), a
// session is started for that principal and SessionCookie holds the
// session's secret. The token is never written back, not even when it is
// refused, and never kept: not in the cookie, not in the store. A session
// the request held ends: a sign-in never leaves two.
func (c *Console) signInPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if c.signIn != "" {
		http.Error(w, "Not Found", http.StatusNotFound)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		c.render(w, r, http.StatusBadRequest, "signin", tool.Principal{}, &signInData{Failed: true})
		return
	}
	tok := strings.TrimSpace(r.PostForm.Get("token"))
	if !headerSafe(tok) { // no token of BearerTokens'
		c.render(w, r, http.StatusUnauthorized, "signin", tool.Principal{}, &signInData{Failed: true})
		return
	}
	// Whom does the token sign in?
	probe := r.Clone(r.Context())
	probe.Header = probe.Header.Clone()
	probe.Header.Del("Cookie")
	probe.Header.Set("Authorization", "Bearer "+tok)
	who, ok := c.who(probe)
	if !ok || who.ID == "" {
		c.render(w, r, http.StatusUnauthorized, "signin", tool.Principal{}, &signInData{Failed: true})
		return
	}
	if hash, ok := sessionHash(r); ok { // a sign-in replaces the session the browser held
		if err := c.sessions.EndSession(r.Context(), hash); err != nil {
			c.failed(w, r, "end the session", err)
			return
		}
	}
	if err := c.startSession(w, r, who); err != nil {
		c.failed(w, r, "start a session", err)
		return
	}
	http.Redirect(w, r, base(r), http.StatusSeeOther)
}

// headerSafe reports whether tok can be sent in a header as it is.
func headerSafe(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if b := tok[i]; b < ' ' || b >= 0x7f {
			return false
		}
	}
	return true
}

// signOut ends the request's session, on every instance (it is deleted
// from the store), and forgets the cookie.
func (c *Console) signOut(w http.ResponseWriter, r *http.Request, _ tool.Principal) {
	if hash, ok := sessionHash(r); ok {
		if err := c.sessions.EndSession(r.Context(), hash); err != nil {
			c.failed(w, r, "end the session", err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie, Value: "", Path: base(r), MaxAge: -1, HttpOnly: true, Secure: c.secure(r),
		SameSite: http.SameSiteStrictMode,
	})
	http.Redirect(w, r, base(r)+"signin", http.StatusSeeOther)
}
