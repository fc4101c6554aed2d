package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// perPrincipal is a Caller that offers each principal the tools of its
// permissions, as the call service does: a tool whose name is among the
// principal's permissions, and every tool to a request without an
// invocation; it refuses a call of a tool it does not offer as unknown.
// Each Offer returns a new slice, and it records the principal of every
// Offer and Call.
type perPrincipal struct {
	reg tool.Registry

	mu     sync.Mutex
	offers []string // principal IDs Offer saw ("-" for none)
	calls  []string // principal IDs Call saw
}

func principalOf(ctx context.Context) string {
	if p, ok := tool.PrincipalFrom(ctx); ok {
		return p.ID
	}
	return "-"
}

func (c *perPrincipal) Offer(ctx context.Context) []*tool.Spec {
	c.mu.Lock()
	c.offers = append(c.offers, principalOf(ctx))
	c.mu.Unlock()
	p, ok := tool.PrincipalFrom(ctx)
	var out []*tool.Spec
	for _, sp := range c.reg.Tools() {
		if !ok || p.Has(sp.Name) {
			out = append(out, sp)
		}
	}
	return out
}

func (c *perPrincipal) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	c.mu.Lock()
	c.calls = append(c.calls, principalOf(ctx))
	c.mu.Unlock()
	if p, ok := tool.PrincipalFrom(ctx); ok && !p.Has(name) {
		// Not offered: unknown, as the call service answers.
		e := toolerr.UnknownTool(c.Offer(ctx), name)
		return tool.Result{Content: []byte(e.Message), IsError: true}, e
	}
	return c.reg.Call(ctx, name, args)
}

// seen returns what Offer and Call saw.
func (c *perPrincipal) seen() (offers, calls []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.offers), slices.Clone(c.calls)
}

// as returns ctx carrying the principal id holding perms.
func as(ctx context.Context, id string, perms ...string) context.Context {
	return tool.WithInvocation(ctx, &tool.Invocation{Principal: tool.Principal{ID: id, Permissions: perms}})
}

// listed lists the first page for the caller of ctx and returns the tools'
// names, the cacheScope and the result's bytes.
func listed(t *testing.T, ctx context.Context, srv *mcpserver.Server) (names []string, scope string, raw []byte) {
	t.Helper()
	res, err := mcpserver.ListFirstPage(ctx, srv)
	require.NoError(t, err)
	raw, err = json.Marshal(res)
	require.NoError(t, err)
	// The bytes the middleware hands the SDK, shared with the listing.
	direct, err := res.(json.Marshaler).MarshalJSON()
	require.NoError(t, err)
	var got mcp.ListToolsResult
	require.NoError(t, json.Unmarshal(raw, &got))
	for _, tl := range got.Tools {
		names = append(names, tl.Name)
	}
	return names, got.CacheScope, direct
}

func TestListOffersPerCaller(t *testing.T) {
	t.Parallel()
	caller := &perPrincipal{reg: newStatic(t, namedTools("t", 4, 100)...)}
	srv, err := mcpserver.New(caller, nil)
	require.NoError(t, err)
	ctx := t.Context()

	names, scope, _ := listed(t, ctx, srv)
	assert.Equal(t, []string{"t000", "t001", "t002", "t003"}, names)
	assert.Equal(t, "private", scope, "an offer that depends on who asks is no intermediary's to share")

	names, _, _ = listed(t, as(ctx, "ann", "t001", "t003"), srv)
	assert.Equal(t, []string{"t001", "t003"}, names)
	names, _, _ = listed(t, as(ctx, "bob", "t000"), srv)
	assert.Equal(t, []string{"t000"}, names)
	names, _, _ = listed(t, as(ctx, "eve"), srv)
	assert.Empty(t, names)

	offers, _ := caller.seen()
	assert.Equal(t, []string{"-", "ann", "bob", "eve"}, offers, "Offer got each request's context")
}

// TestListKeepsItsBytesForTheSameSpecs checks that a Caller returning a
// new slice of the same specs keeps the listing's bytes, and that another
// offer has them written again.
func TestListKeepsItsBytesForTheSameSpecs(t *testing.T) {
	t.Parallel()
	caller := &perPrincipal{reg: newStatic(t, namedTools("t", 4, 100)...)}
	srv, err := mcpserver.New(caller, nil)
	require.NoError(t, err)
	ann := as(t.Context(), "ann", "t001", "t003")

	_, _, first := listed(t, ann, srv)
	_, _, again := listed(t, ann, srv)
	assert.Same(t, &first[0], &again[0], "the same specs in a new slice: the listing is kept")

	_, _, other := listed(t, as(t.Context(), "ann2", "t001", "t002"), srv)
	assert.NotEqual(t, string(first), string(other))
	_, _, back := listed(t, ann, srv)
	assert.Same(t, &first[0], &back[0], "ann's listing is kept while another offer is served")
}

