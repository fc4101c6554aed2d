package gen

import (
	"go/types"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// encodeStruct returns the name of the function encoding shape s.
func (g *codecGen) encodeStruct(s *shape, obj view, at site) string {
	key := "enc\x00" + types.TypeString(s.typ, nil) + "\x00" + viewKey(obj)
	if name, ok := g.funcs[key]; ok {
		return name
	}
	name := g.funcName("encode", s.typ, identFrom(at.where))
	g.funcs[key] = name
	defer g.startFunc(name)()
	props := obj.get("properties")
	required := requiredOf(obj)
	fw := &fieldWriter{body: []jen.Code{jen.Id("e").Dot("ObjectStart").Call()}}
	for _, f := range s.fields {
		var pw view
		if props != nil {
			pw = viewOf(props.Get(f.jsonName), at.root)
		}
		sel := selectorOf(jen.Id("v"), f.goName)
		write := append([]jen.Code{jen.Id("e").Dot("RawKey").Call(gocode.Key(f.jsonName))},
			g.encodeValue(f.shape, pw, sel, obj.ref != nil || props != nil, fieldSite(at, f))...)
		switch {
		case f.omitEmpty:
			if cond := g.nonEmpty(f.shape, sel); cond != nil {
				write = []jen.Code{jen.If(cond).Block(write...)}
			}
		case f.omitZero:
			if cond := g.nonZero(f, sel); cond != nil {
				write = []jen.Code{jen.If(cond).Block(write...)}
			}
		}
		fw.add(f, write, required[f.jsonName], at)
	}
	body := append(fw.flush(), jen.Id("e").Dot("ObjectEnd").Call())
	g.decls = append(g.decls,
		jen.Commentf("%s encodes %s as its output schema requires.", name, typeString(s.typ)),
		jen.Func().Id(name).Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder"), jen.Id("v").Op("*").Add(gocode.Type(s.typ))).Block(body...),
		jen.Line(),
	)
	return name
}

// fieldWriter collects the statements writing the fields of a struct,
// guarding those promoted through embedded pointers against a nil one:
// encoding/json leaves their fields out, which an output schema that
// requires one of them refuses, so then the encoder fails. Consecutive
// optional fields promoted through the same pointers share one check.
type fieldWriter struct {
	body  []jen.Code
	via   []embedPtr // the pointers of the open group
	group []jen.Code // the open group's statements
}

// add appends the statements writing field f.
func (w *fieldWriter) add(f *field, write []jen.Code, required bool, at site) {
	if len(f.via) == 0 || required || !slices.Equal(f.via, w.via) {
		w.flush()
	}
	switch {
	case len(f.via) == 0:
		w.body = append(w.body, write...)
	case required:
		var chain *jen.Statement
		for _, p := range f.via {
			msg := at.where + "." + p.sel + " is nil, but the output schema requires its promoted property " + problem.Quote(f.jsonName) + "; set it, or mark the promoted field omitempty"
			cond := selectorOf(jen.Id("v"), p.sel).Op("==").Nil()
			fail := jen.Id("e").Dot("Fail").Call(jen.Qual("errors", "New").Call(jen.Lit(msg)))
			if chain == nil {
				chain = jen.If(cond).Block(fail)
			} else {
				chain = chain.Else().If(cond).Block(fail)
			}
		}
		w.body = append(w.body, chain.Else().Block(write...))
	default:
		w.via = f.via
		w.group = append(w.group, write...)
	}
}

// flush closes the open group and returns the statements so far.
func (w *fieldWriter) flush() []jen.Code {
	if len(w.via) > 0 {
		var cond *jen.Statement
		for _, p := range w.via {
			c := selectorOf(jen.Id("v"), p.sel).Op("!=").Nil()
			if cond != nil {
				c = cond.Op("&&").Add(c)
			}
			cond = c
		}
		w.body = append(w.body, jen.If(cond).Block(w.group...))
	}
	w.via, w.group = nil, nil
	return w.body
}

// nonEmpty is encoding/json's omitempty test, or nil when a value of the
// shape is never empty.
func (g *codecGen) nonEmpty(s *shape, x *jen.Statement) jen.Code {
	switch s.typ.Underlying().(type) {
	case *types.Basic:
		b := s.typ.Underlying().(*types.Basic)
		switch {
		case b.Info()&types.IsBoolean != 0:
			return x.Clone()
		case b.Info()&types.IsString != 0:
			return x.Clone().Op("!=").Lit("")
		case b.Info()&types.IsNumeric != 0:
			return x.Clone().Op("!=").Lit(0)
		}
	case *types.Pointer, *types.Interface:
		return x.Clone().Op("!=").Nil()
	case *types.Slice, *types.Map:
		return jen.Len(x.Clone()).Op("!=").Lit(0)
	case *types.Array:
		if s.kind == kArray && s.length == 0 {
			return jen.Lit(false)
		}
		return nil
	}
	return nil
}

// nonZero is encoding/json's omitzero test.
func (g *codecGen) nonZero(f *field, x *jen.Statement) jen.Code {
	t := f.shape.typ
	if hasMethod(t, "IsZero") {
		return jen.Op("!").Add(x.Clone()).Dot("IsZero").Call()
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return g.nonEmpty(f.shape, x)
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map:
		return x.Clone().Op("!=").Nil()
	case *types.Struct, *types.Array:
		if types.Comparable(u) {
			return x.Clone().Op("!=").Parens(gocode.Type(t).Values())
		}
	}
	g.fail(site{pos: f.pos, where: typeString(t)}, "omitzero needs a comparable type or an IsZero method")
	return nil
}

// encodeValue returns statements writing x (an addressable expression).
// strict is true under an output schema: a nil pointer in a place that
// does not allow null is an error instead of an invalid document.
func (g *codecGen) encodeValue(s *shape, w view, x *jen.Statement, strict bool, at site) []jen.Code {
	e := jen.Id("e")
	if s == nil {
		return nil
	}
	val := func(conv jen.Code) *jen.Statement {
		if conv == nil {
			return x.Clone()
		}
		return jen.Add(conv).Parens(x.Clone())
	}
	switch s.kind {
	case kBool:
		return []jen.Code{e.Clone().Dot("Bool").Call(val(basicConv(s.typ, jen.Bool())))}
	case kString:
		return []jen.Code{e.Clone().Dot("String").Call(val(basicConv(s.typ, jen.String())))}
	case kInt:
		return []jen.Code{e.Clone().Dot("Int").Call(val(jen.Int64()))}
	case kUint:
		return []jen.Code{e.Clone().Dot("Uint").Call(val(jen.Uint64()))}
	case kFloat:
		return []jen.Code{e.Clone().Dot("Float").Call(val(jen.Float64()), jen.Lit(s.bits))}
	case kTime:
		return []jen.Code{e.Clone().Dot("Time").Call(val(nil))}
	case kBytes:
		return []jen.Code{e.Clone().Dot("Base64").Call(val(basicConv(s.typ, jen.Index().Byte())))}
	case kAny:
		return []jen.Code{e.Clone().Dot("Any").Call(val(nil))}
	case kTextMethod:
		return []jen.Code{e.Clone().Dot("Text").Call(x.Clone().Dot("MarshalText").Call())}
	case kJSONMethod:
		return []jen.Code{e.Clone().Dot("JSON").Call(x.Clone().Dot("MarshalJSON").Call())}
	case kPtr:
		var null jen.Code = e.Clone().Dot("Null").Call()
		if strict && !w.nullable && s.elem.kind != kAny && s.elem.kind != kJSONMethod {
			null = e.Clone().Dot("Fail").Call(jen.Qual("errors", "New").Call(jen.Lit(at.where + " is nil, but the output schema requires a value; mark the field omitempty or nullable")))
		}
		return []jen.Code{jen.If(x.Clone().Op("==").Nil()).Block(null).Else().Block(
			g.encodeValue(s.elem, w, jen.Parens(jen.Op("*").Add(x.Clone())), strict, at)...)}
	case kStruct:
		name := g.encodeStruct(s, w, at)
		return []jen.Code{jen.Id(name).Call(e, jen.Op("&").Add(x.Clone()))}
	case kSlice, kArray:
		i := g.local(at.name, "Idx")
		items := viewOf(w.get("items"), at.root)
		return []jen.Code{
			e.Clone().Dot("ArrayStart").Call(),
			jen.For(jen.Id(i).Op(":=").Range().Add(x.Clone())).Block(
				g.encodeValue(s.elem, items, x.Clone().Index(jen.Id(i)), strict, at.elem("[]", at.name+"Elem"))...),
			e.Clone().Dot("ArrayEnd").Call(),
		}
	case kMap:
		k, v := g.local(at.name, "Key"), g.local(at.name, "Elem")
		vals := viewOf(w.get("additionalProperties"), at.root)
		keyStr := jen.Id(k)
		mt := s.typ.Underlying().(*types.Map)
		if !isBasicType(mt.Key()) {
			keyStr = jen.String().Parens(jen.Id(k))
		}
		return []jen.Code{
			e.Clone().Dot("ObjectStart").Call(),
			jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(x.Clone()))).Block(append([]jen.Code{
				jen.Id(v).Op(":=").Add(x.Clone()).Index(jen.Id(k)),
				e.Clone().Dot("Key").Call(keyStr),
			}, g.encodeValue(s.elem, vals, jen.Id(v), strict, at.elem("[key]", v))...)...),
			e.Clone().Dot("ObjectEnd").Call(),
		}
	}
	return nil
}

// basicConv is the conversion to the basic type the encoder takes, or nil
// when the value already has it.
func basicConv(t types.Type, to *jen.Statement) jen.Code {
	if isBasicType(t) {
		if b, ok := t.(*types.Basic); ok && (b.Kind() == types.String || b.Kind() == types.Bool) {
			return nil
		}
	}
	if _, ok := t.(*types.Slice); ok {
		return nil
	}
	return to
}

func isBasicType(t types.Type) bool {
	_, ok := t.(*types.Basic)
	return ok
}
