package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/runtime/provider"
)

const (
	providerPkg   = "github.com/toolgen-go/toolgen/runtime/provider"
	providersDir  = "providers"
	providersFile = "providers_gen.go"
)

// providersCode is the providers subpackage's providers_gen.go:
// NewDefinitions, which hands the precomputed definitions to
// provider.NewDefinitionsFrom, and precomputed, which finds a tool's in
// the file of its tools package (providersUnitCode). It is a package of
// its own so that programs that never talk to a provider's API do not
// link the provider code.
func providersCode(l *loaded, plan *codecPlan, opts *Options) *jen.File {
	f := jen.NewFilePathName(l.outPath+"/"+providersDir, providersDir)
	f.HeaderComment(header)
	f.PackageComment(fmt.Sprintf(`Package providers holds the definitions of the tools of package %s for
the providers' APIs (OpenAI Chat Completions and Responses, Anthropic,
Gemini), computed by toolgen at generation time: exact, byte-stable bytes,
so a prompt cache keyed on the tools prefix keeps hitting across processes
and releases. tools.json beside package %s says which OpenAI definitions are
strict and why the others are not.

	defs, err := providers.NewDefinitions(reg)
	body := defs.Anthropic() // the request's "tools" array`, opts.Package, opts.Package))
	f.ImportName(toolPkg, "tool")
	f.ImportName(implPkg, "toolimpl")
	f.ImportName(providerPkg, "provider")
	units := providerUnits(plan)
	for _, u := range units {
		f.ImportName(providersUnitPath(l, u.Name), u.Name)
	}
	versionGuard(f)

	f.Comment("NewDefinitions returns the provider definitions of the tools reg offers,")
	f.Comment("from the bytes toolgen precomputed; a tool it does not know, or whose spec")
	f.Comment("differs, is projected at run time.")
	f.Func().Id("NewDefinitions").Params(jen.Id("reg").Qual(toolPkg, "Registry")).Params(jen.Op("*").Qual(providerPkg, "Definitions"), jen.Error()).Block(
		jen.Return(jen.Qual(providerPkg, "NewDefinitionsFrom").Call(jen.Id("reg"), jen.Id("precomputed"))),
	)
	f.Line()
	f.Comment("precomputed returns the definitions of the named tool, from the package")
	f.Comment("of its tools package's definitions.")
	f.Func().Id("precomputed").Params(jen.Id("name").String()).Params(jen.Op("*").Qual(providerPkg, "Precomputed"), jen.Bool()).BlockFunc(func(b *jen.Group) {
		for _, u := range units {
			b.If(jen.List(jen.Id("p"), jen.Id("ok")).Op(":=").Qual(providersUnitPath(l, u.Name), "Precomputed").Call(jen.Id("name")), jen.Id("ok")).Block(
				jen.Return(jen.Id("p"), jen.True()),
			)
		}
		b.Return(jen.Nil(), jen.False())
	})
	return f
}

// providerUnits are the codec packages holding the call functions of
// tools, sorted by import path: one providers file each.
func providerUnits(plan *codecPlan) []unitRef {
	has := map[string]bool{}
	for _, tc := range plan.tools {
		has[tc.unit] = true
	}
	var out []unitRef
	for _, u := range plan.units {
		if has[u.Path] {
			out = append(out, u)
		}
	}
	return out
}

// providersUnitPath is the import path of the package holding the
// definitions of the tools whose call functions are in the codec package
// named unit: providers/internal/<unit>, one package per tools package,
// so that the compiler builds them in parallel and none holds the whole
// catalog's definitions (at 10,000 tools the providers package, when it
// held them all, took 2.15 GiB to compile).
func providersUnitPath(l *loaded, unit string) string {
	return l.outPath + "/" + providersDir + "/" + codecDir + "/" + unit
}

// providersUnitFile is the file of that package, from the output
// directory, with slashes.
func providersUnitFile(unit string) string {
	return providersDir + "/" + codecDir + "/" + unit + "/" + providersFile
}

