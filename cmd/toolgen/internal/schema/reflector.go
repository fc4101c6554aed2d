package schema

// This file is compiled into package schema and also copied, as source,
// into the bootstrap program toolgen builds in the user's module (see
// BootstrapSource): that program cannot import an internal package of
// toolgen's module. It must therefore import nothing but the standard
// library and github.com/invopop/jsonschema, and refer to nothing else of
// this package.

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// Reflector returns the invopop Reflector with toolgen's settings. Each
// setting, and why:
//
//   - Anonymous: true. invopop would otherwise derive a "$id" from the Go
//     package path (https://example.com/m/tools/notes/search-input), a URL
//     that resolves nowhere and leaks module layout to every model.
//   - AllowAdditionalProperties: false (the default). Every struct gets
//     "additionalProperties": false, so a misspelt argument is refused
//     instead of silently dropped; the generated decoders refuse unknown
//     members to match.
//   - RequiredFromJSONSchemaTags: false (the default). A field is required
//     unless its json tag says omitempty or omitzero, the rule
//     encoding/json users already know; `jsonschema:"required"` can still
//     add one.
//   - DoNotReference: false and ExpandedStruct: false (the defaults). Types
//     are reflected with "$defs" and "$ref" as usual and PostProcess inlines
//     the root afterwards. DoNotReference recurses forever on recursive
//     types, and ExpandedStruct deletes the root's "$defs" entry even when
//     the type refers to itself, leaving a dangling "$ref".
//   - Namer: the fully qualified name, "import/path.Type". invopop names
//     definitions by the bare type name, so two types named Item from two
//     packages share one "$defs" entry and one of them is silently
//     described by the other's schema. PostProcess renames the definitions
//     to the shortest unambiguous names afterwards.
//   - CommentMap: comments, for the "description" of types and fields that
//     have no description tag (see AddComments for the format).
//
// Everything else is left at invopop's default: json tags name fields,
// field names are not transformed, no Mapper, Lookup, KeyNamer,
// AdditionalFields, IgnoredTypes or anchors.
func Reflector(comments map[string]string) *jsonschema.Reflector {
	return &jsonschema.Reflector{
		Anonymous:                  true,
		AllowAdditionalProperties:  false,
		RequiredFromJSONSchemaTags: false,
		DoNotReference:             false,
		ExpandedStruct:             false,
		Namer:                      qualifiedName,
		CommentMap:                 comments,
	}
}

// qualifiedName names a definition "import/path.Type". Types without a
// package (predeclared and unnamed types) keep invopop's default naming.
func qualifiedName(t reflect.Type) string {
	if t.Name() == "" || t.PkgPath() == "" {
		return ""
	}
	return t.PkgPath() + "." + t.Name()
}

// PanicError reports a panic while reflecting a type: in a hook of the
// user's (JSONSchema, JSONSchemaExtend, JSONSchemaAlias...) or in invopop
// itself (for example "unsupported type chan int").
type PanicError struct {
	Type  reflect.Type // the type being reflected
	Value any          // the value passed to panic
	Site  string       // "file.go:line in pkg.Func" for the innermost panicking frame outside the runtime, invopop and this package (file base name and short function name, so messages do not depend on the machine), or ""
}

// Error names the type, the panic value and where it panicked.
func (e *PanicError) Error() string {
	msg := fmt.Sprintf("reflecting the JSON Schema of %s panicked: %v", e.Type, e.Value)
	if e.Site != "" {
		msg += " (at " + e.Site + ")"
	}
	return msg
}

// panicSite finds the innermost frame of a panicking goroutine that is not
// in the runtime, reflect, encoding/json, invopop or this package: the
// user's hook. It must be called from the deferred function that recovers.
func panicSite() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.Function != "" && !internalFrame(f.Function) {
			fn := f.Function
			if i := strings.LastIndexByte(fn, '/'); i >= 0 {
				fn = fn[i+1:]
			}
			return fmt.Sprintf("%s:%d in %s", path.Base(filepath.ToSlash(f.File)), f.Line, fn)
		}
		if !more {
			return ""
		}
	}
}

func internalFrame(fn string) bool {
	for _, p := range []string{
		"runtime.", "reflect.", "encoding/json.",
		"github.com/invopop/jsonschema.", "github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema.",
		"main.", // the bootstrap program, which holds a copy of this file
	} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// ReflectRaw returns invopop's JSON Schema of t under Reflector's
// settings with MapBounds' step, as json.Marshal writes it: the input of
// PostProcess.
// A panic in a hook of the type, or in invopop, is returned as a
// *PanicError, never as a schema reflected without the hook.
func ReflectRaw(t reflect.Type, comments map[string]string) (_ []byte, err error) {
	if t == nil {
		return nil, errors.New("schema: reflect a nil type")
	}
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Type: t, Value: v, Site: panicSite()}
		}
	}()
	sch := Reflector(comments).ReflectFromType(t)
	MapBounds(sch, t)
	raw, err := json.Marshal(sch)
	if err != nil {
		return nil, fmt.Errorf("schema: encode the JSON Schema of %s: %w", t, err)
	}
	return raw, nil
}

