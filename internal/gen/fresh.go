package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// freshFile is the name of the freshness test written into the generated
// package.
const freshFile = "fresh_gen_test.go"

// freshCode is fresh_gen_test.go: a test of the generated package that
// fails when a tool's input or output Go type no longer is the one the
// registry was generated from. toolgen describes each type from go/types
// here; the test describes the type it compiles against with reflect and
// compares. Both descriptions follow the grammar of describeType, so the
// two halves must change together (TestFreshDescriptionsAgree runs the
// test of every golden case that generates).
//
// Why a test: a stale registry builds, vets and runs; it only refuses the
// new field, or enforces the old bound, at run time. `go test ./...` is
// what every user runs, offline and without toolgen, so the test is where
// staleness becomes loud. Reflection is confined to the test file: the
// registry itself never links reflect.
//
// It returns false when the output directory is outside the main module
// (the test could not import the package it checks).
func freshCode(l *loaded, m *model, fields map[*toolModel]string, opts *Options) (File, bool) {
	if l.outPath == "" {
		return File{}, false
	}
	pkgName := opts.Package
	if slices.Contains([]string{"reflect", "slices", "strconv", "strings", "testing"}, pkgName) {
		pkgName = "registry"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s\n\n", header)
	fmt.Fprintf(&b, "package %s_test\n\n", opts.Package)
	b.WriteString("import (\n\t\"reflect\"\n\t\"slices\"\n\t\"strconv\"\n\t\"strings\"\n\t\"testing\"\n\n")
	if pkgName == opts.Package {
		fmt.Fprintf(&b, "\t%q\n)\n\n", l.outPath)
	} else {
		fmt.Fprintf(&b, "\t%s %q\n)\n\n", pkgName, l.outPath)
	}
	b.WriteString(`// toolgenFresh holds, for every field of Tools, the Go types of its tool's
// input and output as toolgen saw them when it generated this package, in
// the grammar toolgenDescribe writes: one line per type reached, with its
// exported and embedded fields, their types and struct tags, and the
// encoding methods it has.
var toolgenFresh = []struct {
	field, tool string
	in, out     []string // nil: no input (Call(ctx)), or no output
}{
`)
	for _, t := range m.tools {
		fmt.Fprintf(&b, "\t{\n\t\tfield: %q,\n\t\ttool:  %q,\n", fields[t], t.name)
		var in types.Type
		if t.input != nil {
			in = t.input
		}
		writeLines(&b, "in", describeType(in))
		writeLines(&b, "out", describeType(t.output))
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, freshTestCode, pkgName)
	src, err := format.Source(b.Bytes())
	if err != nil {
		// A toolgen bug; the unformatted text shows where.
		src = b.Bytes()
	}
	return File{Path: filepath.Join(opts.outDir(), freshFile), Data: src}, true
}

// writeLines writes key: []string{...} with one line per element.
func writeLines(b *bytes.Buffer, key string, lines []string) {
	if lines == nil {
		return
	}
	fmt.Fprintf(b, "\t\t%s: []string{\n", key)
	for _, l := range lines {
		lit := "`" + l + "`" // one level of quoting fewer: the tags are quoted already
		if strings.Contains(l, "`") {
			lit = strconv.Quote(l)
		}
		fmt.Fprintf(b, "\t\t\t%s,\n", lit)
	}
	b.WriteString("\t\t},\n")
}

// describeType describes t for the freshness test, recursively: the
// first line is "root EXPR"; then, sorted by qualified name, every named
// type reached: "type PATH.Name UNDERLYING [methods=...]" and, for a
// struct, one line per exported or embedded field, "field PATH.Name.Field
// EXPR TAG" ("embed" for an embedded one), TAG the quoted struct tag.
// EXPR names a named type by its package path and name, a basic type by
// its kind, and spells the rest (*E, []E, [N]E, map[K]E, any, struct{...}).
// The generated test's toolgenDescribe writes the same lines from
// reflect.Type. nil is described as nil.
func describeType(t types.Type) []string {
	if t == nil {
		return nil
	}
	d := &describer{defs: map[string][]string{}}
	out := []string{"root " + d.expr(t)}
	names := make([]string, 0, len(d.defs))
	for n := range d.defs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		out = append(out, d.defs[n]...)
	}
	return out
}

