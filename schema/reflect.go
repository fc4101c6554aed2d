package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
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

// Reflect returns the published JSON Schema of t (a struct type, or any
// type for outputs; a pointer is reflected as the type it points to):
// invopop's schema under Reflector's settings, post-processed by
// PostProcess, as compact bytes with keys in a stable order (struct field
// order for properties, never via a Go map).
//
// Reflect runs the type's hooks (JSONSchema, JSONSchemaExtend, ...). A
// panic in one of them, or in invopop, is returned as a *PanicError, never
// as a schema reflected without the hook.
func Reflect(t reflect.Type, comments map[string]string) (_ []byte, err error) {
	if t == nil {
		return nil, errors.New("schema: reflect a nil type")
	}
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Type: t, Value: v, Site: panicSite()}
		}
	}()
	raw, err := json.Marshal(Reflector(comments).ReflectFromType(t))
	if err != nil {
		return nil, fmt.Errorf("schema: encode the JSON Schema of %s: %w", t, err)
	}
	out, err := PostProcess(raw)
	if err != nil {
		return nil, fmt.Errorf("schema: post-process the JSON Schema of %s: %w", t, err)
	}
	return out, nil
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
		"github.com/invopop/jsonschema.", "github.com/toolgen-go/toolgen/schema.",
	} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// Where a keyword's value holds schemas (JSON Schema 2020-12, plus the
// older spellings invopop users may write in custom schemas). Only these
// positions are post-processed: "enum", "const", "default", "examples" and
// unknown keywords hold data, which is never touched.
const (
	notSchema   = iota
	schemaValue // the value is a schema ("items" may also be an array of them)
	schemaArray // the value is an array of schemas
	schemaMap   // the value is an object whose member values are schemas
)

func keywordClass(key string) int {
	switch key {
	case "additionalProperties", "items", "not", "if", "then", "else", "contains",
		"propertyNames", "contentSchema", "additionalItems", "unevaluatedItems",
		"unevaluatedProperties":
		return schemaValue
	case "allOf", "anyOf", "oneOf", "prefixItems":
		return schemaArray
	case "properties", "patternProperties", "dependentSchemas", "$defs", "definitions":
		return schemaMap
	default:
		return notSchema
	}
}

// walkSchemas calls visit on n and every schema below it, parents first.
func walkSchemas(n *Node, visit func(*Node)) {
	if n == nil {
		return
	}
	visit(n)
	if n.Kind != ObjectKind {
		return
	}
	for _, m := range n.Members {
		v := m.Value
		switch class := keywordClass(m.Key); {
		case class == schemaValue && v.Kind == ArrayKind, class == schemaArray && v.Kind == ArrayKind:
			for _, it := range v.Items {
				walkSchemas(it, visit)
			}
		case class == schemaValue:
			walkSchemas(v, visit)
		case class == schemaMap && v.Kind == ObjectKind:
			for _, mm := range v.Members {
				walkSchemas(mm.Value, visit)
			}
		}
	}
}

const defsPrefix = "#/$defs/"

