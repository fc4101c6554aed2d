package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The tokens of the tests: ana may call t000 to t002 (and mutate), ben
// t000 only.
const (
	anaToken = "ana-token-0123456789abcdef"
	benToken = "ben-token-0123456789abcdef"
)

// testAuth returns the Auth of the tests: static tokens for ana and ben,
// and protected-resource metadata.
func testAuth() *mcpserver.Auth {
	return &mcpserver.Auth{
		Verifier: mcpserver.StaticTokens(map[string]tool.Principal{
			anaToken: {ID: "ana", Permissions: []string{"t000", "t001", "t002", "mutate"}},
			benToken: {ID: "ben", Permissions: []string{"t000"}},
		}),
		Metadata: &oauthex.ProtectedResourceMetadata{
			Resource:             "http://127.0.0.1:8080/mcp",
			AuthorizationServers: []string{"https://auth.example.com"},
			ScopesSupported:      []string{"t000", "t001", "t002"},
		},
	}
}

// bearer returns the Authorization header of token.
func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

// listBody lists the tools.
const listBody = `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`

// TestAuthRefusesWithoutAValidToken checks the refusals of a handler with
// Auth: 401 with the bearer challenge naming the metadata, a fixed body
// that holds nothing of the request (a sentinel in the token, a header and
// the body), nothing listed or run, and the verifier's own error never
// sent.
func TestAuthRefusesWithoutAValidToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		auth   func(*mcpserver.Auth)
		header map[string]string
		status int
		body   string
	}{
		{"no token", nil, nil, http.StatusUnauthorized, "Unauthorized: a valid bearer token is required\n"},
		{"unknown token", nil, bearer(sentinel), http.StatusUnauthorized, "Unauthorized: a valid bearer token is required\n"},
		{"not bearer", nil, map[string]string{"Authorization": "Basic " + sentinel}, http.StatusUnauthorized, "Unauthorized: a valid bearer token is required\n"},
		{"verifier quoting the token", func(a *mcpserver.Auth) {
			a.Verifier = func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
				return nil, fmt.Errorf("%w: %s is not a token", auth.ErrInvalidToken, token)
			}
		}, bearer(sentinel), http.StatusUnauthorized, "Unauthorized: a valid bearer token is required\n"},
		{"verifier failing", func(a *mcpserver.Auth) {
			a.Verifier = func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
				return nil, errors.New("the token store is down while checking " + token)
			}
		}, bearer(sentinel), http.StatusInternalServerError, "Internal Server Error: the token could not be verified\n"},
		{"token naming no user", func(a *mcpserver.Auth) {
			a.Verifier = mcpserver.StaticTokens(map[string]tool.Principal{sentinel: {Permissions: []string{"t000"}}})
		}, bearer(sentinel), http.StatusUnauthorized, "Unauthorized: a valid bearer token is required\n"},
		{"scope missing", func(a *mcpserver.Auth) { a.Scopes = []string{"t001"} }, bearer(benToken), http.StatusForbidden, "Forbidden: the token lacks a scope this server requires\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, runs := mutatingServer(t)
			a := testAuth()
			if tc.auth != nil {
				tc.auth(a)
			}
			for _, stateless := range []bool{false, true} {
				ts := httpServer(t, srv, &mcpserver.HTTPOptions{Auth: a, Stateless: stateless})
				for _, body := range []string{initializeBody, listBody, strings.Replace(callBody, "{}", `{"x":"`+sentinel+`"}`, 1)} {
					header := map[string]string{"X-Echo": sentinel}
					for k, v := range tc.header {
						header[k] = v
					}
					resp := post(t, ts.URL, body, header)
					got, err := io.ReadAll(resp.Body)
					require.NoError(t, err)
					assert.Equal(t, tc.status, resp.StatusCode)
					assert.Equal(t, tc.body, string(got))
					assert.Empty(t, resp.Header.Get("Mcp-Session-Id"), "no session opened")
					for k, vs := range resp.Header {
						for _, v := range vs {
							assert.NotContains(t, v, sentinel, "header %s", k)
						}
					}
					if tc.status == http.StatusUnauthorized || tc.status == http.StatusForbidden {
						challenge := resp.Header.Get("WWW-Authenticate")
						assert.True(t, strings.HasPrefix(challenge, "Bearer "), challenge)
						assert.Contains(t, challenge, `resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"`)
					}
				}
			}
			assert.Zero(t, runs.Load(), "nothing ran")
		})
	}
}

