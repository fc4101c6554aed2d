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
	add := func(ptr, msg string) { *ps = append(*ps, codec.Problem{Pointer: ptr, Message: msg}) }
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		for _, c := range ve.Causes {
			collect(ps, c)
		}
		if len(ve.Causes) == 0 {
			add(at, "does not match the input schema")
		}
	case *kind.Type:
		add(at, "expected "+strings.Join(k.Want, " or ")+", got "+k.Got)
	case *kind.Enum:
		add(at, enumMessage(k.Want))
	case *kind.Const:
		if s, ok := quote(k.Want); ok {
			add(at, "must be "+s)
		} else {
			add(at, "must be the value of the schema's const")
		}
	case *kind.Format:
		if codec.IsIdentifier(k.Want) {
			add(at, "must be a valid "+k.Want)
		} else {
			add(at, "must match the schema's format")
		}
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
	case *kind.MinProperties:
		add(at, "must have at least "+count(k.Want, "property", "properties"))
	case *kind.MaxProperties:
		add(at, "must have at most "+count(k.Want, "property", "properties"))
	case *kind.MinItems:
		add(at, "must have at least "+count(k.Want, "item", "items"))
	case *kind.MaxItems:
		add(at, "must have at most "+count(k.Want, "item", "items"))
	case *kind.AdditionalItems:
		add(at, "has too many items (additional items are not allowed)")
	case *kind.UniqueItems:
		add(at, "items "+strconv.Itoa(k.Duplicates[0])+" and "+strconv.Itoa(k.Duplicates[1])+" are equal (items must be unique)")
	case *kind.Contains:
		add(at, "must hold an item that matches the schema's contains")
	case *kind.MinContains:
		add(at, "must hold at least "+count(k.Want, "item", "items")+" that match the schema's contains")
	case *kind.MaxContains:
		add(at, "must hold at most "+count(k.Want, "item", "items")+" that match the schema's contains")
	case *kind.MinLength:
		add(at, "must be at least "+count(k.Want, "character", "characters")+" long")
	case *kind.MaxLength:
		add(at, "must be at most "+count(k.Want, "character", "characters")+" long")
	case *kind.Pattern:
		if len(k.Want) <= maxQuoted {
			add(at, "must match the pattern "+k.Want)
		} else {
			add(at, "must match the schema's pattern")
		}
	case *kind.ContentEncoding:
		add(at, "must be encoded as the schema's contentEncoding says")
	case *kind.ContentMediaType:
		add(at, "must be of the schema's contentMediaType")
	case *kind.ContentSchema:
		add(at, "content does not match the schema's contentSchema")
	case *kind.Minimum:
		add(at, "must be at least "+number(k.Want))
	case *kind.Maximum:
		add(at, "must be at most "+number(k.Want))
	case *kind.ExclusiveMinimum:
		add(at, "must be greater than "+number(k.Want))
	case *kind.ExclusiveMaximum:
		add(at, "must be less than "+number(k.Want))
	case *kind.MultipleOf:
		add(at, "must be a multiple of "+number(k.Want))
	case *kind.AnyOf:
		add(at, "must match at least one of the schemas of anyOf")
	case *kind.OneOf:
		if len(k.Subschemas) > 1 {
			add(at, "must match exactly one of the schemas of oneOf, and matches "+strconv.Itoa(len(k.Subschemas)))
		} else {
			add(at, "must match exactly one of the schemas of oneOf, and matches none")
		}
	case *kind.Not:
		add(at, "must not match the schema of not")
	case *kind.FalseSchema:
		add(at, "no value is allowed here")
	default:
		kw := ve.ErrorKind.KeywordPath()
		if n := len(kw); n > 0 && codec.IsIdentifier(kw[n-1]) {
			add(at, "does not meet the schema's "+kw[n-1])
		} else {
			add(at, "does not match the input schema")
		}
	}
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