// PostProcess applies exactly these steps to invopop's output (the bytes
// of json.Marshal(Reflector(c).ReflectFromType(t))), and nothing else:
//
//  1. The root is inlined: a root "$ref" to a definition is replaced by
//     that definition's members, so the root of a struct is
//     {"type":"object","properties":...} as MCP and provider APIs expect.
//     A "$defs" entry is kept only while something still references it,
//     transitively from the root (so a type that refers to itself keeps
//     its entry), and "$defs" goes last among the root's members.
//  2. "additionalProperties": false on every struct is invopop's own
//     doing under Reflector's settings and is kept as is.
//  3. Definitions, named "import/path.Type" by Reflector's Namer, are
//     renamed to the shortest unambiguous name within the schema: "Type"
//     when no other definition has that name, else "<last path
//     element>.Type", else the import path with '/' replaced by '.' and
//     ".Type"; the fully qualified name is the last resort. Every "$ref"
//     is rewritten (names are escaped as JSON Pointer tokens), and "$defs"
//     is sorted by the new names, as encoding/json sorts the map invopop
//     writes. The result depends only on the set of definitions.
//  4. Recursive types need nothing more: their definitions stay
//     referenced (step 1), so every "$ref" stays valid.
//  5. Every boolean true schema in a schema position (invopop's encoding
//     of an empty schema, for any, interface{} and json.RawMessage)
//     becomes {}, because some clients reject a boolean property schema.
//     false (as in "additionalProperties": false) stays false.
//  6. "$schema" is removed from the root: MCP defaults to JSON Schema
//     2020-12, which is what invopop writes, and several provider APIs
//     reject unknown root keys.
//
// The result is compact, with invopop's member order and encoding/json's
// string escaping.
func PostProcess(raw []byte) ([]byte, error) {
	root, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	if root.Kind != ObjectKind {
		return nil, fmt.Errorf("schema: the root is %s, want an object", root.Kind)
	}

	// Step 6.
	root.Members = slices.DeleteFunc(root.Members, func(m Member) bool { return m.Key == "$schema" })

	var defs []Member
	if d := root.Get("$defs"); d != nil {
		if d.Kind != ObjectKind {
			return nil, fmt.Errorf("schema: $defs is %s, want an object", d.Kind)
		}
		defs = d.Members
	}
	defIndex := func(key string) int {
		return slices.IndexFunc(defs, func(m Member) bool { return m.Key == key })
	}

	// Step 1: replace the root "$ref" with a copy of its definition.
	if ref := root.Get("$ref"); ref != nil && ref.Kind == StringKind && strings.HasPrefix(ref.Text, defsPrefix) {
		i := defIndex(strings.TrimPrefix(ref.Text, defsPrefix))
		if i < 0 {
			return nil, fmt.Errorf("schema: the root refers to %q, which is not in $defs", ref.Text)
		}
		defKey := defs[i].Key
		def := defs[i].Value.clone()
		if def.Kind == BoolKind && def.Bool {
			def = &Node{Kind: ObjectKind}
		}
		if def.Kind != ObjectKind {
			return nil, fmt.Errorf("schema: the root's definition %q is %s, want an object", defKey, def.Kind)
		}
		var members []Member
		for _, m := range root.Members {
			switch m.Key {
			case "$ref":
				members = append(members, def.Members...)
			case "$defs":
			default:
				members = append(members, m)
			}
		}
		for i, m := range members {
			if m.Key == "$defs" || slices.ContainsFunc(members[:i], func(o Member) bool { return o.Key == m.Key }) {
				return nil, fmt.Errorf("schema: the root's definition %q has a member %q that the root already has", defKey, m.Key)
			}
		}
		root.Members = members
	} else {
		root.Members = slices.DeleteFunc(root.Members, func(m Member) bool { return m.Key == "$defs" })
	}

	// Step 3: names, then "$ref" rewriting; step 5 in the same walk.
	keys := make([]string, len(defs))
	for i, m := range defs {
		keys[i] = m.Key
	}
	names := shortNames(keys)
	rewrite := func(n *Node) {
		if n.Kind == BoolKind && n.Bool {
			*n = Node{Kind: ObjectKind}
			return
		}
		if ref := n.Get("$ref"); ref != nil && ref.Kind == StringKind {
			ref.Text = renameRef(ref.Text, keys, names)
		}
	}
	walkSchemas(root, rewrite)
	for _, m := range defs {
		walkSchemas(m.Value, rewrite)
	}

	// Step 1, continued: keep the definitions the root still needs.
	byName := make(map[string]*Node, len(defs))
	for i, m := range defs {
		byName[names[i]] = m.Value
	}
	kept := map[string]bool{}
	queue := []*Node{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		walkSchemas(n, func(s *Node) {
			ref := s.Get("$ref")
			if ref == nil || ref.Kind != StringKind {
				return
			}
			rest, ok := strings.CutPrefix(ref.Text, defsPrefix)
			if !ok {
				return
			}
			name, _, _ := strings.Cut(rest, "/")
			name = unescapeToken(name)
			if def, ok := byName[name]; ok && !kept[name] {
				kept[name] = true
				queue = append(queue, def)
			}
		})
	}
	var out []Member
	for i, m := range defs {
		if kept[names[i]] {
			out = append(out, Member{Key: names[i], Value: m.Value})
		}
	}
	if len(out) > 0 {
		slices.SortFunc(out, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
		root.Members = append(root.Members, Member{Key: "$defs", Value: &Node{Kind: ObjectKind, Members: out}})
	}
	return root.Compact(), nil
}

// renameRef rewrites a "#/$defs/KEY[/...]" reference to a renamed
// definition. invopop writes the key unescaped, and a fully qualified key
// contains '/', so the longest key that matches wins.
func renameRef(ref string, keys, names []string) string {
	rest, ok := strings.CutPrefix(ref, defsPrefix)
	if !ok {
		return ref
	}
	best := -1
	for i, k := range keys {
		if (rest == k || strings.HasPrefix(rest, k+"/")) && (best < 0 || len(k) > len(keys[best])) {
			best = i
		}
	}
	if best < 0 {
		return ref
	}
	return defsPrefix + escapeToken(names[best]) + rest[len(keys[best]):]
}

// shortNames gives each definition key ("import/path.Type", or a bare name)
// the shortest unambiguous name among the keys: every key starts at the
// bare type name and the keys that share a name move up one level, until
// no two share one. Levels: "Type", "<last path element>.Type", the import
// path with '/' replaced by '.' then ".Type", the key itself. The keys are
// distinct, so this ends; the result depends only on the set of keys.
func shortNames(keys []string) []string {
	levels := make([]int, len(keys))
	names := make([]string, len(keys))
	for {
		for i, k := range keys {
			names[i] = levelName(k, levels[i])
		}
		count := make(map[string]int, len(names))
		for _, n := range names {
			count[n]++
		}
		bumped := false
		for i, n := range names {
			if count[n] > 1 && levels[i] < 3 {
				levels[i]++
				bumped = true
			}
		}
		if !bumped {
			return names
		}
	}
}

// levelName is the name of key at a level of qualification (see
// shortNames).
func levelName(key string, level int) string {
	pkg, name := splitQualified(key)
	if pkg == "" {
		return key
	}
	switch level {
	case 0:
		return name
	case 1:
		return path.Base(pkg) + "." + name
	case 2:
		return strings.ReplaceAll(pkg, "/", ".") + "." + name
	default:
		return key
	}
}

// splitQualified splits "import/path.Type" at the dot before the type
// name. A generic instance's name holds its type arguments in brackets
// ("Page[example.com/m/a.Item]"), so the dot is searched before the '['.
func splitQualified(key string) (pkg, name string) {
	end := strings.IndexByte(key, '[')
	if end < 0 {
		end = len(key)
	}
	dot := strings.LastIndexByte(key[:end], '.')
	if dot < 0 {
		return "", key
	}
	return key[:dot], key[dot+1:]
}
