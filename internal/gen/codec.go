package gen

import (
	"fmt"
	"go/token"
	"go/types"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// The decoders toolgen writes are derived from the published schema, mapped
// back to the Go fields: every keyword the schema publishes is enforced by
// generated code, and a keyword that cannot be enforced fails generation
// at the field that declares it. Encoders follow the Go types, writing
// what the output schema requires: every non-omitempty field, nil slices
// as [] and nil maps as {}.

const (
	codecPkg = "github.com/toolgen-go/toolgen/runtime/codec"
)

// annotations are keywords that constrain nothing.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
	"$id": true, "$anchor": true, "contentMediaType": true,
}

// codecGen accumulates the decode and encode functions of one registry.
type codecGen struct {
	fset  *token.FileSet
	decls []jen.Code
	errs  []*Error

	funcs    map[string]string // dedup key -> function name
	names    map[string]bool   // function and variable names in use
	patterns map[string]string // regexp source -> package-level variable
	tmp      int
}

func newCodecGen(fset *token.FileSet) *codecGen {
	return &codecGen{fset: fset, funcs: map[string]string{}, names: map[string]bool{}, patterns: map[string]string{}}
}

func (g *codecGen) fail(pos token.Position, where, format string, args ...any) {
	g.errs = append(g.errs, errorf(pos, "%s: "+format, append([]any{where}, args...)...))
}

// v returns a fresh local variable name with the given stem.
func (g *codecGen) v(stem string) string {
	g.tmp++
	return stem + strconv.Itoa(g.tmp)
}

