package shape

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// This file checks the `jsonschema:"..."` tags of the fields of input and
// output types, from the source, against the tag grammar of
// github.com/invopop/jsonschema v0.14 (reflect.go: genericKeywords,
// stringKeywords, numericalKeywords, arrayKeywords, booleanKeywords and
// reflectFieldName). invopop drops without a word every key it does not
// know, every keyword that does not apply to the field's type and every
// value it cannot parse: the schema then says less than its author wrote,
// and the model is never told. Here each of those is a problem at the
// field. So are bounds that contradict each other, which invopop
// publishes and no argument could satisfy.
//
// What invopop does publish and toolgen cannot enforce (a format other
// than date-time, a pattern Go cannot compile, a type= that disagrees
// with the Go type) is refused later, on the reflected schema; it is not
// checked twice here.

// tagKind is what invopop makes of a field's type when it applies the
// type-specific keywords of its tag: the "type" of the property schema it
// reflected (after pointers), or why there is none.
type tagKind uint8

const (
	tkNone    tagKind = iota // no type-specific keyword applies: any, unnamed struct
	tkString                 // string kinds, []byte, time.Time, url.URL, net.IP
	tkInteger                // integer kinds
	tkNumber                 // float kinds
	tkBoolean                // bool
	tkArray                  // unnamed slices and arrays
	tkMap                    // maps: toolgen's minProperties and maxProperties
	tkRef                    // a named struct, slice, array or map: a $ref, no keyword beside it
	tkUnknown                // a type whose schema a hook decides: not checked
)

// tagKeywords lists each key invopop v0.14 reads from a jsonschema tag
// beyond the generic ones, with the kinds it applies to. Keys of an array
// are applied to the array, or passed on to its items (see tagApplies).
var tagKeywords = map[string][]tagKind{
	"minLength": {tkString}, "maxLength": {tkString},
	"pattern": {tkString}, "format": {tkString},
	"readOnly": {tkString}, "writeOnly": {tkString},
	"default": {tkString, tkInteger, tkNumber, tkBoolean, tkArray},
	"example": {tkString, tkInteger, tkNumber},
	"enum":    {tkString, tkInteger, tkNumber},
	"minimum": {tkInteger, tkNumber}, "maximum": {tkInteger, tkNumber},
	"exclusiveMinimum": {tkInteger, tkNumber}, "exclusiveMaximum": {tkInteger, tkNumber},
	"multipleOf": {tkInteger, tkNumber},
	"minItems":   {tkArray}, "maxItems": {tkArray}, "uniqueItems": {tkArray},
	// toolgen's extension for maps; invopop v0.14 does not read them.
	"minProperties": {tkMap}, "maxProperties": {tkMap},
}

// genericTagKeys apply to every field whatever its type.
var genericTagKeys = []string{
	"title", "description", "type", "anchor",
	"oneof_required", "anyof_required", "oneof_ref", "oneof_type", "anyof_ref", "anyof_type",
}

// flagTagKeys are the keys written without a value.
var flagTagKeys = []string{"required", "nullable"}

// appliesTo says in words where a keyword applies, for the messages.
var appliesTo = map[string]string{
	"minLength": "strings and slices of strings", "maxLength": "strings and slices of strings",
	"pattern": "strings and slices of strings", "format": "strings and slices of strings",
	"readOnly": "strings and slices of strings", "writeOnly": "strings and slices of strings",
	"default": "strings, numbers, booleans and slices",
	"example": "strings, numbers and slices of them", "enum": "strings, numbers and slices of them",
	"minimum": "numbers and slices of numbers", "maximum": "numbers and slices of numbers",
	"exclusiveMinimum": "numbers and slices of numbers", "exclusiveMaximum": "numbers and slices of numbers",
	"multipleOf": "numbers and slices of numbers",
	"minItems":   "slices and arrays", "maxItems": "slices and arrays", "uniqueItems": "slices and arrays",
	"minProperties": "maps", "maxProperties": "maps",
}

