// Package codecplan is toolgen's codecs phase: from each tool's shapes
// (package shape) and published schemas, it writes the decoders and
// encoders of the generated registry, as jennifer code that gen's render
// phase prints into codec_gen.go.
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
// (the names of functions and temporaries).
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

// Planner writes the decode and encode functions of one registry.
type Planner struct {
	fset  *token.FileSet
	decls []jen.Code
	errs  []*problem.Error

	funcs    map[string]string // dedup key -> function name
	names    map[string]bool   // function and variable names in use
	patterns map[string]string // regexp source -> package-level variable
	locals   map[string]bool   // names in use in the function being written
	fn       string            // the name of the function being written
}

// New returns a Planner with nothing written, reporting positions of
// fset.
func New(fset *token.FileSet) *Planner {
	return &Planner{fset: fset, funcs: map[string]string{}, names: map[string]bool{}, patterns: map[string]string{}}
}

// fail records a problem at the site.
func (g *Planner) fail(at site, format string, args ...any) {
	g.errs = append(g.errs, problem.Errorf(at.pos, "%s: "+format, append([]any{at.where}, args...)...))
}

// Decoder returns the name of the decoder of the input struct s, whose
// published schema is root; problems are reported at pos or at the
// offending field, naming the struct where.
func (g *Planner) Decoder(s *shape.Shape, root *jsontree.Node, pos token.Position, where string) string {
	return g.decodeStruct(s, viewOf(root, root), site{root: root, pos: pos, where: where, name: "in"})
}

// StructEncoder returns the name of the encoder of the output struct s
// (not a pointer), whose published schema is root.
func (g *Planner) StructEncoder(s *shape.Shape, root *jsontree.Node, pos token.Position, where string) string {
	return g.encodeStruct(s, viewOf(root, root), site{root: root, pos: pos, where: where, name: "out"})
}

// ValueEncoder returns the statements of dispatch that encode its
// variable out, of shape s, which has no output schema (a tool whose
// result is sent as JSON text).
func (g *Planner) ValueEncoder(s *shape.Shape, pos token.Position, where string) []jen.Code {
	defer g.startFunc("dispatch")()
	return g.encodeValue(s, view{}, jen.Id("out"), false, site{pos: pos, where: where, name: "out"})
}

// Result returns the declarations of every decoder and encoder written,
// in the order written, and the patterns they compile, sorted by name; or
// every problem met.
func (g *Planner) Result() ([]jen.Code, []Pattern, []*problem.Error) {
	if len(g.errs) > 0 {
		return nil, nil, g.errs
	}
	var patterns []Pattern
	for src, name := range g.patterns {
		patterns = append(patterns, Pattern{Name: name, Src: src})
	}
	slices.SortFunc(patterns, func(a, b Pattern) int { return strings.Compare(a.Name, b.Name) })
	return g.decls, patterns, nil
}

// Pattern is a package-level regexp of codec_gen.go: the function Name
// returns it compiled from Src.
type Pattern struct {
	Name, Src string
}