// funcName returns an unused function name built from the type's name.
func (g *codecGen) funcName(prefix string, t types.Type, hint string) string {
	base := prefix + hint
	if n, ok := t.(*types.Named); ok {
		base = prefix + exportedIdent(n.Obj().Pkg().Name()) + n.Obj().Name()
	}
	name := base
	for i := 2; g.names[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	g.names[name] = true
	return name
}

// ---- schema views ----

// view is a schema position: the keywords at a site merged with those of
// the definition it references, and whether null is allowed there.
type view struct {
	kw       []jsontree.Member // site keywords then the referenced definition's
	nullable bool
	ref      *jsontree.Node // the referenced definition, if any
}

func (w view) get(key string) *jsontree.Node {
	for _, m := range w.kw {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// all returns every value of key (a $ref sibling and its target may both
// carry one; both must hold).
func (w view) all(key string) []*jsontree.Node {
	var out []*jsontree.Node
	for _, m := range w.kw {
		if m.Key == key {
			out = append(out, m.Value)
		}
	}
	return out
}

// viewOf resolves a schema position against root. It recognises invopop's
// nullable form, {"oneOf":[S,{"type":"null"}]}, and a type list holding
// "null".
func viewOf(n, root *jsontree.Node) view {
	var w view
	if n == nil {
		return w
	}
	if one := n.Get("oneOf"); one != nil && one.Kind == jsontree.ArrayKind && len(one.Items) == 2 {
		if t := one.Items[1].Get("type"); t != nil && t.Kind == jsontree.StringKind && t.Text == "null" && len(one.Items[1].Members) == 1 {
			inner := viewOf(one.Items[0], root)
			inner.nullable = true
			for _, m := range n.Members {
				if m.Key != "oneOf" {
					inner.kw = append([]jsontree.Member{m}, inner.kw...)
				}
			}
			return inner
		}
	}
	for _, m := range n.Members {
		if m.Key == "$ref" {
			continue
		}
		w.kw = append(w.kw, m)
	}
	if r := n.Get("$ref"); r != nil {
		def := n.Resolve(root)
		if def != nil && def != n {
			w.ref = def
			inner := viewOf(def, root)
			w.kw = append(w.kw, inner.kw...)
			w.nullable = w.nullable || inner.nullable
		}
	}
	if t := w.get("type"); t != nil && t.Kind == jsontree.ArrayKind {
		var rest []*jsontree.Node
		for _, it := range t.Items {
			if it.Kind == jsontree.StringKind && it.Text == "null" {
				w.nullable = true
			} else {
				rest = append(rest, it)
			}
		}
		if len(rest) == 1 {
			for i, m := range w.kw {
				if m.Key == "type" {
					w.kw[i] = jsontree.Member{Key: "type", Value: rest[0]}
				}
			}
		}
	}
	return w
}

// allowed is the set of keywords a shape kind enforces.
func allowed(k shapeKind) map[string]bool {
	set := func(keys ...string) map[string]bool {
		m := map[string]bool{"type": true}
		for _, k := range keys {
			m[k] = true
		}
		return m
	}
	switch k {
	case kString:
		return set("enum", "const", "minLength", "maxLength", "pattern", "format")
	case kTextMethod:
		return set("enum", "const", "minLength", "maxLength", "pattern", "format")
	case kTime:
		return set("format")
	case kBytes:
		return set("contentEncoding")
	case kInt, kUint, kFloat:
		return set("enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
	case kBool:
		return set("enum", "const")
	case kSlice, kArray:
		return set("items", "minItems", "maxItems", "uniqueItems")
	case kMap:
		return set("additionalProperties")
	case kStruct:
		return set("properties", "required", "additionalProperties")
	case kJSONMethod:
		return set()
	}
	return map[string]bool{} // kAny: annotations only
}

// jsonType is the schema type a shape kind must publish.
func jsonType(k shapeKind) string {
	switch k {
	case kString, kTextMethod, kTime, kBytes:
		return "string"
	case kInt, kUint:
		return "integer"
	case kFloat:
		return "number"
	case kBool:
		return "boolean"
	case kSlice, kArray:
		return "array"
	case kMap, kStruct:
		return "object"
	}
	return ""
}

// check reports every keyword at w that the shape cannot enforce, and a
// type that does not match the Go type.
func (g *codecGen) check(s *shape, w view, pos token.Position, where string) bool {
	ok := true
	ak := allowed(s.kind)
	for _, m := range w.kw {
		if annotations[m.Key] || ak[m.Key] || (m.Key == "$defs" && s.kind == kStruct) {
			continue
		}
		g.fail(pos, where, "the schema keyword %q is published but toolgen cannot enforce it on %s; remove it (toolgen never publishes a constraint it does not check)", m.Key, typeString(s.typ))
		ok = false
	}
	if t := w.get("type"); t != nil {
		want := jsonType(s.kind)
		switch {
		case t.Kind != jsontree.StringKind:
			g.fail(pos, where, "the schema type %s is not supported; use one type (optionally with null via the nullable tag)", string(t.Compact()))
			ok = false
		case s.kind == kJSONMethod:
		case t.Text != want:
			g.fail(pos, where, "the schema says type %q but the Go type %s is decoded as %q", t.Text, typeString(s.typ), want)
			ok = false
		}
	}
	if f := w.get("format"); f != nil && (s.kind == kString || s.kind == kTextMethod || s.kind == kTime) {
		if f.Text != "date-time" {
			g.fail(pos, where, "format %q is not enforced by toolgen (only date-time is); remove it or check the value in Call and return tool.Errorf", f.Text)
			ok = false
		}
	}
	if c := w.get("contentEncoding"); c != nil && c.Text != "base64" {
		g.fail(pos, where, "contentEncoding %q is not supported (only base64)", c.Text)
		ok = false
	}
	return ok
}

// want describes what a site declares, for "expected <want>, got <kind>".
func want(s *shape, w view) string {
	base := jsonType(s.kind)
	if t := w.get("type"); t != nil && t.Kind == jsontree.StringKind {
		base = t.Text
	}
	if base == "" {
		base = "a JSON value"
	}
	var parts []string
	for _, m := range w.kw {
		switch m.Key {
		case "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "pattern":
			parts = append(parts, m.Key+" "+literal(m.Value))
		case "format":
			parts = append(parts, "format "+m.Value.Text)
		case "enum":
			parts = append(parts, "one of "+enumList(m.Value))
		case "const":
			parts = append(parts, "const "+string(m.Value.Compact()))
		}
	}
	if s.kind == kTime {
		base = "string"
		if len(parts) == 0 {
			parts = append(parts, "format date-time")
		}
	}
	if w.nullable {
		base += " or null"
	}
	if len(parts) > 0 {
		return base + " (" + strings.Join(parts, ", ") + ")"
	}
	return base
}

func literal(n *jsontree.Node) string {
	if n.Kind == jsontree.StringKind {
		return n.Text
	}
	return string(n.Compact())
}

func enumList(n *jsontree.Node) string {
	var vals []string
	for _, it := range n.Items {
		vals = append(vals, string(it.Compact()))
	}
	return strings.Join(vals, ", ")
}

// ---- decoders ----

// decodeStruct returns the name of the function decoding shape s (a
// struct) against the object schema obj, writing it on first use.
func (g *codecGen) decodeStruct(s *shape, obj view, root *jsontree.Node, pos token.Position, where string) string {
	key := "dec\x00" + types.TypeString(s.typ, nil) + "\x00" + viewKey(obj)
	if name, ok := g.funcs[key]; ok {
		return name
	}
	name := g.funcName("decode", s.typ, identFrom(where))
	g.funcs[key] = name
	if !g.check(s, obj, pos, where) {
		return name
	}
	saved := g.tmp
	g.tmp = 0
	defer func() { g.tmp = saved }()
	props := obj.get("properties")
	required := map[string]bool{}
	if r := obj.get("required"); r != nil {
		for _, it := range r.Items {
			required[it.Text] = true
		}
	}
	closed := false
	if ap := obj.get("additionalProperties"); ap != nil {
		switch {
		case ap.Kind == jsontree.BoolKind && !ap.Bool:
			closed = true
		case ap.Kind == jsontree.BoolKind || (ap.Kind == jsontree.ObjectKind && len(ap.Members) == 0):
		default:
			g.fail(pos, where, "additionalProperties with a schema is not supported on a struct; only false (the default) or true")
		}
	}
	byName := map[string]*field{}
	for _, f := range s.fields {
		byName[f.jsonName] = f
	}
	type prop struct {
		name string
		f    *field
		node *jsontree.Node
	}
	var list []prop
	if props != nil {
		for _, m := range props.Members {
			f := byName[m.Key]
			if f == nil {
				g.fail(pos, where, "the schema has a property %q that no Go field decodes (a JSONSchema hook added it?)", m.Key)
				continue
			}
			list = append(list, prop{m.Key, f, m.Value})
		}
	}
	for r := range required {
		if props == nil || props.Get(r) == nil {
			g.fail(pos, where, "the schema requires %q, which is not a property", r)
		}
	}
	words := (len(list) + 63) / 64
	body := []jen.Code{
		jen.If(jen.Op("!").Id("d").Dot("Object").Call(jen.Lit(want(s, obj)))).Block(jen.Return()),
	}
	if words > 0 {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit(words)).Uint64())
	}
	var cases []jen.Code
	for i, p := range list {
		word, bit := i/64, jen.Op(fmt.Sprintf("(1 << %d)", i%64))
		seenBit := jen.Id("seen").Index(jen.Lit(word)).Op("&").Add(bit)
		fieldWhere := where + "." + p.f.goName
		var inner []jen.Code
		inner = append(inner, g.decodeSite(p.f.shape, viewOf(p.node, root), root, jen.Id("v").Dot(p.f.goName), !required[p.name], p.f.pos, fieldWhere)...)
		cases = append(cases, jen.Case(jen.Lit(p.name)).Block(
			jen.Id("d").Dot("Push").Call(jen.Lit(p.name)),
			jen.If(jen.Add(seenBit).Op("!=").Lit(0)).Block(
				jen.Id("d").Dot("Duplicate").Call(),
				jen.Id("d").Dot("Skip").Call(),
			).Else().Block(append([]jen.Code{
				jen.Id("seen").Index(jen.Lit(word)).Op("|=").Op(fmt.Sprintf("1 << %d", i%64)),
			}, inner...)...),
			jen.Id("d").Dot("Pop").Call(),
		))
	}
	body = append(body, memberLoop(cases, closed))
	for i, p := range list {
		if required[p.name] {
			body = append(body, jen.If(jen.Id("seen").Index(jen.Lit(i/64)).Op("&").Op(fmt.Sprintf("(1 << %d)", i%64)).Op("==").Lit(0)).Block(
				jen.Id("d").Dot("Missing").Call(jen.Lit(p.name)),
			))
		}
	}
	g.decls = append(g.decls,
		jen.Commentf("%s decodes %s, checking it against its published schema.", name, typeString(s.typ)),
		jen.Func().Id(name).Params(jen.Id("d").Op("*").Qual(codecPkg, "Decoder"), jen.Id("v").Op("*").Add(typeCode(s.typ))).Block(body...),
		jen.Line(),
	)
	return name
}

// memberLoop reads an object's members: each named property by its case,
// any other member refused (closed) or skipped.
func memberLoop(cases []jen.Code, closed bool) jen.Code {
	other := jen.Id("d").Dot("Skip").Call()
	keyVar := "_"
	if closed {
		other = jen.Id("d").Dot("Unknown").Call(jen.Id("key"))
		keyVar = "key"
	}
	var handle jen.Code = other
	if len(cases) > 0 {
		keyVar = "key"
		handle = jen.Switch(jen.String().Parens(jen.Id("key"))).Block(append(cases, jen.Default().Block(other))...)
	}
	return jen.For().Block(
		jen.List(jen.Id(keyVar), jen.Id("ok")).Op(":=").Id("d").Dot("Key").Call(),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
		handle,
	)
}

// viewKey identifies a schema view for function reuse.
func viewKey(w view) string {
	var b strings.Builder
	for _, m := range w.kw {
		if m.Key == "$defs" {
			continue
		}
		b.WriteString(m.Key)
		b.WriteByte('=')
		b.Write(m.Value.Compact())
		b.WriteByte(';')
	}
	if w.nullable {
		b.WriteString("null")
	}
	return b.String()
}

// decodeSite returns statements decoding the next value into target (an
// addressable expression). An optional property treats null as absent; a
// nullable site sets the zero value.
func (g *codecGen) decodeSite(s *shape, w view, root *jsontree.Node, target *jen.Statement, optional bool, pos token.Position, where string) []jen.Code {
	if s == nil {
		return nil
	}
	if s.kind == kPtr {
		// A pointer publishes its element's schema; null handling is the
		// same as the element's, with nil for null.
		p := g.v("p")
		val := append([]jen.Code{jen.Id(p).Op(":=").New(typeCode(s.elem.typ))},
			g.decodeValue(s.elem, w, root, jen.Parens(jen.Op("*").Id(p)), pos, where)...)
		val = append(val, target.Clone().Op("=").Id(p))
		if optional || w.nullable {
			return []jen.Code{ifNull(s, target, optional, val)}
		}
		return val
	}
	if s.kind == kAny || (s.kind == kJSONMethod && !optional) {
		return g.decodeValue(s, w, root, target, pos, where)
	}
	val := g.decodeValue(s, w, root, target, pos, where)
	if optional || w.nullable {
		return []jen.Code{ifNull(s, target, optional, val)}
	}
	return val
}

// ifNull wraps the statements decoding a value with the handling of null:
// absent for an optional property, the zero value for a nullable one.
func ifNull(s *shape, target *jen.Statement, optional bool, val []jen.Code) jen.Code {
	if optional {
		return jen.If(jen.Op("!").Id("d").Dot("Null").Call()).Block(val...)
	}
	return jen.If(jen.Id("d").Dot("Null").Call()).Block(target.Clone().Op("=").Add(zero(s.typ))).Else().Block(val...)
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
	return typeCode(t).Values()
}

// decodeValue returns statements decoding a non-null value of shape s.
func (g *codecGen) decodeValue(s *shape, w view, root *jsontree.Node, target *jen.Statement, pos token.Position, where string) []jen.Code {
	if !g.check(s, w, pos, where) {
		return nil
	}
	d := jen.Id("d")
	wnt := jen.Lit(want(s, w))
	assign := func(x jen.Code) jen.Code { return target.Clone().Op("=").Add(x) }
	conv := func(x string) jen.Code {
		if decodedAs(s) {
			return jen.Id(x)
		}
		return typeCode(s.typ).Call(jen.Id(x))
	}
	switch s.kind {
	case kBool:
		x, ok := g.v("b"), g.v("ok")
		body := g.enumChecks(s, w, x, pos, where)
		body = append(body, assign(conv(x)))
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Bool").Call(wnt), jen.Id(ok)).Block(body...)}
	case kString, kTextMethod:
		x, ok := g.v("s"), g.v("ok")
		body := g.stringChecks(s, w, x, pos, where)
		if s.kind == kTextMethod {
			body = append(body, jen.If(jen.Err().Op(":=").Add(target.Clone()).Dot("UnmarshalText").Call(jen.Index().Byte().Parens(jen.Id(x))), jen.Err().Op("!=").Nil()).Block(
				d.Clone().Dot("Problem").Call(jen.Lit("must be a valid "+typeString(s.typ))),
			))
		} else {
			body = append(body, assign(conv(x)))
		}
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("String").Call(wnt), jen.Id(ok)).Block(body...)}
	case kInt, kUint, kFloat:
		x, ok := g.v("n"), g.v("ok")
		method, bits := "Int", jen.Lit(s.bits)
		switch s.kind {
		case kUint:
			method = "Uint"
		case kFloat:
			method = "Float"
		}
		if s.bits == 0 {
			bits = jen.Qual("strconv", "IntSize")
		}
		body := g.numberChecks(s, w, x, pos, where)
		body = append(body, assign(conv(x)))
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot(method).Call(wnt, bits), jen.Id(ok)).Block(body...)}
	case kTime:
		x, ok := g.v("t"), g.v("ok")
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Time").Call(wnt), jen.Id(ok)).Block(assign(conv(x)))}
	case kBytes:
		x, ok := g.v("b"), g.v("ok")
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Base64").Call(wnt), jen.Id(ok)).Block(assign(conv(x)))}
	case kAny:
		x, ok := g.v("x"), g.v("ok")
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Any").Call(), jen.Id(ok)).Block(assign(jen.Id(x)))}
	case kJSONMethod:
		x, ok := g.v("raw"), g.v("ok")
		read := jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(d).Dot("Raw").Call(), jen.Id(ok)).Block(
			jen.If(jen.Err().Op(":=").Add(target.Clone()).Dot("UnmarshalJSON").Call(jen.Id(x)), jen.Err().Op("!=").Nil()).Block(
				d.Clone().Dot("Problem").Call(jen.Lit("must be a valid " + typeString(s.typ))),
			))
		if t := w.get("type"); t != nil && t.Kind == jsontree.StringKind {
			k := g.v("k")
			return []jen.Code{jen.If(jen.Id(k).Op(":=").Add(d).Dot("Kind").Call(), jen.Id(k).Op("!=").Qual(codecPkg, kindConst(t.Text))).Block(
				d.Clone().Dot("Problem").Call(jen.Lit("expected "+want(s, w)+", got ").Op("+").Id(k).Dot("String").Call()),
				d.Clone().Dot("Skip").Call(),
			).Else().Block(read)}
		}
		return []jen.Code{read}
	case kStruct:
		name := g.decodeStruct(s, w, root, pos, where)
		return []jen.Code{jen.Id(name).Call(d, jen.Op("&").Add(target.Clone()))}
	case kSlice, kArray:
		return g.decodeArray(s, w, root, target, pos, where)
	case kMap:
		return g.decodeMap(s, w, root, target, pos, where)
	case kPtr:
		g.fail(pos, where, "pointers to pointers are not supported")
	}
	return nil
}

