package want_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/basic"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/basic/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/basic/want/basictools"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// These tests run the golden output of the basic case: toolgen's
// internal/gen tests run them with `go test` on this directory.

func registry(t *testing.T) tool.Registry {
	t.Helper()
	reg, err := want.New([]want.Tools{basictools.Tools{
		BasicDelete: &basic.Delete{},
		BasicRemote: &basic.Remote{Key: "k"},
		BasicSearch: &basic.Search{Prefix: "p:"},
	}})
	require.NoError(t, err)
	return reg
}

func TestDecodesEveryShape(t *testing.T) {
	reg := registry(t)
	args := `{"query":"q","limit":5,"ratio":0.5,"step":10,"sort":"asc","level":2,
		"since":"2025-01-02T03:04:05Z","when":"2025-01-02T03:04:05Z","wait":1000,
		"items":[{"name":"abc","count":3,"tags":["x","y"],"attrs":{"k":"v"}}],
		"pair":[1,2],"tree":{"label":"root","children":[{"label":"leaf"}]},
		"extra":{"any":[1,"x",null]},"raw":[1,2],"code":"AB12","blob":"aGk=",
		"flag":true,"maybe":null,"nested":{"on":true},"note":"embedded"}`
	res, err := reg.Call(context.Background(), "basic_search", []byte(args))
	require.NoError(t, err, res.Text())
	assert.True(t, res.Structured)
	assert.Contains(t, res.Text(), `"items":[{"name":"abc","count":3,"tags":["x","y"],"attrs":{"k":"v"}}]`)
	assert.Contains(t, res.Text(), `"tree":{"label":"p:q"}`)
}

// TestRequiredOutputsPresent: nil slices and maps in required output
// properties are written as [] and {}, never null.
func TestRequiredOutputsPresent(t *testing.T) {
	reg := registry(t)
	res, err := reg.Call(context.Background(), "basic_search", []byte(`{"query":"q","when":"2025-01-02T03:04:05Z","maybe":"m"}`))
	require.NoError(t, err, res.Text())
	assert.Equal(t, `{"items":[],"total":0,"at":"2025-01-02T03:04:05Z","meta":{},"code":"","tree":{"label":"p:q"},"score":0}`, res.Text())
}

// TestLengthsCountCharacters: minLength and maxLength count characters,
// not bytes, also when the byte length alone would decide.
func TestLengthsCountCharacters(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		short, problem string
	}{
		{"ab", ""},
		{"abc", ""},
		{"a", "/short: must be at least 2 characters long"},
		{"abcd", "/short: must be at most 3 characters long"},
		{"é", "/short: must be at least 2 characters long"}, // 2 bytes, 1 character
		{"éé", ""},  // 4 bytes
		{"ééé", ""}, // 6 bytes, 3 characters
		{"éééé", "/short: must be at most 3 characters long"}, // 8 bytes
		{"𝄞", "/short: must be at least 2 characters long"},   // 4 bytes
		{"𝄞𝄞", ""},  // 8 bytes: at least 2 characters
		{"𝄞𝄞𝄞", ""}, // 12 bytes, 3 characters
		{"𝄞𝄞𝄞𝄞", "/short: must be at most 3 characters long"}, // 16 bytes
		{`\u00e9\u00e9`, ""}, // escapes: 2 characters
		{`\u00e9\u00e9\u00e9\u00e9`, "/short: must be at most 3 characters long"},
	} {
		args := `{"query":"q","when":"2025-01-02T03:04:05Z","maybe":null,"short":"` + c.short + `"}`
		res, err := reg.Call(context.Background(), "basic_search", []byte(args))
		if c.problem == "" {
			assert.NoError(t, err, "%s: %s", c.short, res.Text())
			continue
		}
		assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err), c.short)
		assert.Contains(t, res.Text(), c.problem, c.short)
	}
}

func TestEveryProblemAtOnce(t *testing.T) {
	reg := registry(t)
	args := `{"query":"","limit":0,"ratio":1,"step":7,"sort":"up","level":9,"when":"yesterday",
		"items":[{"name":"ABC","count":11,"tags":["a","a"]}],"pair":[1],"code":"x","maybe":1,"bogus":true}`
	res, err := reg.Call(context.Background(), "basic_search", []byte(args))
	require.Error(t, err)
	assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
	for _, want := range []string{
		"/query: must be at least 1 character long",
		"/limit: must be at least 1",
		"/ratio: must be less than 1",
		"/step: must be a multiple of 5",
		`/sort: must be one of "asc", "desc"`,
		"/level: must be one of 1, 2, 3",
		"/when: expected string (format date-time)",
		"/items/0/name: must match the pattern ^[a-z]+$",
		"/items/0/count: must be at most 10",
		"/items/0/tags: items must be unique",
		"/pair: must have at least 2 items",
		"/code: must be a valid basic.Code",
		"/maybe: expected string or null, got number",
		"/bogus: unknown property",
	} {
		assert.Contains(t, res.Text(), want)
	}
	assert.NotContains(t, res.Text(), "yesterday", "values are never echoed")
	assert.False(t, strings.Contains(res.Text(), "ABC"))
}

