package want_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/hooks"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/hooks/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/hooks/want/hookstools"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// These tests run the golden output of the hooks case: toolgen's
// internal/gen tests run them with `go test` on this directory.

func registry(t *testing.T) tool.Registry {
	t.Helper()
	reg, err := want.New([]want.Tools{hookstools.Tools{
		HooksLogin:  hooks.Login{Realm: "r"},
		HooksStore:  hooks.Store{},
		HooksWhoami: &hooks.WhoAmI{Admins: []string{"root"}},
	}})
	require.NoError(t, err)
	return reg
}

// TestSpecs: the secrets, Offered and LogArgs reach the specs.
func TestSpecs(t *testing.T) {
	reg := registry(t)
	login, ok := reg.Lookup("hooks_login")
	require.True(t, ok)
	assert.Equal(t, []string{
		"/Pin", "/accounts/*/token", "/backup/*/token", "/deep/inner/code", "/key/secret",
		"/otp", "/password", "/pass~1phrase~01", "/recovery", "/vault/*/token", "/whole",
	}, login.Secrets)
	assert.True(t, login.DecidesOffer)
	assert.True(t, login.LogsArgs)
	store, _ := reg.Lookup("hooks_store")
	assert.Equal(t, []string{"/value"}, store.Secrets)
	assert.False(t, store.DecidesOffer)
	assert.False(t, store.LogsArgs)
	who, _ := reg.Lookup("hooks_whoami")
	assert.Empty(t, who.Secrets)
	assert.True(t, who.DecidesOffer)
}

// TestOffer: each tool's Offered method decides, per caller; a tool
// without one is always offered. Tools lists every tool.
func TestOffer(t *testing.T) {
	reg := registry(t)
	names := func(specs []*tool.Spec) []string {
		var out []string
		for _, s := range specs {
			out = append(out, s.Name)
		}
		return out
	}
	ctx := context.Background()
	assert.Equal(t, []string{"hooks_store"}, names(reg.Offer(ctx)))
	assert.Equal(t, []string{"hooks_login", "hooks_store"}, names(reg.Offer(hooks.WithUser(ctx, "ann"))))
	assert.Equal(t, []string{"hooks_login", "hooks_store", "hooks_whoami"}, names(reg.Offer(hooks.WithUser(ctx, "root"))))
	assert.Len(t, reg.Tools(), 3)
}

const loginArgs = `{"user":"ann","password":"hunter22","pass/phrase~1":"p","Pin":"1234",
	"key":{"id":"k","secret":"s"},"accounts":[{"name":"a","token":"t1"},{"name":"b","token":"t2"}],
	"backup":[{"name":"c","token":"t3"},{"name":"d","token":"t4"}],
	"vault":{"x":{"name":"e","token":"t5"}},
	"deep":{"inner":{"code":"c0"}},"whole":{"name":"w","token":"t6"},"otp":"000000","recovery":"r"}`

// TestLogArgs: what the call service records of a call is what LogArgs
// gives, as a JSON string (ModeLog decodes the arguments and runs nothing
// else), and for a tool without LogArgs the arguments, its secrets
// replaced.
func TestLogArgs(t *testing.T) {
	svc, err := service.New(registry(t), nil)
	require.NoError(t, err)
	ctx := tool.WithInvocation(hooks.WithUser(context.Background(), "root"), &tool.Invocation{Principal: tool.Principal{ID: "root"}})
	logged := func(name, args string) string {
		t.Helper()
		_, err := svc.Call(ctx, name, []byte(args))
		require.NoError(t, err)
		recs, err := svc.Store().Records(context.Background(), service.Query{Tool: name})
		require.NoError(t, err)
		require.NotEmpty(t, recs)
		return string(recs[len(recs)-1].Args)
	}
	assert.Equal(t, `"login ann with **"`, logged("hooks_login", loginArgs))
	assert.JSONEq(t, `{"key":"k","value":"[secret]"}`, logged("hooks_store", `{"key":"k","value":"v"}`), "its arguments, the secret replaced")
}

// TestCall: the tools still run, and every secret member decodes (a map
// of pointers to structs included).
func TestCall(t *testing.T) {
	reg := registry(t)
	ctx := hooks.WithUser(context.Background(), "root")
	res, err := reg.Call(ctx, "hooks_login", []byte(loginArgs))
	require.NoError(t, err, res.Text())
	assert.Equal(t, "welcome ann to r", res.Text())
	res, err = reg.Call(ctx, "hooks_whoami", nil)
	require.NoError(t, err, res.Text())
	assert.Equal(t, "root", res.Text())
	require.NoError(t, reg.Check(ctx, "hooks_store", []byte(`{"key":"k","value":"v"}`)))

	// Key's property "say \"hi\"" is written with escapes: its object is
	// read with Key, however the name is escaped.
	login := func(key string) error {
		return reg.Check(ctx, "hooks_login", []byte(`{"user":"ann","password":"p","Pin":"1","backup":[{"name":"c","token":"t"},{"name":"d","token":"t"}],"deep":{"inner":{"code":"c"}},"key":`+key+`}`))
	}
	require.NoError(t, login(`{"id":"k","say \"hi\"":"x"}`))
	require.NoError(t, login(`{"say \u0022hi\u0022":"x","id":"k"}`))
	require.ErrorContains(t, login(`{"id":"k","say \"hi\"":"x","say \"\u0068i\"":"y"}`), "/key/<key>: duplicate property")
	require.ErrorContains(t, login(`{"id":"k","say hi":"x"}`), "/key/<key>: unknown property")
	// Its bytes unescaped are no name: malformed JSON, never the property.
	require.ErrorContains(t, login(`{"id":"k","secret":"s","say "hi"":"x"}`), "malformed JSON")
}
