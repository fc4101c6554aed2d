package gen

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
)

// The set packages: under the output directory, <name>tools/tools_gen.go
// per Go package declaring tools (the name is its codec package's, with
// "tools" for "codec"), holding the Tools struct of that package's tools
// (one field per tool), the ToolSet method the registry's New calls, and
// the dispatch switching on the tool's index in the set. A program fills
// each package's Tools and passes them to New. The registry package names
// no tool type: at 10,000 tools, one exported struct naming every tool
// type made the registry's compile three times the size of the program
// registering the same types with the MCP SDK (bench/README.md, "The
// specs beside their tools").

const setFile = "tools_gen.go" // the one file of each set package

// setName is the name of the set package of the tools whose codec
// package is named unit: "notescodec" gives "notestools", "notescodec2"
// "notestools2". Codec package names are distinct, and so are these.
func setName(unit string) string {
	base := strings.TrimRight(unit, "0123456789")
	return strings.TrimSuffix(base, "codec") + "tools" + unit[len(base):]
}

// setPath is the import path of the set package of the tools whose codec
// package is unit, in the output directory whose import path is out.
func setPath(out, unit string) string { return out + "/" + setName(path.Base(unit)) }

// setRef is one set package, as the registry refers to it.
type setRef struct {
	path  string
	tools []int // indices in the model's tools, in its order
}

// setsOf returns the set packages of the registry, sorted by import path.
func setsOf(l *loaded, m *model, plan *codecPlan) []setRef {
	byPath := map[string]*setRef{}
	var sets []setRef
	for i := range m.tools {
		p := setPath(l.outPath, plan.tools[i].unit)
		s, ok := byPath[p]
		if !ok {
			sets = append(sets, setRef{path: p})
			s = &sets[len(sets)-1]
			byPath[p] = s
		}
		s.tools = append(s.tools, i)
	}
	slices.SortFunc(sets, func(a, b setRef) int { return strings.Compare(a.path, b.path) })
	return sets
}

// registrySets declares, in the registry f, the Tools interface, the table
// of set paths and the index of each tool of specs in its set, and New and
// Unavailable over them.
func registrySets(f *jen.File, m *model, sets []setRef, opts *Options) {
	where := make([][2]int, len(m.tools))
	for si, s := range sets {
		for j, i := range s.tools {
			where[i] = [2]int{si, j}
		}
	}
	names := make([]string, len(sets))
	for i, s := range sets {
		names[i] = path.Base(s.path) + ".Tools"
	}
	list := strings.Join(names, ", ")
	if len(names) > 8 {
		list = strings.Join(names[:8], ", ") + fmt.Sprintf(" and %d more", len(names)-8)
	}
	f.Add(doc(strings.Split(wrap("Tools is the tools of one tools package, as New takes them: a value of the Tools type of a set package beside this one ("+list+"), one field per tool. Only those types implement it."), "\n")...)).Type().Id("Tools").Interface(
		jen.Comment("ToolSet returns the set, for New and Unavailable only."),
		jen.Id("ToolSet").Params().Op("*").Qual(implPkg, "Set"),
	)
	f.Line()
	f.Comment("sets holds the import paths of the set packages, sorted: New takes the")
	f.Comment("Tools of each once.")
	f.Var().Id("sets").Op("=").Index(jen.Lit(len(sets))).String().ValuesFunc(func(v *jen.Group) {
		for _, s := range sets {
			v.Line().Lit(s.path)
		}
		v.Line()
	})
	f.Line()
	f.Comment("index places each tool of specs in its set: the set's position in sets,")
	f.Comment("and the tool's index in the set, which the set's dispatch switches on.")
	f.Var().Id("index").Op("=").Index(jen.Lit(len(m.tools))).Qual(implPkg, "Index").ValuesFunc(func(v *jen.Group) {
		for _, w := range where {
			v.Line().Values(jen.Id("Set").Op(":").Lit(w[0]), jen.Id("Tool").Op(":").Lit(w[1]))
		}
		v.Line()
	})
	f.Line()
	lines := []string{
		"New returns the registry of the tools in tools, sorted by name: one Tools",
		"of each set package, in any order. A tool whose Available method reports",
		"an error is left out: neither listed nor callable (Unavailable says",
		"why). New fails when a set package's Tools is missing or given twice, or",
		"when a field of one is unset: a pointer field that is nil, or a value",
		"field that holds the zero value of its type, unless the type is",
		"marked //tool:zerovalue, has no fields, or has an Available method",
		"(which then decides).",
	}
	if anyOffered(m) {
		lines = append(lines,
			"",
			"A tool with an Offered method decides, per call, whether it is offered",
			"(the registry's Offer asks it).",
		)
	}
	f.Add(doc(lines...)).Func().Id("New").Params(jen.Id("tools").Index().Id("Tools"), jen.Id("opts").Op("...").Qual(toolPkg, "Option")).Params(jen.Qual(toolPkg, "Registry"), jen.Error()).Block(
		jen.Return(jen.Qual(implPkg, "NewRegistryOfSets").Call(jen.Lit(opts.Package), jen.Id("specs").Op("[:]"), jen.Id("sets").Op("[:]"), jen.Id("index").Op("[:]"), jen.Id("tools"), jen.Id("opts").Op("..."))),
	)
	f.Line()
	f.Add(doc(
		"Unavailable reports, by tool name, why New leaves tools of tools out: the",
		"error of each tool's Available method. It is empty when every tool is",
		"available.",
	)).Func().Id("Unavailable").Params(jen.Id("tools").Index().Id("Tools")).Map(jen.String()).Error().Block(
		jen.Return(jen.Qual(implPkg, "Unavailable").Call(jen.Id("specs").Op("[:]"), jen.Id("sets").Op("[:]"), jen.Id("index").Op("[:]"), jen.Id("tools"))),
	)
}