// TestListPerPrincipalIsByteStable checks that principals whose offers
// differ, served in turn, each get their own listing, the same bytes every
// time; and that past the bound on kept listings, a dropped listing is
// written again with the same bytes.
func TestListPerPrincipalIsByteStable(t *testing.T) {
	t.Parallel()
	caller := &perPrincipal{reg: newStatic(t, namedTools("t", 8, 100)...)}
	srv, err := mcpserver.New(caller, nil)
	require.NoError(t, err)
	ana := as(t.Context(), "ana", "t000", "t001", "t002")
	ben := as(t.Context(), "ben", "t000")
	anaNames, scope, anaFirst := listed(t, ana, srv)
	benNames, _, benFirst := listed(t, ben, srv)
	assert.Equal(t, []string{"t000", "t001", "t002"}, anaNames)
	assert.Equal(t, []string{"t000"}, benNames)
	assert.Equal(t, "private", scope)
	for range 3 {
		_, _, a := listed(t, ana, srv)
		_, _, b := listed(t, ben, srv)
		assert.Same(t, &anaFirst[0], &a[0], "ana's listing is kept")
		assert.Same(t, &benFirst[0], &b[0], "ben's listing is kept")
	}

	// Many more offers than are kept: every listing keeps its bytes.
	perms := []string{"t000", "t001", "t002", "t003", "t004", "t005", "t006", "t007"}
	want := map[int]string{}
	for round := range 2 {
		for mask := 1; mask < 1<<len(perms); mask++ {
			var held []string
			for i, p := range perms {
				if mask&(1<<i) != 0 {
					held = append(held, p)
				}
			}
			_, _, raw := listed(t, as(t.Context(), "p", held...), srv)
			if round == 0 {
				want[mask] = string(raw)
			} else {
				require.Equal(t, want[mask], string(raw), "offer %b", mask)
			}
		}
	}
	_, _, a := listed(t, ana, srv)
	assert.Equal(t, string(anaFirst), string(a))
}

func TestListCacheScope(t *testing.T) {
	t.Parallel()
	plain := newStatic(t, namedTools("t", 3, 100)...)
	decides, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "a", Kind: tool.KindRead},
		{Name: "b", Kind: tool.KindRead, DecidesOffer: true},
	}, nil, func(context.Context, int, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return 0, nil
	}, func(ctx context.Context, _ int) bool {
		_, ok := tool.PrincipalFrom(ctx)
		return ok
	})
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		caller tool.Caller
		scope  string
	}{
		{"static", plain, "public"},
		{"static whose tool decides its offer", decides, "private"},
		{"another caller", &perPrincipal{reg: plain}, "private"},
		{"a caller embedding a static", resultErrors{plain}, "private"},
		{"source", newFakeSource(plain), "private"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, err := mcpserver.New(tc.caller, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = srv.Close() })
			_, scope, _ := listed(t, t.Context(), srv)
			assert.Equal(t, tc.scope, scope)
		})
	}

	// The static whose tool decides: Offered sees the request's context.
	srv, err := mcpserver.New(decides, nil)
	require.NoError(t, err)
	names, _, _ := listed(t, t.Context(), srv)
	assert.Equal(t, []string{"a"}, names)
	names, _, _ = listed(t, as(t.Context(), "ann"), srv)
	assert.Equal(t, []string{"a", "b"}, names)
}

// TestRequestContextReachesTheCaller checks that what the context of a
// request carries reaches Offer and Call: over a session connected with
// that context, and over HTTP from a middleware in front of Handler.
func TestRequestContextReachesTheCaller(t *testing.T) {
	t.Parallel()

	t.Run("session", func(t *testing.T) {
		t.Parallel()
		caller := &perPrincipal{reg: newStatic(t, namedTools("t", 3, 100)...)}
		srv, err := mcpserver.New(caller, nil)
		require.NoError(t, err)
		ctx := as(t.Context(), "ann", "t001", "t002")
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.SDK().Connect(ctx, st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = ss.Close() })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocolLegacy})
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })

		res, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		require.Len(t, res.Tools, 2)
		assert.Equal(t, "t001", res.Tools[0].Name)
		cres, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t002", Arguments: map[string]any{"field_0": "x"}})
		require.NoError(t, err)
		assert.False(t, cres.IsError)
		offers, calls := caller.seen()
		assert.Equal(t, []string{"ann"}, offers)
		assert.Equal(t, []string{"ann"}, calls)
	})

	for _, opts := range []*mcpserver.HTTPOptions{nil, {Stateless: true}, {JSONResponse: true}} {
		name := "http"
		switch {
		case opts == nil:
		case opts.Stateless:
			name += " stateless"
		case opts.JSONResponse:
			name += " json"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			caller := &perPrincipal{reg: newStatic(t, namedTools("t", 3, 100)...)}
			srv, err := mcpserver.New(caller, nil)
			require.NoError(t, err)
			h, err := srv.Handler(opts)
			require.NoError(t, err)
			// A host's middleware: who calls, from the request.
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(w, r.WithContext(as(r.Context(), r.Header.Get("X-User"), "t000", "t002")))
			}))
			t.Cleanup(ts.Close)
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
			cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: withHeader("X-User", "bob")}, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = cs.Close() })

			res, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			var names []string
			for _, tl := range res.Tools {
				names = append(names, tl.Name)
			}
			assert.Equal(t, []string{"t000", "t002"}, names)
			cres, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t000", Arguments: map[string]any{"field_0": "x"}})
			require.NoError(t, err)
			assert.False(t, cres.IsError)
			offers, calls := caller.seen()
			assert.Equal(t, []string{"bob"}, offers)
			assert.Equal(t, []string{"bob"}, calls)
		})
	}
}

// withHeader returns an HTTP client that sets a header on every request.
func withHeader(key, value string) *http.Client {
	return &http.Client{Transport: headerTransport{key: key, value: value}}
}

type headerTransport struct{ key, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}
