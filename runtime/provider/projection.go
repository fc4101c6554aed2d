package provider

import (
	"errors"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The providers, as Error.Provider names them.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderGemini    = "gemini"
)

// GeminiForm names the member of a Gemini function declaration that holds
// the parameters.
type GeminiForm string

const (
	// FormParameters is "parameters": the OpenAPI 3.0 Schema subset.
	FormParameters GeminiForm = "parameters"
	// FormJSONSchema is "parametersJsonSchema": JSON Schema, the fallback.
	FormJSONSchema GeminiForm = "parametersJsonSchema"
	// FormNone is neither: the declaration has no parameters, because the
	// tool takes no arguments.
	FormNone GeminiForm = "none"
)

// Projection is one tool's definition for one provider: the exact bytes to
// send and what the projection had to change to get them.
type Projection struct {
	// JSON is the definition, compact: one element of the provider's tools
	// array (for Gemini, of a tool's functionDeclarations).
	JSON []byte
	// Strict is set for an OpenAI definition whose parameters are in the
	// strict subset, sent with "strict":true.
	Strict bool
	// Form is, for Gemini, the member that holds the parameters, or
	// FormNone for a tool without arguments; empty for the other providers.
	Form GeminiForm
	// Reason says why an OpenAI definition is not strict, or why a Gemini
	// one falls back to parametersJsonSchema; empty otherwise.
	Reason string
	// Dropped lists, as JSON Pointers into the tool's input schema, the
	// keywords that the definition leaves out because the provider's subset
	// lacks them; the generated decoder still enforces them. A keyword of a
	// definition that the projection inlines at a "$ref" is reported under
	// the referring schema's pointer, as if the definition were written
	// there.
	Dropped []string
}

// Error reports a tool that cannot be offered to a provider at all: its
// name breaks the provider's pattern, or its input schema is not a JSON
// object schema.
type Error struct {
	Provider string // ProviderOpenAI, ProviderAnthropic or ProviderGemini
	Tool     string // the tool's name
	Msg      string // what is wrong
	Err      error  // the underlying error, if any (such as a *jsontree.SyntaxError)
}

