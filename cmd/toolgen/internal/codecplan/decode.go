package codecplan

import (
	"go/types"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// decodeSite returns statements decoding the next value into target (an
// addressable expression). An optional property treats null as absent; a
// nullable site sets the zero value.
func (g *Planner) decodeSite(s *shape.Shape, w view, target *jen.Statement, optional bool, at site) []jen.Code {
	if s == nil {
		return nil
	}
	if s.Kind == shape.Ptr {
		// A pointer publishes its element's schema; null handling is the
		// same as the element's, with nil for null.
		p := g.local(at.name, "Ptr")
		val := append([]jen.Code{jen.Id(p).Op(":=").New(gocode.Type(s.Elem.Type))},
			g.decodeValue(s.Elem, w, jen.Parens(jen.Op("*").Id(p)), at)...)
		val = append(val, target.Clone().Op("=").Id(p))
		if optional || w.nullable {
			return []jen.Code{ifNull(s, target, optional, val)}
		}
		return val
	}
	if s.Kind == shape.Any || (s.Kind == shape.JSONMethod && !optional) {
		return g.decodeValue(s, w, target, at)
	}
	val := g.decodeValue(s, w, target, at)
	if optional || w.nullable {
		return []jen.Code{ifNull(s, target, optional, val)}
	}
	return val
}

// ifNull wraps the statements decoding a value with the handling of null:
// absent for an optional property, the zero value for a nullable one.
func ifNull(s *shape.Shape, target *jen.Statement, optional bool, val []jen.Code) jen.Code {
	if optional {
		return jen.If(jen.Op("!").Id("d").Dot("Null").Call()).Block(val...)
	}
	return jen.If(jen.Id("d").Dot("Null").Call()).Block(target.Clone().Op("=").Add(zero(s.Type))).Else().Block(val...)
}

// zero is the zero value of t as an expression.
func zero(t types.Type) jen.Code {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return jen.False()
		case u.Info()&types.IsString != 0:
			return jen.Lit("")
		default:
			return jen.Lit(0)
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Signature, *types.Chan:
		return jen.Nil()
	}
	return gocode.Type(t).Values()
}

// decodeValue returns statements decoding a non-null value of shape s.
func (g *Planner) decodeValue(s *shape.Shape, w view, target *jen.Statement, at site) []jen.Code {
	if !g.check(s, w, at) {
		return nil
	}
	d := jen.Id("d")
	wnt := jen.Lit(want(s, w))
	assign := func(x jen.Code) jen.Code { return target.Clone().Op("=").Add(x) }
	conv := func(x string) jen.Code {
		if decodedAs(s) {
			return jen.Id(x)
		}
		return gocode.Type(s.Type).Call(jen.Id(x))
	}
	switch s.Kind {
	case shape.Bool:
		x, ok := g.local(at.name, "Val"), g.local(at.name, "OK")
		body := g.enumChecks(s, w, x, at)
		body = append(body, assign(conv(x)))
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Bool").Call(wnt), jen.Id(ok)).Block(body...)}
	case shape.String, shape.TextMethod:
		x, ok := g.local(at.name, "Val"), g.local(at.name, "OK")
		body := g.stringChecks(s, w, x, at)
		if s.Kind == shape.TextMethod {
			body = append(body, jen.If(jen.Err().Op(":=").Add(target.Clone()).Dot("UnmarshalText").Call(jen.Index().Byte().Parens(jen.Id(x))), jen.Err().Op("!=").Nil()).Block(
				d.Clone().Dot("Problem").Call(jen.Lit("must be a valid "+shape.TypeString(s.Type))),
			))
		} else {
			body = append(body, assign(conv(x)))
		}
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("String").Call(wnt), jen.Id(ok)).Block(body...)}
	case shape.Int, shape.Uint, shape.Float:
		x, ok := g.local(at.name, "Val"), g.local(at.name, "OK")
		method, bits := "Int", jen.Lit(s.Bits)
		switch s.Kind {
		case shape.Uint:
			method = "Uint"
		case shape.Float:
			method = "Float"
		}
		if s.Bits == 0 {
			bits = jen.Qual("strconv", "IntSize")
		}
		body := g.numberChecks(s, w, x, at)
		body = append(body, assign(conv(x)))
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot(method).Call(wnt, bits), jen.Id(ok)).Block(body...)}
	case shape.Time:
		x, ok := g.local(at.name, "Val"), g.local(at.name, "OK")
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Time").Call(wnt), jen.Id(ok)).Block(assign(conv(x)))}
	case shape.Bytes:
		x, ok := g.local(at.name, "Val"), g.local(at.name, "OK")
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Base64").Call(wnt), jen.Id(ok)).Block(assign(conv(x)))}
	case shape.Any:
		x, ok := g.local(at.name, "Val"), g.local(at.name, "OK")
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Any").Call(), jen.Id(ok)).Block(assign(jen.Id(x)))}
	case shape.JSONMethod:
		return g.decodeJSONMethod(s, w, target, at)
	case shape.Struct:
		return []jen.Code{g.decodeStruct(s, w, at).Call(d, jen.Op("&").Add(target.Clone()))}
	case shape.Slice, shape.Array:
		return g.decodeArray(s, w, target, at)
	case shape.Map:
		return g.decodeMap(s, w, target, at)
	case shape.Ptr:
		g.fail(at, "pointers to pointers are not supported")
	}
	return nil
}

