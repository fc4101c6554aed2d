package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The limits TestSizes keeps: a reader finds a concern by its file and
// reads a function on one screen.
const (
	maxFileLines = 600
	maxFuncLines = 80
)

// TestSizes fails when a hand-written file of this package is longer than
// maxFileLines, or one of its functions (literals included in their
// enclosing function) is longer than maxFuncLines. Split by concern when it
// fails; do not raise the limits.
func TestSizes(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		lines := fset.File(f.Pos()).LineCount()
		assert.LessOrEqual(t, lines, maxFileLines, "%s has %d lines: split it by concern", name, lines)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			assert.LessOrEqual(t, n, maxFuncLines, "%s: %s has %d lines: split it", name, fd.Name.Name, n)
		}
	}
}
