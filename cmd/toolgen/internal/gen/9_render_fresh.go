package gen

import (
	"bytes"
	"fmt"
	"go/types"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// freshFile is the name of the freshness test written into the generated
// package.
const freshFile = "fresh_gen_test.go"

// freshPkg holds the reflect half of the freshness test.
const freshPkg = "github.com/toolgen-go/toolgen/runtime/fresh"

// freshCode is fresh_gen_test.go: a test of the generated package that
// fails when a tool's input or output Go type no longer is the one the
// registry was generated from. toolgen describes each type from go/types
// (freshUnitSource, one file per codec package with tools, so that a
// change to one tools package rewrites its part alone); the test
// describes the type it compiles against with reflect
// (runtime/fresh.Describe) and compares. Both descriptions follow the
// grammar of describeType, so the two halves must change together
// (TestFreshDescriptionsAgree runs the test of every golden case that
// generates).
//
// Why a test: a stale registry builds, vets and runs; it only refuses the
// new field, or enforces the old bound, at run time. `go test ./...` is
// what every user runs, offline and without toolgen, so the test is where
// staleness becomes loud. Reflection is confined to the test files: the
// registry itself never links reflect.
//
// When a tool has an app (//tool:ui), TestToolgenFreshApps checks that
// its HTML file still has the bytes the registry embeds (freshApps).
//
// It returns false when the output directory is outside the main module
// (the test could not import the package it checks).
func freshCode(fc formatCache, l *loaded, m *model, plan *codecPlan, sets []setRef, opts *Options) (File, bool) {
	if l.outPath == "" {
		return File{}, false
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s\n\n", header)
	fmt.Fprintf(&b, "package %s_test\n\n", opts.Package)
	b.WriteString("import (\n")
	if len(sets) > 0 {
		b.WriteString("\t\"reflect\"\n")
	}
	b.WriteString("\t\"testing\"\n\n")
	for _, s := range sets {
		fmt.Fprintf(&b, "\t%q\n", s.path)
	}
	fmt.Fprintf(&b, "\t%q\n)\n\n", freshPkg)
	b.WriteString(`// TestToolgenFresh fails when the Go type of a tool's input or output
// changed since toolgen generated this package (see package fresh): run
// go generate. It reads the types with reflect, in this test only; the
// types as toolgen saw them are in the fresh_*_gen_test.go files, one per
// set package.
func TestToolgenFresh(t *testing.T) {
`)
	for _, s := range sets {
		unit := path.Base(plan.tools[s.tools[0]].unit)
		fmt.Fprintf(&b, "\tfresh.Check(t, reflect.TypeFor[%s.Tools](), %s)\n", path.Base(s.path), freshVar(unit))
	}
	b.WriteString("}\n")
	freshApps(&b, m, opts)
	return File{Path: filepath.Join(opts.outDir(), freshFile), Data: formatFresh(fc, freshFile, b.Bytes())}, true
}

// formatFresh formats src, a file of the freshness test; a failure is a
// toolgen bug, which the unformatted text shows.
func formatFresh(fc formatCache, name string, src []byte) []byte {
	out, err := fc.source(name, src, nil)
	if err != nil {
		return src
	}
	return out
}

// freshUnitFile is the name of the freshness test's file for the tools
// whose call functions are in the codec package named unit.
func freshUnitFile(unit string) string { return "fresh_" + unit + "_gen_test.go" }

// freshVar is the variable of that file.
func freshVar(unit string) string { return "toolgenFresh_" + unit }

// freshUnitSource is the unformatted freshUnitFile(unit): the descriptions
// of the input and output types of tools, in the model's order.
func freshUnitSource(opts *Options, unit string, tools []*toolModel, fields map[*toolModel]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s\n\n", header)
	fmt.Fprintf(&b, "package %s_test\n\n", opts.Package)
	fmt.Fprintf(&b, "import %q\n\n", freshPkg)
	fmt.Fprintf(&b, `// %s holds, by field of %s.Tools, the Go types of
// the input and output of the tools whose call functions are in %s, as
// toolgen saw them when it generated this package, in the grammar
// fresh.Describe writes: one line per type reached, with its exported and
// embedded fields, their types and struct tags, and the encoding methods
// it has.
var %s = []fresh.Tool{
`, freshVar(unit), setName(unit), unit, freshVar(unit))
	// Described once per distinct type: a catalog's tools share their
	// input and output types.
	described := map[types.Type][]string{}
	describe := func(t types.Type) []string {
		if t == nil {
			return nil
		}
		lines, ok := described[t]
		if !ok {
			lines = describeType(t)
			described[t] = lines
		}
		return lines
	}
	for _, t := range tools {
		fmt.Fprintf(&b, "\t{\n\t\tField: %q,\n\t\tTool:  %q,\n", fields[t], t.name)
		var in types.Type
		if t.input != nil {
			in = t.input
		}
		writeLines(&b, "In", describe(in))
		writeLines(&b, "Out", describe(t.output))
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
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
// runtime/fresh.Describe, which the generated test calls, writes the same lines from
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
		if shape.HasMethod(n, m) {
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
