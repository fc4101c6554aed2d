// Package analyzer brings toolgen's checks to go vet: an
// [analysis.Analyzer] that reports, without running toolgen, the problems
// toolgen would refuse to generate with.
//
// It reports, at the positions and in the words of toolgen:
//
//   - the //tool: directive grammar: unknown directives (with a suggested
//     fix when one is a likely typo: //tool:readnoly becomes
//     //tool:readonly), missing or malformed arguments, repeated and
//     conflicting directives, directives outside a type's doc comment,
//     directives written with a space after // (with a fix that removes
//     it);
//   - declarations: unexported, generic, alias and interface tool types,
//     tools in package main, a missing description;
//   - the Call, Available, Offered and LogArgs method signatures;
//   - input and output types toolgen cannot encode or decode (channels,
//     funcs, complex numbers, non-string map keys, interfaces with methods,
//     unexported types, json.Number, pointers to pointers, embedded
//     pointers), the json ",string" option and two fields with one JSON name;
//   - the jsonschema struct tags of those types: unknown keys, keywords
//     that do not apply to the field's type, values invopop drops, bounds
//     no argument could satisfy;
//   - their toolgen struct tags: a value other than "secret", a secret
//     field JSON never carries (json:"-", unexported, shadowed, an embedded
//     struct), a secret inside or below a recursive type;
//   - duplicate tool names, and names with one Go field (todo-list and
//     todo_list), within a package, and across packages when one imports
//     the other (directly or not).
//
// The analyzer does not replace toolgen, which remains the complete check:
//
//   - Duplicate names are found through analysis facts, which flow only
//     from a package's dependencies; two packages that both declare a
//     name, neither importing the other, are caught by toolgen alone, as
//     it loads every tools package at once.
//   - What needs the user's code to run is toolgen's: schemas are reflected
//     by a program toolgen builds, so the keywords they publish (from
//     jsonschema tags, and from JSONSchemaExtend and other hooks, which may
//     set any keyword), a keyword toolgen cannot enforce, a pattern that
//     does not compile, and a hook that panics are reported by toolgen only.
//   - So is a tools package that imports the generated package, which needs
//     toolgen's -out directory, and a package that does not compile (the
//     compiler reports it, and go vet does not run analyzers on it).
//
// The checks are toolgen's own code (the directive, model and shape phases
// of internal/gen), so the analyzer and toolgen cannot drift apart.
//
// # Running it
//
// With go vet, through the toolgenvet command
// (github.com/toolgen-go/toolgen/cmd/toolgenvet):
//
//	go get -tool github.com/toolgen-go/toolgen/cmd/toolgenvet
//	go vet -vettool=$(go tool -n toolgenvet) ./...
//
// In a driver of your own, with other analyzers, as the Example shows.
// gopls does not load third-party analyzers, so editors do not show these
// diagnostics; run go vet or toolgen.
package analyzer

import (
	"cmp"
	"go/token"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// Analyzer reports the problems toolgen finds without running the user's
// code. It exports a [*Tools] fact for each package that declares tools.
var Analyzer = &analysis.Analyzer{
	Name:      "toolgen",
	Doc:       "report the //tool: directive, declaration, Call signature and type problems toolgen refuses to generate with\n\nThe problems are toolgen's own, at the same positions and in the same words. Duplicate tool names are reported within a package and across packages when one imports the other; toolgen itself remains the complete check (schema keywords and hooks need it).",
	URL:       "https://pkg.go.dev/github.com/toolgen-go/toolgen/cmd/toolgen/analyzer",
	Run:       run,
	FactTypes: []analysis.Fact{new(Tools)},
}

// Tools is the fact a package exports: the tool names it declares. A
// package that imports it reports a tool of its own with one of these
// names as a duplicate.
type Tools struct {
	Tools []Tool
}

// Tool is one declared tool name and the position of its //tool:name line.
type Tool struct {
	Name string
	Pos  token.Position
}

// AFact marks Tools as an analysis fact.
func (*Tools) AFact() {}

func (f *Tools) String() string {
	s := "tools"
	for _, t := range f.Tools {
		s += " " + t.Name
	}
	return s
}

func run(pass *analysis.Pass) (any, error) {
	c := gen.Check(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
	problems := c.Problems
	if len(c.Tools) > 0 {
		fact := &Tools{}
		for _, t := range c.Tools {
			fact.Tools = append(fact.Tools, Tool{Name: t.Name, Pos: t.Pos})
		}
		pass.ExportPackageFact(fact)
		problems = append(problems, importedDuplicates(pass, c.Tools)...)
	}
	files := fileIndex(pass)
	for _, e := range problems {
		report(pass, files, e)
	}
	return nil, nil
}

// importedDuplicates compares the package's tool names with those of the
// packages it imports, directly or not, in import path order.
func importedDuplicates(pass *analysis.Pass, local []gen.DeclaredTool) []*problem.Error {
	facts := pass.AllPackageFacts()
	slices.SortFunc(facts, func(a, b analysis.PackageFact) int { return cmp.Compare(a.Package.Path(), b.Package.Path()) })
	var other []gen.DeclaredTool
	for _, f := range facts {
		tools, ok := f.Fact.(*Tools)
		if !ok || f.Package == pass.Pkg {
			continue
		}
		for _, t := range tools.Tools {
			other = append(other, gen.DeclaredTool{Name: t.Name, Pos: t.Pos})
		}
	}
	if len(other) == 0 {
		return nil
	}
	return gen.DuplicateNames(local, other)
}

// fileIndex maps the file names of the package to their token.Files, to
// turn toolgen's positions back into token.Pos.
func fileIndex(pass *analysis.Pass) map[string]*token.File {
	m := map[string]*token.File{}
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Package); tf != nil {
			m[tf.Name()] = tf
		}
	}
	return m
}

// report turns one of toolgen's problems into a diagnostic. The message is
// toolgen's, the other declaration of a duplicate named relative to the
// directory of the file, as toolgen names it relative to where it runs
// (go:generate runs it in the package's directory). The other declaration
// is in the message only, not also in Diagnostic.Related, which go vet
// would print as a second line: the output stays toolgen's, line for line.
func report(pass *analysis.Pass, files map[string]*token.File, e *problem.Error) {
	pos := tokenPos(files, e.Pos)
	d := analysis.Diagnostic{Pos: pos, Message: e.Message(filepath.Dir(e.Pos.Filename))}
	if !pos.IsValid() && len(pass.Files) > 0 {
		// A position outside the package's files (a //line directive may
		// cause it): report at the package clause, with the position said.
		d.Pos = pass.Files[0].Package
		d.Message = e.Relative("")
	}
	if e.Fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   e.Fix.Title,
			TextEdits: []analysis.TextEdit{{Pos: e.Fix.Pos, End: e.Fix.End, NewText: []byte(e.Fix.New)}},
		}}
	}
	pass.Report(d)
}

// tokenPos finds p in the package's files; NoPos when it is not there.
func tokenPos(files map[string]*token.File, p token.Position) token.Pos {
	tf := files[p.Filename]
	if tf == nil || p.Line < 1 || p.Line > tf.LineCount() {
		return token.NoPos
	}
	start := tf.LineStart(p.Line)
	off := tf.Offset(start) + max(p.Column, 1) - 1
	if off > tf.Size() {
		return token.NoPos
	}
	return tf.Pos(off)
}
