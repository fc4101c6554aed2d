package gen

import (
	"fmt"
	"go/types"
	"path/filepath"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// guardFile is the file of each codec package holding the stale-code
// guard. Its name sorts before every other generated file: the go command
// hands the compiler a package's files sorted by name, and the compiler
// reports errors in file order, so when a tool's type changed the first
// error a user reads is in this file, not in the middle of a decoder. The
// codec packages compile before the registry, which imports them, so the
// guard is theirs.
const guardFile = "a_guard_gen.go"

// guardHelper is the generic function the guard calls; its name, and the
// variable name guardVar, are what the compiler's message shows.
const (
	guardHelper = "runGoGenerateIfThisFails"
	guardVar    = "regenerate"
)

// guardCode is the a_guard_gen.go of every codec package: per tool of the
// package, its Call method's signature, and per struct type whose codecs
// the package holds, each field's selector and type, as the generated
// code uses them. It compiles exactly when the tools still have the types
// this package was generated from (or types the generated code accepts
// just as well); otherwise it fails here first, with messages that name
// regenerate and runGoGenerateIfThisFails, such as
//
//	regenerate.Query undefined (type notes.SearchInput has no field or method Query)
//	cannot use regenerate.Limit (variable of type string) as int value in argument to runGoGenerateIfThisFails[int]
//
// A field added to a type is not an error here (the codec compiles
// without it): the freshness test (9_render_fresh.go) reports that one.
//
// It writes the guard files of the planned unit g.
func guardCode(l *loaded, m *model, plan *codecPlan, g *renderUnit, opts *Options) []guardJen {
	files := map[string]*jen.File{}
	for _, u := range g.planned {
		f := jen.NewFilePathName(u.Path, u.Name)
		f.HeaderComment(header)
		f.ImportName(implPkg, "toolimpl")
		importNames(f, l)
		versionGuard(f)
		f.Comment("The functions below fail to compile when a tool's Call method, or a field")
		f.Comment("of a type its input or output reaches, is no longer the one this package")
		f.Comment("was generated from: the compiler reports it here, before the generated")
		f.Comment("code that uses them. Run go generate.")
		f.Line()
		f.Comment(guardHelper + " compiles when its argument has type T:")
		f.Comment("when it does not, the tools changed since this package was generated.")
		f.Comment("Run go generate.")
		f.Func().Id(guardHelper).Types(jen.Id("T").Any()).Params(jen.Id("T")).Block()
		f.Line()
		files[u.Path] = f
	}
	// at is the guard file of the codec package holding the codecs of t.
	at := func(t types.Type) *jen.File { return files[plan.layout.Home(t)] }
	seen := map[types.Type]bool{}
	for _, i := range g.tools {
		t := m.tools[i]
		sig := []jen.Code{jen.Qual("context", "Context")}
		if t.input != nil {
			sig = append(sig, gocode.Type(t.input))
		}
		call := jen.Func().Params(sig...).Params(gocode.Type(t.output), jen.Error())
		f := files[plan.tools[i].unit]
		f.Commentf("The Call method of %s.%s (tool %s).", t.pkg.Name, t.obj.Name(), t.name)
		f.Func().Id("_").Params().Block(
			jen.Id(guardHelper).Types(call).Call(jen.Parens(jen.Op("*").Qual(t.pkg.PkgPath, t.obj.Name())).Call(jen.Nil()).Dot("Call")),
		)
		for _, s := range []*shape.Shape{t.inShape, t.outShape} {
			guardShape(at, s, seen)
		}
	}
	var out []guardJen
	for _, u := range g.planned {
		rel := filepath.Join(codecDir, u.Name, guardFile)
		out = append(out, guardJen{name: filepath.ToSlash(rel), path: filepath.Join(opts.outDir(), rel), file: files[u.Path]})
	}
	return out
}

// guardJen is the guard file of one codec package, printed but not
// formatted: its name in problems, where it is written, its code.
type guardJen struct {
	name string
	path string
	file *jen.File
}

// guardShape writes the guard of every named struct type s reaches, once,
// in the guard file at gives for it (none: no codec package reads it).
func guardShape(at func(types.Type) *jen.File, s *shape.Shape, seen map[types.Type]bool) {
	if s == nil || seen[s.Type] {
		return
	}
	seen[s.Type] = true
	switch s.Kind {
	case shape.Ptr, shape.Slice, shape.Array, shape.Map:
		guardShape(at, s.Elem, seen)
	case shape.Struct:
		if _, named := types.Unalias(s.Type).(*types.Named); !named {
			// Reached through a container: its fields are checked by the
			// codec alone, the named structs it reaches here.
			for _, fd := range s.Fields {
				guardShape(at, fd.Shape, seen)
			}
			return
		}
		var body []jen.Code
		body = append(body, jen.Var().Id(guardVar).Add(gocode.Type(s.Type)))
		body = append(body, guardFields(s, guardVar, at, seen)...)
		if f := at(s.Type); f != nil {
			f.Commentf("The fields of %s.", shape.TypeString(s.Type))
			f.Func().Id("_").Params().Block(body...)
		}
	}
}

// guardFields checks each field of the struct shape s, selected from sel,
// and of the unnamed structs its fields hold; it writes the guards of the
// named structs they reach.
func guardFields(s *shape.Shape, sel string, at func(types.Type) *jen.File, seen map[types.Type]bool) []jen.Code {
	var body []jen.Code
	for _, fd := range s.Fields {
		x := fmt.Sprintf("%s.%s", sel, fd.GoName)
		if mentionsJSON(fd.Shape.Type) {
			// The registry does not import encoding/json (the layout tests
			// pin it): the field's name is checked, not its type.
			body = append(body, jen.Id("_").Op("=").Id(x))
		} else {
			body = append(body, jen.Id(guardHelper).Types(gocode.Type(fd.Shape.Type)).Call(jen.Id(x)))
		}
		if fd.Shape.Kind == shape.Struct {
			if _, named := types.Unalias(fd.Shape.Type).(*types.Named); !named {
				seen[fd.Shape.Type] = true
				body = append(body, guardFields(fd.Shape, x, at, seen)...)
				continue
			}
		}
		guardShape(at, fd.Shape, seen)
	}
	return body
}

// mentionsJSON reports whether writing t names a type of encoding/json
// (json.RawMessage).
func mentionsJSON(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		return t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "encoding/json"
	case *types.Pointer:
		return mentionsJSON(t.Elem())
	case *types.Slice:
		return mentionsJSON(t.Elem())
	case *types.Array:
		return mentionsJSON(t.Elem())
	case *types.Map:
		return mentionsJSON(t.Key()) || mentionsJSON(t.Elem())
	case *types.Struct:
		for i := range t.NumFields() {
			if mentionsJSON(t.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}
