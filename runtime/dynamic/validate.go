package dynamic

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// schemaURL is the location a toolkit's input schema is compiled under.
// Nothing is ever loaded from it: it only names the document.
const schemaURL = "urn:toolgen:dynamic:input"

// maxQuoted bounds the text of schema values (enum, const) that a problem
// quotes; longer lists are described instead.
const maxQuoted = 200

// errNoLoading refuses every external reference of a schema: a schema that
// came from a toolkit must not make the process read a file or the
// network.
var errNoLoading = errors.New("external references are not loaded")

// noLoader is the URL loader of the compiler: it loads nothing.
type noLoader struct{}

// Load refuses every URL.
func (noLoader) Load(string) (any, error) { return nil, errNoLoading }

// digest identifies one version of an input schema.
type digest [sha256.Size]byte

// compile compiles an input schema (draft 2020-12 unless its $schema says
// otherwise) with format assertions on, as the generated decoders enforce
// the formats they publish, and without loading any external reference.
func compile(schema []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("parse input schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("add input schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile input schema: %w", err)
	}
	return sch, nil
}

// validator checks the arguments of dynamic tools: JSON syntax, size and
// depth with the codec's decoder (the checks and messages of the static
// path), then the tool's compiled schema.
type validator struct {
	limits   codec.Limits
	decoders sync.Pool // of *codec.Decoder
}

func newValidator(lim codec.Limits) *validator {
	v := &validator{limits: lim}
	v.decoders.New = func() any { return codec.NewDecoder() }
	return v
}

// emptyArgs stands for arguments that were not sent, as in the static
// path.
var emptyArgs = []byte("{}")

// validate returns nil, or the *tool.Error with CodeInvalidArguments that
// a call of the tool named name reports for args. Its message names JSON
// Pointers and constraints, never a value that was sent.
func (v *validator) validate(name string, sch *jsonschema.Schema, args []byte) error {
	if len(args) == 0 {
		args = emptyArgs
	}
	d := v.decoders.Get().(*codec.Decoder)
	d.Reset(args, v.limits)
	var inst any
	if d.Kind() == jsonlex.Object {
		// Objects as map[string]any, numbers as json.Number. The decoder
		// checks syntax, UTF-8, size and depth, and refuses duplicate
		// member names, each a problem at its own path, as the static path
		// does; they are in d.Err below.
		inst, _ = d.AnyWith(jsonNumber)
	} else {
		d.Object("object") // records what was sent instead, and skips it
	}
	d.End()
	err := d.Err()
	d.Reset(emptyArgs, v.limits) // no reference to the arguments
	v.decoders.Put(d)
	if err != nil {
		return invalid(name, err)
	}
	verr := sch.Validate(inst)
	if verr == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return invalid(name, verr)
	}
	return invalid(name, problems(ve))
}

// jsonNumber keeps a number's literal as the validator takes it: a
// json.Number, so that no precision is lost.
func jsonNumber(lit []byte) any { return json.Number(lit) }

// invalid is the *tool.Error of invalid arguments of the tool name.
func invalid(name string, err error) error {
	te := toolerr.InvalidArguments(err).(*tool.Error)
	te.Tool = name
	return te
}

// problems turns a validation error into the codec's ArgumentsError:
// every failed constraint, as a JSON Pointer and what the schema wants,
// sorted (the validator's order follows Go map iteration) and capped as
// the codec caps them.
func problems(ve *jsonschema.ValidationError) *codec.ArgumentsError {
	var ps []codec.Problem
	collect(&ps, ve)
	slices.SortFunc(ps, func(a, b codec.Problem) int {
		if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	ps = slices.Compact(ps)
	ae := &codec.ArgumentsError{Problems: ps}
	if len(ps) > codec.MaxProblems {
		ae.Problems, ae.Omitted = ps[:codec.MaxProblems], len(ps)-codec.MaxProblems
	}
	if len(ae.Problems) == 0 {
		ae.Problems = []codec.Problem{{Message: "does not match the input schema"}}
	}
	return ae
}

// collect appends the problems of ve and of its causes. Groups (the whole
// schema, allOf, a $ref) are looked through; a failed anyOf or oneOf is
// one problem, since listing why each branch failed misleads more than it
// helps.
func collect(ps *[]codec.Problem, ve *jsonschema.ValidationError) {
	at := pointer(ve.InstanceLocation)
	switch ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		for _, c := range ve.Causes {
			collect(ps, c)
		}
		if len(ve.Causes) == 0 {
			*ps = append(*ps, codec.Problem{Pointer: at, Message: "does not match the input schema"})
		}
	case *kind.Required, *kind.DependentRequired, *kind.Dependency, *kind.AdditionalProperties, *kind.PropertyNames:
		memberProblems(ps, at, ve.ErrorKind)
	default:
		msg, ok := boundMessage(ve.ErrorKind)
		if !ok {
			msg = valueMessage(ve.ErrorKind)
		}
		*ps = append(*ps, codec.Problem{Pointer: at, Message: msg})
	}
}

// memberProblems appends the problems of k, a failed keyword about an
// object's members, at the object at: one per member it names.
func memberProblems(ps *[]codec.Problem, at string, k jsonschema.ErrorKind) {
	add := func(ptr, msg string) { *ps = append(*ps, codec.Problem{Pointer: ptr, Message: msg}) }
	switch k := k.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			add(child(at, m), "required property is missing")
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			add(child(at, m), "required property is missing (required by "+codec.PointerToken(k.Prop)+")")
		}
	case *kind.Dependency:
		for _, m := range k.Missing {
			add(child(at, m), "required property is missing (required by "+codec.PointerToken(k.Prop)+")")
		}
		if len(k.Missing) == 0 {
			add(child(at, k.Prop), "does not meet the schema's dependencies")
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(child(at, p), "unknown property (additional properties are not allowed)")
		}
	case *kind.PropertyNames:
		add(child(at, k.Property), "property name does not match the schema's propertyNames")
	}
}