// decodedAs reports whether the decoder method for s returns exactly the
// Go type s has, so that no conversion is needed.
func decodedAs(s *shape) bool {
	var want types.Type
	switch s.kind {
	case kBool:
		want = types.Typ[types.Bool]
	case kString, kTextMethod:
		want = types.Typ[types.String]
	case kInt:
		want = types.Typ[types.Int64]
	case kUint:
		want = types.Typ[types.Uint64]
	case kFloat:
		want = types.Typ[types.Float64]
	case kTime:
		return true
	case kBytes:
		want = types.NewSlice(types.Typ[types.Byte])
	default:
		return true
	}
	return types.Identical(s.typ, want)
}

func kindConst(t string) string {
	switch t {
	case "string":
		return "String"
	case "integer", "number":
		return "Number"
	case "boolean":
		return "Bool"
	case "object":
		return "Object"
	case "array":
		return "Array"
	case "null":
		return "Null"
	}
	return "Invalid"
}

func (g *codecGen) decodeArray(s *shape, w view, root *jsontree.Node, target *jen.Statement, pos token.Position, where string) []jen.Code {
	d := jen.Id("d")
	items := viewOf(w.get("items"), root)
	i := g.v("i")
	var body []jen.Code
	if s.kind == kSlice {
		// Elements are collected in a small stack buffer and copied once
		// into a slice of the right length: one allocation for a short
		// array. Past the smallest maxItems they are skipped, not kept, so
		// memory follows the schema rather than the input.
		buf, sl, e := g.v("buf"), g.v("s"), g.v("e")
		limit := -1
		for _, v := range w.all("maxItems") {
			if n, ok := intLit(v); ok && n >= 0 && (limit < 0 || int(n) < limit) {
				limit = int(n)
			}
		}
		decode := append(append([]jen.Code{
			jen.Var().Id(e).Add(typeCode(s.elem.typ)),
		}, g.decodeSite(s.elem, items, root, jen.Id(e), false, pos, where+"[]")...),
			jen.Id(sl).Op("=").Append(jen.Id(sl), jen.Id(e)),
		)
		var step jen.Code = jen.Block(decode...)
		if limit >= 0 {
			step = jen.If(jen.Id(i).Op("<").Lit(limit)).Block(decode...).Else().Block(d.Clone().Dot("Skip").Call())
		}
		body = append(body,
			jen.Var().Id(buf).Index(jen.Lit(4)).Add(typeCode(s.elem.typ)),
			jen.Id(sl).Op(":=").Id(buf).Index(jen.Op(":").Lit(0)),
			jen.Id(i).Op(":=").Lit(0),
			jen.For(jen.Op(";").Add(d.Clone().Dot("Next").Call()).Op(";").Id(i).Op("++")).Block(
				d.Clone().Dot("PushIndex").Call(jen.Id(i)),
				step,
				d.Clone().Dot("Pop").Call(),
			),
		)
		body = append(body, g.countChecks(w, jen.Id(i), "item", pos, where)...)
		if u := w.get("uniqueItems"); u != nil && u.Kind == jsontree.BoolKind && u.Bool {
			check := g.uniqueCheck(s, jen.Id(sl), pos, where)
			if limit >= 0 {
				check = []jen.Code{jen.If(jen.Id(i).Op("<=").Lit(limit)).Block(check...)}
			}
			body = append(body, check...)
		}
		body = append(body, jen.If(jen.Len(jen.Id(sl)).Op("==").Lit(0)).Block(
			target.Clone().Op("=").Add(typeCode(s.typ)).Values(),
		).Else().Block(
			target.Clone().Op("=").Append(typeCode(s.typ).Parens(jen.Nil()), jen.Id(sl).Op("...")),
		))
	} else {
		body = append(body,
			jen.Id(i).Op(":=").Lit(0),
			jen.For(jen.Op(";").Add(d.Clone().Dot("Next").Call()).Op(";").Id(i).Op("++")).Block(
				d.Clone().Dot("PushIndex").Call(jen.Id(i)),
				jen.If(jen.Id(i).Op("<").Lit(int(s.length))).Block(
					g.decodeSite(s.elem, items, root, target.Clone().Index(jen.Id(i)), false, pos, where+"[]")...,
				).Else().Block(d.Clone().Dot("Skip").Call()),
				d.Clone().Dot("Pop").Call(),
			),
		)
		body = append(body, g.countChecks(w, jen.Id(i), "item", pos, where)...)
		if u := w.get("uniqueItems"); u != nil && u.Kind == jsontree.BoolKind && u.Bool {
			body = append(body, g.uniqueCheck(s, target.Clone().Index(jen.Op(":")), pos, where)...)
		}
	}
	return []jen.Code{jen.If(d.Clone().Dot("Array").Call(jen.Lit(want(s, w)))).Block(body...)}
}