// describer collects the lines of the named types describeType reaches.
type describer struct {
	defs map[string][]string // by qualified name
}

// encodingMethods are the methods that change how toolgen's codec treats
// a type, in the order the description lists them.
var encodingMethods = []string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"}

func (d *describer) expr(t types.Type) string {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj().Pkg() == nil { // error
			return d.expr(t.Underlying())
		}
		q := t.Obj().Pkg().Path() + "." + t.Obj().Name()
		if _, seen := d.defs[q]; !seen {
			d.defs[q] = nil // before the fields: types may refer to themselves
			d.defs[q] = d.def(q, t)
		}
		return q
	case *types.Basic:
		return basicReflectKind(t).String()
	case *types.Pointer:
		return "*" + d.expr(t.Elem())
	case *types.Slice:
		return "[]" + d.expr(t.Elem())
	case *types.Array:
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + d.expr(t.Elem())
	case *types.Map:
		return "map[" + d.expr(t.Key()) + "]" + d.expr(t.Elem())
	case *types.Interface:
		if t.Empty() {
			return "any"
		}
		return "interface"
	case *types.Struct:
		var items []string
		for i := range t.NumFields() {
			if item, ok := d.field(t, i, ""); ok {
				items = append(items, item)
			}
		}
		return "struct{" + strings.Join(items, "; ") + "}"
	case *types.Signature:
		return "func"
	case *types.Chan:
		return "chan"
	}
	return "unknown"
}

// field describes field i of st as "field|embed PREFIXName EXPR TAG", or
// reports false for an unexported field that is not embedded (invisible to
// JSON and to the codec).
func (d *describer) field(st *types.Struct, i int, prefix string) (string, bool) {
	f := st.Field(i)
	if !f.Exported() && !f.Embedded() {
		return "", false
	}
	kind := "field"
	if f.Embedded() {
		kind = "embed"
	}
	return kind + " " + prefix + f.Name() + " " + d.expr(f.Type()) + " " + strconv.Quote(st.Tag(i)), true
}

func (d *describer) def(q string, n *types.Named) []string {
	head := "type " + q + " "
	var lines []string
	if st, ok := n.Underlying().(*types.Struct); ok {
		head += "struct"
		for i := range st.NumFields() {
			if l, ok := d.field(st, i, q+"."); ok {
				lines = append(lines, l)
			}
		}
	} else {
		head += d.expr(n.Underlying())
	}
	var ms []string
	for _, m := range encodingMethods {
		if hasMethod(n, m) {
			ms = append(ms, m)
		}
	}
	if len(ms) > 0 {
		head += " methods=" + strings.Join(ms, ",")
	}
	return append([]string{head}, lines...)
}

// basicReflectKind is the reflect.Kind of a basic type, whose String is
// what the test's reflect side writes.
func basicReflectKind(b *types.Basic) reflect.Kind {
	switch b.Kind() {
	case types.Bool:
		return reflect.Bool
	case types.Int:
		return reflect.Int
	case types.Int8:
		return reflect.Int8
	case types.Int16:
		return reflect.Int16
	case types.Int32:
		return reflect.Int32
	case types.Int64:
		return reflect.Int64
	case types.Uint:
		return reflect.Uint
	case types.Uint8:
		return reflect.Uint8
	case types.Uint16:
		return reflect.Uint16
	case types.Uint32:
		return reflect.Uint32
	case types.Uint64:
		return reflect.Uint64
	case types.Uintptr:
		return reflect.Uintptr
	case types.Float32:
		return reflect.Float32
	case types.Float64:
		return reflect.Float64
	case types.Complex64:
		return reflect.Complex64
	case types.Complex128:
		return reflect.Complex128
	case types.String:
		return reflect.String
	case types.UnsafePointer:
		return reflect.UnsafePointer
	}
	return reflect.Invalid
}

