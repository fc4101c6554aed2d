package console_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// signIn posts the sign-in form of the console at u with token and
// returns the Set-Cookie header and the session cookie it sets.
func signIn(t *testing.T, u, token string, header map[string]string) (string, *http.Cookie) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, u+"signin", strings.NewReader(url.Values{"token": {token}}.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	for _, ck := range resp.Cookies() {
		if ck.Name == console.SessionCookie {
			return resp.Header.Get("Set-Cookie"), ck
		}
	}
	t.Fatal("no session cookie")
	return "", nil
}

// withCookie fetches the console path at u with the cookie (none when
// nil) and no Authorization header.
func withCookie(t *testing.T, u, path string, ck *http.Cookie) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, u+path, nil)
	require.NoError(t, err)
	if ck != nil {
		req.AddCookie(ck)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	return response{status: resp.StatusCode, header: resp.Header, body: readAll(t, resp)}
}

// me returns the principal ID api/me answers for the cookie, or "" on
// 401 (whose body must not hold the cookie's value).
func me(t *testing.T, u string, ck *http.Cookie) string {
	t.Helper()
	r := withCookie(t, u, "api/me", ck)
	if r.status == http.StatusUnauthorized {
		if ck != nil && ck.Value != "" {
			assert.NotContains(t, r.body, ck.Value, "the refused value is not echoed")
		}
		return ""
	}
	require.Equal(t, http.StatusOK, r.status, r.body)
	var m struct {
		Principal string `json:"principal"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.body), &m))
	require.NotEmpty(t, m.Principal, r.body)
	return m.Principal
}

// TestSessionCookieIsNotTheToken checks that the sign-in form's cookie
// holds an opaque session, never the pasted token, and that a token in a
// cookie signs no one in.
func TestSessionCookieIsNotTheToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	set, ck := signIn(t, e.url, anaToken, nil)
	assert.NotContains(t, set, anaToken, "the token is not in Set-Cookie")
	assert.NotContains(t, set, strings.SplitN(anaToken, "-", 2)[1][:12], "nor a part of it")
	for _, want := range []string{console.SessionCookie + "=", "Path=/console/", "HttpOnly", "SameSite=Strict", "Max-Age=43200"} {
		assert.Contains(t, set, want)
	}
	assert.NotContains(t, set, "Secure", "plain HTTP, no option")
	assert.Equal(t, "ana", me(t, e.url, ck))

	// Two sign-ins are two sessions; a sign-in from a browser that held
	// one ends it.
	_, ck2 := signIn(t, e.url, anaToken, nil)
	assert.NotEqual(t, ck.Value, ck2.Value)
	assert.Equal(t, "ana", me(t, e.url, ck))
	_, ck3 := signIn(t, e.url, benToken, map[string]string{"Cookie": ck2.String()})
	assert.Empty(t, me(t, e.url, ck2), "replaced by the new sign-in")
	assert.Equal(t, "ben", me(t, e.url, ck3))
	assert.Equal(t, "ana", me(t, e.url, ck), "another browser's session lives")

	// The token itself, in the session cookie or in the old one, is no
	// session.
	assert.Empty(t, me(t, e.url, &http.Cookie{Name: console.SessionCookie, Value: anaToken}))
	assert.Empty(t, me(t, e.url, &http.Cookie{Name: "toolgen_console_token", Value: anaToken}))
	r := withCookie(t, e.url, "record", &http.Cookie{Name: "toolgen_console_token", Value: anaToken})
	assert.Equal(t, http.StatusSeeOther, r.status, "a page sends to sign in")
}

// TestSessionBoundToItsPrincipal checks that a session resolves to the
// principal it was made for and to no one else, and that a tampered or
// unknown session is refused without its value echoed.
func TestSessionBoundToItsPrincipal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	_, anaCk := signIn(t, e.url, anaToken, nil)
	_, benCk := signIn(t, e.url, benToken, nil)
	assert.Equal(t, "ana", me(t, e.url, anaCk))
	assert.Equal(t, "ben", me(t, e.url, benCk))

	// An Authorization header names its own principal; the cookie does
	// not make ben ana.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, e.url+"api/me", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+benToken)
	req.AddCookie(anaCk)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	assert.Contains(t, readAll(t, resp), `"principal":"ben"`)

	for name, v := range map[string]string{
		"one character changed": flip(benCk.Value),
		"cut":                   benCk.Value[:len(benCk.Value)-2],
		"longer":                benCk.Value + "AA",
		"not base64":            "!!" + benCk.Value[2:],
		"unknown":               strings.Repeat("A", len(benCk.Value)),
		"empty":                 "",
	} {
		assert.Empty(t, me(t, e.url, &http.Cookie{Name: console.SessionCookie, Value: v}), name)
	}
	// The session keeps the principal's permissions: olga's makes her an
	// operator, ana's does not.
	assert.Contains(t, withCookie(t, e.url, "api/me", mustCookie(t, e.url, olgaToken)).body, `"operator":true`)
	assert.Contains(t, withCookie(t, e.url, "api/me", anaCk).body, `"operator":false`)
}

// flip changes the first character of a base64url value to another.
func flip(v string) string {
	c := byte('A')
	if v[0] == 'A' {
		c = 'B'
	}
	return string(c) + v[1:]
}

// TestSessionExpires checks the session's lifetime and idle timeout.
func TestSessionExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *console.Options) { o.SessionTTL, o.SessionIdle = 3*time.Hour, 20*time.Minute })
	_, ck := signIn(t, e.url, anaToken, nil)
	// Used every 15 minutes: alive until its lifetime ends.
	for range 11 {
		e.clock.add(15 * time.Minute)
		require.Equal(t, "ana", me(t, e.url, ck), "at %v", e.clock.now())
	}
	e.clock.add(15 * time.Minute) // 3 h since sign-in
	assert.Empty(t, me(t, e.url, ck), "past its lifetime")
	secret, err := base64.RawURLEncoding.DecodeString(ck.Value)
	require.NoError(t, err)
	hash := sha256.Sum256(secret)
	_, err = e.svc.Store().Session(t.Context(), hash[:])
	assert.ErrorIs(t, err, service.ErrNoSession, "an expired session is deleted when met")

	_, ck = signIn(t, e.url, anaToken, nil)
	e.clock.add(19 * time.Minute)
	require.Equal(t, "ana", me(t, e.url, ck))
	e.clock.add(20 * time.Minute)
	assert.Empty(t, me(t, e.url, ck), "idle for the idle timeout")
	assert.Equal(t, http.StatusSeeOther, withCookie(t, e.url, "record", ck).status, "a page sends to sign in")

	// Defaults: 12 hours, one idle hour.
	d := newEnv(t, nil)
	_, ck = signIn(t, d.url, anaToken, nil)
	d.clock.add(59 * time.Minute)
	require.Equal(t, "ana", me(t, d.url, ck))
	d.clock.add(61 * time.Minute)
	assert.Empty(t, me(t, d.url, ck))
}

// TestSignOutEndsTheSessionEverywhere runs two console instances over
// two services sharing one SQLite database, as behind a load balancer: a
// session made on one is known to the other, and signing out on one
// refuses it on both. CSRF protection still holds for a session.
func TestSignOutEndsTheSessionEverywhere(t *testing.T) {
	t.Parallel()
	dsn := filepath.Join(t.TempDir(), "console.db")
	clk := &clock{t: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}
	f := newFixture(t)
	instance := func() string {
		st, err := sqlitestore.Open(t.Context(), dsn, nil)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		svc, err := service.New(f.reg, &service.Options{Store: st, Now: clk.now})
		require.NoError(t, err)
		c, err := console.New(svc, &console.Options{
			Principal: console.BearerTokens(map[string]tool.Principal{anaToken: ana, benToken: ben}), Key: key, Now: clk.now,
		})
		require.NoError(t, err)
		return mount(t, c)
	}
	a, b := instance(), instance()
	_, ck := signIn(t, a, anaToken, nil)
	_, other := signIn(t, b, anaToken, nil)
	assert.Equal(t, "ana", me(t, a, ck))
	assert.Equal(t, "ana", me(t, b, ck), "the other instance knows the session")

	post := func(u, path string, form url.Values) *http.Response {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, u+path, strings.NewReader(form.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(ck)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	// Without the form's CSRF token, or with another person's, sign-out
	// is refused and the session lives.
	assert.Equal(t, http.StatusForbidden, post(a, "signout", url.Values{}).StatusCode)
	benPage := withCookie(t, a, "", mustCookie(t, a, benToken))
	assert.Equal(t, http.StatusForbidden, post(a, "signout", url.Values{"csrf": {csrf(t, benPage.body)}}).StatusCode)
	assert.Equal(t, "ana", me(t, b, ck))

	page := withCookie(t, b, "", ck)
	require.Equal(t, http.StatusOK, page.status)
	resp := post(a, "signout", url.Values{"csrf": {csrf(t, page.body)}}) // a form of b posted to a
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Set-Cookie"), console.SessionCookie+"=;")
	assert.Empty(t, me(t, a, ck), "refused where it signed out")
	assert.Empty(t, me(t, b, ck), "and on the other instance")
	assert.Equal(t, "ana", me(t, b, other), "ana's other session is another sign-in")
}

// mustCookie signs in at u with token and returns the session cookie.
func mustCookie(t *testing.T, u, token string) *http.Cookie {
	t.Helper()
	_, ck := signIn(t, u, token, nil)
	return ck
}

// TestSecureCookies checks when the session cookie is Secure: always
// with the option; otherwise only when a trusted proxy says the request
// came over HTTPS (the test server's peer is loopback).
func TestSecureCookies(t *testing.T) {
	t.Parallel()
	https := map[string]string{"X-Forwarded-Proto": "https"}
	for _, tt := range []struct {
		name   string
		edit   func(*console.Options)
		header map[string]string
		secure bool
	}{
		{"plain", nil, nil, false},
		{"forwarded by an untrusted peer", nil, https, false},
		{"forwarded by a peer not among the proxies", func(o *console.Options) {
			o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
		}, https, false},
		{"forwarded by a trusted proxy", func(o *console.Options) {
			o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		}, https, true},
		{"an IPv4 proxy written in IPv6", func(o *console.Options) {
			o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("::ffff:127.0.0.1/128")}
		}, https, true},
		{"a trusted proxy says http", func(o *console.Options) {
			o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		}, map[string]string{"X-Forwarded-Proto": "http"}, false},
		{"the nearest proxy's value counts", func(o *console.Options) {
			o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		}, map[string]string{"X-Forwarded-Proto": "https, http"}, false},
		{"the option", func(o *console.Options) { o.SecureCookies = true }, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tt.edit)
			set, _ := signIn(t, e.url, anaToken, tt.header)
			assert.Equal(t, tt.secure, strings.Contains(set, "; Secure"), set)
		})
	}
	svc := newEnv(t, nil).svc
	_, err := console.New(svc, &console.Options{Principal: console.BearerTokens(nil), Key: key, TrustedProxies: []netip.Prefix{{}}})
	assert.ErrorContains(t, err, "TrustedProxies")
	_, err = console.New(svc, &console.Options{Principal: console.BearerTokens(nil), Key: key, SessionIdle: -time.Second})
	assert.ErrorContains(t, err, "SessionIdle")
}

// TestSessionPostsNeedCSRF checks that the CSRF protections hold for a
// browser signed in with a session as they do for a bearer token: a form
// posted without its token, with another person's, or from another site
// changes nothing; the form's own token confirms once.
func TestSessionPostsNeedCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")
	ck := mustCookie(t, e.url, anaToken)
	anaTok := csrf(t, withCookie(t, e.url, "", ck).body)
	benTok := csrf(t, withCookie(t, e.url, "", mustCookie(t, e.url, benToken)).body)
	post := func(path, tok string, header map[string]string) int {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, e.url+path, strings.NewReader(url.Values{"csrf": {tok}}.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", tok)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		req.AddCookie(ck)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tt := range []struct {
		name   string
		tok    string
		header map[string]string
	}{
		{"no token", "", nil},
		{"another person's token", benTok, nil},
		{"a cross-site form", anaTok, map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"another origin", anaTok, map[string]string{"Origin": "https://evil.example"}},
	} {
		for _, path := range []string{"proposals/" + id + "/confirm", "api/proposals/" + id + "/confirm", "signout"} {
			assert.Equal(t, http.StatusForbidden, post(path, tt.tok, tt.header), "%s: %s", tt.name, path)
		}
	}
	assert.Zero(t, e.f.runs[tDelete].Load(), "nothing ran")
	assert.Equal(t, "ana", me(t, e.url, ck), "still signed in")
	assert.Equal(t, http.StatusSeeOther, post("proposals/"+id+"/confirm", anaTok, nil))
	assert.Equal(t, int64(1), e.f.runs[tDelete].Load())
}

// TestSessionChangedInTheStore checks that a session's principal cannot
// be changed in the store, nor a session written there, by someone
// without the console's key: the digest refuses both.
func TestSessionChangedInTheStore(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}
	st, err := sqlitestore.Open(t.Context(), filepath.Join(t.TempDir(), "console.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	svc, err := service.New(newFixture(t).reg, &service.Options{Store: st, Now: clk.now})
	require.NoError(t, err)
	c, err := console.New(svc, &console.Options{
		Principal: console.BearerTokens(map[string]tool.Principal{anaToken: ana, olgaToken: olga}), Key: key, Now: clk.now,
		OperatorPermission: "console.operator",
	})
	require.NoError(t, err)
	u := mount(t, c)

	ck := mustCookie(t, u, anaToken)
	require.Equal(t, "ana", me(t, u, ck))
	_, err = st.DB().ExecContext(t.Context(), `UPDATE toolgen_sessions SET principal = 'olga'`)
	require.NoError(t, err)
	assert.Empty(t, me(t, u, ck), "its principal changed in the store")

	ck = mustCookie(t, u, anaToken)
	_, err = st.DB().ExecContext(t.Context(), `UPDATE toolgen_sessions SET expires_ns = expires_ns + 86400000000000`)
	require.NoError(t, err)
	assert.Empty(t, me(t, u, ck), "its expiry changed in the store")

	// A session written into the store without the key.
	secret := make([]byte, 32)
	hash := sha256.Sum256(secret)
	require.NoError(t, st.StartSession(t.Context(), &service.Session{Hash: hash[:], Principal: olga, Created: clk.now(),
		Expires: clk.now().Add(time.Hour), Seen: clk.now(), Digest: strings.Repeat("0", 64)}))
	assert.Empty(t, me(t, u, &http.Cookie{Name: console.SessionCookie, Value: base64.RawURLEncoding.EncodeToString(secret)}))

	// The same key on another console (another instance) accepts a
	// session; a console of another key does not.
	ck = mustCookie(t, u, olgaToken)
	other, err := console.New(svc, &console.Options{Principal: console.BearerTokens(nil), Key: []byte("another key, 32 bytes or more.............."),
		Now: clk.now})
	require.NoError(t, err)
	same, err := console.New(svc, &console.Options{Principal: console.BearerTokens(nil), Key: key, Now: clk.now})
	require.NoError(t, err)
	assert.Equal(t, "olga", me(t, mount(t, same), ck))
	assert.Empty(t, me(t, mount(t, other), ck))
}