// setCode is the tools_gen.go of the set package of tools, the tools of
// one Go package, whose codec package is unit.
func setCode(l *loaded, unit string, tools []*toolModel, fields map[*toolModel]string, opts *Options) *jen.File {
	p := setPath(l.outPath, unit)
	name := path.Base(p)
	pkg := tools[0].pkg
	f := jen.NewFilePathName(p, name)
	f.HeaderComment(header)
	f.PackageComment(wrap(fmt.Sprintf("Package %s holds the tools of package %s (%s) for the registry in package %s: fill a Tools with ready tools and pass it to %s.New with the Tools of the registry's other set packages.",
		name, pkg.Name, pkg.PkgPath, opts.Package, opts.Package)))
	f.ImportName(implPkg, "toolimpl")
	importNames(f, l)
	f.ImportName(unit, path.Base(unit))
	versionGuard(f)

	f.Comment("The index of each tool in the set, which dispatch switches on.")
	f.Const().DefsFunc(func(d *jen.Group) {
		for i, t := range tools {
			if i == 0 {
				d.Id(indexConst(fields[t])).Op("=").Iota()
			} else {
				d.Id(indexConst(fields[t]))
			}
		}
	})
	f.Line()
	f.Add(doc(strings.Split(wrap(fmt.Sprintf("Tools holds one value of every tool of package %s. Fill each field with a ready tool, its dependencies set, and pass it to %s.New.", pkg.Name, opts.Package)), "\n")...)).Type().Id("Tools").StructFunc(func(s *jen.Group) {
		for _, t := range tools {
			s.Commentf("%s is the tool %s (%s.%s).", fields[t], t.name, t.pkg.Name, t.obj.Name())
			s.Id(fields[t]).Add(toolType(t))
		}
	})
	f.Line()
	f.Add(toolSetFunc(p, name, tools, fields, opts))
	f.Line()
	f.Add(dispatchFunc(tools, fields, unit))
	if o := offeredFunc(tools, fields); o != nil {
		f.Line()
		f.Add(o)
	}
	return f
}

// toolSetFunc is the ToolSet method of the set package at import path p,
// named name: the set with what is unset and what is unavailable.
func toolSetFunc(p, name string, tools []*toolModel, fields map[*toolModel]string, opts *Options) jen.Code {
	var unset []jen.Code
	var avail []jen.Code
	for _, t := range tools {
		x := jen.Id("t").Dot(fields[t])
		if t.pointer {
			msg := fmt.Sprintf("%s.New: %s.Tools.%s (tool %s) is nil", opts.Package, name, fields[t], t.name)
			unset = append(unset, jen.Case(jen.Add(x).Op("==").Nil()).Block(
				jen.Id("s").Dot("Unset").Op("=").Qual("errors", "New").Call(jen.Lit(msg))))
		} else if cond := unsetCheck(t, x); cond != nil {
			msg := fmt.Sprintf("%s.New: field %s of %s.Tools (tool %s) is unset: fill it with a ready %s.%s, or mark the type //tool:zerovalue if its zero value is ready",
				opts.Package, fields[t], name, t.name, t.pkg.Name, t.obj.Name())
			unset = append(unset, jen.Case(cond).Block(
				jen.Id("s").Dot("Unset").Op("=").Qual("errors", "New").Call(jen.Lit(msg))))
		}
		if t.hasAvail {
			set := jen.Id("s").Dot("Unavailable").Index(jen.Id(indexConst(fields[t]))).Op("=").Add(jen.Id("t").Dot(fields[t])).Dot("Available").Call()
			if t.pointer {
				set = jen.If(jen.Id("t").Dot(fields[t]).Op("!=").Nil()).Block(set)
			}
			avail = append(avail, set)
		}
	}
	fieldsOf := jen.Dict{
		jen.Id("Path"):     jen.Lit(p),
		jen.Id("Dispatch"): jen.Parens(jen.Op("&").Id("t")).Dot("dispatch"),
	}
	if anyOfferedIn(tools) {
		fieldsOf[jen.Id("Offered")] = jen.Parens(jen.Op("&").Id("t")).Dot("offered")
	}
	return doc(
		fmt.Sprintf("ToolSet returns t as %s.New takes it, for %s.New and", opts.Package, opts.Package),
		"Unavailable only: what is unset, what each tool's Available method",
		"reports, and the dispatch of its tools.",
	).Func().Params(jen.Id("t").Id("Tools")).Id("ToolSet").Params().Op("*").Qual(implPkg, "Set").BlockFunc(func(b *jen.Group) {
		b.Id("s").Op(":=").Op("&").Qual(implPkg, "Set").Values(fieldsOf)
		if len(unset) > 0 {
			b.Switch().Block(unset...)
		}
		if len(avail) > 0 {
			b.Id("s").Dot("Unavailable").Op("=").Make(jen.Index().Error(), jen.Lit(len(tools)))
			for _, a := range avail {
				b.Add(a)
			}
		}
		b.Return(jen.Id("s"))
	})
}

