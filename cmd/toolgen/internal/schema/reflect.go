package schema

import (
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"

	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"
)

// Reflect returns the published JSON Schema of t (a struct type, or any
// type for outputs; a pointer is reflected as the type it points to):
// ReflectRaw's schema (Reflector's settings and MapBounds), post-processed by
// PostProcess, as compact bytes with keys in a stable order (struct field
// order for properties, never via a Go map). This is what toolgen
// publishes: its bootstrap program runs ReflectRaw and toolgen runs
// PostProcess on the result.
//
// Reflect runs the type's hooks (JSONSchema, JSONSchemaExtend, ...). A
// panic in one of them, or in invopop, is returned as a *PanicError, never
// as a schema reflected without the hook.
func Reflect(t reflect.Type, comments map[string]string) ([]byte, error) {
	raw, err := ReflectRaw(t, comments)
	if err != nil {
		return nil, err
	}
	out, err := PostProcess(raw)
	if err != nil {
		return nil, fmt.Errorf("schema: post-process the JSON Schema of %s: %w", t, err)
	}
	return out, nil
}

// ReflectInput returns the published JSON Schema of a tool's input type t:
// Reflect's, then InputRoot's step (the root's description, when it is
// the type's own doc comment, is not published).
func ReflectInput(t reflect.Type, comments map[string]string) ([]byte, error) {
	out, err := Reflect(t, comments)
	if err != nil {
		return nil, err
	}
	root, err := jsontree.Parse(out)
	if err != nil {
		return nil, fmt.Errorf("schema: post-process the JSON Schema of %s: %w", t, err)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	InputRoot(root, comments, t.PkgPath(), t.Name())
	return root.Compact(), nil
}

// InputRoot is the step toolgen applies to a tool's input schema only,
// after PostProcess: the root's "description" is removed when it is the
// description comments holds for the input type itself (key
// "pkgPath.name": the synopsis of its doc comment, as CommentMap gives it
// to invopop). That text describes a Go type ("ListInput holds the
// arguments of todo_list."), tells the model nothing the tool's own
// description does not, and costs tokens on every request that lists the
// tool. Everything else keeps its description: the fields, the nested
// types, and the input type's own "$defs" entry when it refers to itself
// (only the root member is removed). A description that is not the doc
// comment's, such as one a JSONSchemaExtend hook sets (hooks run after
// comments are applied), is published: that is how an author asks for a
// root description.
func InputRoot(root *jsontree.Node, comments map[string]string, pkgPath, name string) {
	doc, ok := comments[pkgPath+"."+name]
	if !ok || root == nil || root.Kind != jsonlex.Object {
		return
	}
	root.Members = slices.DeleteFunc(root.Members, func(m jsontree.Member) bool {
		return m.Key == "description" && m.Value.Kind == jsonlex.String && m.Value.Text == doc
	})
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
func walkSchemas(n *jsontree.Node, visit func(*jsontree.Node)) {
	if n == nil {
		return
	}
	visit(n)
	if n.Kind != jsonlex.Object {
		return
	}
	for _, m := range n.Members {
		v := m.Value
		switch class := keywordClass(m.Key); {
		case class == schemaValue && v.Kind == jsonlex.Array, class == schemaArray && v.Kind == jsonlex.Array:
			for _, it := range v.Items {
				walkSchemas(it, visit)
			}
		case class == schemaValue:
			walkSchemas(v, visit)
		case class == schemaMap && v.Kind == jsonlex.Object:
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
	root, err := jsontree.Parse(raw)
	if err != nil {
		return nil, err
	}
	if err := PostProcessTree(root); err != nil {
		return nil, err
	}
	return root.Compact(), nil
}

// PostProcessTree applies PostProcess's steps to a parsed schema, in place.
func PostProcessTree(root *jsontree.Node) error {
	if root.Kind != jsonlex.Object {
		return fmt.Errorf("schema: the root is %s, want an object", root.Kind)
	}

	// Step 6.
	root.Members = slices.DeleteFunc(root.Members, func(m jsontree.Member) bool { return m.Key == "$schema" })

	var defs []jsontree.Member
	if d := root.Get("$defs"); d != nil {
		if d.Kind != jsonlex.Object {
			return fmt.Errorf("schema: $defs is %s, want an object", d.Kind)
		}
		defs = d.Members
	}
	if err := inlineRootRef(root, defs); err != nil {
		return err
	}
	names := rewriteRefs(root, defs)
	keepNeededDefs(root, defs, names)
	return nil
}

// inlineRootRef is step 1: it replaces the root "$ref" with a copy of its
// definition, and drops the root's "$defs" (keepNeededDefs puts back the
// definitions still needed).
func inlineRootRef(root *jsontree.Node, defs []jsontree.Member) error {
	ref := root.Get("$ref")
	if ref == nil || ref.Kind != jsonlex.String || !strings.HasPrefix(ref.Text, defsPrefix) {
		root.Members = slices.DeleteFunc(root.Members, func(m jsontree.Member) bool { return m.Key == "$defs" })
		return nil
	}
	key := strings.TrimPrefix(ref.Text, defsPrefix)
	i := slices.IndexFunc(defs, func(m jsontree.Member) bool { return m.Key == key })
	if i < 0 {
		return fmt.Errorf("schema: the root refers to %q, which is not in $defs", ref.Text)
	}
	defKey := defs[i].Key
	def := defs[i].Value.Clone()
	if def.Kind == jsonlex.Bool && def.Bool {
		def = &jsontree.Node{Kind: jsonlex.Object}
	}
	if def.Kind != jsonlex.Object {
		return fmt.Errorf("schema: the root's definition %q is %s, want an object", defKey, def.Kind)
	}
	var members []jsontree.Member
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
		if m.Key == "$defs" || slices.ContainsFunc(members[:i], func(o jsontree.Member) bool { return o.Key == m.Key }) {
			return fmt.Errorf("schema: the root's definition %q has a member %q that the root already has", defKey, m.Key)
		}
	}
	root.Members = members
	return nil
}

// rewriteRefs is step 3, with step 5 in the same walk: it names the
// definitions (shortNames) and rewrites every "$ref" of the root and the
// definitions to the new names, and every true schema to {}. It returns
// the name of each definition, in the order of defs.
func rewriteRefs(root *jsontree.Node, defs []jsontree.Member) []string {
	keys := make([]string, len(defs))
	for i, m := range defs {
		keys[i] = m.Key
	}
	names := shortNames(keys)
	rewrite := func(n *jsontree.Node) {
		if n.Kind == jsonlex.Bool && n.Bool {
			*n = jsontree.Node{Kind: jsonlex.Object}
			return
		}
		if ref := n.Get("$ref"); ref != nil && ref.Kind == jsonlex.String {
			ref.Text = renameRef(ref.Text, keys, names)
		}
	}
	walkSchemas(root, rewrite)
	for _, m := range defs {
		walkSchemas(m.Value, rewrite)
	}
	return names
}

// keepNeededDefs completes step 1: it puts back under the root's "$defs",
// sorted by name, the definitions the root still refers to, directly or
// through another definition.
func keepNeededDefs(root *jsontree.Node, defs []jsontree.Member, names []string) {
	byName := make(map[string]*jsontree.Node, len(defs))
	for i, m := range defs {
		byName[names[i]] = m.Value
	}
	kept := map[string]bool{}
	queue := []*jsontree.Node{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		walkSchemas(n, func(s *jsontree.Node) {
			ref := s.Get("$ref")
			if ref == nil || ref.Kind != jsonlex.String {
				return
			}
			rest, ok := strings.CutPrefix(ref.Text, defsPrefix)
			if !ok {
				return
			}
			name, _, _ := strings.Cut(rest, "/")
			name = jsontree.UnescapeToken(name)
			if def, ok := byName[name]; ok && !kept[name] {
				kept[name] = true
				queue = append(queue, def)
			}
		})
	}
	var out []jsontree.Member
	for i, m := range defs {
		if kept[names[i]] {
			out = append(out, jsontree.Member{Key: names[i], Value: m.Value})
		}
	}
	if len(out) > 0 {
		slices.SortFunc(out, func(a, b jsontree.Member) int { return strings.Compare(a.Key, b.Key) })
		root.Members = append(root.Members, jsontree.Member{Key: "$defs", Value: &jsontree.Node{Kind: jsonlex.Object, Members: out}})
	}
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
	return defsPrefix + jsontree.EscapeToken(names[best]) + rest[len(keys[best]):]
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