// countChecks enforces minItems and maxItems on n.
func (g *codecGen) countChecks(w view, n jen.Code, noun string, pos token.Position, where string) []jen.Code {
	var out []jen.Code
	for _, kw := range []struct{ key, op, msg string }{{"minItems", "<", "must have at least "}, {"maxItems", ">", "must have at most "}} {
		for _, v := range w.all(kw.key) {
			k, ok := g.count(v, pos, where, kw.key)
			if !ok {
				continue
			}
			out = append(out, jen.If(jen.Add(n).Op(kw.op).Lit(k)).Block(
				jen.Id("d").Dot("Problem").Call(jen.Lit(kw.msg+plural(k, noun))),
			))
		}
	}
	return out
}

func (g *codecGen) count(v *jsontree.Node, pos token.Position, where, key string) (int, bool) {
	n, err := strconv.Atoi(v.Text)
	if v.Kind != jsontree.NumberKind || err != nil || n < 0 {
		g.fail(pos, where, "%s must be a non-negative integer", key)
		return 0, false
	}
	return n, true
}

// uniqueCheck enforces uniqueItems for elements Go can compare as JSON
// compares them: strings, numbers and booleans.
func (g *codecGen) uniqueCheck(s *shape, sl jen.Code, pos token.Position, where string) []jen.Code {
	switch s.elem.kind {
	case kString, kInt, kUint, kFloat, kBool:
	default:
		g.fail(pos, where, "uniqueItems is only enforced on arrays of strings, numbers or booleans, not of %s", typeString(s.elem.typ))
		return nil
	}
	return []jen.Code{jen.If(jen.Qual(codecPkg, "HasDuplicates").Call(sl)).Block(
		jen.Id("d").Dot("Problem").Call(jen.Lit("items must be unique")),
	)}
}

