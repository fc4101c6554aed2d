package gen

import "github.com/dave/jennifer/jen"

// The generated code of the Offered and LogArgs methods a tool type may
// have (checked by the model phase, 3_model_hooks.go).

// offeredFunc is the offered method of a set package's Tools: per tool
// with an Offered method, what it returns; true for the others. ToolSet
// hands it to the registry (toolimpl.Set's Offered); nil when no tool of
// the set has one.
func offeredFunc(tools []*toolModel, fields map[*toolModel]string) jen.Code {
	var cases []jen.Code
	for _, t := range tools {
		if t.hasOffered {
			cases = append(cases, jen.Case(jen.Id(indexConst(fields[t]))).Block(
				jen.Return(jen.Id("t").Dot(fields[t]).Dot("Offered").Call(jen.Id("ctx"))),
			))
		}
	}
	if len(cases) == 0 {
		return nil
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.True())))
	return doc(
		"offered reports whether the tool whose index in the set is i is offered",
		"to the caller ctx carries: what its Offered method returns, or true",
		"when it has none.",
	).Func().Params(jen.Id("t").Op("*").Id("Tools")).Id("offered").Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("i").Int(),
	).Bool().Block(jen.Switch(jen.Id("i")).Block(cases...))
}

// logCase is the ModeLog branch of the call function of a tool t with a
// LogArgs method: the form it gives, as a JSON string, and nothing run.
func logCase() jen.Code {
	return jen.If(jen.Id("mode").Op("==").Qual(implPkg, "ModeLog")).Block(
		jen.Id("e").Dot("String").Call(jen.Id("t").Dot("LogArgs").Call(jen.Id("in"))),
		jen.Return(jen.Qual(implPkg, "OutputText"), jen.Nil()),
	)
}

// anyOffered reports whether a tool of m has an Offered method.
func anyOffered(m *model) bool { return anyOfferedIn(m.tools) }

// anyOfferedIn reports whether one of tools has an Offered method.
func anyOfferedIn(tools []*toolModel) bool {
	for _, t := range tools {
		if t.hasOffered {
			return true
		}
	}
	return false
}
