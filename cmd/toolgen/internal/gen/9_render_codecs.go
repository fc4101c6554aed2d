package gen

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/codecplan"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
)

// The codec packages (package codecplan places them): under the output
// directory, internal/<name>/codec_gen.go per Go package whose types the
// tools decode or encode, holding their decoders and encoders and, for
// each tool of that package, its schemas, its spec (which the registry's
// table points to) and its call function (which dispatch calls). What is
// per tool lives there, compiled package by package, so that the
// registry package's compile does not hold every tool's spec.

const (
	codecDir  = "internal"     // the directory of the codec packages, in the output directory
	codecFile = "codec_gen.go" // the one file of each codec package
)

// codecTasks are the tasks printing the codec packages of the planned
// unit g.
func codecTasks(fc formatCache, l *loaded, m *model, fields map[*toolModel]string, plan *codecPlan, g *renderUnit, opts *Options, marks []toolMark) []fileTask {
	calls := map[string][]jen.Code{}
	schemas := map[string][]jen.Code{}
	specs := map[string][]jen.Code{}
	tools := map[string][]*toolModel{}
	for _, i := range g.tools {
		t, tc := m.tools[i], plan.tools[i]
		tools[tc.unit] = append(tools[tc.unit], t)
		calls[tc.unit] = append(calls[tc.unit], callCode(t, fields[t], tc), jen.Line())
		specs[tc.unit] = append(specs[tc.unit], jen.Commentf("%s is the spec of %s.", specVar(fields[t]), t.name).Line().
			Id(specVar(fields[t])).Op("=").Qual(toolPkg, "Spec").Add(specBody(t, fields[t], tc.unit)))
		schemas[tc.unit] = append(schemas[tc.unit], jen.Id(schemaConst(fields[t], "Input")).Op("=").Add(gocode.RawString(t.inNode.Compact())))
		if t.outNode != nil {
			schemas[tc.unit] = append(schemas[tc.unit], jen.Id(schemaConst(fields[t], "Output")).Op("=").Add(gocode.RawString(t.outNode.Compact())))
		}
	}
	var tasks []fileTask
	for _, u := range g.planned {
		rel := filepath.Join(codecDir, u.Name, codecFile)
		tasks = append(tasks, formatTask(fc, filepath.ToSlash(rel), filepath.Join(opts.outDir(), rel), marks, func() *jen.File {
			return codecCode(l, u, opts, g.empty[u.Path], codecTools{tools[u.Path], fields, schemas[u.Path], specs[u.Path], calls[u.Path]})
		}))
	}
	return tasks
}

// codecTools is what a codec package holds of the tools whose call
// functions it holds: the tools, their schema constants, their specs and
// their call functions.
type codecTools struct {
	tools                 []*toolModel
	fields                map[*toolModel]string
	schemas, specs, calls []jen.Code
}

// codecCode is the codec_gen.go of the codec package u: the schemas and
// the apps of its tools, their specs, its patterns, its property table,
// the decoder of a tool without arguments when one of its tools has none,
// the call functions of its tools, then its decoders and encoders.
func codecCode(l *loaded, u codecplan.Unit, opts *Options, empty bool, ct codecTools) *jen.File {
	cf := jen.NewFilePathName(u.Path, u.Name)
	cf.HeaderComment(header)
	cf.PackageComment(fmt.Sprintf("Package %s holds decoders, encoders, tool specs and tool calls of the\nregistry in package %s, which alone may import it.", u.Name, opts.Package))
	cf.ImportName(implPkg, "toolimpl")
	cf.ImportName(toolPkg, "tool")
	importNames(cf, l)
	versionGuard(cf)
	if len(ct.schemas) > 0 {
		cf.Comment("The published schemas of this package's tools, which their specs")
		cf.Comment("hold: the exact bytes sent to models. tools.json shows them indented.")
		cf.Const().Defs(ct.schemas...)
		cf.Line()
	}
	renderApps(cf, ct.tools, ct.fields)
	if len(ct.specs) > 0 {
		cf.Comment("The specs of this package's tools, which the registry's table points to.")
		cf.Comment("The compiler lays them out: a registry of many tools costs nothing to")
		cf.Comment("start. They are shared by every registry New returns and never modified.")
		cf.Var().Defs(ct.specs...)
		cf.Line()
	}
	if len(u.Patterns) > 0 {
		cf.Comment("Patterns of the schemas, compiled by toolgen: each a program that")
		cf.Comment("toolimpl.Pattern runs, as regexp would the expression in its comment.")
		cf.Const().DefsFunc(func(d *jen.Group) {
			for _, p := range u.Patterns {
				d.Comment(p.Name + " is " + strconv.Quote(p.Src) + ".")
				d.Id(p.Name).Qual(implPkg, "Pattern").Op("=").Lit(p.Prog)
			}
		})
		cf.Line()
	}
	renderProps(cf, u)
	if empty {
		cf.Comment(codecplan.NoArguments + " accepts the arguments of a tool without any: an empty object.")
		cf.Func().Id(codecplan.NoArguments).Params(jen.Id("d").Op("*").Qual(implPkg, "Decoder")).Block(
			jen.If(jen.Op("!").Id("d").Dot("Object").Call(jen.Lit("object"))).Block(jen.Return()),
			codecplan.MemberLoop(nil, true),
		)
		cf.Line()
	}
	for _, c := range ct.calls {
		cf.Add(c)
	}
	for _, d := range u.Decls {
		cf.Add(d)
	}
	return cf
}

