package want

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/embedded"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/embedded/want/embeddedtools"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/embedded/want/internal/embeddedcodec"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// These tests run the golden output of the embedded case: toolgen's
// internal/gen tests run them with `go test` on this directory. They are
// in the package, to call the generated decoder itself.

func registry(t *testing.T) tool.Registry {
	t.Helper()
	reg, err := New([]Tools{embeddedtools.Tools{EmbeddedEcho: embedded.Echo{}}})
	require.NoError(t, err)
	return reg
}

// call runs the tool, which echoes what it decoded.
func call(t *testing.T, args string) (string, error) {
	t.Helper()
	res, err := registry(t).Call(context.Background(), "embedded_echo", []byte(args))
	return res.Text(), err
}

// TestDecode: an embedded pointer is allocated on the first promoted
// field present, and only then.
func TestDecode(t *testing.T) {
	for _, c := range []struct {
		name, args, out string
	}{
		{"no promoted field: nil pointers", `{"query":"q","signer":"s"}`, `{"query":"q","signer":"s"}`},
		{"one promoted field allocates", `{"query":"q","signer":"s","reason":"r"}`, `{"query":"q","reason":"r","signer":"s"}`},
		{"nested embedded pointers", `{"query":"q","signer":"s","host":"h"}`, `{"query":"q","host":"h","signer":"s"}`},
		{"shadowing field decoded, shadowed left nil", `{"query":"q","signer":"s","label":"l"}`, `{"query":"q","signer":"s","label":"l"}`},
		{"shadowed struct still promotes the rest", `{"query":"q","signer":"s","label":"l","color":"c"}`, `{"query":"q","signer":"s","color":"c","label":"l"}`},
		{"a named embedded pointer is a property", `{"query":"q","signer":"s","origin":{"host":"o"}}`, `{"query":"q","signer":"s"}`},
	} {
		out, err := call(t, c.args)
		require.NoError(t, err, "%s: %s", c.name, out)
		assert.Equal(t, c.out, out, c.name)
	}
}

// TestDecodeAllocation checks the Go values the decoder writes.
func TestDecodeAllocation(t *testing.T) {
	decode := func(args string) (embedded.Input, error) {
		var in embedded.Input
		d := codec.NewDecoder()
		d.Reset([]byte(args), codec.Limits{})
		embeddedcodec.DecodeInput(d, &in)
		d.End()
		return in, d.Err()
	}
	in, err := decode(`{"query":"q","signer":"s"}`)
	require.NoError(t, err)
	assert.Nil(t, in.Audit, "no promoted field present: no allocation")
	assert.Nil(t, in.Labels)
	assert.NotNil(t, in.Signed)

	in, err = decode(`{"query":"q","signer":"s","host":"h","label":"l","origin":{"host":"o"}}`)
	require.NoError(t, err)
	require.NotNil(t, in.Audit)
	require.NotNil(t, in.Audit.Origin)
	assert.Equal(t, "h", in.Audit.Host)
	assert.Nil(t, in.Labels, "label is Input.Label: Labels.Label is shadowed")
	assert.Equal(t, "l", in.Label)
	require.NotNil(t, in.Origin)
	assert.Equal(t, "o", in.Origin.Host)

	in, err = decode(`{"query":"q","signer":"s","by":null}`)
	require.NoError(t, err)
	assert.NotNil(t, in.Audit, "a promoted field present, even null, allocates as encoding/json does")
}

// TestMatchesEncodingJSON: the generated decoder fills the same Go value
// as encoding/json, and the encoder writes the same bytes.
func TestMatchesEncodingJSON(t *testing.T) {
	for _, args := range []string{
		`{"query":"q","signer":"s"}`,
		`{"query":"q","signer":"s","reason":"r"}`,
		`{"query":"q","signer":"s","host":"h"}`,
		`{"query":"q","signer":"s","by":null}`,
		`{"query":"q","signer":"s","label":"l","color":"c"}`,
		`{"query":"q","signer":"s","by":"b","reason":"r","host":"h","label":"l","color":"c","origin":{"host":"o"}}`,
	} {
		var in embedded.Input
		d := codec.NewDecoder()
		d.Reset([]byte(args), codec.Limits{})
		embeddedcodec.DecodeInput(d, &in)
		require.NoError(t, d.Err(), args)
		var std embedded.Input
		require.NoError(t, json.Unmarshal([]byte(args), &std))
		assert.Equal(t, std, in, args)

		out, err := embedded.Echo{}.Call(context.Background(), in)
		require.NoError(t, err)
		stdOut, err := json.Marshal(out)
		require.NoError(t, err)
		got, err := call(t, args)
		require.NoError(t, err, got)
		assert.Equal(t, string(stdOut), got, args)
	}
}

// TestDecodeProblems: required promoted fields and unknown members are
// reported at their JSON pointers.
func TestDecodeProblems(t *testing.T) {
	out, err := call(t, `{"query":"q","by":"b","bogus":1}`)
	require.Error(t, err)
	assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
	assert.Contains(t, out, "/signer: required property is missing")
	assert.Contains(t, out, "/bogus: unknown property")

	out, err = call(t, `{"query":"q","signer":"s","by":"b","by":"c"}`)
	require.Error(t, err)
	assert.Contains(t, out, "/by: duplicate property")
}

// TestEncode: a nil embedded pointer leaves its optional fields out, and
// fails an output schema that requires one of them.
func TestEncode(t *testing.T) {
	out, err := call(t, `{"query":"q","signer":"s","by":"b","color":"c"}`)
	require.NoError(t, err, out)
	assert.Equal(t, `{"query":"q","by":"b","signer":"s","color":"c"}`, out)

	out, err = call(t, `{"query":"q","signer":"s","unsigned":true}`)
	require.Error(t, err)
	var te *tool.Error
	require.True(t, errors.As(err, &te))
	assert.Equal(t, tool.CodeFailed, te.Code)
	assert.Equal(t, "the tool failed", out)
	assert.ErrorContains(t, te.Cause, `Output.Signed is nil, but the output schema requires its promoted property "signer"`)
}

// TestSchemaParity: the published schemas are what invopop reflects from
// the same types, under toolgen's settings and its documented steps
// (doc comments reflowed and without the names they start with; no root
// description on an input).
func TestSchemaParity(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../embedded.go", nil, parser.ParseComments)
	require.NoError(t, err)
	docs := map[string]string{}
	require.NoError(t, schema.AddComments(docs, fset, "github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/embedded", []*ast.File{f}))
	schema.ReflowComments(docs)
	schema.DropNames(docs)
	spec, ok := registry(t).Lookup("embedded_echo")
	require.True(t, ok)
	in, err := schema.ReflectInput(reflect.TypeFor[embedded.Input](), docs)
	require.NoError(t, err)
	assert.Equal(t, string(in), string(spec.InputSchema))
	out, err := schema.Reflect(reflect.TypeFor[embedded.Output](), docs)
	require.NoError(t, err)
	assert.Equal(t, string(out), string(spec.OutputSchema))
}
