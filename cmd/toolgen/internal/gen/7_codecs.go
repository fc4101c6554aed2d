package gen

import (
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/codecplan"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// The codecs phase derives, from each tool's shapes and published schemas,
// the decoders and encoders of the registry: a codecPlan, which render only
// prints. A codecplan.Planner writes them (the state of the phase: the
// functions written, the names in use, the patterns); this file runs it
// over the tools and writes what dispatch does with each result.

// codecPlan is the result of the codecs phase: everything codec_gen.go
// holds and what each case of dispatch calls, in the order derived.
type codecPlan struct {
	tools     []toolCodec         // one per tool, in the model's order
	patterns  []codecplan.Pattern // sorted by name
	funcs     []jen.Code          // the decoder and encoder declarations
	needEmpty bool                // a tool takes no arguments: decodeNoArguments is written
}

// toolCodec is what the dispatch case of one tool calls.
type toolCodec struct {
	decode string     // the input decoder; "" for a tool without arguments
	encode []jen.Code // statements encoding out and returning its tool.Output kind
}

// planCodecs derives the decoder of every tool's input and the encoder of
// its output, or every problem: a keyword the generated code cannot
// enforce fails generation at the field that declares it.
func planCodecs(fset *token.FileSet, m *model) (*codecPlan, []*problem.Error) {
	p := codecplan.New(fset)
	plan := &codecPlan{}
	for _, t := range m.tools {
		var tc toolCodec
		if t.inShape != nil {
			tc.decode = p.Decoder(t.inShape, t.inNode, t.inputPos, t.input.Obj().Name())
		} else {
			plan.needEmpty = true
		}
		tc.encode = outputCode(p, t)
		plan.tools = append(plan.tools, tc)
	}
	funcs, patterns, errs := p.Result()
	if len(errs) > 0 {
		return nil, errs
	}
	plan.funcs, plan.patterns = funcs, patterns
	return plan, nil
}

// outputCode encodes the variable out as the tool's output kind.
func outputCode(p *codecplan.Planner, t *toolModel) []jen.Code {
	switch t.outKind {
	case outText:
		return []jen.Code{
			jen.Id("e").Dot("RawText").Call(jen.String().Parens(jen.Id("out"))),
			jen.Return(jen.Qual(implPkg, "OutputText"), jen.Nil()),
		}
	case outStructured:
		var out []jen.Code
		x := jen.Op("&").Id("out")
		if _, ptr := t.output.(*types.Pointer); ptr {
			out = append(out, jen.If(jen.Id("out").Op("==").Nil()).Block(
				jen.Return(jen.Lit(0), jen.Qual("errors", "New").Call(jen.Lit("tool "+t.name+" returned a nil output"))),
			))
			x = jen.Id("out")
		}
		name := p.StructEncoder(t.outShape.Deref(), t.outNode, t.callPos, t.outStruct.Obj().Name())
		return append(out,
			jen.Id(name).Call(jen.Id("e"), x),
			jen.Return(jen.Qual(implPkg, "OutputStructured"), jen.Nil()),
		)
	default:
		return append(p.ValueEncoder(t.outShape, t.callPos, shape.TypeString(t.output)),
			jen.Return(jen.Qual(implPkg, "OutputJSON"), jen.Nil()))
	}
}