// TestAuthChallengeWithoutMetadata checks that a 401 always carries a
// bearer challenge.
func TestAuthChallengeWithoutMetadata(t *testing.T) {
	t.Parallel()
	srv, _ := mutatingServer(t)
	a := testAuth()
	a.Metadata = nil
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{Auth: a})
	resp := post(t, ts.URL, initializeBody, nil)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, "Bearer", resp.Header.Get("WWW-Authenticate"))

	a.MetadataURL = "https://mcp.example.com/.well-known/oauth-protected-resource"
	ts = httpServer(t, srv, &mcpserver.HTTPOptions{Auth: a})
	resp = post(t, ts.URL, initializeBody, nil)
	assert.Equal(t, `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"`, resp.Header.Get("WWW-Authenticate"))
}

func TestAuthOptionsValidated(t *testing.T) {
	t.Parallel()
	err := (&mcpserver.HTTPOptions{Auth: &mcpserver.Auth{
		Metadata:    &oauthex.ProtectedResourceMetadata{Resource: "/mcp"},
		MetadataURL: "relative",
		ClockSkew:   -1,
	}}).Validate()
	require.Error(t, err)
	for _, want := range []string{"nil Verifier", "negative clock skew", `Metadata.Resource "/mcp"`, `MetadataURL "relative"`} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NoError(t, (&mcpserver.HTTPOptions{Auth: testAuth()}).Validate())
}

// TestWithoutAuthLoopbackOnly checks that a handler without Auth serves
// the requests that reached loopback only.
func TestWithoutAuthLoopbackOnly(t *testing.T) {
	t.Parallel()
	srv, runs := mutatingServer(t)
	h, err := srv.Handler(&mcpserver.HTTPOptions{AllowedHosts: []string{"mcp.example.com"}, Stateless: true})
	require.NoError(t, err)
	lan := &net.TCPAddr{IP: net.ParseIP("192.0.2.10"), Port: 8080}
	resp := serveAt(t, h, lan, http.MethodPost, callBody, map[string]string{"Host": "mcp.example.com"})
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, "Forbidden: without a bearer token, this server serves loopback callers only\n", string(body))
	assert.Zero(t, runs.Load())

	loop := &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}
	resp = serveAt(t, h, loop, http.MethodPost, callBody, map[string]string{"Host": "mcp.example.com"})
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a proxy on this machine")
	assert.Equal(t, int64(1), runs.Load())
}

// TestServeMetadata checks that Serve serves the protected-resource
// metadata at the well-known paths, without a token.
func TestServeMetadata(t *testing.T) {
	t.Parallel()
	srv, _ := mutatingServer(t)
	ln, err := mcpserver.Listen(t.Context(), "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, &mcpserver.HTTPOptions{Auth: testAuth()}) }()
	base := "http://" + ln.Addr().String()
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var meta oauthex.ProtectedResourceMetadata
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&meta))
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Equal(t, "http://127.0.0.1:8080/mcp", meta.Resource)
		assert.Equal(t, []string{"https://auth.example.com"}, meta.AuthorizationServers)
	}
	resp := post(t, base+"/mcp", initializeBody, nil)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	resp = post(t, base+"/.well-known/other", initializeBody, nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	http.DefaultClient.CloseIdleConnections()
	cancel()
	require.NoError(t, <-served)
}

// tokenClient connects an SDK client with token to url.
func tokenClient(t *testing.T, url, token, protocol string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: withHeader("Authorization", "Bearer "+token)},
		&mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// names returns the names of a listing.
