package codecplan

import (
	"go/types"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// encodeStruct returns the function encoding shape s, writing it on
// first use in the codec package of its type.
func (g *Planner) encodeStruct(s *shape.Shape, obj view, at site) Func {
	defer g.enter(s.Type)()
	key := "enc\x00" + types.TypeString(s.Type, nil) + "\x00" + viewKey(obj)
	if name, ok := g.cur.funcs[key]; ok {
		return g.ref(name)
	}
	name := g.funcName("Encode", s.Type, identFrom(at.where))
	g.cur.funcs[key] = name
	defer g.startFunc(name)()
	props := obj.get("properties")
	required := requiredOf(obj)
	fw := &fieldWriter{}
	// written says that a member before this one is always written, so
	// the ',' before this one's name is certain.
	written := false
	// closing is the ']' or '}' that the last statement written closes
	// the previous member's array or map with, when that member is
	// always written: the next member always written writes it with its
	// own text (`],"total":`) instead.
	closing := ""
	for i, f := range s.Fields {
		var pw view
		if props != nil {
			pw = viewOf(props.Get(f.JSONName), at.root)
		}
		sel := selectorOf(jen.Id("v"), f.GoName)
		var cond jen.Code
		switch {
		case f.OmitEmpty:
			cond = g.nonEmpty(f.Shape, sel)
		case f.OmitZero:
			cond = g.nonZero(f, sel)
		}
		// The '{' and the first member's name are one constant write
		// when that member is always written: RawKey writes the ','
		// the object itself may need, as ObjectStart would. After a
		// member always written, the ',' and the name are one constant
		// write too (RawMember).
		key, method := gocode.KeyText(f.JSONName), "RawKey"
		always := cond == nil && len(f.Via) == 0
		switch {
		case written:
			key, method = ","+key, "RawMember"
		case i > 0:
		case always:
			key = "{" + key
		default:
			fw.body = append(fw.body, jen.Id("e").Dot("ObjectStart").Call())
		}
		written = written || always
		if closing != "" && always && method == "RawMember" {
			fw.body = fw.body[:len(fw.body)-1]
			key = closing + key
		}
		write, closes := g.encodeMember(method, key, f.Shape, pw, sel, obj.ref != nil || props != nil, fieldSite(at, f))
		closing = ""
		if always {
			closing = closes
		}
		if cond != nil {
			write = []jen.Code{jen.If(cond).Block(write...)}
		}
		fw.add(f, write, required[f.JSONName], at)
	}
	if len(s.Fields) == 0 {
		fw.body = append(fw.body, jen.Id("e").Dot("ObjectStart").Call())
	}
	body := append(fw.flush(), jen.Id("e").Dot("ObjectEnd").Call())
	g.cur.decls = append(g.cur.decls,
		jen.Commentf("%s encodes %s as its output schema requires.", name, shape.TypeString(s.Type)),
		jen.Func().Id(name).Params(jen.Id("e").Op("*").Qual(ImplPkg, "Encoder"), jen.Id("v").Op("*").Add(gocode.Type(s.Type))).Block(body...),
		jen.Line(),
	)
	return g.ref(name)
}

// fieldWriter collects the statements writing the fields of a struct,
// guarding those promoted through embedded pointers against a nil one:
// encoding/json leaves their fields out, which an output schema that
// requires one of them refuses, so then the encoder fails. Consecutive
// optional fields promoted through the same pointers share one check.
type fieldWriter struct {
	body  []jen.Code
	via   []shape.EmbedPtr // the pointers of the open group
	group []jen.Code       // the open group's statements
}

// add appends the statements writing field f.
func (w *fieldWriter) add(f *shape.Field, write []jen.Code, required bool, at site) {
	if len(f.Via) == 0 || required || !slices.Equal(f.Via, w.via) {
		w.flush()
	}
	switch {
	case len(f.Via) == 0:
		w.body = append(w.body, write...)
	case required:
		var chain *jen.Statement
		for _, p := range f.Via {
			msg := at.where + "." + p.Sel + " is nil, but the output schema requires its promoted property " + problem.Quote(f.JSONName) + "; set it, or mark the promoted field omitempty"
			cond := selectorOf(jen.Id("v"), p.Sel).Op("==").Nil()
			fail := jen.Id("e").Dot("Fail").Call(jen.Qual("errors", "New").Call(jen.Lit(msg)))
			if chain == nil {
				chain = jen.If(cond).Block(fail)
			} else {
				chain = chain.Else().If(cond).Block(fail)
			}
		}
		w.body = append(w.body, chain.Else().Block(write...))
	default:
		w.via = f.Via
		w.group = append(w.group, write...)
	}
}

// flush closes the open group and returns the statements so far.
func (w *fieldWriter) flush() []jen.Code {
	if len(w.via) > 0 {
		var cond *jen.Statement
		for _, p := range w.via {
			c := selectorOf(jen.Id("v"), p.Sel).Op("!=").Nil()
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
func (g *Planner) nonEmpty(s *shape.Shape, x *jen.Statement) jen.Code {
	switch s.Type.Underlying().(type) {
	case *types.Basic:
		b := s.Type.Underlying().(*types.Basic)
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
		if s.Kind == shape.Array && s.Len == 0 {
			return jen.Lit(false)
		}
		return nil
	}
	return nil
}

// nonZero is encoding/json's omitzero test.
func (g *Planner) nonZero(f *shape.Field, x *jen.Statement) jen.Code {
	t := f.Shape.Type
	if shape.HasMethod(t, "IsZero") {
		return jen.Op("!").Add(x.Clone()).Dot("IsZero").Call()
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return g.nonEmpty(f.Shape, x)
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map:
		return x.Clone().Op("!=").Nil()
	case *types.Struct, *types.Array:
		if types.Comparable(u) {
			return x.Clone().Op("!=").Parens(gocode.Type(t).Values())
		}
	}
	g.fail(site{pos: f.Pos, where: shape.TypeString(t)}, "omitzero needs a comparable type or an IsZero method")
	return nil
}

// encodeMember returns statements writing a member: its key text (the
// ',' or '{' before it included) with method, RawKey or RawMember, then
// x's value. The writes are fused where the encoder allows it: a scalar
// after RawMember is one call of the scalar's Member method
// (e.StringMember(`,"title":`, v.Title)), and the '[' or '{' opening an
// array or a map is part of the key's text, since neither needs a ','
// after a key; closes is then the ']' or '}' that the last statement
// writes, which encodeStruct moves into the next member's text when it
// can. Each call the generated encoders make is compiled at its site:
// fewer, smaller sites are the codec packages' compile.
func (g *Planner) encodeMember(method, key string, s *shape.Shape, w view, x *jen.Statement, strict bool, at site) (stmts []jen.Code, closes string) {
	e := jen.Id("e")
	if method == "RawMember" && s != nil {
		if name, args := scalarWrite(s, x); name != "" {
			return []jen.Code{e.Dot(name + "Member").Call(append([]jen.Code{gocode.KeyLit(key)}, args...)...)}, ""
		}
	}
	val := g.encodeValue(s, w, x, strict, at)
	if s != nil && len(val) == 3 {
		// encodeValue opens the array or map, loops, and closes it.
		switch s.Kind {
		case shape.Slice, shape.Array:
			key, val, closes = key+"[", val[1:], "]"
		case shape.Map:
			key, val, closes = key+"{", val[1:], "}"
		}
	}
	return append([]jen.Code{e.Dot(method).Call(gocode.KeyLit(key))}, val...), closes
}

// scalarWrite returns the Encoder method writing x when shape s is a
// scalar the encoder has a Member method for, and its arguments; or "".
func scalarWrite(s *shape.Shape, x *jen.Statement) (string, []jen.Code) {
	val := func(conv jen.Code) *jen.Statement { return converted(x, conv) }
	switch s.Kind {
	case shape.Bool:
		return "Bool", []jen.Code{val(basicConv(s.Type, jen.Bool()))}
	case shape.String:
		return "String", []jen.Code{val(basicConv(s.Type, jen.String()))}
	case shape.Int:
		return "Int", []jen.Code{val(jen.Int64())}
	case shape.Uint:
		return "Uint", []jen.Code{val(jen.Uint64())}
	case shape.Float:
		return "Float", []jen.Code{val(jen.Float64()), jen.Lit(s.Bits)}
	case shape.Time:
		return "Time", []jen.Code{val(nil)}
	}
	return "", nil
}

// converted is x converted by conv, or x when conv is nil.
func converted(x *jen.Statement, conv jen.Code) *jen.Statement {
	if conv == nil {
		return x.Clone()
	}
	return jen.Add(conv).Parens(x.Clone())
}

// encodeValue returns statements writing x (an addressable expression).
// strict is true under an output schema: a nil pointer in a place that
// does not allow null is an error instead of an invalid document.
func (g *Planner) encodeValue(s *shape.Shape, w view, x *jen.Statement, strict bool, at site) []jen.Code {
	e := jen.Id("e")
	if s == nil {
		return nil
	}
	if name, args := scalarWrite(s, x); name != "" {
		return []jen.Code{e.Clone().Dot(name).Call(args...)}
	}
	val := func(conv jen.Code) *jen.Statement { return converted(x, conv) }
	switch s.Kind {
	case shape.Bytes:
		return []jen.Code{e.Clone().Dot("Base64").Call(val(basicConv(s.Type, jen.Index().Byte())))}
	case shape.Any:
		return []jen.Code{e.Clone().Dot("Any").Call(val(nil))}
	case shape.TextMethod:
		return []jen.Code{e.Clone().Dot("Text").Call(x.Clone().Dot("MarshalText").Call())}
	case shape.JSONMethod:
		return []jen.Code{e.Clone().Dot("JSON").Call(x.Clone().Dot("MarshalJSON").Call())}
	case shape.Ptr:
		var null jen.Code = e.Clone().Dot("Null").Call()
		if strict && !w.nullable && s.Elem.Kind != shape.Any && s.Elem.Kind != shape.JSONMethod {
			null = e.Clone().Dot("Fail").Call(jen.Qual("errors", "New").Call(jen.Lit(at.where + " is nil, but the output schema requires a value; mark the field omitempty or nullable")))
		}
		return []jen.Code{jen.If(x.Clone().Op("==").Nil()).Block(null).Else().Block(
			g.encodeValue(s.Elem, w, jen.Parens(jen.Op("*").Add(x.Clone())), strict, at)...)}
	case shape.Struct:
		return []jen.Code{g.encodeStruct(s, w, at).Call(e, jen.Op("&").Add(x.Clone()))}
	case shape.Slice, shape.Array:
		i := g.local(at.name, "Idx")
		items := viewOf(w.get("items"), at.root)
		return []jen.Code{
			e.Clone().Dot("ArrayStart").Call(),
			jen.For(jen.Id(i).Op(":=").Range().Add(x.Clone())).Block(
				g.encodeValue(s.Elem, items, x.Clone().Index(jen.Id(i)), strict, at.elem("[]", at.name+"Elem"))...),
			e.Clone().Dot("ArrayEnd").Call(),
		}
	case shape.Map:
		k, v := g.local(at.name, "Key"), g.local(at.name, "Elem")
		vals := viewOf(w.get("additionalProperties"), at.root)
		keyStr := jen.Id(k)
		mt := s.Type.Underlying().(*types.Map)
		if !isBasicType(mt.Key()) {
			keyStr = jen.String().Parens(jen.Id(k))
		}
		return []jen.Code{
			e.Clone().Dot("ObjectStart").Call(),
			jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(x.Clone()))).Block(append([]jen.Code{
				jen.Id(v).Op(":=").Add(x.Clone()).Index(jen.Id(k)),
				e.Clone().Dot("Key").Call(keyStr),
			}, g.encodeValue(s.Elem, vals, jen.Id(v), strict, at.elem("[key]", v))...)...),
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