// Error says which tool cannot be offered to which provider, and why.
func (e *Error) Error() string {
	s := "provider " + e.Provider + ": tool " + e.Tool + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// The name patterns the providers document.
var (
	openAINamePattern    = namePattern{expr: `^[a-zA-Z0-9_-]{1,64}$`}
	anthropicNamePattern = namePattern{expr: `^[a-zA-Z0-9_-]{1,64}$`}
	geminiNamePattern    = namePattern{expr: `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`, letterFirst: true, punct: ".:"}
)

// namePattern is a provider's rule for tool names: 1 to 64 ASCII letters,
// digits, '_', '-' and the bytes of punct, and with letterFirst a letter
// or '_' first. It is checked by a loop over the bytes, so that a program
// compiles no regular expression at start-up; expr is the regular
// expression the provider documents, which it accepts exactly.
type namePattern struct {
	expr        string
	letterFirst bool
	punct       string
}

// MatchString reports whether s is a name the provider accepts.
func (p namePattern) MatchString(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := range len(s) {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case '0' <= c && c <= '9', c == '-', strings.IndexByte(p.punct, c) >= 0:
			if i == 0 && p.letterFirst {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// String is the regular expression the provider documents.
func (p namePattern) String() string { return p.expr }

// maxVisits bounds the schemas a projection goes through: merging or
// inlining references can make a small schema grow exponentially.
const maxVisits = 20_000

// errNilSpec is the cause of the Error for a nil spec.
var errNilSpec = errors.New("nil spec")

// inputSchema is how every projection starts: it refuses a nil spec,
// checks spec's name against the provider's pattern and parses its input
// schema, which must be a JSON object schema: an object whose "type" is
// "object". Its errors are the same for every provider but the provider's
// name, and the tree it returns is the caller's to edit.
func inputSchema(provider string, spec *tool.Spec, pattern namePattern) (*jsontree.Node, error) {
	if spec == nil {
		return nil, &Error{Provider: provider, Msg: "no spec", Err: errNilSpec}
	}
	if !pattern.MatchString(spec.Name) {
		return nil, &Error{Provider: provider, Tool: spec.Name, Msg: "the name does not match " + pattern.String()}
	}
	root, err := jsontree.Parse(spec.InputSchema)
	if err != nil {
		return nil, &Error{Provider: provider, Tool: spec.Name, Msg: "invalid input schema", Err: err}
	}
	if t := root.Get("type"); t == nil || t.Kind != jsonlex.String || t.Text != "object" {
		return nil, &Error{Provider: provider, Tool: spec.Name, Msg: `the input schema is not an object schema ("type":"object")`}
	}
	return root, nil
}

// str returns a string node.
func str(s string) *jsontree.Node { return &jsontree.Node{Kind: jsonlex.String, Text: s} }

// boolean returns a boolean node.
func boolean(b bool) *jsontree.Node { return &jsontree.Node{Kind: jsonlex.Bool, Bool: b} }

// object builds an object node from members, leaving out nil values.
func object(members ...jsontree.Member) *jsontree.Node {
	n := &jsontree.Node{Kind: jsonlex.Object, Members: make([]jsontree.Member, 0, len(members))}
	for _, m := range members {
		if m.Value != nil {
			n.Members = append(n.Members, m)
		}
	}
	return n
}

// description returns the description member's value, or nil when the
// spec has none (the member is left out).
func description(spec *tool.Spec) *jsontree.Node {
	if spec.Description == "" {
		return nil
	}
	return str(spec.Description)
}

// set replaces the value of the member named key, or appends the member.
func set(n *jsontree.Node, key string, v *jsontree.Node) {
	for i := range n.Members {
		if n.Members[i].Key == key {
			n.Members[i].Value = v
			return
		}
	}
	n.Members = append(n.Members, jsontree.Member{Key: key, Value: v})
}

// insertAfter inserts the member key after the member named after (or
// appends it when there is none); n must not have a member named key.
func insertAfter(n *jsontree.Node, after, key string, v *jsontree.Node) {
	for i := range n.Members {
		if n.Members[i].Key == after {
			n.Members = append(n.Members[:i+1], append([]jsontree.Member{{Key: key, Value: v}}, n.Members[i+1:]...)...)
			return
		}
	}
	n.Members = append(n.Members, jsontree.Member{Key: key, Value: v})
}

// pointer appends a reference token to a JSON Pointer, escaped (RFC 6901).
func pointer(base, token string) string {
	b := []byte(base)
	b = append(b, '/')
	for i := 0; i < len(token); i++ {
		switch token[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, token[i])
		}
	}
	return string(b)
}

// where names a schema position for a reason: its pointer, or "the root".
func where(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// isNullSchema reports whether n is exactly {"type":"null"}.
func isNullSchema(n *jsontree.Node) bool {
	if n == nil || n.Kind != jsonlex.Object || len(n.Members) != 1 {
		return false
	}
	t := n.Get("type")
	return t != nil && t.Kind == jsonlex.String && t.Text == "null"
}

// nullablePair returns S when n's member key is [S,{"type":"null"}] or
// [{"type":"null"},S] (invopop's nullable form, under oneOf or anyOf).
func nullablePair(n *jsontree.Node, key string) *jsontree.Node {
	v := n.Get(key)
	if v == nil || v.Kind != jsonlex.Array || len(v.Items) != 2 {
		return nil
	}
	switch {
	case isNullSchema(v.Items[1]) && !isNullSchema(v.Items[0]):
		return v.Items[0]
	case isNullSchema(v.Items[0]) && !isNullSchema(v.Items[1]):
		return v.Items[1]
	}
	return nil
}

// constOneOf reports whether n's oneOf is a list of schemas each fixing
// one value with const, beside only "type", "title" and "description",
// and no two the same value: exactly one alternative matches any value
// that matches one, so the oneOf says no more than an anyOf would (the
// form of a palette's request_tools catalog). n must have no anyOf, which
// the oneOf would then have to sit beside.
func constOneOf(n *jsontree.Node) bool {
	alts := n.Get("oneOf")
	if alts == nil || alts.Kind != jsonlex.Array || len(alts.Items) == 0 || n.Get("anyOf") != nil {
		return false
	}
	seen := make(map[string]bool, len(alts.Items))
	for _, alt := range alts.Items {
		c := alt.Get("const")
		if c == nil {
			return false
		}
		for _, m := range alt.Members {
			switch m.Key {
			case "const", "type", "title", "description":
			default:
				return false
			}
		}
		v := string(c.Compact())
		if seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// localRef resolves a "$ref" value against root: only local fragments
// ("#", "#/$defs/NAME", any "#/..." pointer) resolve; it returns nil for
// anything else or a dangling reference.
func localRef(root *jsontree.Node, ref string) *jsontree.Node {
	probe := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{{Key: "$ref", Value: str(ref)}}}
	n := probe.Resolve(root)
	if n == probe {
		return nil
	}
	return n
}

// typeOrNull reads a type list that is [T], [T,"null"] or ["null",T] (or
// ["null"]): it returns T ("null" for ["null"]) and whether the list has
// that form.
func typeOrNull(t *jsontree.Node) (string, bool) {
	name, null := "", false
	for _, it := range t.Items {
		switch {
		case it.Kind != jsonlex.String:
			return "", false
		case it.Text == "null" && !null:
			null = true
		case name == "" && it.Text != "null":
			name = it.Text
		default:
			return "", false
		}
	}
	switch {
	case name != "":
		return name, true
	case null:
		return "null", true
	}
	return "", false
}
