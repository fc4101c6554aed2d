package jsontree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// Node is an ordered JSON value: objects keep their members in the order
// they were read or built. Parse, Compact and Indent never go through a Go
// map, so a schema keeps the order invopop wrote (struct field order for
// properties) from the bootstrap program to the generated code.
//
// Kind is the value's kind. Its zero value, jsonlex.Invalid, is a Node
// nobody set: Compact writes it as null, but Parse never returns one, and
// a check for null asks for jsonlex.Null.
type Node struct {
	Kind    jsonlex.Kind
	Bool    bool     // the value of a jsonlex.Bool node
	Text    string   // the literal of a jsonlex.Number node, the decoded value of a jsonlex.String node
	Members []Member // the members of a jsonlex.Object node, in order
	Items   []*Node  // the elements of a jsonlex.Array node
}

// Member is one member (name and value) of a JSON object.
type Member struct {
	Key   string
	Value *Node
}

// SyntaxError reports input that Parse refuses: malformed JSON, a duplicate
// member name or data after the value.
type SyntaxError struct {
	Offset int    // the byte offset in the input where the problem was found
	Msg    string // what is wrong
}

// Error describes the problem and where it is.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("schema: invalid JSON at byte %d: %s", e.Offset, e.Msg)
}

// parseMaxDepth bounds how deeply Parse nests, so that hostile input cannot
// exhaust the stack. JSON Schemas of Go types are far shallower.
const parseMaxDepth = 10000

// Parse reads one JSON value (RFC 8259) into a Node. It is strict: it
// refuses duplicate member names in an object, data after the value
// (other than white space), invalid UTF-8 and escapes of unpaired
// surrogates (encoding/json would replace those with U+FFFD; invopop's
// output never contains them). Problems are reported as *SyntaxError.
func Parse(data []byte) (*Node, error) {
	p := parser{data: data}
	p.skipSpace()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, p.errorf("unexpected data after the top-level value")
	}
	return n, nil
}

type parser struct {
	data    []byte
	pos     int
	scratch []byte // unescaped strings, reused (see jsonlex.ReadString)
}

func (p *parser) errorf(format string, args ...any) *SyntaxError {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	p.pos = jsonlex.SkipSpace(p.data, p.pos)
}

func (p *parser) value(depth int) (*Node, error) {
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of input, expected a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Node{Kind: jsonlex.String, Text: s}, nil
	case c == '-' || ('0' <= c && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", &Node{Kind: jsonlex.Bool, Bool: true})
	case c == 'f':
		return p.literal("false", &Node{Kind: jsonlex.Bool})
	case c == 'n':
		return p.literal("null", &Node{Kind: jsonlex.Null})
	default:
		return nil, p.errorf("unexpected character %q, expected a value", c)
	}
}

func (p *parser) literal(word string, n *Node) (*Node, error) {
	next, msg := jsonlex.ScanLiteral(p.data, p.pos, word)
	if msg != "" {
		return nil, &SyntaxError{Offset: next, Msg: msg}
	}
	p.pos = next
	return n, nil
}

func (p *parser) object(depth int) (*Node, error) {
	if depth > parseMaxDepth {
		return nil, p.errorf("nesting deeper than %d levels", parseMaxDepth)
	}
	p.pos++ // '{'
	n := &Node{Kind: jsonlex.Object, Members: []Member{}}
	var seen map[string]bool // only for large objects; order lives in Members
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return n, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errorf("expected a member name")
		}
		keyPos := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if seen == nil && len(n.Members) >= 8 {
			seen = make(map[string]bool, 2*len(n.Members))
			for _, m := range n.Members {
				seen[m.Key] = true
			}
		}
		dup := false
		if seen != nil {
			dup = seen[key]
			seen[key] = true
		} else {
			for _, m := range n.Members {
				if m.Key == key {
					dup = true
					break
				}
			}
		}
		if dup {
			return nil, &SyntaxError{Offset: keyPos, Msg: fmt.Sprintf("duplicate member name %q", key)}
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("expected ':' after a member name")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		n.Members = append(n.Members, Member{Key: key, Value: v})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unexpected end of input, expected ',' or '}'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return n, nil
		default:
			return nil, p.errorf("expected ',' or '}'")
		}
	}
}

func (p *parser) array(depth int) (*Node, error) {
	if depth > parseMaxDepth {
		return nil, p.errorf("nesting deeper than %d levels", parseMaxDepth)
	}
	p.pos++ // '['
	n := &Node{Kind: jsonlex.Array, Items: []*Node{}}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return n, nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unexpected end of input, expected ',' or ']'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return n, nil
		default:
			return nil, p.errorf("expected ',' or ']'")
		}
	}
}

func (p *parser) number() (*Node, error) {
	next, _, msg := jsonlex.ScanNumber(p.data, p.pos)
	if msg != "" {
		return nil, &SyntaxError{Offset: next, Msg: msg}
	}
	n := &Node{Kind: jsonlex.Number, Text: string(p.data[p.pos:next])}
	p.pos = next
	return n, nil
}

