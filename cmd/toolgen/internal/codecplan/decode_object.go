package codecplan

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// decodeStruct returns the function decoding shape s (a struct) against
// the object schema obj, writing it on first use in the codec package of
// its type.
func (g *Planner) decodeStruct(s *shape.Shape, obj view, at site) Func {
	defer g.enter(s.Type)()
	key := "dec\x00" + types.TypeString(s.Type, nil) + "\x00" + viewKey(obj)
	if name, ok := g.cur.funcs[key]; ok {
		return g.ref(name)
	}
	name := g.funcName("Decode", s.Type, identFrom(at.where))
	g.cur.funcs[key] = name
	if !g.check(s, obj, at) {
		return g.ref(name)
	}
	defer g.startFunc(name)()
	list, required, closed := g.structProps(s, obj, at)
	body := []jen.Code{
		jen.If(jen.Op("!").Id("d").Dot("Object").Call(jen.Lit(want(s, obj)))).Block(jen.Return()),
	}
	if len(list) > 0 {
		if off := g.propertyTable(name, list); off != "" {
			body = append(body, g.decodeIndexed(off, list, required, closed, at)...)
		} else {
			body = append(body, g.decodeByKey(list, required, closed, at)...)
		}
	} else {
		body = append(body, MemberLoop(nil, closed))
	}
	g.cur.decls = append(g.cur.decls,
		jen.Commentf("%s decodes %s, checking it against its published schema.", name, shape.TypeString(s.Type)),
		jen.Func().Id(name).Params(jen.Id("d").Op("*").Qual(ImplPkg, "Decoder"), jen.Id("v").Op("*").Add(gocode.Type(s.Type))).Block(body...),
		jen.Line(),
	)
	return g.ref(name)
}

// decodeIndexed returns the statements reading the members of an object
// whose property names are in the package's table from the constant off
// on, with Decoder.Property: one Member and one Pop for every property,
// around a switch on its index, so that the decoder inlines them once
// rather than once a property; the set of properties read holds the bit
// of each index. The number of properties is a constant after theirs, so
// that a new property changes no line of the decoder but its own.
func (g *Planner) decodeIndexed(off string, list []prop, required map[string]bool, closed bool, at site) []jen.Code {
	bits := seenBits(len(list))
	labels := make([]string, len(list))
	consts := make([]jen.Code, len(list), len(list)+1)
	cases := make([]jen.Code, len(list))
	for i, p := range list {
		labels[i] = g.local("prop", identFrom(p.f.GoName))
		consts[i] = jen.Id(labels[i])
		if i == 0 {
			consts[i] = jen.Id(labels[i]).Op("=").Iota()
		}
		inner := g.decodeProp(p, required, at)
		cases[i] = jen.Case(jen.Id(labels[i])).Block(inner...)
	}
	count := g.local("nprops", "")
	consts = append(consts, jen.Id(count).Comment("the number of properties"))
	p := jen.Id("p")
	body := []jen.Code{
		jen.Comment("seen records the properties read, a bit per index: a second one is"),
		jen.Comment("refused, a missing required one reported."),
		bits.declIndexed(),
		jen.Comment(fmt.Sprintf("Each property's index, which Property returns; its name is %s[%s+index].", PropsTable, off)),
		jen.Const().Defs(consts...),
		jen.For(p.Clone().Op(":=").Lit(-1), jen.Empty(), jen.Empty()).Block(
			jen.If(
				p.Clone().Op("=").Id("d").Dot("Property").Call(jen.Id(PropsTable).Index(jen.Id(off), jen.Id(off).Op("+").Id(count)), p.Clone().Op("+").Lit(1), jen.Lit(closed)),
				p.Clone().Op("<").Lit(0),
			).Block(jen.Break()),
			jen.If(jen.Id("d").Dot("Member").Call(jen.Id(PropsTable).Index(jen.Id(off).Op("+").Add(p.Clone())), bits.testIndex(p.Clone()).Op("!=").Lit(0))).Block(
				bits.setIndex(p.Clone()),
				jen.Switch(p.Clone()).Block(cases...),
			),
			jen.Id("d").Dot("Pop").Call(),
		),
	}
	for i, p := range list {
		if required[p.name] {
			body = append(body, jen.If(bits.testIndex(jen.Id(labels[i])).Op("==").Lit(0)).Block(
				jen.Id("d").Dot("Missing").Call(jen.Lit(p.name)),
			))
		}
	}
	return body
}

