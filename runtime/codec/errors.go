package codec

import (
	"strconv"
	"strings"
)

// MaxProblems is how many non-fatal problems an ArgumentsError keeps; the
// rest are only counted (ArgumentsError.Omitted). A validator that reports
// through an ArgumentsError (runtime/dynamic's) keeps as many.
const MaxProblems = 20

// Hidden stands in a pointer for a member name that is not an identifier
// (see IsIdentifier): text a client sent is repeated in a message only
// when it is a plain name. No identifier is spelled "<key>", so the token
// always means a name that is not shown. A map's key (or a member of a
// free-form value: Raw, Any) is never shown, whatever it is: it stands as
// its position, KeyToken.
const Hidden = "<key>"

// KeyToken is the token of a pointer that stands for a map's key (or a
// member name inside a free-form value) by its position in its object,
// from 0 as array indices count: "<key 2>" is the third member. A key is
// text the model chose (it may be a name, an address, a secret), so a
// message says where it is and never what it is; no identifier is
// spelled so.
func KeyToken(i int) string { return string(appendKeyToken(nil, i)[1:]) }

// appendKeyToken appends "/" and KeyToken(i).
func appendKeyToken(b []byte, i int) []byte {
	b = append(b, "/<key "...)
	b = strconv.AppendInt(b, int64(i), 10)
	return append(b, '>')
}

// maxIdentifier is the longest identifier, in bytes.
const maxIdentifier = 64

// IsIdentifier reports whether s matches ^[A-Za-z0-9_.-]{1,64}$, the one
// grammar of the names that messages quote: tool names, property names,
// and the request text (ids, names) runtime/mcpserver's error responses
// may carry. Text that does not match is described, never repeated: it
// may hold quotes, newlines or markup, or be arbitrarily long.
func IsIdentifier[S string | []byte](s S) bool {
	if len(s) == 0 || len(s) > maxIdentifier {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// Problem is one thing wrong with the arguments of a tool call.
type Problem struct {
	// Pointer is the JSON Pointer (RFC 6901) of the value at fault, "" for
	// the whole arguments value. A member name that is not an identifier
	// (IsIdentifier) is written as Hidden, "<key>", and a map's key, any
	// key, as its position, KeyToken ("<key 2>"): the pointer then names
	// the place without repeating what was sent.
	Pointer string
	// Message says what was expected and the kind of value received. It
	// never contains a value that was sent.
	Message string
}

// String formats the problem as "pointer: message", rendering the root
// pointer as "(root)".
func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(root)"
	}
	return ptr + ": " + p.Message
}

// ArgumentsError lists every problem found in the arguments of a tool call,
// in the order found.
type ArgumentsError struct {
	// Problems holds at most 20 non-fatal problems, followed by the fatal
	// one (malformed JSON, too large, too deep) if decoding stopped early.
	Problems []Problem
	// Omitted counts the non-fatal problems that were found but not kept.
	Omitted int
}

// Error joins the problems with "; " after "invalid arguments: ".
func (e *ArgumentsError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	if e.Omitted > 0 {
		b.WriteString("; ... and ")
		b.WriteString(strconv.Itoa(e.Omitted))
		b.WriteString(" more")
	}
	return b.String()
}

// appendPointerToken appends "/" and PointerToken(name).
func appendPointerToken(b []byte, name string) []byte {
	return append(append(b, '/'), PointerToken(name)...)
}

// PointerToken is name as a token of a JSON Pointer in a message: name
// when it is an identifier, Hidden ("<key>") otherwise. Identifiers need
// no RFC 6901 escaping ("~" and "/" are not in their grammar), so a
// pointer never repeats text that is not a plain name, and each of its
// tokens is at most 64 bytes.
func PointerToken(name string) string {
	if !IsIdentifier(name) {
		return Hidden
	}
	return name
}