func (g *codecGen) decodeMap(s *shape, w view, root *jsontree.Node, target *jen.Statement, pos token.Position, where string) []jen.Code {
	d := jen.Id("d")
	vals := viewOf(w.get("additionalProperties"), root)
	if ap := w.get("additionalProperties"); ap != nil && ap.Kind == jsontree.BoolKind {
		if !ap.Bool {
			g.fail(pos, where, "additionalProperties false on a map allows no entry at all; remove it")
			return nil
		}
		vals = view{}
	}
	m, k, ok, key, e := g.v("m"), g.v("k"), g.v("ok"), g.v("key"), g.v("e")
	mt := s.typ.Underlying().(*types.Map)
	keyExpr := jen.String().Parens(jen.Id(k))
	if !isBasicType(mt.Key()) {
		keyExpr = typeCode(mt.Key()).Call(keyExpr)
	}
	pushKey := jen.Id(key)
	if !isBasicType(mt.Key()) {
		pushKey = jen.String().Parens(jen.Id(key))
	}
	return []jen.Code{jen.If(d.Clone().Dot("Object").Call(jen.Lit(want(s, w)))).Block(
		jen.Id(m).Op(":=").Make(typeCode(s.typ)),
		jen.For().Block(
			jen.List(jen.Id(k), jen.Id(ok)).Op(":=").Add(d.Clone()).Dot("Key").Call(),
			jen.If(jen.Op("!").Id(ok)).Block(jen.Break()),
			// Looked up before it becomes a string: a duplicate costs no
			// allocation.
			jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(m).Index(keyExpr), jen.Id("dup")).Block(
				d.Clone().Dot("DuplicateMember").Call(jen.Id(k)),
				jen.Continue(),
			),
			jen.Id(key).Op(":=").Add(keyExpr),
			d.Clone().Dot("Push").Call(pushKey),
			jen.Var().Id(e).Add(typeCode(s.elem.typ)),
			jen.Add(g.decodeSite(s.elem, vals, root, jen.Id(e), false, pos, where+"[key]")...),
			jen.Id(m).Index(jen.Id(key)).Op("=").Id(e),
			d.Clone().Dot("Pop").Call(),
		),
		target.Clone().Op("=").Id(m),
	)}
}

