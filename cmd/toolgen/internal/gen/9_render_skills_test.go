package gen

import (
	"bytes"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTextLit: the Go expression textLit writes is the string it was
// given, whatever it holds.
func TestTextLit(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "plain\n", "`", "``` go\ncode\n```\n", "a `b` c", "ends with `",
		"tab\tand\nlines\n", "carriage\rreturn", "bom\ufeffinside", "nul\x00", "é and 日本",
	} {
		f := jen.NewFile("p")
		f.Const().Id("x").Op("=").Add(textLit(s))
		var buf bytes.Buffer
		require.NoError(t, f.Render(&buf), "%q", s)
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "x.go", buf.Bytes(), 0)
		require.NoError(t, err, "%q:\n%s", s, buf.String())
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
		_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info)
		require.NoError(t, err)
		for id, obj := range info.Defs {
			if id.Name == "x" {
				assert.Equal(t, s, constant.StringVal(obj.(*types.Const).Val()), "%q:\n%s", s, buf.String())
			}
		}
	}
}
