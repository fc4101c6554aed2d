package gen

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"golang.org/x/tools/go/packages"
)

// This file is the door the go vet analyzer (cmd/toolgen/analyzer) comes
// in by. It runs the same directive, model and shape phases as Generate,
// on one package that a driver other than go/packages has type-checked,
// so the analyzer and toolgen report the same problems, at the same
// positions, in the same words: there is one implementation.
//
// What needs the user's code to run (the bootstrap program: schema hooks,
// keywords a hook sets, a hook that panics) and what needs the output
// directory (a tools package importing the generated package) is not
// checked here.

// Checked is what Check found in one package.
type Checked struct {
	// Problems are sorted as Generate sorts them.
	Problems []*problem.Error
	// Tools are the tool names the package declares, in source order:
	// what a package importing it must not declare again.
	Tools []DeclaredTool
}

// DeclaredTool is one tool name and the position of its //tool:name line.
type DeclaredTool struct {
	Name string
	Pos  token.Position
}

// Check runs the directive, model and shape phases on one type-checked
// package. files are the package's syntax with comments; those ending in
// _test.go are left out, as toolgen, which loads no tests, never sees them.
// Check reports the duplicate names within the package; DuplicateNames
// compares them with another package's.
func Check(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) Checked {
	var syntax []*ast.File
	for _, f := range files {
		if !strings.HasSuffix(fset.Position(f.Package).Filename, "_test.go") {
			syntax = append(syntax, f)
		}
	}
	if len(syntax) == 0 {
		return Checked{}
	}
	// The model phase reads these fields of a loaded package, which every
	// analysis driver also has; the rest (files, module, imports) matter
	// only to the later phases, which need the go command.
	p := &packages.Package{
		Name:      pkg.Name(),
		PkgPath:   pkg.Path(),
		Fset:      fset,
		Types:     pkg,
		TypesInfo: info,
		Syntax:    syntax,
	}
	m, errs := buildModel(&loaded{fset: fset, pkgs: []*packages.Package{p}})
	var c Checked
	c.Problems = problem.Sort(errs)
	for _, t := range m.tools {
		if t.name != "" {
			c.Tools = append(c.Tools, DeclaredTool{Name: t.name, Pos: t.namePos})
		}
	}
	// m.tools is sorted by name; source order reads better in a fact.
	sortDeclared(c.Tools)
	return c
}

// DuplicateNames reports each tool of local whose name other already
// declares, at the local declaration and with the words toolgen uses when
// it loads both packages at once. It reports nothing at other's positions:
// the package declaring them is checked on its own.
func DuplicateNames(local, other []DeclaredTool) []*problem.Error {
	tools := make([]*toolModel, 0, len(other)+len(local))
	for _, list := range [][]DeclaredTool{other, local} {
		for _, d := range list {
			tools = append(tools, &toolModel{directives: directives{name: d.Name, namePos: d.Pos}})
		}
	}
	isLocal := map[token.Position]bool{}
	for _, d := range local {
		isLocal[d.Pos] = true
	}
	var out []*problem.Error
	for _, e := range checkNames(tools) {
		if isLocal[e.Pos] && !isLocal[e.Other] {
			out = append(out, e)
		}
	}
	return problem.Sort(out)
}

func sortDeclared(ds []DeclaredTool) {
	slices.SortFunc(ds, func(a, b DeclaredTool) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
		)
	})
}