// stringChecks enforces the string keywords on the variable x.
func (g *codecGen) stringChecks(s *shape, w view, x string, pos token.Position, where string) []jen.Code {
	var out []jen.Code
	problem := func(msg string) jen.Code { return jen.Id("d").Dot("Problem").Call(jen.Lit(msg)) }
	for _, m := range w.kw {
		switch m.Key {
		case "minLength", "maxLength":
			n, ok := g.count(m.Value, pos, where, m.Key)
			if !ok {
				continue
			}
			// A string of b bytes holds between b/4 and b characters, so
			// most strings pass on their length alone, without counting.
			count := jen.Qual("unicode/utf8", "RuneCountInString").Call(jen.Id(x))
			var cond *jen.Statement
			msg := "must be at least " + plural(n, "character") + " long"
			switch {
			case m.Key == "maxLength":
				msg = "must be at most " + plural(n, "character") + " long"
				cond = jen.Len(jen.Id(x)).Op(">").Lit(n).Op("&&").Add(count).Op(">").Lit(n)
			case n <= math.MaxInt/utf8.UTFMax:
				cond = jen.Len(jen.Id(x)).Op("<").Lit(n * utf8.UTFMax).Op("&&").Add(count).Op("<").Lit(n)
			default:
				cond = count.Op("<").Lit(n)
			}
			out = append(out, jen.If(cond).Block(problem(msg)))
		case "pattern":
			if m.Value.Kind != jsontree.StringKind {
				g.fail(pos, where, "pattern must be a string")
				continue
			}
			if _, err := regexp.Compile(m.Value.Text); err != nil {
				g.fail(pos, where, "pattern %q does not compile as a Go regular expression: %v", m.Value.Text, err)
				continue
			}
			v := g.pattern(m.Value.Text)
			out = append(out, jen.If(jen.Op("!").Id(v).Call().Dot("MatchString").Call(jen.Id(x))).Block(problem("must match the pattern "+m.Value.Text)))
		case "format":
			if m.Value.Text == "date-time" {
				out = append(out, jen.If(jen.Op("!").Qual(codecPkg, "IsDateTime").Call(jen.Id(x))).Block(problem("must be a date-time (RFC 3339)")))
			}
		}
	}
	return append(out, g.enumChecks(s, w, x, pos, where)...)
}

// pattern returns the package-level function returning the compiled
// regexp. Patterns are compiled once, on first use, so that a registry of
// many tools starts without compiling them all.
func (g *codecGen) pattern(src string) string {
	if v, ok := g.patterns[src]; ok {
		return v
	}
	v := "pattern" + strconv.Itoa(len(g.patterns))
	g.patterns[src] = v
	return v
}

