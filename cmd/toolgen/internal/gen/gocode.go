package gen

import (
	"go/types"
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/runtime/codec"
)

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

// durationCode writes a duration the way a person would: 5 * time.Second.
func durationCode(d time.Duration) jen.Code {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}} {
		if d%u.d == 0 {
			return jen.Lit(int(d/u.d)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}

// rawString is a raw string literal when s allows one, for readable
// schemas in the generated code, else an interpreted one. A byte order
// mark (U+FEFF), which Go source holds only escaped (go/scanner refuses it
// anywhere but at the start of a file), splits the raw literal into a
// concatenation: `{"enum":["` + "\ufeff" + `a"]}`.
func rawString(b []byte) jen.Code {
	s := string(b)
	if strings.ContainsAny(s, "`\r") {
		return jen.Lit(s)
	}
	parts := strings.Split(s, bom)
	code := jen.Op("`" + parts[0] + "`")
	for _, p := range parts[1:] {
		code.Op("+").Lit(bom)
		if p != "" {
			code.Op("+").Op("`" + p + "`")
		}
	}
	return code
}

// bom is the byte order mark, U+FEFF.
const bom = "\ufeff"

// importNames tells f the name of every package the tools packages
// import, and of the tools packages themselves, so that each is imported
// without an alias when its name is the last element of its path (as
// goimports writes it). jennifer adds an alias only where two packages
// share a name.
func importNames(f *jen.File, l *loaded) {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if p == nil || seen[p] {
			return
		}
		seen[p] = true
		if p.Name() == importBase(p.Path()) {
			f.ImportName(p.Path(), p.Name())
		} else {
			f.ImportAlias(p.Path(), p.Name())
		}
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	for _, p := range l.pkgs {
		walk(p.Types)
	}
}

// importBase is the last element of an import path, without a major
// version suffix (example.com/x/v2 is x).
func importBase(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return last
}

// typeCode renders a Go type expression, qualifying named types so that
// jennifer manages the imports.
func typeCode(t types.Type) *jen.Statement {
	switch t := t.(type) {
	case *types.Named:
		if t.Obj().Pkg() == nil {
			return jen.Id(t.Obj().Name()) // error
		}
		return jen.Qual(t.Obj().Pkg().Path(), t.Obj().Name())
	case *types.Alias:
		return typeCode(types.Unalias(t))
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Pointer:
		return jen.Op("*").Add(typeCode(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(typeCode(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(typeCode(t.Elem()))
	case *types.Map:
		return jen.Map(typeCode(t.Key())).Add(typeCode(t.Elem()))
	case *types.Interface:
		if t.Empty() {
			return jen.Any()
		}
	case *types.Struct:
		return jen.StructFunc(func(g *jen.Group) {
			for i := range t.NumFields() {
				f := t.Field(i)
				var st *jen.Statement
				if f.Embedded() {
					st = typeCode(f.Type())
				} else {
					st = jen.Id(f.Name()).Add(typeCode(f.Type()))
				}
				if tag := t.Tag(i); strconv.CanBackquote(tag) {
					st = st.Op("`" + tag + "`")
				} else if tag != "" {
					st = st.Lit(tag) // a byte order mark, say
				}
				g.Add(st)
			}
		})
	}
	return jen.Id(types.TypeString(t, nil))
}