// decodeByKey returns the statements reading the members of an object
// with a property name that is not Plain, with Decoder.Key: a case a
// property, each setting the constant bit named after its field.
func (g *Planner) decodeByKey(list []prop, required map[string]bool, closed bool, at site) []jen.Code {
	bits := seenBits(len(list))
	names := make([]string, len(list))
	for i, p := range list {
		names[i] = g.local("seen", identFrom(p.f.GoName))
	}
	body := bits.decl(names)
	var cases []jen.Code
	for i, p := range list {
		inner := g.decodeProp(p, required, at)
		cases = append(cases, jen.Case(jen.Lit(p.name)).Block(
			jen.If(jen.Id("d").Dot("Member").Call(jen.Lit(p.name), bits.test(names[i]).Op("!=").Lit(0))).Block(
				append([]jen.Code{bits.set(names[i])}, inner...)...,
			),
			jen.Id("d").Dot("Pop").Call(),
		))
	}
	body = append(body, MemberLoop(cases, closed))
	for i, p := range list {
		if required[p.name] {
			body = append(body, jen.If(bits.test(names[i]).Op("==").Lit(0)).Block(
				jen.Id("d").Dot("Missing").Call(jen.Lit(p.name)),
			))
		}
	}
	return body
}

// decodeProp returns the statements decoding the value of property p
// into its field, allocating the embedded pointers it is reached through.
func (g *Planner) decodeProp(p prop, required map[string]bool, at site) []jen.Code {
	return append(allocate(p.f), g.decodeMember(p.f.Shape, viewOf(p.node, at.root), selectorOf(jen.Id("v"), p.f.GoName), !required[p.name], fieldSite(at, p.f))...)
}

// allocate returns the statements allocating the embedded pointers a
// promoted field is reached through, when they are nil: encoding/json
// allocates them on the first promoted field present, null included.
func allocate(f *shape.Field) []jen.Code {
	var out []jen.Code
	for _, p := range f.Via {
		x := selectorOf(jen.Id("v"), p.Sel)
		out = append(out, jen.If(x.Clone().Op("==").Nil()).Block(x.Clone().Op("=").New(gocode.Type(p.Elem))))
	}
	return out
}

// prop is a property of an object schema and the Go field it decodes.
type prop struct {
	name string
	f    *shape.Field
	node *jsontree.Node
}

// structProps maps the properties of the object schema obj to the fields
// of the struct shape s, in the schema's order, with the set of required
// ones and whether other members are refused.
func (g *Planner) structProps(s *shape.Shape, obj view, at site) (list []prop, required map[string]bool, closed bool) {
	props := obj.get("properties")
	required = requiredOf(obj)
	if ap := obj.get("additionalProperties"); ap != nil {
		switch {
		case ap.Kind == jsonlex.Bool && !ap.Bool:
			closed = true
		case ap.Kind == jsonlex.Bool || (ap.Kind == jsonlex.Object && len(ap.Members) == 0):
		default:
			g.fail(at, "additionalProperties with a schema is not supported on a struct; only false (the default) or true")
		}
	}
	byName := map[string]*shape.Field{}
	for _, f := range s.Fields {
		byName[f.JSONName] = f
	}
	if props != nil {
		for _, m := range props.Members {
			f := byName[m.Key]
			if f == nil {
				g.fail(at, "the schema has a property %q that no Go field decodes (a JSONSchema hook added it?)", m.Key)
				continue
			}
			list = append(list, prop{m.Key, f, m.Value})
		}
	}
	for r := range required {
		if props == nil || props.Get(r) == nil {
			g.fail(at, "the schema requires %q, which is not a property", r)
		}
	}
	return list, required, closed
}

// PropsTable is the variable of a codec package holding the property
// names its decoders match with Decoder.Property: each decoder's, in
// their declared order, from the offset a constant of the package names
// on (PropsRange). One table a package, rather than an array a decoder:
// before main, the runtime builds the collector's mask of the program's
// variables at a cost per array (about 10 ns each), which was a third of
// the start-up of a program of 10,000 tools.
const PropsTable = "props"