// renderProps writes the property table of the codec package u and the
// offset constants of its decoders' ranges, when it has any.
func renderProps(cf *jen.File, u codecplan.Unit) {
	if len(u.Props) == 0 {
		return
	}
	elems := make([]jen.Code, len(u.Props))
	for i, name := range u.Props {
		elems[i] = jen.Lit(name)
	}
	cf.Comment(codecplan.PropsTable + " holds the property names this package's decoders match: each")
	cf.Comment("decoder's, in their declared order, from the offset of its constant")
	cf.Comment("below on. One table rather than an array a decoder: before main, the")
	cf.Comment("runtime maps the program's variables for the collector at a cost per")
	cf.Comment("array.")
	// A name a line, so that a new property adds a line.
	cf.Var().Id(codecplan.PropsTable).Op("=").Index(jen.Op("...")).String().Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, elems...)
	cf.Line()
	cf.Comment("The offset in " + codecplan.PropsTable + " of each decoder's names: the offset of the")
	cf.Comment("names before them plus their number.")
	cf.Const().DefsFunc(func(d *jen.Group) {
		for i, r := range u.Ranges {
			if i == 0 {
				d.Id(r.Const).Op("=").Lit(0)
				continue
			}
			prev := u.Ranges[i-1]
			d.Id(r.Const).Op("=").Id(prev.Const).Op("+").Lit(prev.Len)
		}
	})
	cf.Line()
}

// specVar is the name of the variable holding the spec of the tool whose
// Tools field is field, in its codec package. No other name of a codec
// package starts with Spec.
func specVar(field string) string { return "Spec" + field }

// callFunc is the name of the call function of the tool whose Tools field
// is field.
func callFunc(field string) string { return "Call" + field }

// callCode is the call function of tool t, which dispatch calls for its
// case: it decodes the arguments with the plan's decoder, and in ModeCall
// runs the tool and encodes its output as the plan says.
func callCode(t *toolModel, field string, tc toolCodec) jen.Code {
	var body []jen.Code
	callArgs := []jen.Code{jen.Id("ctx")}
	if tc.decode != nil {
		body = append(body,
			jen.Var().Id("in").Add(gocode.Type(t.input)),
			tc.decode.Call(jen.Id("d"), jen.Op("&").Id("in")),
		)
		callArgs = append(callArgs, jen.Id("in"))
	} else {
		body = append(body, jen.Id(codecplan.NoArguments).Call(jen.Id("d")))
	}
	body = append(body,
		jen.Id("d").Dot("End").Call(),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Lit(0), jen.Qual(implPkg, "InvalidArguments").Call(jen.Err())),
		),
	)
	if t.hasLogArgs {
		body = append(body, logCase())
	}
	body = append(body,
		jen.If(jen.Id("mode").Op("!=").Qual(implPkg, "ModeCall")).Block(jen.Return(jen.Lit(0), jen.Nil())),
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("t").Dot("Call").Call(callArgs...),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Err())),
	)
	body = append(body, tc.encode...)
	name := callFunc(field)
	what := "runs it and encodes its output"
	if t.hasLogArgs {
		what += "; in ModeLog, it encodes the form its LogArgs method gives and runs nothing"
	}
	return doc(strings.Split(wrap(fmt.Sprintf("%s decodes the arguments of the tool %s (%s.%s). In ModeCall it %s.",
		name, t.name, t.pkg.Name, t.obj.Name(), what)), "\n")...).Func().Id(name).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("t").Op("*").Qual(t.pkg.PkgPath, t.obj.Name()),
		jen.Id("mode").Qual(implPkg, "Mode"),
		jen.Id("d").Op("*").Qual(implPkg, "Decoder"),
		jen.Id("e").Op("*").Qual(implPkg, "Encoder"),
	).Params(jen.Qual(implPkg, "Output"), jen.Error()).Block(body...)
}

// wrap breaks s into lines of at most 72 bytes at spaces.
func wrap(s string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		switch {
		case i == 0:
		case n+1+len(w) > 72:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
