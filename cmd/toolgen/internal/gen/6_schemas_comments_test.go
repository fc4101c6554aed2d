package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// The comment set gives the entries schemaComments gives whatever order
// its packages are read in, also when two packages have an entry under
// one key (ex/a's field b.T and ex/a.b's type T are both "ex/a.b.T"):
// the later package's, in the load's order, wins.
func TestCommentSetOrder(t *testing.T) {
	fset := token.NewFileSet()
	pkg := func(path, src string) *packages.Package {
		f, err := parser.ParseFile(fset, path+".go", src, parser.ParseComments)
		require.NoError(t, err)
		return &packages.Package{PkgPath: path, Syntax: []*ast.File{f}}
	}
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		l := &loaded{fset: fset, pkgs: []*packages.Package{
			pkg("ex/a", "package a\n\n// b is a type.\ntype b struct {\n\t// T is from a.\n\tT int\n}\n"),
			pkg("ex/a.b", "package b\n\n// T is from a.b.\ntype T int\n"),
		}}
		want, errs := schemaComments(l)
		require.Empty(t, errs)
		require.Equal(t, "From a.b.", want["ex/a.b.T"])
		cs := newCommentSet(l)
		assert.True(t, cs.overlap)
		cs.ensure(cs.order[order[0]])
		cs.ensure(cs.order[order[1]])
		assert.Equal(t, want, cs.m, "read in the order %v", order)
	}
	l := &loaded{fset: fset, pkgs: []*packages.Package{pkg("ex/c", "package c\n\n// C is c.\ntype C int\n")}}
	assert.False(t, newCommentSet(l).overlap)
}
