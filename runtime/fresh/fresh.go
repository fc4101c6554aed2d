// Package fresh is the reflect half of the freshness test that toolgen
// writes into every generated package (fresh_gen_test.go): for toolgen's
// generated tests only, never linked by a program. toolgen describes each
// tool's input and output Go types from go/types when it generates; the
// test describes the types it is compiled against with Describe, and Check
// fails, naming what changed and saying to run go generate, when they
// differ. A stale registry builds, vets and runs; it only refuses a new
// field, or enforces an old bound, at run time: `go test ./...`, which every
// user runs offline and without toolgen, is where it becomes loud.
//
// The test toolgen writes is one call per set package:
//
//	func TestToolgenFresh(t *testing.T) {
//		fresh.Check(t, reflect.TypeFor[notestools.Tools](), toolgenFresh_notescodec)
//	}
//
// with toolgenFresh_notescodec, beside it, the descriptions toolgen wrote:
// per field of the set package's Tools, the lines Describe gives of its
// tool's input and output types.
//
// The grammar of the descriptions is shared with toolgen's generator; the
// runtime version guard (toolimpl.SupportPackageIsVersion9) keeps the two from
// drifting apart.
package fresh

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Tool is one field of a set package's Tools struct and the descriptions of
// its tool's input and output types, as toolgen wrote them.
type Tool struct {
	Field, Tool string
	In, Out     []string // nil: no input (Call(ctx)), or no output
}

// Check fails t when the Go type of a tool's input or output changed since
// toolgen generated the package whose Tools struct is tools: a field
// added, removed, renamed or retyped, a struct tag changed (a json name, a
// jsonschema bound), an encoding method added or removed. The registry
// would still build and run, but refuse the new field and enforce the old
// bounds: the message says to run go generate. want is the description
// toolgen wrote into the generated test.
func Check(t testing.TB, tools reflect.Type, want []Tool) {
	t.Helper()
	for _, w := range want {
		f, ok := tools.FieldByName(w.Field)
		if !ok {
			t.Errorf("tool %s: Tools has no field %s; run go generate", w.Tool, w.Field)
			continue
		}
		call, ok := f.Type.MethodByName("Call")
		if !ok {
			t.Errorf("tool %s: %s has no Call method; run go generate", w.Tool, f.Type)
			continue
		}
		var in, out reflect.Type
		if call.Type.NumIn() == 3 {
			in = call.Type.In(2)
		}
		if call.Type.NumOut() == 2 {
			out = call.Type.Out(0)
		}
		compare(t, w.Tool, "input", in, w.In)
		compare(t, w.Tool, "output", out, w.Out)
	}
}

// compare reports a difference between the description of typ and
// want, naming what changed.
func compare(t testing.TB, tool, role string, typ reflect.Type, want []string) {
	t.Helper()
	got := Describe(typ)
	if slices.Equal(got, want) {
		return
	}
	name := "(none)"
	if typ != nil {
		name = typ.String()
	}
	t.Errorf("tool %s: its %s type %s changed since the registry was generated (%s); run go generate", tool, role, name, diff(want, got))
}

