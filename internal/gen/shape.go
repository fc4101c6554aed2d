package gen

import (
	"go/token"
	"go/types"
	"reflect"
	"strings"
)

// shapeKind is how a Go type travels as JSON.
type shapeKind uint8

const (
	kBool       shapeKind = iota + 1
	kString               // string kinds
	kInt                  // signed integers (time.Duration too: nanoseconds, as encoding/json)
	kUint                 // unsigned integers
	kFloat                // float32, float64
	kTime                 // time.Time as an RFC 3339 string
	kBytes                // []byte as a base64 string
	kAny                  // interface{}: any JSON value
	kStruct               // a JSON object with fixed properties
	kPtr                  // a pointer: optional, null-able
	kSlice                // a JSON array
	kArray                // a JSON array of fixed length
	kMap                  // a JSON object with string keys
	kJSONMethod           // decoded/encoded by UnmarshalJSON/MarshalJSON
	kTextMethod           // decoded/encoded as a string by UnmarshalText/MarshalText
)

// direction says which way a shape is used: inputs are decoded, outputs
// encoded. A type may marshal itself only one way.
type direction uint8

const (
	dirIn direction = iota
	dirOut
)

// shape is a Go type as toolgen sees it for JSON. Named struct shapes are
// shared, so recursive types are cyclic graphs.
type shape struct {
	kind   shapeKind
	typ    types.Type
	bits   int // kInt, kUint, kFloat: 8..64; 0 for int and uint (platform size)
	elem   *shape
	length int64 // kArray
	fields []*field
}

// field is one JSON property of a struct shape.
type field struct {
	goName    string // selector on the struct value (promoted through embedded structs)
	jsonName  string
	omitEmpty bool
	omitZero  bool
	shape     *shape
	pos       token.Position
}

// deriveShapes is the shapes phase: it maps every tool's input and output
// type to the JSON shape its codecs follow, or reports why a type cannot
// travel as JSON. Types are analyzed once per direction.
func deriveShapes(fset *token.FileSet, m *model) []*Error {
	var errs []*Error
	an := newAnalyzer(fset)
	for _, t := range m.tools {
		if t.input != nil {
			s, es := an.analyze(t.input, dirIn, t.inputPos)
			errs = append(errs, es...)
			t.inShape = s
		}
		if t.output != nil {
			s, es := an.analyze(t.output, dirOut, t.callPos)
			errs = append(errs, es...)
			t.outShape = s
		}
	}
	return errs
}

// analyzer derives shapes, once per type and direction.
type analyzer struct {
	fset   *token.FileSet
	memo   [2]map[types.Type]*shape
	tagged map[*types.Var]bool // fields whose jsonschema tag is checked (tags.go)
}

func newAnalyzer(fset *token.FileSet) *analyzer {
	return &analyzer{fset: fset, memo: [2]map[types.Type]*shape{{}, {}}, tagged: map[*types.Var]bool{}}
}

// analyze returns the shape of t used in direction dir, or the problems
// that make it unsupported, reported at pos or at the offending field.
func (a *analyzer) analyze(t types.Type, dir direction, pos token.Position) (*shape, []*Error) {
	var errs []*Error
	s := a.shapeOf(t, dir, pos, &errs, typeString(t))
	return s, errs
}

func (a *analyzer) shapeOf(t types.Type, dir direction, pos token.Position, errs *[]*Error, where string) *shape {
	if s, ok := a.memo[dir][t]; ok {
		return s
	}
	fail := func(format string, args ...any) *shape {
		*errs = append(*errs, errorf(pos, "%s: "+format, append([]any{where}, args...)...))
		return nil
	}
	if n, ok := t.(*types.Named); ok {
		if n.TypeArgs().Len() > 0 {
			return fail("generic type %s is not supported; use a non-generic type", n.Obj().Name())
		}
		if n.Obj().Pkg() != nil && !n.Obj().Exported() {
			return fail("type %s.%s is unexported; the generated code must name it: export it", n.Obj().Pkg().Name(), n.Obj().Name())
		}
		if isNamed(t, "encoding/json", "Number") {
			return fail("json.Number is not supported; use float64, int64 or string")
		}
	}
	if isTime(t) {
		return a.put(t, dir, &shape{kind: kTime, typ: t})
	}
	if k := methodKind(t, dir); k != 0 {
		return a.put(t, dir, &shape{kind: k, typ: t})
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		k, bits, msg := basicKind(u)
		if msg != "" {
			return fail("%s", msg)
		}
		return a.put(t, dir, &shape{kind: k, typ: t, bits: bits})
	case *types.Interface:
		if u.NumMethods() == 0 {
			return a.put(t, dir, &shape{kind: kAny, typ: t})
		}
		return fail("interface types with methods cannot be decoded without reflection; use a concrete type or any")
	case *types.Chan:
		return fail("channels have no JSON form")
	case *types.Signature:
		return fail("funcs have no JSON form")
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Pointer); ok {
			return fail("pointers to pointers are not supported")
		}
		s := a.put(t, dir, &shape{kind: kPtr, typ: t})
		s.elem = a.shapeOf(u.Elem(), dir, pos, errs, where)
		return s
	case *types.Slice:
		if b, ok := u.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			return a.put(t, dir, &shape{kind: kBytes, typ: t})
		}
		s := a.put(t, dir, &shape{kind: kSlice, typ: t})
		s.elem = a.shapeOf(u.Elem(), dir, pos, errs, where+"[]")
		return s
	case *types.Array:
		s := a.put(t, dir, &shape{kind: kArray, typ: t, length: u.Len()})
		s.elem = a.shapeOf(u.Elem(), dir, pos, errs, where+"[]")
		return s
	case *types.Map:
		k, ok := u.Key().Underlying().(*types.Basic)
		if !ok || k.Kind() != types.String {
			return fail("map keys must be strings (JSON object names), not %s", types.TypeString(u.Key(), nil))
		}
		if named, ok := u.Key().(*types.Named); ok && (hasMethod(named, "MarshalText") || hasMethod(named, "UnmarshalText")) {
			return fail("map keys with text methods are not supported; use a plain string key type")
		}
		s := a.put(t, dir, &shape{kind: kMap, typ: t})
		s.elem = a.shapeOf(u.Elem(), dir, pos, errs, where+"[key]")
		return s
	case *types.Struct:
		s := a.put(t, dir, &shape{kind: kStruct, typ: t})
		s.fields = a.fields(u, dir, errs, where, map[string]*field{})
		return s
	}
	return fail("unsupported type %s", types.TypeString(t, nil))
}

