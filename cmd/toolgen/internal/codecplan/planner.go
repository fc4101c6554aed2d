// Package codecplan is toolgen's codecs phase: from each tool's shapes
// (package shape) and published schemas, it writes the decoders and
// encoders of the generated registry, as jennifer code that gen's render
// phase prints into the codec packages (units.go says which holds what).
//
// The decoders are derived from the published schema, mapped back to the
// Go fields: every keyword the schema publishes is enforced by generated
// code, and a keyword that cannot be enforced fails generation at the
// field that declares it. Encoders follow the Go types, writing what the
// output schema requires: every non-omitempty field, nil slices as [] and
// nil maps as {}.
//
// A Planner holds the state of one registry's codecs (planner.go): the
// functions written and their names, the patterns, the temporaries of the
// function being written. The concerns live in files of their own:
// view.go (schema positions and the keywords a shape can enforce),
// checks.go (the keyword checks), mapcount.go (map property counts),
// decode.go and members.go (decoders), encode.go (encoders), names.go
// (the names of functions and temporaries), units.go (the codec package
// each function goes to).
package codecplan

import (
	"go/token"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// ImplPkg is the runtime's contract for generated code only (runtime/toolimpl):
// what the decoders and encoders call.
const ImplPkg = "github.com/toolgen-go/toolgen/runtime/toolimpl"

// Planner writes the decode and encode functions of one registry, each
// in its codec package (units.go).
type Planner struct {
	fset   *token.FileSet
	layout *Layout
	errs   []*problem.Error

	units  map[string]*unit // by import path
	cur    *unit            // the codec package being written
	locals map[string]bool  // names in use in the function being written
	fn     string           // the name of the function being written
}

// New returns a Planner with nothing written, placing codecs as layout
// says and reporting positions of fset. Enter a codec package before
// planning a tool's codecs.
func New(fset *token.FileSet, layout *Layout) *Planner {
	return &Planner{fset: fset, layout: layout, units: map[string]*unit{}}
}

// fail records a problem at the site.
func (g *Planner) fail(at site, format string, args ...any) {
	g.errs = append(g.errs, problem.Errorf(at.pos, "%s: "+format, append([]any{at.where}, args...)...))
}

// Decoder returns the decoder of the input struct s, whose published
// schema is root; problems are reported at pos or at the offending field,
// naming the struct where.
func (g *Planner) Decoder(s *shape.Shape, root *jsontree.Node, pos token.Position, where string) Func {
	return g.decodeStruct(s, viewOf(root, root), site{root: root, pos: pos, where: where, name: "in"})
}

// StructEncoder returns the encoder of the output struct s (not a
// pointer), whose published schema is root.
func (g *Planner) StructEncoder(s *shape.Shape, root *jsontree.Node, pos token.Position, where string) Func {
	return g.encodeStruct(s, viewOf(root, root), site{root: root, pos: pos, where: where, name: "out"})
}

// ValueEncoder returns the statements of a call function of the current
// codec package that encode its variable out, of shape s, which has no
// output schema (a tool whose result is sent as JSON text).
func (g *Planner) ValueEncoder(s *shape.Shape, pos token.Position, where string) []jen.Code {
	defer g.startFunc("call")()
	return g.encodeValue(s, view{}, jen.Id("out"), false, site{pos: pos, where: where, name: "out"})
}

// Result returns every codec package entered or written to, sorted by
// import path, each with its declarations in the order written and the
// patterns they compile, sorted by name; or every problem met.
func (g *Planner) Result() ([]Unit, []*problem.Error) {
	if len(g.errs) > 0 {
		return nil, g.errs
	}
	var units []Unit
	for _, u := range g.units {
		var patterns []Pattern
		for _, p := range u.patterns {
			patterns = append(patterns, p)
		}
		slices.SortFunc(patterns, func(a, b Pattern) int { return strings.Compare(a.Name, b.Name) })
		units = append(units, Unit{Path: u.path, Name: u.name, Decls: u.decls, Patterns: patterns, Props: u.props, Ranges: u.ranges})
	}
	slices.SortFunc(units, func(a, b Unit) int { return strings.Compare(a.Path, b.Path) })
	return units, nil
}

// Pattern is a package-level toolimpl.Pattern of a codec package: the
// constant Name holds Prog, the program of the expression Src that
// patternprog.Compile encodes.
type Pattern struct {
	Name, Src, Prog string
}
