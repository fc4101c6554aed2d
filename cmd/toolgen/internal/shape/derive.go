package shape

import (
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// Deriver derives shapes, once per type and direction: a named struct
// shape is shared by every field and tool that reaches it, so recursive
// types are cyclic graphs, and each field's tags are checked once.
type Deriver struct {
	fset    *token.FileSet
	memo    [2]map[types.Type]*Shape
	tagged  map[*types.Var]bool // fields whose jsonschema tag is checked (tags.go)
	secrets map[*types.Var]bool // fields whose toolgen tag is checked (secrets.go)
}

// NewDeriver returns a Deriver that reports positions of fset.
func NewDeriver(fset *token.FileSet) *Deriver {
	return &Deriver{fset: fset, memo: [2]map[types.Type]*Shape{{}, {}}, tagged: map[*types.Var]bool{}, secrets: map[*types.Var]bool{}}
}

// Derive returns the shape of t used in direction dir, or the problems
// that make it unsupported, reported at pos or at the offending field.
func (d *Deriver) Derive(t types.Type, dir Direction, pos token.Position) (*Shape, []*problem.Error) {
	var errs []*problem.Error
	s := d.shapeOf(t, dir, pos, &errs, TypeString(t))
	return s, errs
}

func (d *Deriver) shapeOf(t types.Type, dir Direction, pos token.Position, errs *[]*problem.Error, where string) *Shape {
	if s, ok := d.memo[dir][t]; ok {
		return s
	}
	fail := func(format string, args ...any) *Shape {
		*errs = append(*errs, problem.Errorf(pos, "%s: "+format, append([]any{where}, args...)...))
		return nil
	}
	if n, ok := t.(*types.Named); ok {
		if n.TypeArgs().Len() > 0 {
			return fail("generic type %s is not supported; use a non-generic type", n.Obj().Name())
		}
		if n.Obj().Pkg() != nil && !n.Obj().Exported() {
			return fail("type %s.%s is unexported; the generated code must name it: export it", n.Obj().Pkg().Name(), n.Obj().Name())
		}
		if IsNamed(t, "encoding/json", "Number") {
			return fail("json.Number is not supported; use float64, int64 or string")
		}
	}
	if IsTime(t) {
		return d.put(t, dir, &Shape{Kind: Time, Type: t})
	}
	if k := methodKind(t, dir); k != 0 {
		return d.put(t, dir, &Shape{Kind: k, Type: t})
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		k, bits, msg := basicKind(u)
		if msg != "" {
			return fail("%s", msg)
		}
		return d.put(t, dir, &Shape{Kind: k, Type: t, Bits: bits})
	case *types.Interface:
		if u.NumMethods() == 0 {
			return d.put(t, dir, &Shape{Kind: Any, Type: t})
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
		s := d.put(t, dir, &Shape{Kind: Ptr, Type: t})
		s.Elem = d.shapeOf(u.Elem(), dir, pos, errs, where)
		return s
	case *types.Slice:
		if b, ok := u.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			return d.put(t, dir, &Shape{Kind: Bytes, Type: t})
		}
		s := d.put(t, dir, &Shape{Kind: Slice, Type: t})
		s.Elem = d.shapeOf(u.Elem(), dir, pos, errs, where+"[]")
		return s
	case *types.Array:
		s := d.put(t, dir, &Shape{Kind: Array, Type: t, Len: u.Len()})
		s.Elem = d.shapeOf(u.Elem(), dir, pos, errs, where+"[]")
		return s
	case *types.Map:
		k, ok := u.Key().Underlying().(*types.Basic)
		if !ok || k.Kind() != types.String {
			return fail("map keys must be strings (JSON object names), not %s", types.TypeString(u.Key(), nil))
		}
		if named, ok := u.Key().(*types.Named); ok && (HasMethod(named, "MarshalText") || HasMethod(named, "UnmarshalText")) {
			return fail("map keys with text methods are not supported; use a plain string key type")
		}
		s := d.put(t, dir, &Shape{Kind: Map, Type: t})
		s.Elem = d.shapeOf(u.Elem(), dir, pos, errs, where+"[key]")
		return s
	case *types.Struct:
		s := d.put(t, dir, &Shape{Kind: Struct, Type: t})
		s.Fields = d.fields(t, u, dir, errs, where)
		return s
	}
	return fail("unsupported type %s", types.TypeString(t, nil))
}

// methodKind is JSONMethod or TextMethod when t (a named type)
// marshals itself in direction dir, else 0.
func methodKind(t types.Type, dir Direction) Kind {
	named, ok := t.(*types.Named)
	if !ok {
		return 0
	}
	ptr := types.NewPointer(named)
	json, text := "UnmarshalJSON", "UnmarshalText"
	if dir == Out {
		json, text = "MarshalJSON", "MarshalText"
	}
	switch {
	case HasMethod(ptr, json):
		return JSONMethod
	case HasMethod(ptr, text):
		return TextMethod
	}
	return 0
}

// basicKind is the shape kind and bit size of a basic type, or why it has
// no JSON form.
func basicKind(u *types.Basic) (k Kind, bits int, msg string) {
	switch {
	case u.Kind() == types.Bool:
		return Bool, 0, ""
	case u.Kind() == types.String:
		return String, 0, ""
	case u.Kind() == types.Int:
		return Int, 0, ""
	case u.Kind() >= types.Int8 && u.Kind() <= types.Int64:
		return Int, 8 << (u.Kind() - types.Int8), ""
	case u.Kind() == types.Uint:
		return Uint, 0, ""
	case u.Kind() >= types.Uint8 && u.Kind() <= types.Uint64:
		return Uint, 8 << (u.Kind() - types.Uint8), ""
	case u.Kind() == types.Float32:
		return Float, 32, ""
	case u.Kind() == types.Float64:
		return Float, 64, ""
	case u.Kind() == types.Complex64 || u.Kind() == types.Complex128:
		return 0, 0, "complex numbers have no JSON form"
	case u.Kind() == types.Uintptr || u.Kind() == types.UnsafePointer:
		return 0, 0, u.Name() + " has no JSON form"
	}
	return 0, 0, "unsupported type " + u.Name()
}

func (d *Deriver) put(t types.Type, dir Direction, s *Shape) *Shape {
	d.memo[dir][t] = s
	return s
}

// fields lists the JSON properties of the struct type t (underlying st)
// by encoding/json's rules: exported fields, json tags, the fields of
// embedded structs and pointers to structs promoted, one field per name.
func (d *Deriver) fields(t types.Type, st *types.Struct, dir Direction, errs *[]*problem.Error, where string) []*Field {
	fl := &flattening{depth: map[types.Type]int{}, errs: errs, where: where}
	d.collect(fl, st, nil, nil, nil, []types.Type{types.Unalias(t)})
	doms := fl.dominant()
	d.shadowedSecrets(fl, doms)
	// encoding/json's order: a field where it is declared, even when its
	// name first appeared on a field it shadows.
	slices.SortStableFunc(doms, func(a, b *member) int { return slices.Compare(a.index, b.index) })
	var out []*Field
	for _, m := range doms {
		if f := d.field(t, m, dir, errs, where); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// member is a JSON property found while flattening a struct, before
// encoding/json's rules keep one Go field per name.
type member struct {
	path   []*types.Var // from the outer struct to the field
	index  []int        // the field indexes along path
	name   string       // the JSON name
	opts   string       // the json tag's options
	tagged bool         // the json tag gives the name
	secret bool         // tagged toolgen:"secret"
	owner  types.Type   // the embedded struct it is declared in; nil for the outer one
	pos    token.Position
}

func (m *member) v() *types.Var { return m.path[len(m.path)-1] }
func (m *member) depth() int    { return len(m.path) - 1 }

// required is what invopop decides from the json tag alone.
func (m *member) required() bool {
	for _, o := range strings.Split(m.opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return false
		}
	}
	return true
}

// goPath is the member's full selector, for messages.
func (m *member) goPath() string {
	names := make([]string, len(m.path))
	for i, v := range m.path {
		names[i] = v.Name()
	}
	return strings.Join(names, ".")
}

// flattening collects the members of one struct: every occurrence,
// depth first in declaration order (the order invopop sets properties
// in), and the shallowest depth each embedded struct type is expanded at.
type flattening struct {
	members []*member
	depth   map[types.Type]int
	errs    *[]*problem.Error
	where   string
}

func (fl *flattening) fail(pos token.Position, format string, args ...any) {
	*fl.errs = append(*fl.errs, problem.Errorf(pos, "%s: "+format, append([]any{fl.where}, args...)...))
}

// collect adds the members of st, reached through path, expanding the
// embedded structs; stack holds the struct types being expanded.
func (d *Deriver) collect(fl *flattening, st *types.Struct, owner types.Type, path []*types.Var, index []int, stack []types.Type) {
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		pos := d.fset.Position(f.Pos())
		name, opts, _ := strings.Cut(tag.Get("json"), ",")
		secret, fresh := d.secretTag(fl, f, tag, pos)
		if name == "-" && opts == "" {
			fl.skippedSecret(fresh && secret, f, pos, secretJSONSkipped)
			continue
		}
		if strings.Split(tag.Get("jsonschema"), ",")[0] == "-" {
			fl.skippedSecret(fresh && secret, f, pos, secretSchemaSkipped)
			continue // invopop leaves it out of the schema, so it is not accepted either
		}
		if f.Exported() || f.Embedded() {
			*fl.errs = append(*fl.errs, d.checkSchemaTag(f, tag.Get("jsonschema"), f.Embedded() && name == "", pos, fl.where+"."+f.Name())...)
		}
		p, ix := append(slices.Clip(path), f), append(slices.Clip(index), i)
		if f.Embedded() && name == "" {
			inner, elem, ok := fl.embedded(f, pos, stack)
			if !ok {
				continue
			}
			if inner != nil {
				fl.skippedSecret(fresh && secret, f, pos, secretEmbedded)
				if d, seen := fl.depth[elem]; !seen || len(p) < d {
					fl.depth[elem] = len(p)
				}
				d.collect(fl, inner, elem, p, ix, append(slices.Clip(stack), elem))
				continue
			}
		}
		if !f.Exported() {
			fl.skippedSecret(fresh && secret, f, pos, secretUnexported)
			continue
		}
		m := &member{path: p, index: ix, name: name, opts: opts, tagged: name != "", secret: secret, owner: owner, pos: pos}
		if name == "" {
			m.name = f.Name()
		}
		fl.members = append(fl.members, m)
	}
}

// embedded is the struct whose fields the embedded field f (without a
// JSON name) promotes, and its type, as encoding/json and invopop promote
// them; nil when f is an ordinary field (not a struct, or a struct that
// marshals itself); ok is false when f is refused.
func (fl *flattening) embedded(f *types.Var, pos token.Position, stack []types.Type) (st *types.Struct, elem types.Type, ok bool) {
	elem = types.Unalias(f.Type())
	p, ptr := elem.(*types.Pointer)
	if ptr {
		elem = types.Unalias(p.Elem())
	}
	st, isStruct := elem.Underlying().(*types.Struct)
	switch {
	case !isStruct:
		return nil, nil, true
	case IsTime(elem) || HasJSONMethods(elem):
		if ptr {
			fl.fail(pos, "embedded pointer %s marshals itself, which promotes its methods to the outer struct; give the field a name", TypeString(f.Type()))
			return nil, nil, false
		}
		return nil, nil, true
	}
	if n, named := elem.(*types.Named); ptr && named && !n.Obj().Exported() {
		fl.fail(pos, "embedded pointer %s: the generated code allocates it when a promoted field is decoded, but type %s is unexported; export it or embed it by value", TypeString(f.Type()), n.Obj().Name())
		return nil, nil, false
	}
	if slices.ContainsFunc(stack, func(t types.Type) bool { return types.Identical(t, elem) }) {
		fl.fail(pos, "embedded pointer %s embeds %s within itself: invopop cannot reflect a cycle of embedded structs; give the field a name", TypeString(f.Type()), TypeString(elem))
		return nil, nil, false
	}
	return st, elem, true
}

// dominant keeps one member per JSON name, in declaration order, by
// encoding/json's rules: the shallowest wins, and an embedded struct type
// counts only at the shallowest depth it is embedded at. Two at the same
// depth are refused (encoding/json drops both silently, invopop publishes
// one), and so is a shadowing invopop publishes otherwise: it takes a
// name's schema from the field declared last, and requires the name when
// any of its fields is required.
func (fl *flattening) dominant() []*member {
	byName := map[string][]*member{}
	var order []string
	for _, m := range fl.members {
		if byName[m.name] == nil {
			order = append(order, m.name)
		}
		byName[m.name] = append(byName[m.name], m)
	}
	var out []*member
	for _, name := range order {
		all := byName[name]
		live := slices.DeleteFunc(slices.Clone(all), func(m *member) bool {
			return m.owner != nil && fl.depth[m.owner] != m.depth()
		})
		dom := slices.MinFunc(live, func(a, b *member) int { return a.depth() - b.depth() })
		clash := false
		for _, m := range live {
			switch {
			case m == dom || m.depth() != dom.depth():
			case m.v() == dom.v():
				fl.fail(m.pos, "%s is promoted twice at the same depth (%s and %s), so encoding/json drops JSON name %q; embed its struct once", m.v().Name(), dom.goPath(), m.goPath(), name)
				clash = true
			default:
				*fl.errs = append(*fl.errs, &problem.Error{Pos: m.pos, Msg: fl.where + ": JSON name " + problem.Quote(name) + " is used by two fields", Other: dom.pos})
				clash = true
			}
		}
		if clash || !fl.publishedAs(dom, all) {
			continue
		}
		out = append(out, dom)
	}
	return out
}

// publishedAs reports whether invopop publishes the property of dom, which
// shadows the other members of all (same JSON name), as dom alone.
func (fl *flattening) publishedAs(dom *member, all []*member) bool {
	if last := all[len(all)-1]; last.v() != dom.v() {
		fl.fail(dom.pos, "%s shadows %s (JSON name %q), but invopop publishes the schema of the one declared last; declare %s after the embedded struct, or rename one", dom.goPath(), last.goPath(), dom.name, dom.v().Name())
		return false
	}
	for _, m := range all {
		if m.v() != dom.v() && m.required() && !dom.required() {
			fl.fail(dom.pos, "%s shadows %s (JSON name %q), which has no omitempty, so invopop requires %q although %s is optional; tag both alike, or rename one", dom.goPath(), m.goPath(), dom.name, dom.name, dom.v().Name())
			return false
		}
	}
	return true
}

// field is the field of member m of the struct type t, with its shape.
func (d *Deriver) field(t types.Type, m *member, dir Direction, errs *[]*problem.Error, where string) *Field {
	sel, ok := selector(t, m.path, m.index)
	if !ok {
		*errs = append(*errs, problem.Errorf(m.pos, "%s: %s cannot be named by the generated code: another field takes its name, and the unexported embedded field on its path cannot be written; rename one", where, m.goPath()))
		return nil
	}
	f := &Field{GoName: sel, JSONName: m.name, Secret: m.secret, Pos: m.pos}
	for k, v := range m.path[:len(m.path)-1] {
		if p, ok := types.Unalias(v.Type()).(*types.Pointer); ok {
			s, ok := selector(t, m.path[:k+1], m.index[:k+1])
			if !ok {
				*errs = append(*errs, problem.Errorf(m.pos, "%s: embedded pointer %s cannot be named by the generated code: another field takes its name, and the unexported embedded field on its path cannot be written; rename one", where, v.Name()))
				return nil
			}
			f.Via = append(f.Via, EmbedPtr{Sel: s, Elem: p.Elem()})
		}
	}
	for _, o := range strings.Split(m.opts, ",") {
		switch o {
		case "omitempty":
			f.OmitEmpty = true
		case "omitzero":
			f.OmitZero = true
		case "string":
			*errs = append(*errs, problem.Errorf(m.pos, "%s.%s: the json \",string\" option is not supported; use a string field", where, sel))
		}
	}
	f.Shape = d.shapeOf(m.v().Type(), dir, m.pos, errs, where+"."+sel)
	return f
}

// selector is the shortest Go selector of the field at the end of path
// from a value of type t, as Go's promotion resolves it, or false when
// the generated code cannot write one (it would name an unexported
// embedded field).
func selector(t types.Type, path []*types.Var, index []int) (string, bool) {
	for i := len(path) - 1; i >= 0; i-- {
		if !path[i].Exported() {
			continue
		}
		obj, ix, _ := types.LookupFieldOrMethod(t, true, path[i].Pkg(), path[i].Name())
		if obj != path[i] || !slices.Equal(ix, index[:i+1]) {
			continue
		}
		if i == len(path)-1 {
			return path[i].Name(), true
		}
		if rest, ok := selector(path[i].Type(), path[i+1:], index[i+1:]); ok {
			return path[i].Name() + "." + rest, true
		}
	}
	return "", false
}
