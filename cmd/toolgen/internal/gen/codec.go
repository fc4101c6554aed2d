package gen

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// The codecs phase derives, from each tool's shapes and published schemas,
// the decoders and encoders of the registry: a codecPlan, which render only
// prints. The concerns live in files of their own: schemaview.go (schema
// positions and the keywords a shape can enforce), checks.go (the keyword
// checks), decode.go, encode.go, and naming.go (the names of functions and
// temporaries).
//
// The decoders toolgen writes are derived from the published schema, mapped
// back to the Go fields: every keyword the schema publishes is enforced by
// generated code, and a keyword that cannot be enforced fails generation
// at the field that declares it. Encoders follow the Go types, writing
// what the output schema requires: every non-omitempty field, nil slices
// as [] and nil maps as {}.

const (
	codecPkg = "github.com/toolgen-go/toolgen/runtime/codec"
)

// codecGen accumulates the decode and encode functions of one registry.
type codecGen struct {
	fset  *token.FileSet
	decls []jen.Code
	errs  []*problem.Error

	funcs    map[string]string // dedup key -> function name
	names    map[string]bool   // function and variable names in use
	patterns map[string]string // regexp source -> package-level variable
	locals   map[string]bool   // names in use in the function being written
	fn       string            // the name of the function being written
}

// newCodecGen returns an empty generator.
func newCodecGen(fset *token.FileSet) *codecGen {
	return &codecGen{fset: fset, funcs: map[string]string{}, names: map[string]bool{}, patterns: map[string]string{}}
}

// fail records a problem at the site.
func (g *codecGen) fail(at site, format string, args ...any) {
	g.errs = append(g.errs, problem.Errorf(at.pos, "%s: "+format, append([]any{at.where}, args...)...))
}

// codecPlan is the result of the codecs phase: everything codec_gen.go
// holds and what each case of dispatch calls, in the order derived.
type codecPlan struct {
	tools     []toolCodec  // one per tool, in the model's order
	patterns  []patternVar // sorted by name
	funcs     []jen.Code   // the decoder and encoder declarations
	needEmpty bool         // a tool takes no arguments: decodeNoArguments is written
}

// toolCodec is what the dispatch case of one tool calls.
type toolCodec struct {
	decode string     // the input decoder; "" for a tool without arguments
	encode []jen.Code // statements encoding out and returning its tool.Output kind
}

// patternVar is a package-level regexp of codec_gen.go.
type patternVar struct {
	name, src string
}

// planCodecs derives the decoder of every tool's input and the encoder of
// its output, or every problem: a keyword the generated code cannot
// enforce fails generation at the field that declares it.
func planCodecs(fset *token.FileSet, m *model) (*codecPlan, []*problem.Error) {
	g := newCodecGen(fset)
	plan := &codecPlan{}
	for _, t := range m.tools {
		var tc toolCodec
		if t.inShape != nil {
			root := t.inNode
			tc.decode = g.decodeStruct(t.inShape, viewOf(root, root), site{root: root, pos: t.inputPos, where: t.input.Obj().Name(), name: "in"})
		} else {
			plan.needEmpty = true
		}
		tc.encode = g.outputCode(t)
		plan.tools = append(plan.tools, tc)
	}
	if len(g.errs) > 0 {
		return nil, g.errs
	}
	for src, name := range g.patterns {
		plan.patterns = append(plan.patterns, patternVar{name: name, src: src})
	}
	slices.SortFunc(plan.patterns, func(a, b patternVar) int { return strings.Compare(a.name, b.name) })
	plan.funcs = g.decls
	return plan, nil
}

// outputCode encodes the variable out as the tool's output kind.
func (g *codecGen) outputCode(t *toolModel) []jen.Code {
	switch t.outKind {
	case outText:
		return []jen.Code{
			jen.Id("e").Dot("RawText").Call(jen.String().Parens(jen.Id("out"))),
			jen.Return(jen.Qual(toolPkg, "OutputText"), jen.Nil()),
		}
	case outStructured:
		root := t.outNode
		var out []jen.Code
		x := jen.Op("&").Id("out")
		if _, ptr := t.output.(*types.Pointer); ptr {
			out = append(out, jen.If(jen.Id("out").Op("==").Nil()).Block(
				jen.Return(jen.Lit(0), jen.Qual("errors", "New").Call(jen.Lit("tool "+t.name+" returned a nil output"))),
			))
			x = jen.Id("out")
		}
		name := g.encodeStruct(t.outShape.Deref(), viewOf(root, root), site{root: root, pos: t.callPos, where: t.outStruct.Obj().Name(), name: "out"})
		return append(out,
			jen.Id(name).Call(jen.Id("e"), x),
			jen.Return(jen.Qual(toolPkg, "OutputStructured"), jen.Nil()),
		)
	default:
		defer g.startFunc("dispatch")()
		return append(g.encodeValue(t.outShape, view{}, jen.Id("out"), false, site{pos: t.callPos, where: shape.TypeString(t.output), name: "out"}),
			jen.Return(jen.Qual(toolPkg, "OutputJSON"), jen.Nil()))
	}
}