// freshTestCode is the rest of fresh_gen_test.go: the test, and the
// reflect half of describeType. %[1]s is the generated package's name.
const freshTestCode = `// TestToolgenFresh fails when the Go type of a tool's input or output
// changed since toolgen generated this package: a field added, removed,
// renamed or retyped, a struct tag changed (a json name, a jsonschema
// bound), an encoding method added or removed. The registry would still
// build and run, but refuse the new field and enforce the old bounds: run
// go generate. It reads the types with reflect, in this test only.
func TestToolgenFresh(t *testing.T) {
	tools := reflect.TypeFor[%[1]s.Tools]()
	for _, w := range toolgenFresh {
		f, ok := tools.FieldByName(w.field)
		if !ok {
			t.Errorf("tool %%s: Tools has no field %%s; run go generate", w.tool, w.field)
			continue
		}
		call, ok := f.Type.MethodByName("Call")
		if !ok {
			t.Errorf("tool %%s: %%s has no Call method; run go generate", w.tool, f.Type)
			continue
		}
		var in, out reflect.Type
		if call.Type.NumIn() == 3 {
			in = call.Type.In(2)
		}
		if call.Type.NumOut() == 2 {
			out = call.Type.Out(0)
		}
		toolgenCompare(t, w.tool, "input", in, w.in)
		toolgenCompare(t, w.tool, "output", out, w.out)
	}
}

// toolgenCompare reports a difference between the description of typ and
// want, naming what changed.
func toolgenCompare(t *testing.T, tool, role string, typ reflect.Type, want []string) {
	t.Helper()
	got := toolgenDescribe(typ)
	if slices.Equal(got, want) {
		return
	}
	name := "(none)"
	if typ != nil {
		name = typ.String()
	}
	t.Errorf("tool %%s: its %%s type %%s changed since the registry was generated (%%s); run go generate", tool, role, name, toolgenDiff(want, got))
}

// toolgenDiff says what differs between two descriptions: fields and
// types added, removed or changed, at most three of them.
func toolgenDiff(want, got []string) string {
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
			return typ + " ` + "`" + `" + s + "` + "`" + `"
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

// toolgenDescribe describes typ in the grammar of toolgen's describeType
// (internal/gen/fresh.go), from reflect.
func toolgenDescribe(typ reflect.Type) []string {
	if typ == nil {
		return nil
	}
	defs := map[string][]string{}
	out := []string{"root " + toolgenExpr(typ, defs)}
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

// toolgenExpr names a named type by its package path and name, adding
// its lines to defs, and spells any other type.
func toolgenExpr(t reflect.Type, defs map[string][]string) string {
	if t.PkgPath() == "" {
		return toolgenUnder(t, defs)
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
			if l, ok := toolgenField(t.Field(i), q+".", defs); ok {
				lines = append(lines, l)
			}
		}
	} else {
		head += toolgenUnder(t, defs)
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

// toolgenUnder spells t's structure, ignoring its name.
func toolgenUnder(t reflect.Type, defs map[string][]string) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + toolgenExpr(t.Elem(), defs)
	case reflect.Slice:
		return "[]" + toolgenExpr(t.Elem(), defs)
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + toolgenExpr(t.Elem(), defs)
	case reflect.Map:
		return "map[" + toolgenExpr(t.Key(), defs) + "]" + toolgenExpr(t.Elem(), defs)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any"
		}
		return "interface"
	case reflect.Struct:
		var items []string
		for i := range t.NumField() {
			if item, ok := toolgenField(t.Field(i), "", defs); ok {
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

// toolgenField describes a struct field, or reports false for an
// unexported field that is not embedded.
func toolgenField(f reflect.StructField, prefix string, defs map[string][]string) (string, bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false
	}
	kind := "field"
	if f.Anonymous {
		kind = "embed"
	}
	return kind + " " + prefix + f.Name + " " + toolgenExpr(f.Type, defs) + " " + strconv.Quote(string(f.Tag)), true
}
`