// decodeJSONMethod decodes a value of a type with UnmarshalJSON: its raw
// JSON, after checking its kind when the schema publishes a type.
func (g *Planner) decodeJSONMethod(s *shape.Shape, w view, target *jen.Statement, at site) []jen.Code {
	d := jen.Id("d")
	x, ok := g.local(at.name, "Raw"), g.local(at.name, "OK")
	read := jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Raw").Call(), jen.Id(ok)).Block(
		jen.If(jen.Err().Op(":=").Add(target.Clone()).Dot("UnmarshalJSON").Call(jen.Id(x)), jen.Err().Op("!=").Nil()).Block(
			d.Clone().Dot("Problem").Call(jen.Lit("must be a valid " + shape.TypeString(s.Type))),
		))
	if t := w.get("type"); t != nil && t.Kind == jsonlex.String {
		k := g.local(at.name, "Kind")
		return []jen.Code{jen.If(jen.Id(k).Op(":=").Add(d).Dot("Kind").Call(), jen.Id(k).Op("!=").Qual(ImplPkg, kindConst(t.Text))).Block(
			d.Clone().Dot("Problem").Call(jen.Lit("expected "+want(s, w)+", got ").Op("+").Id(k).Dot("String").Call()),
			d.Clone().Dot("Skip").Call(),
		).Else().Block(read)}
	}
	return []jen.Code{read}
}

// decodedAs reports whether the decoder method for s returns exactly the
// Go type s has, so that no conversion is needed.
func decodedAs(s *shape.Shape) bool {
	var want types.Type
	switch s.Kind {
	case shape.Bool:
		want = types.Typ[types.Bool]
	case shape.String, shape.TextMethod:
		want = types.Typ[types.String]
	case shape.Int:
		want = types.Typ[types.Int64]
	case shape.Uint:
		want = types.Typ[types.Uint64]
	case shape.Float:
		want = types.Typ[types.Float64]
	case shape.Time:
		return true
	case shape.Bytes:
		want = types.NewSlice(types.Typ[types.Byte])
	default:
		return true
	}
	return types.Identical(s.Type, want)
}

// kindConst is the name of the toolimpl constant of the JSON kind the
// schema type t names.
func kindConst(t string) string {
	switch t {
	case "string":
		return "JSONString"
	case "integer", "number":
		return "JSONNumber"
	case "boolean":
		return "JSONBool"
	case "object":
		return "JSONObject"
	case "array":
		return "JSONArray"
	case "null":
		return "JSONNull"
	}
	return "JSONInvalid"
}