// MapBounds is toolgen's map-bounds step, its extension of invopop's tag
// grammar: on a struct field whose type is an unnamed map (or a pointer to
// one), `jsonschema:"minProperties=N,maxProperties=M"` publishes the two
// keywords, as numbers, on the field's schema. invopop v0.14 reads no
// object keyword from the jsonschema tag (and jsonschema_extras would
// publish "32", a string), so the step sets the fields of invopop's
// Schema after it reflected root, the schema of t, walking t's fields
// beside their schemas. A value a hook set (Schema.MinProperties,
// MaxProperties) is kept: hooks run after tags in invopop. A value that
// is not a non-negative integer is left out (toolgen refuses it at the
// field before it reflects anything).
func MapBounds(root *jsonschema.Schema, t reflect.Type) {
	if root == nil || t == nil {
		return
	}
	w := mapBoundsWalk{defs: root.Definitions, seen: map[reflect.Type]bool{}}
	w.schema(root, t)
}

type mapBoundsWalk struct {
	defs jsonschema.Definitions
	seen map[reflect.Type]bool // named types whose definition was walked
}

// schema walks s, the schema of a value of type t.
func (w *mapBoundsWalk) schema(s *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil {
		return
	}
	if s.Ref != "" {
		name := qualifiedName(t)
		def, ok := w.defs[name]
		if name == "" || !ok || w.seen[t] {
			return
		}
		w.seen[t] = true
		w.schema(def, t)
		return
	}
	for _, sub := range s.OneOf {
		w.schema(sub, t)
	}
	for _, sub := range s.AnyOf {
		w.schema(sub, t)
	}
	switch t.Kind() {
	case reflect.Struct:
		w.fields(s, t)
	case reflect.Slice, reflect.Array:
		w.schema(s.Items, t.Elem())
	case reflect.Map:
		w.schema(s.AdditionalProperties, t.Elem())
		for _, p := range s.PatternProperties {
			w.schema(p, t.Elem())
		}
	}
}

// fields walks the properties of s, the schema of struct type t, with the
// fields of embedded structs that invopop inlines.
func (w *mapBoundsWalk) fields(s *jsonschema.Schema, t reflect.Type) {
	if s.Properties == nil {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		opts := strings.Split(f.Tag.Get("json"), ",")
		name := opts[0]
		if name == "-" && len(opts) == 1 || splitTag(f.Tag.Get("jsonschema"))[0] == "-" {
			continue // left out, by encoding/json's rule or invopop's
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			w.fields(s, ft)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p, ok := s.Properties.Get(name)
		if !ok {
			continue
		}
		if ft.Kind() == reflect.Map && ft.Name() == "" {
			setMapBounds(p, f.Tag.Get("jsonschema"))
		}
		w.schema(p, f.Type)
	}
}

// setMapBounds sets the keywords of tag on p, the schema of a map (or the
// object branch of a nullable one), unless a hook set them.
func setMapBounds(p *jsonschema.Schema, tag string) {
	if p.Type != "object" {
		for _, sub := range p.OneOf {
			if sub != nil && sub.Type == "object" {
				p = sub
			}
		}
	}
	if p.Type != "object" {
		return
	}
	minP, maxP := mapBounds(tag)
	if p.MinProperties == nil {
		p.MinProperties = minP
	}
	if p.MaxProperties == nil {
		p.MaxProperties = maxP
	}
}

// mapBounds reads minProperties and maxProperties from a jsonschema tag:
// the first value of each that is a number, or nil.
func mapBounds(tag string) (minP, maxP *uint64) {
	for _, e := range splitTag(tag) {
		key, val, _ := strings.Cut(e, "=")
		var dst **uint64
		switch key {
		case "minProperties":
			dst = &minP
		case "maxProperties":
			dst = &maxP
		default:
			continue
		}
		n, err := strconv.ParseUint(val, 10, 64)
		if err != nil || *dst != nil {
			continue
		}
		*dst = &n
	}
	return minP, maxP
}

// splitTag splits a jsonschema tag on the commas not preceded by a
// backslash, as invopop does.
func splitTag(tag string) []string {
	var out []string
	for i, p := range strings.Split(tag, ",") {
		if i > 0 && strings.HasSuffix(out[len(out)-1], `\`) {
			last := out[len(out)-1]
			out[len(out)-1] = last[:len(last)-1] + "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}