// providersUnitCode is the providers package of the tools of one tools
// package (those whose call functions are in the codec package named
// unit): each tool's precomputed definitions, a variable the compiler lays
// out (as the specs are), and Precomputed, which finds them by name. Only
// the providers package imports it; the definitions are shared by every
// Definitions built from them and never modified.
func providersUnitCode(l *loaded, unit string, tools []*toolModel, fields map[*toolModel]string, proj map[*toolModel]*provider.Precomputed) *jen.File {
	f := jen.NewFilePathName(providersUnitPath(l, unit), unit)
	f.HeaderComment(header)
	f.PackageComment(fmt.Sprintf("Package %s holds the providers' definitions of the tools of one tools\npackage, for package providers, which alone may import it.", unit))
	f.ImportName(implPkg, "toolimpl")
	f.ImportName(providerPkg, "provider")
	versionGuard(f)
	f.Comment("Precomputed returns the definitions of the named tool when it is one of")
	f.Comment("this package's.")
	f.Func().Id("Precomputed").Params(jen.Id("name").String()).Params(jen.Op("*").Qual(providerPkg, "Precomputed"), jen.Bool()).Block(
		jen.Switch(jen.Id("name")).BlockFunc(func(sw *jen.Group) {
			for _, t := range tools {
				sw.Case(jen.Lit(t.name)).Block(jen.Return(jen.Op("&").Id(definitionsVar(fields[t])), jen.True()))
			}
		}),
		jen.Return(jen.Nil(), jen.False()),
	)
	f.Line()
	f.Var().DefsFunc(func(d *jen.Group) {
		for _, t := range tools {
			p := proj[t]
			d.Commentf("%s are the definitions of %s.", definitionsVar(fields[t]), t.name)
			d.Id(definitionsVar(fields[t])).Op("=").Qual(providerPkg, "Precomputed").Values(
				jen.Line().Id("Description").Op(":").Lit(p.Description),
				jen.Line().Id("InputSchema").Op(":").Add(gocode.RawString([]byte(p.InputSchema))),
				jen.Line().Id("OpenAIChat").Op(":").Add(projectionLit(p.OpenAIChat)),
				jen.Line().Id("OpenAIResponses").Op(":").Add(projectionLit(p.OpenAIResponses)),
				jen.Line().Id("Anthropic").Op(":").Add(projectionLit(p.Anthropic)),
				jen.Line().Id("Gemini").Op(":").Add(projectionLit(p.Gemini)),
				deferredLit(p.Deferred),
				jen.Line(),
			)
		}
	})
	return f
}

// definitionsVar is the variable holding the definitions of the tool
// whose Tools field is field, in its providers package.
func definitionsVar(field string) string { return "definitions" + field }

// deferredLit is the Deferred member of a Precomputed literal: nothing for
// a tool that is not deferred.
func deferredLit(d *provider.Deferred) jen.Code {
	if d == nil {
		return jen.Null()
	}
	return jen.Line().Id("Deferred").Op(":").Op("&").Qual(providerPkg, "Deferred").Values(
		jen.Line().Id("Anthropic").Op(":").Index().Byte().Parens(gocode.RawString(d.Anthropic)),
		jen.Line().Id("OpenAIResponses").Op(":").Index().Byte().Parens(gocode.RawString(d.OpenAIResponses)),
		jen.Line(),
	)
}

// projectionLit is the provider.Projection literal of p.
func projectionLit(p provider.Projection) jen.Code {
	var kv []jen.Code
	add := func(k string, v jen.Code) { kv = append(kv, jen.Line().Id(k).Op(":").Add(v)) }
	add("JSON", jen.Index().Byte().Parens(gocode.RawString(p.JSON)))
	if p.Strict {
		add("Strict", jen.True())
	}
	if p.Form != "" {
		add("Form", jen.Qual(providerPkg, formConst(p.Form)))
	}
	if p.Reason != "" {
		add("Reason", jen.Lit(p.Reason))
	}
	if len(p.Dropped) > 0 {
		var ds []jen.Code
		for _, d := range p.Dropped {
			ds = append(ds, jen.Lit(d))
		}
		add("Dropped", jen.Index().String().Values(ds...))
	}
	return jen.Qual(providerPkg, "Projection").Values(append(kv, jen.Line())...)
}

func formConst(f provider.GeminiForm) string {
	switch f {
	case provider.FormParameters:
		return "FormParameters"
	case provider.FormNone:
		return "FormNone"
	}
	return "FormJSONSchema"
}
