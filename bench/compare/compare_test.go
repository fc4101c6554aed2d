package compare

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/bench/easy"
	"github.com/toolgen-go/toolgen/bench/tools"
)

// paths returns every validating path by name, and a cleanup.
func paths(t testing.TB) map[string]Path {
	t.Helper()
	ctx := context.Background()
	tg, err := Toolgen()
	require.NoError(t, err)
	tc, err := ToolgenCall()
	require.NoError(t, err)
	th, err := ToolgenHandle()
	require.NoError(t, err)
	sv, err := Service()
	require.NoError(t, err)
	js, err := JSONSchema()
	require.NoError(t, err)
	m, err := NewMCP(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, m.Close()) })
	return map[string]Path{
		"toolgen":        tg,
		"toolgen_call":   tc,
		"toolgen_handle": th,
		"service":        sv,
		"jsonschema":     js,
		"easyjson":       EasyJSON(),
		"mcp":            m.Path(),
	}
}

// TestPathsAgree checks that every path computes the same output from the
// benchmark inputs, so that the benchmarks compare equal work.
func TestPathsAgree(t *testing.T) {
	t.Parallel()
	ps := paths(t)
	ps["encoding_json"] = EncodingJSON()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		args []byte
		want any
	}{
		{"small", tools.SmallArgs, tools.SmallOutput{Query: "paper clips", Limit: 5}},
		{"medium", tools.MediumArgs, mediumWant(t)},
	} {
		want, err := json.Marshal(tc.want)
		require.NoError(t, err)
		for name, p := range ps {
			got, err := p(ctx, tc.name, tc.args)
			require.NoError(t, err, "%s/%s", tc.name, name)
			assert.JSONEq(t, string(want), string(got), "%s/%s", tc.name, name)
		}
	}
}

// TestPathsRefuse checks that every validating path refuses arguments that
// break one schema keyword each, so that none of them skips a check the
// others pay for.
func TestPathsRefuse(t *testing.T) {
	t.Parallel()
	ps := paths(t)
	ctx := context.Background()
	var base map[string]any
	require.NoError(t, json.Unmarshal(tools.MediumArgs, &base))
	for _, tc := range []struct {
		name  string
		edit  func(m map[string]any)
		small string // for the small tool, instead of edit
	}{
		{name: "missing required", edit: func(m map[string]any) { delete(m, "title") }},
		{name: "unknown property", edit: func(m map[string]any) { m["colour"] = "red" }},
		{name: "wrong type", edit: func(m map[string]any) { m["priority"] = "high" }},
		{name: "minimum", edit: func(m map[string]any) { m["priority"] = 0 }},
		{name: "maximum", edit: func(m map[string]any) { m["discount"] = 1.5 }},
		{name: "enum", edit: func(m map[string]any) { m["status"] = "lost" }},
		{name: "minLength", edit: func(m map[string]any) { m["title"] = "" }},
		{name: "nested maxLength", edit: func(m map[string]any) { m["owner"].(map[string]any)["name"] = string(make([]byte, 101)) }},
		{name: "minItems", edit: func(m map[string]any) { m["items"] = []any{} }},
		{name: "item minimum", edit: func(m map[string]any) { m["items"].([]any)[1].(map[string]any)["qty"] = 0 }},
		{name: "uniqueItems", edit: func(m map[string]any) { m["tags"] = []any{"a", "a"} }},
		{name: "date-time", edit: func(m map[string]any) { m["created"] = "yesterday" }},
		{name: "optional maximum", edit: func(m map[string]any) { m["budget"] = 2e6 }},
		{name: "small maxLength", small: `{"query":"` + string(make([]byte, 201)) + `"}`},
		{name: "small maximum", small: `{"query":"q","limit":51}`},
	} {
		tool, args := "small", []byte(tc.small)
		if tc.edit != nil {
			m := map[string]any{}
			require.NoError(t, json.Unmarshal(tools.MediumArgs, &m))
			tc.edit(m)
			var err error
			args, err = json.Marshal(m)
			require.NoError(t, err)
			tool = "medium"
		}
		for name, p := range ps {
			_, err := p(ctx, tool, args)
			assert.Error(t, err, "%s: %s", tc.name, name)
		}
	}
}

// TestEasyMirrorsTools checks that package easy's types decode the
// benchmark inputs to the same values as package tools' types.
func TestEasyMirrorsTools(t *testing.T) {
	t.Parallel()
	var a easy.MediumInput
	require.NoError(t, a.UnmarshalJSON(tools.MediumArgs))
	var b tools.MediumInput
	require.NoError(t, json.Unmarshal(tools.MediumArgs, &b))
	ja, err := json.Marshal(a)
	require.NoError(t, err)
	jb, err := json.Marshal(b)
	require.NoError(t, err)
	assert.JSONEq(t, string(jb), string(ja))
}

// mediumWant is the output of the medium tool on tools.MediumArgs, computed from
// the Go value it stands for.
func mediumWant(t *testing.T) tools.MediumOutput {
	t.Helper()
	budget, notify := 250.0, true
	in := tools.MediumInput{
		Items:    []tools.Item{{SKU: "PEN-01", Qty: 12, Price: 1.5}, {SKU: "PAD-A4", Qty: 5, Price: 3.25}, {SKU: "INK-BK", Qty: 2, Price: 19.99}},
		Budget:   &budget,
		Notify:   &notify,
		Discount: 0.1,
	}
	out := tools.Medium(&in)
	require.Equal(t, 3, out.Lines)
	require.True(t, out.WithinBudget)
	return out
}