func (g *Planner) decodeArray(s *shape.Shape, w view, target *jen.Statement, at site) []jen.Code {
	d := jen.Id("d")
	items := viewOf(w.get("items"), at.root)
	i := g.local(at.name, "Len")
	var body []jen.Code
	if s.Kind == shape.Slice {
		// Elements are collected in a small stack buffer and copied once
		// into a slice of the right length: one allocation for a short
		// array. Past the smallest maxItems they are skipped, not kept, so
		// memory follows the schema rather than the input.
		buf, sl, e := g.local(at.name, "Buf"), g.local(at.name, "List"), g.local(at.name, "Elem")
		limit := -1
		for _, v := range w.all("maxItems") {
			if n, ok := intLit(v); ok && n >= 0 && (limit < 0 || int(n) < limit) {
				limit = int(n)
			}
		}
		decode := append(append([]jen.Code{
			jen.Var().Id(e).Add(gocode.Type(s.Elem.Type)),
		}, g.decodeSite(s.Elem, items, jen.Id(e), false, at.elem("[]", e))...),
			jen.Id(sl).Op("=").Append(jen.Id(sl), jen.Id(e)),
		)
		var step jen.Code = jen.Block(decode...)
		if limit >= 0 {
			step = jen.If(jen.Id(i).Op("<").Lit(limit)).Block(decode...).Else().Block(d.Clone().Dot("Skip").Call())
		}
		body = append(body,
			jen.Var().Id(buf).Index(jen.Lit(4)).Add(gocode.Type(s.Elem.Type)),
			jen.Id(sl).Op(":=").Id(buf).Index(jen.Op(":").Lit(0)),
			jen.Id(i).Op(":=").Lit(0),
			jen.For(jen.Op(";").Add(d.Clone().Dot("Next").Call()).Op(";").Id(i).Op("++")).Block(
				d.Clone().Dot("PushIndex").Call(jen.Id(i)),
				step,
				d.Clone().Dot("Pop").Call(),
			),
		)
		body = append(body, g.countChecks(w, jen.Id(i), "item", at)...)
		if u := w.get("uniqueItems"); u != nil && u.Kind == jsonlex.Bool && u.Bool {
			check := g.uniqueCheck(s, jen.Id(sl), at)
			if limit >= 0 {
				check = []jen.Code{jen.If(jen.Id(i).Op("<=").Lit(limit)).Block(check...)}
			}
			body = append(body, check...)
		}
		body = append(body, jen.If(jen.Len(jen.Id(sl)).Op("==").Lit(0)).Block(
			target.Clone().Op("=").Add(gocode.Type(s.Type)).Values(),
		).Else().Block(
			target.Clone().Op("=").Append(gocode.Type(s.Type).Parens(jen.Nil()), jen.Id(sl).Op("...")),
		))
	} else {
		body = append(body,
			jen.Id(i).Op(":=").Lit(0),
			jen.For(jen.Op(";").Add(d.Clone().Dot("Next").Call()).Op(";").Id(i).Op("++")).Block(
				d.Clone().Dot("PushIndex").Call(jen.Id(i)),
				jen.If(jen.Id(i).Op("<").Lit(int(s.Len))).Block(
					g.decodeSite(s.Elem, items, target.Clone().Index(jen.Id(i)), false, at.elem("[]", at.name+"Elem"))...,
				).Else().Block(d.Clone().Dot("Skip").Call()),
				d.Clone().Dot("Pop").Call(),
			),
		)
		body = append(body, g.countChecks(w, jen.Id(i), "item", at)...)
		if u := w.get("uniqueItems"); u != nil && u.Kind == jsonlex.Bool && u.Bool {
			body = append(body, g.uniqueCheck(s, target.Clone().Index(jen.Op(":")), at)...)
		}
	}
	return []jen.Code{jen.If(d.Clone().Dot("Array").Call(jen.Lit(want(s, w)))).Block(body...)}
}

func (g *Planner) decodeMap(s *shape.Shape, w view, target *jen.Statement, at site) []jen.Code {
	d := jen.Id("d")
	vals := viewOf(w.get("additionalProperties"), at.root)
	if ap := w.get("additionalProperties"); ap != nil && ap.Kind == jsonlex.Bool {
		if !ap.Bool {
			g.fail(at, "additionalProperties false on a map allows no entry at all; remove it")
			return nil
		}
		vals = view{}
	}
	m, k, ok, key, e := g.local(at.name, "Map"), g.local(at.name, "RawKey"), g.local(at.name, "OK"), g.local(at.name, "Key"), g.local(at.name, "Elem")
	mt := s.Type.Underlying().(*types.Map)
	// The look-up converts without allocating; the key kept is copied
	// into the decoder's string blocks (KeyString).
	keyExpr, keepExpr := jen.String().Parens(jen.Id(k)), d.Clone().Dot("KeyString").Call(jen.Id(k))
	if !isBasicType(mt.Key()) {
		keyExpr, keepExpr = gocode.Type(mt.Key()).Call(keyExpr), gocode.Type(mt.Key()).Call(keepExpr)
	}
	count, n := g.mapCountOf(w, at)
	var counter, incr jen.Code = jen.Null(), jen.Null()
	if count.counting() {
		counter, incr = jen.Id(n).Op(":=").Lit(0), jen.Id(n).Op("++")
	}
	return []jen.Code{jen.If(d.Clone().Dot("Object").Call(jen.Lit(want(s, w)))).Block(append([]jen.Code{
		jen.Id(m).Op(":=").Make(gocode.Type(s.Type)),
		counter,
		jen.For().Block(slices.Concat([]jen.Code{
			jen.List(jen.Id(k), jen.Id(ok)).Op(":=").Add(d.Clone()).Dot("Key").Call(),
			jen.If(jen.Op("!").Id(ok)).Block(jen.Break()),
			// Looked up before it becomes a string: a duplicate costs no
			// allocation.
			jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(m).Index(keyExpr), jen.Id("dup")).Block(
				d.Clone().Dot("DuplicateMember").Call(jen.Id(k)),
				jen.Continue(),
			),
			incr,
			count.guard(n),
			jen.Id(key).Op(":=").Add(keepExpr),
			// A key is the model's text: a problem gives its position.
			d.Clone().Dot("PushKey").Call(),
			jen.Var().Id(e).Add(gocode.Type(s.Elem.Type)),
		},
			// One statement or several (a pointer's element is allocated,
			// decoded, then assigned): each on its own line.
			g.decodeSite(s.Elem, vals, jen.Id(e), false, at.elem("[key]", e)),
			[]jen.Code{
				jen.Id(m).Index(jen.Id(key)).Op("=").Id(e),
				d.Clone().Dot("Pop").Call(),
			})...,
		),
	}, append(count.checks, target.Clone().Op("=").Id(m))...)...)}
}
