package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/codecplan"
)

// TestCodecPackagesRunNothingAtStartUp: a codec package declares data at
// package level, never code the program runs before main (an init
// function, or a variable initialised by a call, such as a compiled
// regexp), so that a program of many tools starts in the time of one that
// links their code and calls none of it. Its one array is the property
// table: before main the runtime builds the collector's mask of every
// package-level variable, at a cost per array (an array a decoder was a
// third of the start-up of 10,000 tools). It reads every codec package in
// the golden cases and the committed generated registries.
func TestCodecPackagesRunNothingAtStartUp(t *testing.T) {
	t.Parallel()
	var files []string
	for _, glob := range []string{
		"testdata/cases/*/want/internal/*codec/*.go",
		"../../../../generated/internal/*codec/*.go",
		"../../../../bench/generated/internal/*codec/*.go",
	} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	patterns, tables := 0, 0
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		arrays := 0
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				assert.False(t, d.Recv == nil && d.Name.Name == "init", "%s: an init function", fset.Position(d.Pos()))
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					s := s.(*ast.ValueSpec)
					for i, v := range s.Values {
						lit, ok := v.(*ast.CompositeLit)
						if !assert.True(t, ok, "%s: a package-level variable initialised by code, not data", fset.Position(v.Pos())) {
							continue
						}
						patterns++
						if _, array := lit.Type.(*ast.ArrayType); array {
							arrays++
							assert.Equal(t, codecplan.PropsTable, s.Names[i].Name, "%s: an array variable other than the property table", fset.Position(v.Pos()))
						}
					}
				}
			}
		}
		assert.LessOrEqual(t, arrays, 1, "%s: more than one array variable", name)
		tables += arrays
	}
	assert.Positive(t, patterns, "no case declares a pattern: the test reads nothing")
	assert.Positive(t, tables, "no case declares a property table: the test reads nothing")
}