// enumChecks enforces enum and const on the variable x.
func (g *codecGen) enumChecks(s *shape, w view, x string, pos token.Position, where string) []jen.Code {
	var out []jen.Code
	for _, m := range w.kw {
		var vals []*jsontree.Node
		switch m.Key {
		case "enum":
			if m.Value.Kind != jsontree.ArrayKind || len(m.Value.Items) == 0 {
				g.fail(pos, where, "enum must be a non-empty array")
				continue
			}
			vals = m.Value.Items
		case "const":
			vals = []*jsontree.Node{m.Value}
		default:
			continue
		}
		var lits []jen.Code
		for _, v := range vals {
			lit, ok := g.enumLit(s, v, pos, where)
			if !ok {
				continue
			}
			lits = append(lits, lit)
		}
		msg := "must be one of " + enumList(m.Value)
		if m.Key == "const" {
			msg = "must be " + string(m.Value.Compact())
		}
		if len(lits) == 0 {
			continue
		}
		out = append(out, jen.Switch(jen.Id(x)).Block(
			jen.Case(lits...),
			jen.Default().Block(jen.Id("d").Dot("Problem").Call(jen.Lit(msg))),
		))
	}
	return out
}

// enumLit is the Go literal of an enum value for the shape, or a problem
// when the value can never match.
func (g *codecGen) enumLit(s *shape, v *jsontree.Node, pos token.Position, where string) (jen.Code, bool) {
	switch s.kind {
	case kString, kTextMethod:
		if v.Kind == jsontree.StringKind {
			return jen.Lit(v.Text), true
		}
	case kBool:
		if v.Kind == jsontree.BoolKind {
			return jen.Lit(v.Bool), true
		}
	case kInt:
		if n, ok := intLit(v); ok {
			return jen.Op(strconv.FormatInt(n, 10)), true
		}
	case kUint:
		if n, ok := intLit(v); ok && n >= 0 {
			return jen.Op(strconv.FormatInt(n, 10)), true
		}
	case kFloat:
		if v.Kind == jsontree.NumberKind {
			return jen.Op(v.Text), true
		}
	}
	g.fail(pos, where, "enum value %s can never match %s", string(v.Compact()), typeString(s.typ))
	return nil, false
}

func intLit(v *jsontree.Node) (int64, bool) {
	if v.Kind != jsontree.NumberKind {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(v.Text)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// numberChecks enforces the numeric keywords on x (int64, uint64 or
// float64 as the decoder returned it).
func (g *codecGen) numberChecks(s *shape, w view, x string, pos token.Position, where string) []jen.Code {
	var out []jen.Code
	problem := func(msg string) jen.Code { return jen.Id("d").Dot("Problem").Call(jen.Lit(msg)) }
	for _, m := range w.kw {
		var op, msg string
		switch m.Key {
		case "minimum":
			op, msg = "<", "must be at least "
		case "maximum":
			op, msg = ">", "must be at most "
		case "exclusiveMinimum":
			op, msg = "<=", "must be greater than "
		case "exclusiveMaximum":
			op, msg = ">=", "must be less than "
		case "multipleOf":
			f, err := strconv.ParseFloat(m.Value.Text, 64)
			if m.Value.Kind != jsontree.NumberKind || err != nil || f <= 0 {
				g.fail(pos, where, "multipleOf must be a positive number")
				continue
			}
			if n, ok := intLit(m.Value); ok && s.kind != kFloat {
				out = append(out, jen.If(jen.Id(x).Op("%").Op(strconv.FormatInt(n, 10)).Op("!=").Lit(0)).Block(problem("must be a multiple of "+m.Value.Text)))
			} else {
				out = append(out, jen.If(jen.Op("!").Qual(codecPkg, "MultipleOf").Call(jen.Float64().Parens(jen.Id(x)), jen.Op(m.Value.Text))).Block(problem("must be a multiple of "+m.Value.Text)))
			}
			continue
		default:
			continue
		}
		if m.Value.Kind != jsontree.NumberKind {
			g.fail(pos, where, "%s must be a number", m.Key)
			continue
		}
		msg += m.Value.Text
		cond := g.compare(s, x, op, m.Value)
		out = append(out, jen.If(cond).Block(problem(msg)))
	}
	return append(out, g.enumChecks(s, w, x, pos, where)...)
}

// compare builds "x op bound" exactly: integer comparison when the bound is
// an integer the value's type can hold, float comparison otherwise. Rounding
// to a float never reverses an order, so the floats decide unless they are
// equal; then the number as written does (codec's CompareNumber), as for
// 2.0000000000000001 against a maximum of 2.
func (g *codecGen) compare(s *shape, x, op string, bound *jsontree.Node) jen.Code {
	if n, ok := intLit(bound); ok {
		switch {
		case s.kind == kInt, s.kind == kUint && n >= 0:
			return jen.Id(x).Op(op).Op(strconv.FormatInt(n, 10))
		}
	}
	bits, b := 64, jen.Op(bound.Text)
	if s.kind == kFloat && s.bits == 32 {
		// x holds a float32: compare it with the bound rounded the same way.
		bits = 32
		f32, _ := strconv.ParseFloat(bound.Text, 32)
		if f64, _ := strconv.ParseFloat(bound.Text, 64); f32 != f64 {
			b = jen.Float64().Call(jen.Float32().Call(b))
		}
	}
	if f, _ := strconv.ParseFloat(bound.Text, bits); math.IsInf(f, 0) {
		// Past the largest float, which Float refuses: any number read is
		// below +Inf and above -Inf.
		return jen.Lit(f > 0 == (op[0] == '<'))
	}
	v := jen.Id(x)
	if s.kind != kFloat {
		v = jen.Float64().Parens(jen.Id(x))
	}
	return v.Clone().Op(op[:1] + "=").Add(b).Op("&&").Parens(v.Clone().Op(op[:1]).Add(b).Op("||").
		Id("d").Dot("CompareNumber").Call(jen.Lit(bound.Text)).Op(op).Lit(0))
}

// ---- encoders ----

// encodeStruct returns the name of the function encoding shape s.
func (g *codecGen) encodeStruct(s *shape, obj view, root *jsontree.Node, pos token.Position, where string) string {
	key := "enc\x00" + types.TypeString(s.typ, nil) + "\x00" + viewKey(obj)
	if name, ok := g.funcs[key]; ok {
		return name
	}
	name := g.funcName("encode", s.typ, identFrom(where))
	g.funcs[key] = name
	saved := g.tmp
	g.tmp = 0
	defer func() { g.tmp = saved }()
	props := obj.get("properties")
	body := []jen.Code{jen.Id("e").Dot("ObjectStart").Call()}
	for _, f := range s.fields {
		var pw view
		if props != nil {
			pw = viewOf(props.Get(f.jsonName), root)
		}
		sel := jen.Id("v").Dot(f.goName)
		write := append([]jen.Code{jen.Id("e").Dot("RawKey").Call(keyLit(f.jsonName))},
			g.encodeValue(f.shape, pw, root, sel, obj.ref != nil || props != nil, f.pos, where+"."+f.goName)...)
		switch {
		case f.omitEmpty:
			if cond := g.nonEmpty(f.shape, sel); cond != nil {
				body = append(body, jen.If(cond).Block(write...))
				continue
			}
		case f.omitZero:
			if cond := g.nonZero(f, sel); cond != nil {
				body = append(body, jen.If(cond).Block(write...))
				continue
			}
		}
		body = append(body, write...)
	}
	body = append(body, jen.Id("e").Dot("ObjectEnd").Call())
	g.decls = append(g.decls,
		jen.Commentf("%s encodes %s as its output schema requires.", name, typeString(s.typ)),
		jen.Func().Id(name).Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder"), jen.Id("v").Op("*").Add(typeCode(s.typ))).Block(body...),
		jen.Line(),
	)
	return name
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
			return x.Clone().Op("!=").Parens(typeCode(t).Values())
		}
	}
	g.fail(f.pos, typeString(t), "omitzero needs a comparable type or an IsZero method")
	return nil
}

