// Package gocode holds the Go expressions toolgen's generated code is
// written with (jennifer code): types, member keys, durations, string
// literals that keep schemas readable, and identifier fragments. The
// codecs phase (package codecplan) and the render phase (package gen)
// share them.
package gocode

import (
	"go/types"
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/runtime/codec"
)

// KeyText returns the JSON text Encoder.Key writes for the member name,
// for the generated code's Encoder.RawKey.
func KeyText(name string) string {
	e := codec.NewEncoder()
	e.Key(name)
	return string(e.Bytes())
}

// KeyLit returns member text (KeyText's, or text that ends with it, such
// as `{"query":`) as a Go string literal: a raw one when it can be.
func KeyLit(text string) jen.Code {
	if strconv.CanBackquote(text) {
		return jen.Op("`" + text + "`")
	}
	return jen.Lit(text)
}

// Duration writes a duration the way a person would: 5 * time.Second.
func Duration(d time.Duration) jen.Code {
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

// RawString is a raw string literal when s allows one, for readable
// schemas in the generated code, else an interpreted one. A byte order
// mark (U+FEFF), which Go source holds only escaped (go/scanner refuses it
// anywhere but at the start of a file), splits the raw literal into a
// concatenation: `{"enum":["` + "\ufeff" + `a"]}`.
func RawString(b []byte) jen.Code {
	s := string(b)
	if strings.ContainsAny(s, "`\r") {
		return jen.Lit(s)
	}
	parts := strings.Split(s, BOM)
	code := jen.Op("`" + parts[0] + "`")
	for _, p := range parts[1:] {
		code.Op("+").Lit(BOM)
		if p != "" {
			code.Op("+").Op("`" + p + "`")
		}
	}
	return code
}

// BOM is the byte order mark, U+FEFF.
const BOM = "\ufeff"

// Type renders a Go type expression, qualifying named types so that
// jennifer manages the imports.
func Type(t types.Type) *jen.Statement {
	switch t := t.(type) {
	case *types.Named:
		if t.Obj().Pkg() == nil {
			return jen.Id(t.Obj().Name()) // error
		}
		return jen.Qual(t.Obj().Pkg().Path(), t.Obj().Name())
	case *types.Alias:
		return Type(types.Unalias(t))
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Pointer:
		return jen.Op("*").Add(Type(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(Type(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(Type(t.Elem()))
	case *types.Map:
		return jen.Map(Type(t.Key())).Add(Type(t.Elem()))
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
					st = Type(f.Type())
				} else {
					st = jen.Id(f.Name()).Add(Type(f.Type()))
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

// Exported turns a package name into an identifier fragment.
func Exported(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