func names(res *mcp.ListToolsResult) []string {
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// TestTokensArePrincipals checks that each token's principal is offered
// its own tools and calls them, over stateful and stateless HTTP and both
// protocol families; that a tool not offered is refused as unknown; and
// that a session opened with one token cannot be used with another.
func TestTokensArePrincipals(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		for _, protocol := range protocols {
			if protocol == protocolLatest && !stateless {
				continue // the sessionless protocol needs a stateless server
			}
			t.Run(fmt.Sprintf("stateless=%v/%s", stateless, protocolName(protocol)), func(t *testing.T) {
				t.Parallel()
				caller := &perPrincipal{reg: newStatic(t, namedTools("t", 4, 100)...)}
				srv, err := mcpserver.New(caller, nil)
				require.NoError(t, err)
				ts := httpServer(t, srv, &mcpserver.HTTPOptions{Auth: testAuth(), Stateless: stateless})
				ana := tokenClient(t, ts.URL, anaToken, protocol)
				ben := tokenClient(t, ts.URL, benToken, protocol)

				res, err := ana.ListTools(t.Context(), nil)
				require.NoError(t, err)
				assert.Equal(t, []string{"t000", "t001", "t002"}, names(res))
				assert.Equal(t, "private", res.CacheScope)
				res, err = ben.ListTools(t.Context(), nil)
				require.NoError(t, err)
				assert.Equal(t, []string{"t000"}, names(res))

				cres, err := ana.CallTool(t.Context(), &mcp.CallToolParams{Name: "t001", Arguments: map[string]any{"field_0": "x"}})
				require.NoError(t, err)
				assert.False(t, cres.IsError)
				_, err = ben.CallTool(t.Context(), &mcp.CallToolParams{Name: "t001", Arguments: map[string]any{"field_0": "x"}})
				require.Error(t, err, "a tool ben is not offered is unknown to him")
				assert.Contains(t, err.Error(), "unknown tool")
				offers, calls := caller.seen()
				assert.ElementsMatch(t, []string{"ana", "ben"}, slices.Compact(slices.Sorted(slices.Values(offers))))
				assert.Equal(t, []string{"ana", "ben"}, calls, "each call ran for its token's principal")
			})
		}
	}
}

// TestSessionBoundToItsToken checks that a stateful session opened with
// ana's token answers no request made with ben's.
func TestSessionBoundToItsToken(t *testing.T) {
	t.Parallel()
	caller := &perPrincipal{reg: newStatic(t, namedTools("t", 4, 100)...)}
	srv, err := mcpserver.New(caller, nil)
	require.NoError(t, err)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{Auth: testAuth(), JSONResponse: true})
	resp := post(t, ts.URL, initializeBody, bearer(anaToken))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	header := bearer(benToken)
	header["Mcp-Session-Id"] = id
	header["Mcp-Protocol-Version"] = "2025-06-18"
	resp = post(t, ts.URL, listBody, header)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, "session user mismatch\n", string(body))
	offers, _ := caller.seen()
	assert.Empty(t, offers, "nothing listed")
}

// TestListBytesPerToken checks that the listing of each token's principal
// is the same bytes on every request, and differs between them.
func TestListBytesPerToken(t *testing.T) {
	t.Parallel()
	caller := &perPrincipal{reg: newStatic(t, namedTools("t", 4, 100)...)}
	srv, err := mcpserver.New(caller, nil)
	require.NoError(t, err)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{Auth: testAuth(), Stateless: true, JSONResponse: true})
	list := func(token string) string {
		header := bearer(token)
		header["Mcp-Protocol-Version"] = "2025-06-18"
		resp := post(t, ts.URL, listBody, header)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(b)
	}
	ana, ben := list(anaToken), list(benToken)
	assert.NotEqual(t, ana, ben)
	assert.Contains(t, ana, `"cacheScope":"private"`)
	for range 3 {
		assert.Equal(t, ana, list(anaToken))
		assert.Equal(t, ben, list(benToken))
	}
}