// encodeValue returns statements writing x (an addressable expression).
// strict is true under an output schema: a nil pointer in a place that
// does not allow null is an error instead of an invalid document.
func (g *codecGen) encodeValue(s *shape, w view, root *jsontree.Node, x *jen.Statement, strict bool, pos token.Position, where string) []jen.Code {
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
			null = e.Clone().Dot("Fail").Call(jen.Qual("errors", "New").Call(jen.Lit(where + " is nil, but the output schema requires a value; mark the field omitempty or nullable")))
		}
		return []jen.Code{jen.If(x.Clone().Op("==").Nil()).Block(null).Else().Block(
			g.encodeValue(s.elem, w, root, jen.Parens(jen.Op("*").Add(x.Clone())), strict, pos, where)...)}
	case kStruct:
		name := g.encodeStruct(s, w, root, pos, where)
		return []jen.Code{jen.Id(name).Call(e, jen.Op("&").Add(x.Clone()))}
	case kSlice, kArray:
		i := g.v("i")
		items := viewOf(w.get("items"), root)
		return []jen.Code{
			e.Clone().Dot("ArrayStart").Call(),
			jen.For(jen.Id(i).Op(":=").Range().Add(x.Clone())).Block(
				g.encodeValue(s.elem, items, root, x.Clone().Index(jen.Id(i)), strict, pos, where+"[]")...),
			e.Clone().Dot("ArrayEnd").Call(),
		}
	case kMap:
		k, v := g.v("k"), g.v("v")
		vals := viewOf(w.get("additionalProperties"), root)
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
			}, g.encodeValue(s.elem, vals, root, jen.Id(v), strict, pos, where+"[key]")...)...),
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

// typeString prints a type for messages: package name, not path.
func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// identFrom names an unnamed struct after where it is declared:
// Forecast.Place becomes ForecastPlace.
func identFrom(where string) string {
	var b strings.Builder
	up := true
	for _, r := range where {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			if up {
				r = unicode.ToUpper(r)
				up = false
			}
			b.WriteRune(r)
		default:
			up = true
		}
	}
	if b.Len() == 0 {
		return "Struct"
	}
	return b.String()
}

// plural is "1 item" or "2 items".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// exportedIdent turns a package name into an identifier fragment.
func exportedIdent(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// keyText returns the JSON text Encoder.Key writes for the member name,
// for the generated code's Encoder.RawKey.
func keyText(name string) string {
	e := codec.NewEncoder()
	e.Key(name)
	return string(e.Bytes())
}

// keyLit returns keyText(name) as a Go string literal: a raw one, such as
// `"query":`, when it can be.
func keyLit(name string) jen.Code {
	text := keyText(name)
	if strconv.CanBackquote(text) {
		return jen.Op("`" + text + "`")
	}
	return jen.Lit(text)
}