// TestExactBounds: a number equal to a bound once rounded to a float is
// judged as written, as a JSON Schema validator judges it; integers with a
// fraction or an exponent are still refused.
func TestExactBounds(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		member, value, problem string
	}{
		// ratio: exclusiveMinimum 0, exclusiveMaximum 1 (float64).
		{"ratio", "1e-400", ""}, // reads as 0, but is above 0
		{"ratio", "0.99999999999999999", ""},
		{"ratio", "-1e-400", "/ratio: must be greater than 0"},
		{"ratio", "0e7", "/ratio: must be greater than 0"},
		{"ratio", "-0.0", "/ratio: must be greater than 0"},
		{"ratio", "1.0000000000000001", "/ratio: must be less than 1"},
		{"ratio", "0.1e1", "/ratio: must be less than 1"},
		// weight: minimum 0.1, maximum 2 (float32).
		{"weight", "2", ""},
		{"weight", "2.0e0", ""},
		{"weight", "0.1", ""},
		{"weight", "1e-1", ""},
		{"weight", "0.1000000001", ""},
		{"weight", "2.0000000000000001", "/weight: must be at most 2"},
		{"weight", "2.00000001", "/weight: must be at most 2"}, // 2 as a float32
		{"weight", "0.09999999999", "/weight: must be at least 0.1"},
		{"weight", "-1e-400", "/weight: must be at least 0.1"},
		// limit: minimum 1, maximum 50 (int).
		{"limit", "50", ""},
		{"limit", "50.0", "/limit: expected integer (maximum 50, minimum 1), got a number with a fraction or exponent"},
		{"limit", "5e1", "/limit: expected integer (maximum 50, minimum 1), got a number with a fraction or exponent"},
	} {
		args := `{"query":"q","when":"2025-01-02T03:04:05Z","maybe":null,"` + c.member + `":` + c.value + `}`
		res, err := reg.Call(context.Background(), "basic_search", []byte(args))
		if c.problem == "" {
			assert.NoError(t, err, "%s %s: %s", c.member, c.value, res.Text())
			continue
		}
		assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err), "%s %s", c.member, c.value)
		assert.Contains(t, res.Text(), c.problem, "%s %s", c.member, c.value)
	}
}

func TestNullAndRequired(t *testing.T) {
	reg := registry(t)
	// Null on optional properties means absent; maybe is required but nullable.
	res, err := reg.Call(context.Background(), "basic_search", []byte(`{"query":"q","when":"2025-01-02T03:04:05Z","maybe":null,"limit":null,"items":null,"tree":null}`))
	require.NoError(t, err, res.Text())
	// Null on a required, non-nullable property is refused; missing ones are named.
	res, err = reg.Call(context.Background(), "basic_search", []byte(`{"query":null}`))
	require.Error(t, err)
	assert.Contains(t, res.Text(), "/query: expected string (minLength 1), got null")
	assert.Contains(t, res.Text(), "/when: required property is missing")
	assert.Contains(t, res.Text(), "/maybe: required property is missing")
}

func TestKindsAndAvailability(t *testing.T) {
	reg := registry(t)
	res, err := reg.Call(context.Background(), "basic_ping", nil)
	require.NoError(t, err)
	assert.Equal(t, "pong", res.Text())
	assert.False(t, res.Structured)

	_, err = reg.Call(context.Background(), "basic_delete", []byte(`{"name":"x"}`))
	assert.Equal(t, tool.CodeNeedsConfirmation, tool.CodeOf(err))

	res, err = reg.Call(context.Background(), "basic_remote", []byte(`{"name":"abc"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"name":"abc"}`, res.Text())

	off, err := want.New([]want.Tools{basictools.Tools{BasicDelete: &basic.Delete{}, BasicRemote: &basic.Remote{}, BasicSearch: &basic.Search{}}})
	require.NoError(t, err)
	_, listed := off.Lookup("basic_remote")
	assert.False(t, listed, "a tool whose Available fails is not listed")
}