// dispatchChunk is the most tools one dispatch function switches on. A
// set of more tools has a dispatch that switches on i/dispatchChunk to
// dispatch0, dispatch1, ...: the compiler's work on a function grows
// faster than its cases, and at 10,000 tools one switch was two thirds of
// the registry package's compile time and a quarter of its peak memory.
const dispatchChunk = 256

// dispatchFunc is the dispatch method of a set of tools, whose codec
// package is unit: per tool, a call of its call function; in chunks of
// dispatchChunk tools when there are more.
func dispatchFunc(tools []*toolModel, fields map[*toolModel]string, unit string) jen.Code {
	docLines := []string{
		"dispatch decodes the arguments of the tool whose index in the set is i.",
		"In ModeCall it runs the tool and encodes its output; in ModeLog, for a",
		"tool with a LogArgs method, it encodes the form LogArgs gives and runs",
		"nothing.",
	}
	params := func() []jen.Code {
		return []jen.Code{
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("i").Int(),
			jen.Id("mode").Qual(implPkg, "Mode"),
			jen.Id("d").Op("*").Qual(implPkg, "Decoder"),
			jen.Id("e").Op("*").Qual(implPkg, "Encoder"),
		}
	}
	noTool := func() jen.Code {
		return jen.Return(jen.Lit(0), jen.Qual("fmt", "Errorf").Call(jen.Lit("no tool %d in this set"), jen.Id("i")))
	}
	// cases switches on tools[from:to].
	cases := func(from, to int) func(*jen.Group) {
		return func(b *jen.Group) {
			b.Switch(jen.Id("i")).BlockFunc(func(sw *jen.Group) {
				for _, t := range tools[from:to] {
					x := jen.Id("t").Dot(fields[t])
					if !t.pointer {
						x = jen.Op("&").Add(x)
					}
					call := jen.Qual(unit, callFunc(fields[t])).Call(jen.Id("ctx"), x, jen.Id("mode"), jen.Id("d"), jen.Id("e"))
					sw.Case(jen.Id(indexConst(fields[t]))).Block(jen.Return(call))
				}
			})
			b.Add(noTool())
		}
	}
	method := func(name string) *jen.Statement {
		return jen.Func().Params(jen.Id("t").Op("*").Id("Tools")).Id(name).Params(params()...).Params(jen.Qual(implPkg, "Output"), jen.Error())
	}
	n := len(tools)
	if n <= dispatchChunk {
		return doc(docLines...).Add(method("dispatch").BlockFunc(cases(0, n)))
	}
	args := []jen.Code{jen.Id("ctx"), jen.Id("i"), jen.Id("mode"), jen.Id("d"), jen.Id("e")}
	docLines = append(docLines, "", fmt.Sprintf("It switches on the tools in chunks of %d, each a method of its own.", dispatchChunk))
	out := doc(docLines...).Add(method("dispatch").BlockFunc(func(b *jen.Group) {
		b.Switch(jen.Id("i").Op("/").Lit(dispatchChunk)).BlockFunc(func(sw *jen.Group) {
			for c := 0; c*dispatchChunk < n; c++ {
				sw.Case(jen.Lit(c)).Block(jen.Return(jen.Id("t").Dot(fmt.Sprintf("dispatch%d", c)).Call(args...)))
			}
		})
		b.Add(noTool())
	}))
	for c := 0; c*dispatchChunk < n; c++ {
		from, to := c*dispatchChunk, min((c+1)*dispatchChunk, n)
		out.Line().Line().Add(doc(fmt.Sprintf("dispatch%d is dispatch for the tools of the set at [%d, %d).", c, from, to)).
			Add(method(fmt.Sprintf("dispatch%d", c)).BlockFunc(cases(from, to))))
	}
	return out
}

// indexConst is the name of the constant holding the index in its set of
// the tool whose Tools field is field: the case of dispatch.
func indexConst(field string) string { return "tool" + field }
