package gen

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
)

// TestRawStringBOM checks that a byte order mark, which go/scanner refuses
// anywhere but at the start of a file, leaves gocode.RawString as a concatenation
// that formats and holds the same bytes.
func TestRawStringBOM(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"\ufeff", "a\ufeffb", "\ufeff\ufeffx\ufeff", "`\ufeff", "plain"} {
		f := jen.NewFile("p")
		f.Const().Id("S").Op("=").Add(gocode.RawString([]byte(s)))
		src, err := formatFile("p.go", f, nil)
		require.Nil(t, err, "%q", s)
		assert.NotContains(t, string(src), "\ufeff", "%q: the source holds a raw byte order mark", s)
		_, expr, _ := strings.Cut(string(src), "const S = ")
		tv, eerr := types.Eval(token.NewFileSet(), nil, token.NoPos, strings.TrimSpace(expr))
		require.NoError(t, eerr, "%s", src)
		assert.Equal(t, s, constant.StringVal(tv.Value))
	}
}

// TestFormatFailure simulates a rendering bug: source that does not parse.
// The problem names the generated file's line and column, an excerpt, and
// the tool whose code it is, without the whole source.
func TestFormatFailure(t *testing.T) {
	t.Parallel()
	tool := &toolModel{pos: token.Position{Filename: "/src/echo.go", Line: 7, Column: 6}}
	tool.name = "echo"
	marks := toolMarks([]*toolModel{tool}, map[*toolModel]string{tool: "Echo"})

	f := jen.NewFile("p")
	for i := range 50 {
		f.Comment(strings.Repeat("filler ", i))
	}
	// A raw literal holding a byte order mark: what gocode.RawString wrote before
	// it split them out.
	f.Const().Id(schemaConst("Echo", "Input")).Op("=").Op("`{\"description\":\"\ufeffhi\"}`")
	_, err := formatFile("codec_gen.go", f, marks)
	require.NotNil(t, err)
	msg := err.Error()
	assert.Regexp(t, `^/src/echo.go:7:6: formatting codec_gen.go: codec_gen.go:\d+:\d+ \(unformatted source\): illegal byte order mark`, msg)
	assert.Contains(t, msg, `near "`)
	assert.Contains(t, msg, "in the code of tool echo")
	assert.Contains(t, msg, "(a toolgen bug: please report it)")
	assert.NotContains(t, msg, "filler", "the message holds the whole source")
	assert.Less(t, len(msg), 400)

	// A syntax error in code no tool owns: no tool, no position.
	g := jen.NewFile("p")
	g.Func().Id("f").Params().Block(jen.Op("}"))
	_, err = formatFile("codec_gen.go", g, marks)
	require.NotNil(t, err)
	assert.Regexp(t, `^formatting codec_gen.go: codec_gen.go:\d+:\d+ \(unformatted source\): `, err.Error())
	assert.NotContains(t, err.Error(), "tool echo")
}