// methodKind is kJSONMethod or kTextMethod when t (a named type)
// marshals itself in direction dir, else 0.
func methodKind(t types.Type, dir direction) shapeKind {
	named, ok := t.(*types.Named)
	if !ok {
		return 0
	}
	ptr := types.NewPointer(named)
	json, text := "UnmarshalJSON", "UnmarshalText"
	if dir == dirOut {
		json, text = "MarshalJSON", "MarshalText"
	}
	switch {
	case hasMethod(ptr, json):
		return kJSONMethod
	case hasMethod(ptr, text):
		return kTextMethod
	}
	return 0
}

// basicKind is the shape kind and bit size of a basic type, or why it has
// no JSON form.
func basicKind(u *types.Basic) (k shapeKind, bits int, msg string) {
	switch {
	case u.Kind() == types.Bool:
		return kBool, 0, ""
	case u.Kind() == types.String:
		return kString, 0, ""
	case u.Kind() == types.Int:
		return kInt, 0, ""
	case u.Kind() >= types.Int8 && u.Kind() <= types.Int64:
		return kInt, 8 << (u.Kind() - types.Int8), ""
	case u.Kind() == types.Uint:
		return kUint, 0, ""
	case u.Kind() >= types.Uint8 && u.Kind() <= types.Uint64:
		return kUint, 8 << (u.Kind() - types.Uint8), ""
	case u.Kind() == types.Float32:
		return kFloat, 32, ""
	case u.Kind() == types.Float64:
		return kFloat, 64, ""
	case u.Kind() == types.Complex64 || u.Kind() == types.Complex128:
		return 0, 0, "complex numbers have no JSON form"
	case u.Kind() == types.Uintptr || u.Kind() == types.UnsafePointer:
		return 0, 0, u.Name() + " has no JSON form"
	}
	return 0, 0, "unsupported type " + u.Name()
}

func (a *analyzer) put(t types.Type, dir direction, s *shape) *shape {
	a.memo[dir][t] = s
	return s
}

// fields lists the JSON properties of a struct by encoding/json's rules:
// exported fields, json tags, embedded structs flattened.
func (a *analyzer) fields(st *types.Struct, dir direction, errs *[]*Error, where string, seen map[string]*field) []*field {
	var out []*field
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		pos := a.fset.Position(f.Pos())
		name, opts, _ := strings.Cut(tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if strings.Split(tag.Get("jsonschema"), ",")[0] == "-" {
			continue // invopop leaves it out of the schema, so it is not accepted either
		}
		if f.Exported() || f.Embedded() {
			*errs = append(*errs, a.checkSchemaTag(f, tag.Get("jsonschema"), f.Embedded() && name == "", pos, where+"."+f.Name())...)
		}
		if f.Embedded() && name == "" {
			ft := f.Type()
			if p, ok := ft.(*types.Pointer); ok {
				if isStructType(p.Elem()) {
					*errs = append(*errs, errorf(pos, "%s: embedded pointer %s is not supported; embed the struct by value or give the field a name", where, typeString(ft)))
					continue
				}
			}
			if inner, ok := ft.Underlying().(*types.Struct); ok && !isTime(ft) && !hasJSONMethods(ft) {
				out = append(out, a.fields(inner, dir, errs, where, seen)...)
				continue
			}
		}
		if !f.Exported() {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		fl := &field{goName: f.Name(), jsonName: name, pos: pos}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				fl.omitEmpty = true
			case "omitzero":
				fl.omitZero = true
			case "string":
				*errs = append(*errs, errorf(pos, "%s.%s: the json \",string\" option is not supported; use a string field", where, f.Name()))
			}
		}
		if prev, dup := seen[name]; dup {
			*errs = append(*errs, &Error{Pos: pos, Msg: where + ": JSON name " + quote(name) + " is used by two fields", Other: prev.pos})
			continue
		}
		seen[name] = fl
		fl.shape = a.shapeOf(f.Type(), dir, pos, errs, where+"."+f.Name())
		out = append(out, fl)
	}
	return out
}
