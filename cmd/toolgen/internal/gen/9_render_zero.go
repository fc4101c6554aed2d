package gen

import (
	"go/types"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
)

// unsetCheck is the condition under which New refuses the value-typed
// Tools field x holding tool t as unset: the value is the zero value of
// its type. It is nil when New does not check the field:
//
//   - the type is marked //tool:zerovalue: its zero value is a ready tool;
//   - it is a struct with no fields: its zero value is the only value;
//   - it has an Available method: New calls it, and it decides whether
//     the tool is offered (an unconfigured tool says so there);
//   - its zero value cannot be told from outside its package: a struct
//     that is not comparable (it holds a slice, map or func) and has an
//     unexported field, or an array of such values.
//
// A comparable type is compared with its zero value as a whole; a struct
// that is not comparable, field by field (nil for slices, maps and funcs).
func unsetCheck(t *toolModel, x jen.Code) jen.Code {
	if t.pointer || t.zeroValue || t.hasAvail {
		return nil
	}
	typ := t.obj.Type()
	if st, ok := typ.Underlying().(*types.Struct); ok && st.NumFields() == 0 {
		return nil
	}
	return zeroCond(typ, func() *jen.Statement { return jen.Add(x) })
}

// zeroCond is the condition that the value x of type typ is its zero
// value, or nil when generated code cannot tell.
func zeroCond(typ types.Type, x func() *jen.Statement) jen.Code {
	typ = types.Unalias(typ)
	switch u := typ.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Signature, *types.Chan, *types.Interface:
		return x().Op("==").Nil()
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return jen.Op("!").Add(x())
		case u.Info()&types.IsString != 0:
			return x().Op("==").Lit("")
		case u.Info()&types.IsNumeric != 0:
			return x().Op("==").Lit(0)
		}
		return nil
	case *types.Struct:
		if _, named := typ.(*types.Named); named && types.Comparable(typ) {
			return x().Op("==").Parens(gocode.Type(typ).Values())
		}
		// Field by field, each selected by its name.
		var conds []jen.Code
		for i := range u.NumFields() {
			f := u.Field(i)
			if !f.Exported() {
				return nil
			}
			c := zeroCond(f.Type(), func() *jen.Statement { return x().Dot(f.Name()) })
			if c == nil {
				return nil
			}
			conds = append(conds, c)
		}
		if len(conds) == 0 {
			return nil
		}
		cond := jen.Add(conds[0])
		for _, c := range conds[1:] {
			cond = cond.Op("&&").Add(c)
		}
		return cond
	case *types.Array:
		if _, named := typ.(*types.Named); named && types.Comparable(typ) {
			return x().Op("==").Parens(gocode.Type(typ).Values())
		}
		return nil
	}
	return nil
}