// str reads a string starting at the opening quote and returns its value.
func (p *parser) str() (string, error) {
	s, next, msg := jsonlex.ReadString(p.data, p.pos, &p.scratch)
	if msg != "" {
		return "", &SyntaxError{Offset: next, Msg: msg}
	}
	p.pos = next
	return string(s), nil
}

// Get returns the value of the member named key, or nil when n is nil, not
// an object, or has no such member.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != jsonlex.Object {
		return nil
	}
	for _, m := range n.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// Compact returns n as compact JSON. Strings are escaped exactly as
// encoding/json's Marshal escapes them (HTML-safe, U+2028 and U+2029
// escaped, invalid UTF-8 replaced by U+FFFD), numbers are written as their
// literal, and object members keep their order: for the output of
// json.Marshal, Parse followed by Compact gives the same bytes back.
func (n *Node) Compact() []byte {
	var b []byte
	return n.appendCompact(b)
}

func (n *Node) appendCompact(b []byte) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	switch n.Kind {
	case jsonlex.Bool:
		if n.Bool {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case jsonlex.Number:
		return append(b, n.Text...)
	case jsonlex.String:
		return jsonlex.AppendStringHTML(b, n.Text)
	case jsonlex.Object:
		b = append(b, '{')
		for i, m := range n.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonlex.AppendStringHTML(b, m.Key)
			b = append(b, ':')
			b = m.Value.appendCompact(b)
		}
		return append(b, '}')
	case jsonlex.Array:
		b = append(b, '[')
		for i, it := range n.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendCompact(b)
		}
		return append(b, ']')
	default:
		return append(b, "null"...)
	}
}

// Indent returns n as indented JSON, laid out exactly as json.Indent lays
// out the compact form: each element on a new line that begins with prefix
// followed by one copy of indent per nesting level, "key": value members,
// empty objects and arrays as {} and [], no prefix before the first line and
// no final newline. This is the form tools.json shows reviewers.
func (n *Node) Indent(prefix, indent string) []byte {
	var b []byte
	return n.appendIndent(b, prefix, indent, 0)
}

func (n *Node) appendIndent(b []byte, prefix, indent string, depth int) []byte {
	newline := func(b []byte, depth int) []byte {
		b = append(b, '\n')
		b = append(b, prefix...)
		for range depth {
			b = append(b, indent...)
		}
		return b
	}
	switch {
	case n != nil && n.Kind == jsonlex.Object && len(n.Members) > 0:
		b = append(b, '{')
		for i, m := range n.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			b = jsonlex.AppendStringHTML(b, m.Key)
			b = append(b, ": "...)
			b = m.Value.appendIndent(b, prefix, indent, depth+1)
		}
		b = newline(b, depth)
		return append(b, '}')
	case n != nil && n.Kind == jsonlex.Array && len(n.Items) > 0:
		b = append(b, '[')
		for i, it := range n.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			b = it.appendIndent(b, prefix, indent, depth+1)
		}
		b = newline(b, depth)
		return append(b, ']')
	default:
		return n.appendCompact(b)
	}
}

// Resolve follows n's "$ref" against root: a reference "#/$defs/NAME" (or
// any other JSON Pointer fragment "#/...", with ~0 and ~1 unescaped) gives
// the node it points to in root, and references are followed until a node
// without "$ref" is reached. Resolve returns n itself when n has no "$ref"
// member, and nil when a reference is not a local fragment, points nowhere,
// or the references form a cycle. Members next to "$ref" (such as a
// "description") are not merged into the result.
func (n *Node) Resolve(root *Node) *Node {
	for hops := 0; n != nil; hops++ {
		ref := n.Get("$ref")
		if ref == nil || ref.Kind != jsonlex.String {
			return n
		}
		if hops > 64 {
			return nil // a cycle of references
		}
		n = pointer(root, ref.Text)
	}
	return nil
}

// pointer evaluates a URI fragment holding a JSON Pointer ("#", "#/a/b")
// against root, or returns nil.
func pointer(root *Node, ref string) *Node {
	if ref == "#" {
		return root
	}
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	n := root
	for tok := range strings.SplitSeq(rest, "/") {
		tok = UnescapeToken(tok)
		switch {
		case n == nil:
			return nil
		case n.Kind == jsonlex.Object:
			n = n.Get(tok)
		case n.Kind == jsonlex.Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Items) || strconv.Itoa(i) != tok {
				return nil
			}
			n = n.Items[i]
		default:
			return nil
		}
	}
	return n
}

// EscapeToken escapes a JSON Pointer reference token (RFC 6901).
func EscapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// UnescapeToken undoes EscapeToken.
func UnescapeToken(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

// Clone returns a deep copy of n.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := &Node{Kind: n.Kind, Bool: n.Bool, Text: n.Text}
	if n.Members != nil {
		c.Members = make([]Member, len(n.Members))
		for i, m := range n.Members {
			c.Members[i] = Member{Key: m.Key, Value: m.Value.Clone()}
		}
	}
	if n.Items != nil {
		c.Items = make([]*Node, len(n.Items))
		for i, it := range n.Items {
			c.Items[i] = it.Clone()
		}
	}
	return c
}
