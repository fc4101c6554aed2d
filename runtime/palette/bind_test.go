package palette_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// bound returns a palette over reg, through a fake caller, with search's
// notebook bound to "work".
func bound(t *testing.T) (*palette.Palette, *fakeDC, tool.Registry) {
	t.Helper()
	reg := bindRegistry(t)
	f := &fakeDC{reg: reg}
	p, err := palette.New(f, reg.Tools(), palette.All(), &palette.Options{
		Bind: map[string]json.RawMessage{"search": json.RawMessage(`{"notebook":"work"}`)},
	})
	require.NoError(t, err)
	return p, f, reg
}

func TestBoundArgumentsAreHiddenFromTheSchema(t *testing.T) {
	p, _, reg := bound(t)
	offer := p.Offer(asAna())
	require.Equal(t, []string{"clock", "search"}, names(offer))
	clock, _ := reg.Lookup("clock")
	assert.Same(t, clock, offer[0], "an unbound tool keeps the registry's spec")

	own, _ := reg.Lookup("search")
	derived := offer[1]
	assert.NotSame(t, own, derived)
	assert.Equal(t, `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"],"additionalProperties":false}`,
		string(derived.InputSchema), "the bound property and its required entry are gone")
	assert.Equal(t, searchSchema, string(own.InputSchema), "the registry's spec is untouched")
	want := *own
	want.InputSchema = derived.InputSchema
	assert.Equal(t, want, *derived, "every other field is the tool's")

	again := p.Offer(asAna())
	assert.Same(t, derived, again[1], "derived once: the same spec, and bytes, every turn")
}

func TestBoundArgumentsAreFilledBeforeValidation(t *testing.T) {
	p, f, _ := bound(t)
	res, err := p.Call(asAna(), "search", []byte(`{"query":"plans"}`))
	require.NoError(t, err)
	assert.Equal(t, "work:plans", res.Text())
	assert.Equal(t, []string{`search {"query":"plans","notebook":"work"}`}, f.calls, "the caller gets the merged arguments")

	// The caller validates the whole: the bound member is there, the
	// model's missing one is reported, and nothing else.
	for _, args := range []string{``, `{}`, ` {} `} {
		_, err = p.Call(asAna(), "search", []byte(args))
		var te *tool.Error
		require.ErrorAs(t, err, &te, "args %q", args)
		assert.Equal(t, tool.CodeInvalidArguments, te.Code)
		assert.Equal(t, "invalid arguments: /query: required property is missing", te.Message, "args %q", args)
	}
}

func TestBoundArgumentsSentAreRefused(t *testing.T) {
	p, f, reg := bound(t)
	// What the generated decoder says of a property the schema lacks.
	_, err := reg.Call(asAna(), "search", []byte(`{"notebook":"a","query":"b","extra":1}`))
	require.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
	require.Contains(t, err.Error(), "/extra: unknown property (additional properties are not allowed)")

	cases := []struct{ name, args, want string }{
		{"bound member", `{"query":"x","notebook":"home"}`, "invalid arguments: /notebook: unknown property (additional properties are not allowed)"},
		{"bound member only", `{"notebook":"home"}`, "invalid arguments: /notebook: unknown property (additional properties are not allowed)"},
		{"not an object", `["notebook"]`, "invalid arguments: (root): expected object, got array"},
		{"malformed", `{"query":`, "invalid arguments: (root): expected a JSON object (the arguments are malformed or name a member twice)"},
		{"a member twice", `{"query":"x","query":"y"}`, "invalid arguments: (root): expected a JSON object (the arguments are malformed or name a member twice)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := p.Call(asAna(), "search", []byte(c.args))
			var te *tool.Error
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tool.CodeInvalidArguments, te.Code)
			assert.Equal(t, "search", te.Tool)
			assert.Equal(t, c.want, te.Message)
			assert.True(t, res.IsError)
			assert.Equal(t, c.want, res.Text())
			assert.NotContains(t, res.Text(), "home", "values never come back")
		})
	}
	assert.Empty(t, f.calls, "nothing reached the caller")
}

func TestBindRefusesBadBindings(t *testing.T) {
	reg := bindRegistry(t)
	cases := []struct{ name, tool, value, want string }{
		{"unknown tool", "nope", `{"a":1}`, `bind "nope": no such tool in the registry`},
		{"not an object", "search", `"work"`, `bind "search": the bound arguments are a JSON string, not an object`},
		{"invalid JSON", "search", `{"notebook":`, `bind "search": the bound arguments are not valid JSON`},
		{"empty", "search", `{}`, `bind "search": the bound arguments bind no member`},
		{"not a property", "search", `{"notebook":"w","folder":"x","tag":"y"}`, `bind "search": not a property of the tool's input schema: "folder", "tag"`},
		{"no properties at all", "clock", `{"tz":"UTC"}`, `bind "clock": not a property of the tool's input schema: "tz"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := palette.New(reg, reg.Tools(), palette.All(), &palette.Options{Bind: map[string]json.RawMessage{c.tool: json.RawMessage(c.value)}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestBindWithABareRegistry(t *testing.T) {
	// No service: the bare registry validates the merged arguments.
	reg := bindRegistry(t)
	p, err := palette.New(reg, reg.Tools(), palette.Names("search"), &palette.Options{
		Bind: map[string]json.RawMessage{"search": json.RawMessage(`{"notebook":"work","limit":5}`)},
	})
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"],"additionalProperties":false}`, string(p.Offer(asAna())[0].InputSchema))
	res, err := p.Call(asAna(), "search", []byte(`{"query":"q"}`))
	require.NoError(t, err)
	assert.Equal(t, "work:q", res.Text())
	_, err = p.Call(asAna(), "search", []byte(`{"query":"q","limit":9}`))
	assert.ErrorContains(t, err, "/limit: unknown property")
}