// PropsRange is the range of the property table holding the names of one
// decoder: from the constant Const on, Len names. Each range's constant
// is the one before it plus that one's Len, so that a new property
// changes one constant, the next.
type PropsRange struct {
	Const string
	Len   int
}

// propertyTable adds the names of list, the properties of the decoder
// name, to the current codec package's property table, and returns the
// constant of their offset there; or "" when a name is not Plain, and the
// decoder reads its members with Key (MemberLoop). The table is data the
// linker lays out: nothing writes it, and nothing runs to build it.
func (g *Planner) propertyTable(name string, list []prop) string {
	for _, p := range list {
		if !codec.Plain(p.name) {
			return ""
		}
	}
	off := g.funcName("props", nil, name)
	u := g.cur
	for _, p := range list {
		u.props = append(u.props, p.name)
	}
	u.ranges = append(u.ranges, PropsRange{Const: off, Len: len(list)})
	return off
}

// MemberLoop reads an object's members: each named property by its case,
// any other member refused (closed) or skipped.
func MemberLoop(cases []jen.Code, closed bool) jen.Code {
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

// seenBits writes the set of properties a decoder has read: a bit per
// property in one uint64, or in an array of them past 64 properties. Each
// bit is a constant named after its field, so that adding a field adds
// one constant and renumbers nothing the reader sees.
type seenBits int

// decl declares the constants, one per name, and the set.
func (n seenBits) decl(names []string) []jen.Code {
	var consts []jen.Code
	for i, name := range names {
		switch {
		case i > 0:
			consts = append(consts, jen.Id(name))
		case n <= 64:
			consts = append(consts, jen.Id(name).Op("=").Lit(1).Op("<<").Iota())
		default:
			consts = append(consts, jen.Id(name).Op("=").Iota())
		}
	}
	set := jen.Var().Id("seen").Uint64()
	if n > 64 {
		set = jen.Var().Id("seen").Index(jen.Lit((int(n) + 63) / 64)).Uint64()
	}
	return []jen.Code{
		jen.Comment("seen records the properties read: a second one is refused, a"),
		jen.Comment("missing required one reported."),
		jen.Const().Defs(consts...),
		set,
	}
}

// test is the bit of name in the set (non-zero when it was read).
func (n seenBits) test(name string) *jen.Statement {
	if n <= 64 {
		return jen.Id("seen").Op("&").Id(name)
	}
	return jen.Id("seen").Index(jen.Id(name).Op("/").Lit(64)).Op("&").Parens(jen.Lit(1).Op("<<").Parens(jen.Id(name).Op("%").Lit(64)))
}

// set records name as read.
func (n seenBits) set(name string) jen.Code {
	if n <= 64 {
		return jen.Id("seen").Op("|=").Id(name)
	}
	return jen.Id("seen").Index(jen.Id(name).Op("/").Lit(64)).Op("|=").Lit(1).Op("<<").Parens(jen.Id(name).Op("%").Lit(64))
}

// declIndexed declares the set for a decoder whose properties are
// numbered by their index in a table.
func (n seenBits) declIndexed() jen.Code {
	if n <= 64 {
		return jen.Var().Id("seen").Uint64()
	}
	return jen.Var().Id("seen").Index(jen.Lit((int(n) + 63) / 64)).Uint64()
}

// testIndex is the bit of the property of index i (an int expression) in
// the set: non-zero when it was read.
func (n seenBits) testIndex(i *jen.Statement) *jen.Statement {
	if n <= 64 {
		return jen.Id("seen").Op("&").Parens(jen.Lit(1).Op("<<").Add(i))
	}
	u := jen.Uint().Call(i)
	return jen.Id("seen").Index(u.Clone().Op("/").Lit(64)).Op("&").Parens(jen.Lit(1).Op("<<").Parens(u.Clone().Op("%").Lit(64)))
}

// setIndex records the property of index i as read.
func (n seenBits) setIndex(i *jen.Statement) jen.Code {
	if n <= 64 {
		return jen.Id("seen").Op("|=").Lit(1).Op("<<").Add(i)
	}
	u := jen.Uint().Call(i)
	return jen.Id("seen").Index(u.Clone().Op("/").Lit(64)).Op("|=").Lit(1).Op("<<").Parens(u.Clone().Op("%").Lit(64))
}
