package gen

import (
	"go/types"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/codecplan"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// The codecs phase derives, from each tool's shapes and published schemas,
// the decoders and encoders of the registry: a codecPlan, which render only
// prints. A codecplan.Planner writes them (the state of the phase: the
// functions written, the names in use, the patterns), each in the codec
// package of its type's Go package; this file runs it over the tools and
// writes what each tool's call function, in the codec package of the
// tool's Go package, does with each result.
//
// The tools are planned by unit (7_codecs_units.go): the tools packages
// whose codecs share no codec package, each planned by a Planner of its
// own, which writes exactly what one Planner over every tool writes. A
// unit whose files the cache holds is not planned at all.

// codecPlan is the result of the codecs phase: the codec packages, and per
// tool what its call function calls, in the order derived.
type codecPlan struct {
	layout *codecplan.Layout // where the codecs of each type are
	tools  []toolCodec       // one per tool, in the model's order
	units  []unitRef         // every codec package, sorted by import path once every unit is planned
	groups []*renderUnit     // sorted by the import path of their first codec package
}

// unitRef names one codec package.
type unitRef struct {
	Path, Name string
}

// toolCodec is what the call function of one tool calls.
type toolCodec struct {
	unit   string          // the import path of the codec package holding it
	decode *codecplan.Func // the input decoder; nil for a tool without arguments
	encode []jen.Code      // statements encoding out and returning its tool.Output kind
}

// planCodecs divides the tools into units, finds each unit's key and, for
// the units the cache holds, their files: such a unit is not planned at
// all; scan, when not nil, lets an unchanged unit find its key without
// computing it (7_codecs_units_source.go). Every tool's codec package is
// set. The other units are planned by planUnit, one at a time, as render
// prints them (renderUnits): a unit's plan, its decoders' and encoders'
// code, is held only until its files are printed.
func planCodecs(l *loaded, m *model, opts *Options, scan *bootstrapScan) (*codecPlan, []*problem.Error) {
	roots := make([]*types.Package, len(l.pkgs))
	for i, p := range l.pkgs {
		roots[i] = p.Types
	}
	layout := codecplan.NewLayout(l.outPath, roots)
	plan := &codecPlan{layout: layout, tools: make([]toolCodec, len(m.tools))}
	plan.groups = groupTools(layout, m.tools)
	uc := openUnitCache(opts)
	// The Tools field of each tool, in the freshness test's files; its
	// problems are render's to report.
	fields, _ := fieldNames(m.tools)
	us := openUnitSources(uc, scan, l, layout, opts)
	uc.lookupAll(plan.groups, func(g *renderUnit) cache.Key {
		sk, ok := us.key(m.tools, g.tools, fields)
		if ok {
			if k, found := us.get(sk); found {
				return k
			}
		}
		k := unitKey(uc, l, layout, m.tools, g.tools, fields, opts)
		if ok {
			us.put(sk, k)
		}
		return k
	})
	for _, g := range plan.groups {
		for _, i := range g.tools {
			plan.tools[i].unit = layout.Unit(m.tools[i].pkg.Types)
		}
		if g.cached != nil {
			plan.units = append(plan.units, g.cached.units...)
		}
	}
	return plan, nil
}

// planUnit derives, with a Planner of its own, the decoder of the input
// and the encoder of the output of every tool of g, or every problem: a
// keyword the generated code cannot enforce fails generation at the field
// that declares it. It sets plan.tools at g's tools and g's planned codec
// packages, which it does not add to plan.units (renderUnits does).
func planUnit(l *loaded, layout *codecplan.Layout, m *model, plan *codecPlan, g *renderUnit) []*problem.Error {
	p := codecplan.New(l.fset, layout)
	g.empty = map[string]bool{}
	for _, i := range g.tools {
		t := m.tools[i]
		p.Enter(t.pkg.Types)
		tc := toolCodec{unit: p.Current()}
		if t.inShape != nil {
			dec := p.Decoder(t.inShape, t.inNode, t.inputPos, t.input.Obj().Name())
			tc.decode = &dec
		} else {
			g.empty[tc.unit] = true
		}
		tc.encode = outputCode(p, t)
		plan.tools[i] = tc
	}
	units, errs := p.Result()
	if len(errs) > 0 {
		return errs
	}
	g.planned = units
	return nil
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
		enc := p.StructEncoder(t.outShape.Deref(), t.outNode, t.callPos, t.outStruct.Obj().Name())
		return append(out,
			enc.Call(jen.Id("e"), x),
			jen.Return(jen.Qual(implPkg, "OutputStructured"), jen.Nil()),
		)
	default:
		return append(p.ValueEncoder(t.outShape, t.callPos, shape.TypeString(t.output)),
			jen.Return(jen.Qual(implPkg, "OutputJSON"), jen.Nil()))
	}
}
