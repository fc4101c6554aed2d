package provider

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// walk is the schema walk both projectors share (geminiProjector into the
// OpenAPI subset of Gemini's "parameters", strictProjector into OpenAI's
// strict mode): the opening every schema goes through, the reading of
// "$ref" and "type", the checks of the keywords both subsets treat alike,
// and the reasons a schema cannot be projected, in the subset's words. A
// projector embeds it and says what each keyword becomes (keywords).
type walk struct {
	root    *jsontree.Node
	subset  string   // the subset, as reasons name it: "parameters", "strict mode"
	grows   string   // what the walk does to references: "inlined", "merged"
	lacks   string   // what follows "uses KEYWORD, which" in a reason
	reasons []string // why the schema cannot be projected, in order
	dropped []string // pointers of the keywords left out
	visits  int      // schemas walked so far, against the growth of references
}

// applicators are the keywords neither subset has: a schema that uses one
// cannot be projected (dropping it would change the structure). Gemini
// lacks oneOf too, which strict mode takes in one form (see
// strictSchema.keyword).
var applicators = map[string]bool{
	"allOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentSchemas": true, "patternProperties": true, "propertyNames": true,
	"prefixItems": true, "contains": true, "unevaluatedItems": true,
	"unevaluatedProperties": true, "additionalItems": true,
}

// fail records why the schema cannot be projected.
func (w *walk) fail(ptr, format string, args ...any) {
	w.reasons = append(w.reasons, where(ptr)+" "+fmt.Sprintf(format, args...))
}

// cannot records that the schema at ptr does what the subset cannot
// express.
func (w *walk) cannot(ptr, does string) {
	w.fail(ptr, "%s, which %s cannot express", does, w.subset)
}

// open is how the walk of every schema n (found at ptr) starts: n must be
// an object schema (not true, false or another value), and the walk must
// not have grown past maxVisits schemas. It reports whether to go on.
func (w *walk) open(n *jsontree.Node, ptr string) bool {
	switch {
	case n.Kind == jsonlex.Bool && n.Bool:
		w.cannot(ptr, "accepts any JSON value")
		return false
	case n.Kind == jsonlex.Bool:
		w.cannot(ptr, "accepts no value (the schema false)")
		return false
	case n.Kind != jsonlex.Object:
		w.fail(ptr, "is not a schema")
		return false
	}
	if w.visits++; w.visits > maxVisits {
		if w.visits == maxVisits+1 {
			w.fail("", "grows over %d schemas once its references are %s", maxVisits, w.grows)
		}
		return false
	}
	return true
}

// target returns the local definition that ref, the "$ref" of the schema
// at ptr, names, or nil after recording why there is none.
func (w *walk) target(ref *jsontree.Node, ptr string) *jsontree.Node {
	if ref.Kind != jsonlex.String {
		w.fail(pointer(ptr, "$ref"), "is not a string")
		return nil
	}
	target := localRef(w.root, ref.Text)
	if target == nil {
		w.fail(ptr, "has the reference %q, which does not resolve to a local definition", ref.Text)
	}
	return target
}

// typeOf reads the type name of the schema n at ptr: "" when it has none;
// T for "type":T, and for a type list [T], [T,"null"] or ["null",T], with
// nullable set for the last two. Any other type list, or a type that is
// neither a string nor a list, cannot be projected: ok is false.
func (w *walk) typeOf(n *jsontree.Node, ptr string) (name string, nullable, ok bool) {
	t := n.Get("type")
	switch {
	case t == nil:
		return "", false, true
	case t.Kind == jsonlex.String:
		return t.Text, false, true
	case t.Kind == jsonlex.Array:
		if name, ok := typeOrNull(t); ok {
			return name, name != "null" && len(t.Items) == 2, true
		}
		w.cannot(ptr, "has the type union "+string(t.Compact()))
		return "", false, false
	}
	w.fail(pointer(ptr, "type"), "is not a type name")
	return "", false, false
}

// alternatives reports whether the member key of schema n lists
// alternatives both subsets take as anyOf: anyOf itself, or a oneOf of
// distinct consts (constOneOf).
func alternatives(n *jsontree.Node, key string) bool {
	return key == "anyOf" || key == "oneOf" && constOneOf(n)
}

// keywords goes through the members of the schema n at ptr in order: each
// gets the checks both subsets make alike (check), then, when it passes
// them, the projector's keyword, which reports whether the subset can
// take it. keywords reports whether every member passed; one that did not
// has recorded why, and the members after it are still gone through.
func (w *walk) keywords(n *jsontree.Node, ptr string, keyword func(m jsontree.Member, at string) bool) bool {
	ok := true
	for _, m := range n.Members {
		at := pointer(ptr, m.Key)
		if !w.check(n, m, ptr, at) || !keyword(m, at) {
			ok = false
		}
	}
	return ok
}

// check makes the checks of the member m (at at) of the schema n (at ptr)
// that both subsets make alike, and reports whether m passes them,
// recording why not.
func (w *walk) check(n *jsontree.Node, m jsontree.Member, ptr, at string) bool {
	v := m.Value
	switch {
	case m.Key == "properties" && v.Kind != jsonlex.Object:
		w.fail(at, "is not an object")
	case m.Key == "items" && v.Kind == jsonlex.Array:
		w.cannot(at, "is a tuple")
	case alternatives(n, m.Key) && (v.Kind != jsonlex.Array || len(v.Items) == 0):
		w.fail(at, "is not a non-empty array")
	case m.Key == "enum" && v.Kind != jsonlex.Array:
		w.fail(at, "is not an array")
	case applicators[m.Key]:
		w.fail(ptr, "uses %s, which %s", m.Key, w.lacks)
	default:
		return true
	}
	return false
}

// closed reports whether v, the additionalProperties of the schema at
// ptr, is false, the one value both subsets take, recording why not.
func (w *walk) closed(v *jsontree.Node, ptr string) bool {
	switch {
	case v.Kind == jsonlex.Bool && !v.Bool:
		return true
	case v.Kind == jsonlex.Bool:
		w.cannot(ptr, "accepts any property (additionalProperties true)")
	default:
		w.cannot(ptr, "is a map (additionalProperties is a schema)")
	}
	return false
}

// untyped records that the schema at ptr, which has no type, accepts any
// JSON value.
func (w *walk) untyped(ptr string) { w.cannot(ptr, "accepts any JSON value (it has no type)") }

// anyObject records that the object schema at ptr, which has no
// properties, accepts any object.
func (w *walk) anyObject(ptr string) { w.cannot(ptr, "accepts any object") }
