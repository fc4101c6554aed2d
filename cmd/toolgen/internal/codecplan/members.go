package codecplan

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// Shared member decoders. A catalog repeats its properties: the same
// query string with the same bounds, the same limit, the same list of tags
// in tool after tool. Decoded inline, each repetition is a block of checks
// the compiler reads, optimises and keeps anew; decoded by a function of
// its own, keyed by the code it runs, each distinct (Go type, schema) pair
// is compiled once and every property using it is one call. A struct
// decoder is then a switch of calls, and the generated code grows with
// what is really new in the catalog, not with the number of tools.

// memberStem names the temporaries of a member decoder, whose value is *v.
const memberStem = "v"

// decodeMember returns the statements decoding the value of a property
// into target (an addressable expression): a call of the member decoder
// shared by every property whose Go type and decoding code are the same,
// written on first use. A required struct needs no function of its own:
// its decoder is already one call.
func (g *Planner) decodeMember(s *shape.Shape, w view, target *jen.Statement, optional bool, at site) []jen.Code {
	if s == nil {
		return nil
	}
	if s.Kind == shape.Struct && !optional && !w.nullable {
		return g.decodeSite(s, w, target, optional, at)
	}
	if s.Kind == shape.JSONMethod || (s.Kind == shape.Ptr && s.Elem != nil && s.Elem.Kind == shape.JSONMethod) {
		// Its own UnmarshalJSON does the work; naming its type in a
		// signature would import its package (encoding/json for a
		// json.RawMessage) into the registry.
		return g.decodeSite(s, w, target, optional, at)
	}
	hint := identFrom(at.where)
	if g.fn != "" {
		hint = trimCodecPrefix(g.fn) + gocode.Exported(at.name)
	}
	name := g.reserveName("decode" + hint)
	restore := g.startFunc(name)
	vAt := at
	vAt.name = memberStem
	body := g.decodeSite(s, w, jen.Parens(jen.Op("*").Id("v")), optional, vAt)
	restore()
	if len(body) == 0 {
		g.releaseName(name)
		return nil
	}
	key := "member\x00" + types.TypeString(s.Type, nil) + "\x00" + codeKey(body)
	if shared, ok := g.cur.funcs[key]; ok {
		g.releaseName(name)
		return []jen.Code{jen.Id(shared).Call(jen.Id("d"), jen.Op("&").Add(target.Clone()))}
	}
	g.cur.funcs[key] = name
	g.cur.decls = append(g.cur.decls,
		jen.Commentf("%s decodes %s (%s), checking it against its published schema;", name, shape.TypeString(s.Type), at.where),
		jen.Comment("every property of the same Go type and schema calls it."),
		jen.Func().Id(name).Params(jen.Id("d").Op("*").Qual(ImplPkg, "Decoder"), jen.Id("v").Op("*").Add(gocode.Type(s.Type))).Block(body...),
		jen.Line(),
	)
	return []jen.Code{jen.Id(name).Call(jen.Id("d"), jen.Op("&").Add(target.Clone()))}
}

// codeKey is the printed text of body, unformatted: the same text for
// the same code, without the gofmt pass of jennifer's %#v (most of the
// cost of a key), which the file holding the code gets once.
func codeKey(body []jen.Code) string {
	f := jen.NewFile("key")
	f.NoFormat = true
	f.Add(jen.Block(body...))
	var b strings.Builder
	if err := f.Render(&b); err != nil {
		// Unprintable code fails again, with its error, when its file
		// is printed; as a key it is only never shared.
		return fmt.Sprintf("unprintable\x00%p", body)
	}
	return b.String()
}

// reserveName returns base, or base with the first free number, and marks
// it in use.
func (g *Planner) reserveName(base string) string {
	name := base
	for i := 2; g.cur.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.cur.names[name] = true
	return name
}

// releaseName frees a name reserveName gave out and that went unused, so
// that names do not depend on how many properties shared a decoder.
func (g *Planner) releaseName(name string) {
	delete(g.cur.names, name)
}