// allTagKeys is every key the grammar knows, for "did you mean".
func allTagKeys() []string {
	keys := append(append([]string{}, genericTagKeys...), flagTagKeys...)
	return append(keys, slices.Sorted(maps.Keys(tagKeywords))...)
}

// jsonNumber is the grammar of a JSON number: what invopop's toJSONNumber
// should accept (strconv.ParseFloat also takes "Inf", "NaN" and hex,
// which would make the published schema invalid JSON).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// tagElem is one key of a tag, as invopop splits it.
type tagElem struct {
	text     string // as written, "minimum=3"
	key, val string
	hasVal   bool
}

// splitSchemaTag splits a jsonschema tag as invopop's
// splitOnUnescapedCommas does: on commas not preceded by a backslash.
func splitSchemaTag(tag string) []tagElem {
	var parts []string
	for i, p := range strings.Split(tag, ",") {
		if i > 0 && strings.HasSuffix(parts[len(parts)-1], `\`) {
			last := parts[len(parts)-1]
			parts[len(parts)-1] = last[:len(last)-1] + "," + p
			continue
		}
		parts = append(parts, p)
	}
	var out []tagElem
	for _, p := range parts {
		if p == "" {
			continue
		}
		k, v, ok := strings.Cut(p, "=")
		out = append(out, tagElem{text: p, key: k, val: v, hasVal: ok})
	}
	return out
}

// checkSchemaTag checks the jsonschema tag of field f once, however many
// tools reach it; inlined says f is an embedded field whose fields are
// flattened into the struct. where names the field in the messages; pos
// is the field's.
func (d *Deriver) checkSchemaTag(f *types.Var, tag string, inlined bool, pos token.Position, where string) []*problem.Error {
	if tag == "" || d.tagged[f] {
		return nil
	}
	d.tagged[f] = true
	tc := &tagCheck{pos: pos, where: where}
	elems := splitSchemaTag(tag)
	if inlined {
		if _, ok := derefType(f.Type()).Underlying().(*types.Struct); ok {
			tc.bad("jsonschema tag on an embedded struct: invopop inlines the fields of %s and ignores the tag; put the keywords on its fields", TypeString(f.Type()))
			return tc.errs
		}
	}
	kind, elem, named := tagKindOf(f.Type())
	overridden := false
	for _, e := range elems {
		if e.hasVal && (e.key == "type" || e.key == "oneof_type" || e.key == "anyof_type") {
			// The schema's type is the author's: what it disagrees with
			// is refused on the reflected schema.
			overridden = true
		}
	}
	seen := map[string]tagElem{}
	vals := map[string]string{}
	for i, e := range elems {
		if !tc.grammar(i, e) {
			continue
		}
		if prev, dup := seen[e.key]; dup && e.key != "enum" && e.key != "example" && e.key != "default" && !strings.HasSuffix(e.key, "_required") {
			tc.bad("jsonschema key %s repeated: invopop keeps the last, %q, and drops %q", e.key, e.text, prev.text)
		}
		seen[e.key] = e
		if tagKeywords[e.key] == nil || overridden {
			continue // generic, or a type the author chose
		}
		target, ok := tagApplies(e.key, kind, elem)
		switch {
		case kind == tkUnknown:
			continue
		case kind == tkRef:
			tc.bad("jsonschema key %s has no effect on a field of named type %s: invopop refers to its definition and drops the keyword; use an unnamed type or set the keyword in a JSONSchemaExtend method of %s", e.key, named, named)
			continue
		case !ok:
			tc.bad("jsonschema key %s does not apply to %s, and invopop drops it: it applies to %s", e.key, TypeString(f.Type()), appliesTo[e.key])
			continue
		case kind == tkArray && strings.Contains(e.val, "="):
			tc.bad("jsonschema %q: invopop drops a value holding '=' on a slice", e.text)
			continue
		}
		if v, ok := tc.value(e, target, f.Type()); ok {
			if e.key != "enum" && e.key != "example" && e.key != "default" {
				vals[e.key] = v
			}
		}
	}
	if kind != tkUnknown && kind != tkRef && !overridden {
		tc.bounds(elems, vals, kind, elem)
	}
	return tc.errs
}

// grammar checks one element of a jsonschema tag against invopop's tag
// grammar: a flag, a keyword with its value, "-" in first place. It
// reports a problem and returns false for an element invopop drops or
// misreads, true for a keyword whose value is to be checked.
func (tc *tagCheck) grammar(i int, e tagElem) bool {
	switch {
	case e.text == "-":
		if i > 0 {
			tc.bad(`jsonschema "-" leaves a field out only when it comes first (jsonschema:"-"); here invopop ignores it`)
		}
		return false
	case !e.hasVal && isOneOf(e.key, flagTagKeys):
		return false
	case e.hasVal && isOneOf(e.key, flagTagKeys):
		tc.bad("jsonschema %q: %s takes no value and invopop drops it written so; write %s", e.text, e.key, e.key)
		return false
	case !e.hasVal && (tagKeywords[e.key] != nil || isOneOf(e.key, genericTagKeys)):
		ex := e.key + "=VALUE"
		if e.key == "uniqueItems" || e.key == "readOnly" || e.key == "writeOnly" {
			ex = e.key + "=true"
		}
		tc.bad("jsonschema key %s needs a value, or invopop drops it: write %s", e.key, ex)
		return false
	case e.key == "const":
		tc.bad("jsonschema key const is not in invopop's tag grammar, which drops it; write enum=VALUE for a single allowed value")
		return false
	case tagKeywords[e.key] == nil && !isOneOf(e.key, genericTagKeys):
		msg := fmt.Sprintf("unknown jsonschema key %q, which invopop drops", e.key)
		if s := problem.Closest(e.key, allTagKeys()); s != "" {
			msg += "; did you mean " + s + "?"
		} else if e.key == "omitempty" || e.key == "omitzero" {
			msg += "; " + e.key + " belongs in the json tag"
		}
		tc.bad("%s", msg)
		return false
	}
	return true
}

// tagCheck collects the problems of one field's tag.
type tagCheck struct {
	pos   token.Position
	where string
	errs  []*problem.Error
}

func (tc *tagCheck) bad(format string, args ...any) {
	tc.errs = append(tc.errs, problem.Errorf(tc.pos, "%s: "+format, append([]any{tc.where}, args...)...))
}

// tagApplies reports whether invopop applies key to a field of kind
// (elem: the kind of a slice's items), and the kind of the value it
// applies it to: the items for the keys an array passes on.
func tagApplies(key string, kind, elem tagKind) (tagKind, bool) {
	if kind == tkArray {
		switch key {
		case "minItems", "maxItems", "uniqueItems", "default":
			return tkArray, true
		case "pattern", "format":
			// invopop sets them on the items whatever their type.
			return tkString, elem == tkString
		}
		return elem, elem != tkBoolean && isOneOf(elem, tagKeywords[key])
	}
	return kind, isOneOf(kind, tagKeywords[key])
}

// value checks the value of an applicable keyword for a value of kind
// (the field's, or its items'), and returns it when it parsed.
func (tc *tagCheck) value(e tagElem, kind tagKind, t types.Type) (string, bool) {
	drop := func(why string) (string, bool) {
		tc.bad("jsonschema %q: %s; invopop drops it", e.text, why)
		return "", false
	}
	switch e.key {
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		if _, err := strconv.ParseUint(e.val, 10, 64); err != nil {
			return drop("not a non-negative integer")
		}
	case "readOnly", "writeOnly":
		if _, err := strconv.ParseBool(e.val); err != nil {
			return drop("want true or false")
		}
	case "uniqueItems":
		if e.val != "true" {
			tc.bad("jsonschema %q publishes uniqueItems true (invopop sets it whatever the value); write uniqueItems=true or remove it", e.text)
			return "", false
		}
	case "default", "example", "enum":
		switch kind {
		case tkBoolean:
			if e.val != "true" && e.val != "false" {
				return drop("want true or false")
			}
		case tkInteger, tkNumber:
			if _, ok := tc.number(e, kind, t); !ok {
				return "", false
			}
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		r, ok := tc.number(e, tkNumber, t)
		if !ok {
			return "", false
		}
		if e.key == "multipleOf" && r.Sign() <= 0 {
			tc.bad("jsonschema %q: multipleOf must be greater than 0", e.text)
			return "", false
		}
	}
	return e.val, true
}

// number parses a numeric value as invopop's toJSONNumber would, refusing
// what it drops or what would publish an invalid schema; for kind
// tkInteger the value must also be an integer that t can hold.
func (tc *tagCheck) number(e tagElem, kind tagKind, t types.Type) (*big.Rat, bool) {
	if !jsonNumber.MatchString(e.val) {
		tc.bad("jsonschema %q: not a number; invopop drops it", e.text)
		return nil, false
	}
	if _, err := strconv.ParseFloat(e.val, 64); err != nil {
		tc.bad("jsonschema %q: out of the range of float64; invopop drops it", e.text)
		return nil, false
	}
	r, _ := new(big.Rat).SetString(e.val)
	if kind != tkInteger {
		return r, true
	}
	if !r.IsInt() {
		tc.bad("jsonschema %q: not an integer, so no argument could ever be that value", e.text)
		return nil, false
	}
	if lo, hi, ok := intRange(t); ok && (r.Num().Cmp(lo) < 0 || r.Num().Cmp(hi) > 0) {
		tc.bad("jsonschema %q: out of the range of %s, so no argument could ever be that value", e.text, TypeString(elemOf(t)))
		return nil, false
	}
	return r, true
}

// bounds refuses keywords that contradict each other, and enum values that
// the other keywords exclude: no argument could be valid.
func (tc *tagCheck) bounds(elems []tagElem, vals map[string]string, kind, elem tagKind) {
	noun := "argument"
	valueKind := kind
	if kind == tkArray {
		if lo, hi, ok := pair(vals, "minItems", "maxItems"); ok && lo.Cmp(hi) > 0 {
			tc.bad(`jsonschema "minItems=%s" and "maxItems=%s" contradict: no argument could ever be valid`, vals["minItems"], vals["maxItems"])
		}
		noun, valueKind = "element", elem
	}
	if kind == tkMap {
		if lo, hi, ok := pair(vals, "minProperties", "maxProperties"); ok && lo.Cmp(hi) > 0 {
			tc.bad(`jsonschema "minProperties=%s" and "maxProperties=%s" contradict: no argument could ever be valid`, vals["minProperties"], vals["maxProperties"])
		}
		return
	}
	switch valueKind {
	case tkString:
		minL, maxL, ok := pair(vals, "minLength", "maxLength")
		if ok && minL.Cmp(maxL) > 0 {
			tc.bad(`jsonschema "minLength=%s" and "maxLength=%s" contradict: no %s could ever be valid`, vals["minLength"], vals["maxLength"], noun)
			return
		}
		for _, e := range elems {
			if e.key != "enum" || !e.hasVal {
				continue
			}
			n := int64(utf8.RuneCountInString(e.val))
			if v, ok := vals["minLength"]; ok && big.NewInt(n).Cmp(bigInt(v)) < 0 {
				tc.bad(`jsonschema %q is shorter than "minLength=%s": no %s could ever be that value`, e.text, v, noun)
			}
			if v, ok := vals["maxLength"]; ok && big.NewInt(n).Cmp(bigInt(v)) > 0 {
				tc.bad(`jsonschema %q is longer than "maxLength=%s": no %s could ever be that value`, e.text, v, noun)
			}
		}
	case tkInteger, tkNumber:
		lo, hi := numericBounds(vals, valueKind == tkInteger)
		if lo != nil && hi != nil && lo.excludes(hi) {
			tc.bad(`jsonschema %q and %q contradict: no %s could ever be valid`, lo.text, hi.text, noun)
			return
		}
		for _, e := range elems {
			if e.key != "enum" || !e.hasVal || !jsonNumber.MatchString(e.val) {
				continue
			}
			v, ok := new(big.Rat).SetString(e.val)
			if !ok {
				continue
			}
			if lo != nil && lo.below(v) {
				tc.bad(`jsonschema %q is below %q: no %s could ever be that value`, e.text, lo.text, noun)
			}
			if hi != nil && hi.above(v) {
				tc.bad(`jsonschema %q is above %q: no %s could ever be that value`, e.text, hi.text, noun)
			}
			if m, ok := vals["multipleOf"]; ok {
				q, _ := new(big.Rat).SetString(m)
				if q.Sign() > 0 && !new(big.Rat).Quo(v, q).IsInt() {
					tc.bad(`jsonschema %q is not a multiple of "multipleOf=%s": no %s could ever be that value`, e.text, m, noun)
				}
			}
		}
	}
}

// tagKindOf is what invopop makes of a field of type t (see tagKind),
// the kind of its items for a slice, and the type's name for tkRef.
func tagKindOf(t types.Type) (kind, elem tagKind, named string) {
	t = derefType(t)
	if hasSchemaHook(t) {
		return tkUnknown, 0, ""
	}
	switch {
	case IsTime(t), IsNamed(t, "net/url", "URL"), IsNamed(t, "net", "IP"):
		return tkString, 0, ""
	case IsNamed(t, "encoding/json", "RawMessage"):
		return tkNone, 0, ""
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return tkString, 0, ""
		case u.Info()&types.IsInteger != 0:
			return tkInteger, 0, ""
		case u.Info()&types.IsFloat != 0:
			return tkNumber, 0, ""
		case u.Info()&types.IsBoolean != 0:
			return tkBoolean, 0, ""
		}
		return tkNone, 0, ""
	case *types.Slice, *types.Array, *types.Map, *types.Struct:
		if n, ok := t.(*types.Named); ok {
			return tkRef, 0, n.Obj().Name()
		}
		switch u := u.(type) {
		case *types.Slice:
			if b, ok := u.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
				return tkString, 0, ""
			}
			e, _, _ := tagKindOf(u.Elem())
			return tkArray, itemKind(e), ""
		case *types.Array:
			e, _, _ := tagKindOf(u.Elem())
			return tkArray, itemKind(e), ""
		case *types.Map:
			return tkMap, 0, ""
		}
		return tkNone, 0, ""
	}
	return tkNone, 0, ""
}

// itemKind is the kind whose keywords invopop passes on to the items of an
// array: none for arrays of arrays (it does not recurse) or of refs.
func itemKind(k tagKind) tagKind {
	switch k {
	case tkString, tkInteger, tkNumber, tkBoolean:
		return k
	}
	return tkNone
}

// hasSchemaHook reports whether invopop lets the type describe itself
// (JSONSchema, JSONSchemaAlias, JSONSchemaExtend): what its tags do then
// depends on code toolgen does not run here.
func hasSchemaHook(t types.Type) bool {
	if _, ok := t.(*types.Named); !ok {
		return false
	}
	for _, m := range []string{"JSONSchema", "JSONSchemaAlias", "JSONSchemaExtend"} {
		if HasMethod(t, m) {
			return true
		}
	}
	return false
}

func derefType(t types.Type) types.Type {
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			return t
		}
		t = p.Elem()
	}
}

// elemOf is the integer type a numeric keyword of t constrains: t itself,
// or the items of a slice or array.
func elemOf(t types.Type) types.Type {
	t = derefType(t)
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return derefType(u.Elem())
	case *types.Array:
		return derefType(u.Elem())
	}
	return t
}

// intRange is the range of the integer type behind t (or its items).
func intRange(t types.Type) (lo, hi *big.Int, ok bool) {
	b, isBasic := elemOf(t).Underlying().(*types.Basic)
	if !isBasic || b.Info()&types.IsInteger == 0 {
		return nil, nil, false
	}
	bits := map[types.BasicKind]uint{
		types.Int: 64, types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Int64: 64,
		types.Uint: 64, types.Uint8: 8, types.Uint16: 16, types.Uint32: 32, types.Uint64: 64, types.Uintptr: 64,
	}[b.Kind()]
	one := big.NewInt(1)
	if b.Info()&types.IsUnsigned != 0 {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one), true
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
	return new(big.Int).Neg(new(big.Int).Lsh(one, bits-1)), hi, true
}

func isOneOf[T comparable](v T, list []T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
