package schema

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// The static path: a schema derived from go/types, without the bootstrap
// program, for the types whose schema invopop derives from their
// structure and tags alone. StaticRaw follows invopop v0.14's reflection
// (reflect.go of github.com/invopop/jsonschema) step by step on go/types
// values, under Reflector's settings, then MapBounds' step (staticbounds.go);
// the tags are read as invopop reads them (statictags.go) and the result
// is encoded as json.Marshal writes invopop's Schema (staticencode.go).
// Whatever it cannot prove identical is a *NotStaticError, and the caller
// reflects the type with the bootstrap program as before.

// NotStaticError says why a type's schema cannot be derived statically.
type NotStaticError struct {
	Type   string // the type in the graph that stops it, as go/types prints it
	Reason string
}

// Error names the type and the reason.
func (e *NotStaticError) Error() string {
	return fmt.Sprintf("schema: %s needs the bootstrap program: %s", e.Type, e.Reason)
}

// hookMethods are the methods invopop v0.14 looks up on the types it
// reflects (JSONSchema, JSONSchemaExtend, JSONSchemaAlias,
// JSONSchemaProperty, GetFieldDocString) and protobuf's EnumDescriptor,
// which it special-cases. A type whose graph has one of them, on the type
// or its pointer, promoted or not, goes through the bootstrap program.
var hookMethods = []string{"JSONSchema", "JSONSchemaExtend", "JSONSchemaAlias", "JSONSchemaProperty", "GetFieldDocString", "EnumDescriptor"}

// Static derives schemas from go/types. It remembers what it checked of
// each type: use one Static from one goroutine at a time.
type Static struct {
	// Comments is the CommentMap, as the bootstrap program gets it.
	Comments map[string]string
	// Allowed reports whether the named types of a package may be read
	// from go/types: false for a package whose hooks go/types may not
	// see (one with a file built only with the toolgen tag, or a package
	// loaded from export data that may have one).
	Allowed func(*types.Package) bool

	checked map[types.Type]error // check's answers: a type is looked at once per Static
}

// Static returns the published schema of t, as Reflect returns it for
// the same Go type: StaticRaw's tree post-processed by PostProcess.
func (s *Static) Static(t types.Type) ([]byte, error) {
	root, err := s.StaticRaw(t)
	if err != nil {
		return nil, err
	}
	if err := PostProcessTree(root); err != nil {
		return nil, err
	}
	return root.Compact(), nil
}

// StaticRaw returns the tree of what ReflectRaw writes for the Go type t
// (a pointer is derived as the type it points to), or a *NotStaticError.
func (s *Static) StaticRaw(t types.Type) (*jsontree.Node, error) {
	d := &deriver{static: s, defs: map[string]*node{}, embedding: map[types.Type]bool{}}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	bs, err := d.reflectType(t)
	if err != nil {
		return nil, err
	}
	d.mapBounds(bs, t)
	root, err := encodeRoot(bs, d.defs)
	if err != nil {
		return nil, &NotStaticError{Type: t.String(), Reason: err.Error()}
	}
	return root, nil
}

// deriver is the state of one derivation: the definitions, by name.
type deriver struct {
	static    *Static
	defs      map[string]*node
	embedding map[types.Type]bool // embedded structs being read: a cycle is refused
}

// typeName is Reflector's name of t: "import/path.Type" for a named type
// of a package, "" otherwise (invopop's t.Name() of a predeclared or
// unnamed type is never a definition's name: only named types of
// packages are defined).
func typeName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// commentKey is invopop's fullyQualifiedTypeName: the package path and
// name of t, "." for an unnamed type.
func commentKey(t types.Type) string {
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		if n.Obj().Pkg() == nil {
			return "." + n.Obj().Name()
		}
		return n.Obj().Pkg().Path() + "." + n.Obj().Name()
	case *types.Basic:
		return "." + reflectBasicName(n)
	}
	return "."
}

// reflectBasicName is reflect's Name of a predeclared type (byte and
// rune are uint8 and int32 there).
func reflectBasicName(b *types.Basic) string {
	switch b.Kind() {
	case types.Uint8:
		return "uint8"
	case types.Int32:
		return "int32"
	}
	return b.Name()
}

func (d *deriver) comment(t types.Type, field string) string {
	k := commentKey(t)
	if field != "" {
		k += "." + field
	}
	return d.static.Comments[k]
}

func (d *deriver) addDefinition(t types.Type, s *node) {
	if name := typeName(t); name != "" {
		d.defs[name] = s
	}
}