// boundMessage is the message of k when it is a failed bound on a count
// (properties, items, characters) or on a number, and whether it is one.
func boundMessage(k jsonschema.ErrorKind) (string, bool) {
	switch k := k.(type) {
	case *kind.MinProperties:
		return "must have at least " + count(k.Want, "property", "properties"), true
	case *kind.MaxProperties:
		return "must have at most " + count(k.Want, "property", "properties"), true
	case *kind.MinItems:
		return "must have at least " + count(k.Want, "item", "items"), true
	case *kind.MaxItems:
		return "must have at most " + count(k.Want, "item", "items"), true
	case *kind.MinContains:
		return "must hold at least " + count(k.Want, "item", "items") + " that match the schema's contains", true
	case *kind.MaxContains:
		return "must hold at most " + count(k.Want, "item", "items") + " that match the schema's contains", true
	case *kind.MinLength:
		return "must be at least " + count(k.Want, "character", "characters") + " long", true
	case *kind.MaxLength:
		return "must be at most " + count(k.Want, "character", "characters") + " long", true
	case *kind.Minimum:
		return "must be at least " + number(k.Want), true
	case *kind.Maximum:
		return "must be at most " + number(k.Want), true
	case *kind.ExclusiveMinimum:
		return "must be greater than " + number(k.Want), true
	case *kind.ExclusiveMaximum:
		return "must be less than " + number(k.Want), true
	case *kind.MultipleOf:
		return "must be a multiple of " + number(k.Want), true
	}
	return "", false
}

// valueMessage is the message of k, a failed keyword about the value
// itself that is not a bound: its type, its allowed values, its form, the
// schemas it must or must not match. A keyword it does not know is named
// when its name is an identifier.
func valueMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return "expected " + strings.Join(k.Want, " or ") + ", got " + k.Got
	case *kind.Enum:
		return enumMessage(k.Want)
	case *kind.Const:
		if s, ok := quote(k.Want); ok {
			return "must be " + s
		}
		return "must be the value of the schema's const"
	case *kind.Format:
		if codec.IsIdentifier(k.Want) {
			return "must be a valid " + k.Want
		}
		return "must match the schema's format"
	case *kind.Pattern:
		if len(k.Want) <= maxQuoted {
			return "must match the pattern " + k.Want
		}
		return "must match the schema's pattern"
	case *kind.AdditionalItems:
		return "has too many items (additional items are not allowed)"
	case *kind.UniqueItems:
		return "items " + strconv.Itoa(k.Duplicates[0]) + " and " + strconv.Itoa(k.Duplicates[1]) + " are equal (items must be unique)"
	case *kind.Contains:
		return "must hold an item that matches the schema's contains"
	case *kind.ContentEncoding:
		return "must be encoded as the schema's contentEncoding says"
	case *kind.ContentMediaType:
		return "must be of the schema's contentMediaType"
	case *kind.ContentSchema:
		return "content does not match the schema's contentSchema"
	case *kind.AnyOf:
		return "must match at least one of the schemas of anyOf"
	case *kind.OneOf:
		if len(k.Subschemas) > 1 {
			return "must match exactly one of the schemas of oneOf, and matches " + strconv.Itoa(len(k.Subschemas))
		}
		return "must match exactly one of the schemas of oneOf, and matches none"
	case *kind.Not:
		return "must not match the schema of not"
	case *kind.FalseSchema:
		return "no value is allowed here"
	}
	if kw := k.KeywordPath(); len(kw) > 0 && codec.IsIdentifier(kw[len(kw)-1]) {
		return "does not meet the schema's " + kw[len(kw)-1]
	}
	return "does not match the input schema"
}

// pointer writes an instance location as a JSON Pointer whose tokens are
// identifiers, or codec.Hidden for a name that is not one: text the model
// sent is repeated only when it is a plain name, as in the codec.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(codec.PointerToken(t))
	}
	return b.String()
}

// child returns the pointer of the member name of the value at ptr.
func child(ptr, name string) string { return ptr + "/" + codec.PointerToken(name) }

// count writes n and the noun, singular for 1.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// number writes a limit of the schema in decimal.
func number(r *big.Rat) string {
	if r == nil {
		return "the schema's limit"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	if f, exact := r.Float64(); exact {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return r.FloatString(12)
}

// enumMessage lists the values of an enum, from the schema, when they are
// short enough to quote.
func enumMessage(want []any) string {
	parts := make([]string, 0, len(want))
	n := 0
	for _, w := range want {
		s, ok := quote(w)
		n += len(s) + 2
		if !ok || n > maxQuoted {
			return "must be one of the " + strconv.Itoa(len(want)) + " values of the schema's enum"
		}
		parts = append(parts, s)
	}
	return "must be one of " + strings.Join(parts, ", ")
}

// quote writes a schema value as JSON when it is a scalar short enough to
// quote.
func quote(v any) (string, bool) {
	switch v.(type) {
	case []any, map[string]any:
		return "", false
	}
	b, err := json.Marshal(v)
	if err != nil || len(b) > maxQuoted {
		return "", false
	}
	return string(b), true
}

// schemaDigest is the digest of an input schema, which identifies its
// version in the caches.
func schemaDigest(schema []byte) digest { return sha256.Sum256(schema) }
