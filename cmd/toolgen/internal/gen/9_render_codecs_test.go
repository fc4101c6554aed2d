package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodecPackagesRunNothingAtStartUp: a codec package declares data at
// package level, never code the program runs before main (an init
// function, or a variable initialised by a call, such as a compiled
// regexp), so that a program of many tools starts in the time of one that
// links their code and calls none of it. It reads every codec package in
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
	patterns := 0
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				assert.False(t, d.Recv == nil && d.Name.Name == "init", "%s: an init function", fset.Position(d.Pos()))
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						_, ok := v.(*ast.CompositeLit)
						assert.True(t, ok, "%s: a package-level variable initialised by code, not data", fset.Position(v.Pos()))
						patterns++
					}
				}
			}
		}
	}
	assert.Positive(t, patterns, "no case declares a pattern: the test reads nothing")
}
