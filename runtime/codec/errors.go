package codec

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxProblems is how many non-fatal problems an ArgumentsError keeps; the
// rest are only counted.
const maxProblems = 20

// maxNameBytes caps a member name taken from the input when it is shown
// in a pointer.
const maxNameBytes = 64

// Problem is one thing wrong with the arguments of a tool call.
type Problem struct {
	// Pointer is the JSON Pointer (RFC 6901) of the value at fault, "" for
	// the whole arguments value.
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

// appendPointerToken appends "/" and name escaped per RFC 6901 ("~" as "~0",
// "/" as "~1"). Names may come from the arguments, so the name is cut to
// maxNameBytes at a rune boundary (marked with "…"), and control characters
// (C0, DEL, C1, U+2028, U+2029) and invalid UTF-8 become U+FFFD so that a
// name cannot forge lines in a message.
func appendPointerToken(b []byte, name string) []byte {
	b = append(b, '/')
	cut := false
	if len(name) > maxNameBytes {
		n := maxNameBytes
		for n > 0 && !utf8.RuneStart(name[n]) {
			n--
		}
		name, cut = name[:n], true
	}
	for i := 0; i < len(name); {
		c := name[i]
		switch {
		case c == '~':
			b = append(b, '~', '0')
			i++
		case c == '/':
			b = append(b, '~', '1')
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(name[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' || r >= 0x80 && r < 0xa0 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, name[i:i+size]...)
			}
			i += size
		case c < 0x20 || c == 0x7f:
			b = utf8.AppendRune(b, utf8.RuneError)
			i++
		default:
			b = append(b, c)
			i++
		}
	}
	if cut {
		b = append(b, "…"...)
	}
	return b
}