// diff says what differs between two descriptions: fields and
// types added, removed or changed, at most three of them.
func diff(want, got []string) string {
	key := func(line string) string {
		k, rest, _ := strings.Cut(line, " ")
		if k == "root" {
			return k
		}
		name, _, _ := strings.Cut(rest, " ")
		return k + " " + name
	}
	index := func(lines []string) map[string]string {
		m := map[string]string{}
		for _, l := range lines {
			m[key(l)] = l
		}
		return m
	}
	w, g := index(want), index(got)
	root := ""
	if len(want) > 0 {
		root, _ = strings.CutPrefix(want[0], "root ")
	}
	// what names a key for a person: field Limit (of the root type),
	// field notes.Person.Email, type notes.Color.
	what := func(k string) string {
		kind, name, _ := strings.Cut(k, " ")
		if kind == "embed" {
			kind = "embedded field"
		}
		if rest, ok := strings.CutPrefix(name, root+"."); ok && kind != "type" {
			return kind + " " + rest
		}
		if i := strings.LastIndex(name, "/"); i >= 0 {
			name = name[i+1:]
		}
		return kind + " " + name
	}
	// value is a line without its key: the field's type and tag.
	value := func(line string) string {
		_, rest, _ := strings.Cut(line, " ")
		_, rest, _ = strings.Cut(rest, " ")
		typ, tag, ok := strings.Cut(rest, " ")
		if !ok {
			return rest
		}
		if s, err := strconv.Unquote(tag); err == nil && s != "" {
			return typ + " `" + s + "`"
		}
		return typ
	}
	var diffs []string
	for _, l := range want {
		k := key(l)
		switch gl, ok := g[k]; {
		case !ok:
			diffs = append(diffs, what(k)+" removed")
		case gl != l && k == "root":
			diffs = append(diffs, "now "+strings.TrimPrefix(gl, "root ")+", was "+strings.TrimPrefix(l, "root "))
		case gl != l:
			diffs = append(diffs, what(k)+" changed from "+value(l)+" to "+value(gl))
		}
	}
	for _, l := range got {
		if _, ok := w[key(l)]; !ok {
			diffs = append(diffs, what(key(l))+" added")
		}
	}
	if len(diffs) > 3 {
		diffs = append(diffs[:3], strconv.Itoa(len(diffs)-3)+" more differences")
	}
	if len(diffs) == 0 {
		return "its description changed"
	}
	return strings.Join(diffs, "; ")
}

// Describe describes typ from reflect, in the grammar toolgen's
// describeType (internal/gen/fresh.go) writes from go/types: the first
// line is "root EXPR"; then, sorted by qualified name, every named type
// reached, "type PATH.Name UNDERLYING [methods=...]", and for a struct one
// line per exported or embedded field, "field|embed PATH.Name.Field EXPR
// TAG" with TAG the quoted struct tag. nil describes as nil.
func Describe(typ reflect.Type) []string {
	if typ == nil {
		return nil
	}
	defs := map[string][]string{}
	out := []string{"root " + expr(typ, defs)}
	var names []string
	for n := range defs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		out = append(out, defs[n]...)
	}
	return out
}

// expr names a named type by its package path and name, adding
// its lines to defs, and spells any other type.
func expr(t reflect.Type, defs map[string][]string) string {
	if t.PkgPath() == "" {
		return under(t, defs)
	}
	q := t.PkgPath() + "." + t.Name()
	if _, seen := defs[q]; seen {
		return q
	}
	defs[q] = nil
	head := "type " + q + " "
	var lines []string
	if t.Kind() == reflect.Struct {
		head += "struct"
		for i := range t.NumField() {
			if l, ok := field(t.Field(i), q+".", defs); ok {
				lines = append(lines, l)
			}
		}
	} else {
		head += under(t, defs)
	}
	var ms []string
	for _, m := range []string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"} {
		if _, ok := reflect.PointerTo(t).MethodByName(m); ok {
			ms = append(ms, m)
		}
	}
	if len(ms) > 0 {
		head += " methods=" + strings.Join(ms, ",")
	}
	defs[q] = append([]string{head}, lines...)
	return q
}

// under spells t's structure, ignoring its name.
func under(t reflect.Type, defs map[string][]string) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + expr(t.Elem(), defs)
	case reflect.Slice:
		return "[]" + expr(t.Elem(), defs)
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + expr(t.Elem(), defs)
	case reflect.Map:
		return "map[" + expr(t.Key(), defs) + "]" + expr(t.Elem(), defs)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any"
		}
		return "interface"
	case reflect.Struct:
		var items []string
		for i := range t.NumField() {
			if item, ok := field(t.Field(i), "", defs); ok {
				items = append(items, item)
			}
		}
		return "struct{" + strings.Join(items, "; ") + "}"
	case reflect.Func:
		return "func"
	case reflect.Chan:
		return "chan"
	}
	return t.Kind().String()
}

// field describes a struct field, or reports false for an
// unexported field that is not embedded.
func field(f reflect.StructField, prefix string, defs map[string][]string) (string, bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false
	}
	kind := "field"
	if f.Anonymous {
		kind = "embed"
	}
	return kind + " " + prefix + f.Name + " " + expr(f.Type, defs) + " " + strconv.Quote(string(f.Tag)), true
}