// refDefinition is a new reference to t's definition, or nil.
func (d *deriver) refDefinition(t types.Type) *node {
	name := typeName(t)
	if name == "" {
		return nil
	}
	if _, ok := d.defs[name]; !ok {
		return nil
	}
	return &node{ref: "#/$defs/" + name}
}

// refOrReflect is invopop's refOrReflectTypeToSchema (no Lookup).
func (d *deriver) refOrReflect(t types.Type) (*node, error) {
	if ref := d.refDefinition(t); ref != nil {
		return ref, nil
	}
	return d.reflectType(t)
}

// check refuses a type whose schema invopop may not derive from its
// structure: a hook method, a named type from a package that is not
// allowed, a generic instance or a type declared in a function (invopop
// names both differently).
func (d *deriver) check(t types.Type) error {
	s := d.static
	if err, ok := s.checked[t]; ok {
		return err
	}
	if s.checked == nil {
		s.checked = map[types.Type]error{}
	}
	err := d.checkType(t)
	s.checked[t] = err
	return err
}

func (d *deriver) checkType(t types.Type) error {
	for _, name := range hookMethods {
		obj, index, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if obj != nil || index != nil {
			return &NotStaticError{Type: t.String(), Reason: "it has a field or method " + name + " (a hook invopop calls)"}
		}
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	pkg := n.Obj().Pkg()
	switch {
	case n.TypeArgs().Len() > 0 || n.TypeParams().Len() > 0:
		return &NotStaticError{Type: t.String(), Reason: "a generic type"}
	case n.Obj().Parent() != pkg.Scope():
		return &NotStaticError{Type: t.String(), Reason: "a type declared in a function"}
	case d.static.Allowed == nil || !d.static.Allowed(pkg):
		return &NotStaticError{Type: t.String(), Reason: "its package " + pkg.Path() + " may hold hooks go/types does not see"}
	}
	return nil
}

// reflectType is invopop's reflectTypeToSchema.
func (d *deriver) reflectType(t types.Type) (*node, error) {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		return d.refOrReflect(p.Elem())
	}
	if err := d.check(t); err != nil {
		return nil, err
	}
	st := &node{}
	if isNamed(t, "net", "IP") {
		st.typ, st.format = "string", "ipv4"
		return st, nil
	}
	var err error
	switch u := t.Underlying().(type) {
	case *types.Struct:
		err = d.reflectStruct(t, st)
	case *types.Slice, *types.Array:
		err = d.reflectSliceOrArray(t, u, st)
	case *types.Map:
		err = d.reflectMap(t, u, st)
	case *types.Interface:
		// any value
	case *types.Basic:
		switch info := u.Info(); {
		case u.Kind() == types.Uintptr || u.Kind() == types.UnsafePointer:
			err = &NotStaticError{Type: t.String(), Reason: "invopop does not support it"}
		case info&types.IsInteger != 0:
			st.typ = "integer"
		case info&types.IsFloat != 0:
			st.typ = "number"
		case info&types.IsBoolean != 0:
			st.typ = "boolean"
		case info&types.IsString != 0:
			st.typ = "string"
		default:
			err = &NotStaticError{Type: t.String(), Reason: "invopop does not support it"}
		}
	default:
		err = &NotStaticError{Type: t.String(), Reason: "invopop does not support it"}
	}
	if err != nil {
		return nil, err
	}
	if ref := d.refDefinition(t); ref != nil {
		return ref, nil
	}
	return st, nil
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func (d *deriver) reflectSliceOrArray(t types.Type, u types.Type, st *node) error {
	if isNamed(t, "encoding/json", "RawMessage") {
		return nil
	}
	d.addDefinition(t, st)
	st.description = d.comment(t, "")
	var elem types.Type
	switch u := u.(type) {
	case *types.Array:
		n := uint64(u.Len())
		st.minItems, st.maxItems = &n, &n
		elem = u.Elem()
	case *types.Slice:
		elem = u.Elem()
		if b, ok := types.Unalias(elem).(*types.Basic); ok && b.Kind() == types.Uint8 {
			st.typ, st.contentEncoding = "string", "base64"
			return nil
		}
	}
	st.typ = "array"
	items, err := d.refOrReflect(elem)
	st.items = items
	return err
}

func (d *deriver) reflectMap(t types.Type, u *types.Map, st *node) error {
	d.addDefinition(t, st)
	st.typ = "object"
	st.description = d.comment(t, "")
	if b, ok := types.Unalias(u.Key()).Underlying().(*types.Basic); ok {
		switch b.Kind() {
		case types.Int, types.Int8, types.Int16, types.Int32, types.Int64:
			p, err := d.refOrReflect(u.Elem())
			if err != nil {
				return err
			}
			st.patternProps = map[string]*node{"^[0-9]+$": p}
			st.additional = falseNode()
			return nil
		}
	}
	if _, ok := types.Unalias(u.Elem()).Underlying().(*types.Interface); ok {
		return nil
	}
	p, err := d.refOrReflect(u.Elem())
	st.additional = p
	return err
}

// reflectStruct is invopop's reflectStruct under Reflector's settings.
func (d *deriver) reflectStruct(t types.Type, s *node) error {
	switch {
	case isNamed(t, "time", "Time"):
		s.typ, s.format = "string", "date-time"
		return nil
	case isNamed(t, "net/url", "URL"):
		s.typ, s.format = "string", "uri"
		return nil
	}
	d.addDefinition(t, s)
	s.typ = "object"
	s.hasProps = true
	s.description = d.comment(t, "")
	s.additional = falseNode()
	return d.reflectStructFields(s, t)
}

// reflectStructFields adds the properties of struct type t (or a pointer
// to one) to st, those of embedded structs included.
func (d *deriver) reflectStructFields(st *node, t types.Type) error {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	u, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	if err := d.check(t); err != nil {
		return err
	}
	if d.embedding[t] {
		return &NotStaticError{Type: t.String(), Reason: "it embeds itself"}
	}
	d.embedding[t] = true
	defer delete(d.embedding, t)
	for i := range u.NumFields() {
		if err := d.field(st, t, u.Field(i), reflect.StructTag(u.Tag(i))); err != nil {
			return err
		}
	}
	return nil
}

// field is invopop's handleField for field f of struct type t.
func (d *deriver) field(st *node, t types.Type, f *types.Var, tag reflect.StructTag) error {
	name, embed, required, nullable := fieldName(f, tag)
	if name == "" {
		if embed {
			return d.reflectStructFields(st, f.Type())
		}
		return nil
	}
	property, err := d.refOrReflect(f.Type())
	if err != nil {
		return err
	}
	if err := property.keywordsFromTags(tag, st, name); err != nil {
		return &NotStaticError{Type: t.String(), Reason: "field " + f.Name() + ": " + err.Error()}
	}
	if property.description == "" {
		property.description = d.comment(t, f.Name())
	}
	if nullable {
		property = &node{oneOf: []*node{property, {typ: "null"}}}
	}
	// A later field of the same name replaces the schema in place, as
	// invopop's ordered map does (encoding/json's dominance rules are not
	// invopop's).
	replaced := false
	for i := range st.props {
		if st.props[i].name == name {
			st.props[i].schema = property
			replaced = true
		}
	}
	if !replaced {
		st.props = append(st.props, prop{name, property})
	}
	if required && !contains(st.required, name) {
		st.required = append(st.required, name)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// fieldName is invopop's reflectFieldName under Reflector's settings (the
// json tag names fields, no KeyNamer, required unless omitempty or
// omitzero).
func fieldName(f *types.Var, tag reflect.StructTag) (name string, embed, required, nullable bool) {
	jsonTags := strings.Split(tag.Get("json"), ",")
	if jsonTags[0] == "-" {
		return "", false, false, false
	}
	schemaTags := strings.Split(tag.Get("jsonschema"), ",")
	if schemaTags[0] == "-" {
		return "", false, false, false
	}
	required = true
	for _, o := range jsonTags[1:] {
		if o == "omitempty" || o == "omitzero" {
			required = false
			break
		}
	}
	for _, o := range schemaTags {
		switch o {
		case "required":
			required = true
		case "nullable":
			nullable = true
		}
	}
	if f.Embedded() && jsonTags[0] == "" {
		ft := types.Unalias(f.Type())
		if p, ok := ft.(*types.Pointer); ok {
			ft = types.Unalias(p.Elem())
		}
		if _, ok := ft.Underlying().(*types.Struct); ok {
			return "", true, false, false
		}
	}
	if contains(jsonTags[1:], "inline") {
		return "", true, false, false
	}
	name = f.Name()
	if jsonTags[0] != "" {
		name = jsonTags[0]
	}
	if !f.Embedded() && !f.Exported() {
		name = ""
	}
	return name, false, required, nullable
}
