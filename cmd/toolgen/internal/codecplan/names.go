package codecplan

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// site is the place a value is decoded or encoded at: the schema its $refs
// resolve against, the Go path problems name, and the name its temporaries
// are built from.
type site struct {
	root  *jsontree.Node // the document $refs resolve against
	pos   token.Position // where problems are reported
	where string         // the Go path in messages: Input.Items[]
	name  string         // the stem of its temporaries: items, itemsElem
}

// elem is the site of an element of the value at s.
func (s site) elem(where, name string) site {
	s.where += where
	s.name = name
	return s
}

// fixedLocals are the names the generated functions declare themselves.
var fixedLocals = []string{"d", "e", "v", "seen", "key", "p", "ok", "dup", "ctx", "t", "name", "mode", "in", "out", "err"}

// startFunc begins a generated function: its temporaries are named afresh.
// It returns the function restoring the enclosing function's names, for
// a decoder written while another one is (a nested struct).
func (g *Planner) startFunc(name string) (restore func()) {
	saved, savedFn := g.locals, g.fn
	g.fn = name
	g.locals = map[string]bool{}
	for _, n := range fixedLocals {
		g.locals[n] = true
	}
	return func() { g.locals, g.fn = saved, savedFn }
}

// local names a temporary after the value it serves: stem (the field's
// path, such as itemsElem) then role (Val, OK, Len...). Temporaries are
// named by their field, not numbered across the function, so adding a
// field changes only that field's lines. A role always starts with an
// upper-case letter, so a temporary never takes one of the fixed names;
// two fields whose stems coincide (URL and Url) are told apart by a
// number, given in field order.
func (g *Planner) local(stem, role string) string {
	name := stem + role
	for i := 2; g.locals[name]; i++ {
		name = stem + role + strconv.Itoa(i)
	}
	g.locals[name] = true
	return name
}

// lowerCamel is the stem of an identifier: Query becomes query, URLPath
// urlPath, ID id.
func lowerCamel(s string) string {
	r := []rune(s)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) {
		n-- // URLPath: keep the P of Path
	}
	for i := range n {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// funcName returns an unused function name of the current codec package
// built from the type's name (its package is the codec package's).
func (g *Planner) funcName(prefix string, t types.Type, hint string) string {
	base := prefix + hint
	if n, ok := t.(*types.Named); ok {
		base = prefix + n.Obj().Name()
	}
	name := base
	for i := 2; g.cur.names[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	g.cur.names[name] = true
	return name
}

// pattern returns the package-level toolimpl.Pattern constant of src,
// whose compiled program is prog, named after the first field that uses
// the pattern (its function and path: basicItemNamePattern). A Pattern is
// a string constant, so that a registry of many tools starts without
// compiling them, running any code for them or linking package regexp.
func (g *Planner) pattern(src, prog string, at site) string {
	if p, ok := g.cur.patterns[src]; ok {
		return p.Name
	}
	stem := at.name
	if stem == memberStem {
		stem = "" // a member decoder is named after its property already
	}
	base := lowerCamel(trimCodecPrefix(g.fn)) + gocode.Exported(stem) + "Pattern"
	v := base
	for i := 2; g.cur.names[v]; i++ {
		v = base + strconv.Itoa(i)
	}
	g.cur.names[v] = true
	g.cur.patterns[src] = Pattern{Name: v, Src: src, Prog: prog}
	return v
}

// trimCodecPrefix is the name of a decoder or encoder without its verb.
func trimCodecPrefix(fn string) string {
	for _, verb := range []string{"decode", "encode", "Decode", "Encode"} {
		fn = strings.TrimPrefix(fn, verb)
	}
	return fn
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

// selectorOf is x followed by the selector sel (Note, or Audit.Note).
func selectorOf(x *jen.Statement, sel string) *jen.Statement {
	for _, name := range strings.Split(sel, ".") {
		x = x.Dot(name)
	}
	return x
}

// fieldSite is the site of field f of the struct at at.
func fieldSite(at site, f *shape.Field) site {
	return site{root: at.root, pos: f.Pos, where: at.where + "." + f.GoName, name: lowerCamel(strings.ReplaceAll(f.GoName, ".", ""))}
}
