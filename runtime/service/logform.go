package service

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// The replacements in a logged form.
const (
	secretValue = `"[secret]"`
	// maxLogDepth bounds the nesting a logged form follows; deeper values
	// are replaced (the registry's own limit refuses them anyway).
	maxLogDepth = 64
)

// secretPaths is a tool's Spec.Secrets split into segments once.
type secretPaths [][]string

// splitSecrets splits JSON Pointers such as "/a/*/b" into segments,
// unescaping ~1 and ~0.
func splitSecrets(ptrs []string) secretPaths {
	var out secretPaths
	for _, p := range ptrs {
		if !strings.HasPrefix(p, "/") {
			continue
		}
		segs := strings.Split(p[1:], "/")
		for i, s := range segs {
			segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
		out = append(out, segs)
	}
	return out
}

// match reports whether the path of w names a secret: a pointer of the
// same length whose segments are "*" or, ignoring case, the member's
// name. The names are compared as the decoder compares them, unescaped
// (a "\u0070" in a key is a "p"), and a name that differs from a
// secret's only in case is a secret too: the decoder refuses it as
// unknown, and a tool that reads keys otherwise (a remote one) may take
// it, so the record keeps its value under no spelling.
func (sp secretPaths) match(w *logWriter) bool {
	n := len(w.ends)
	for _, segs := range sp {
		if len(segs) != n {
			continue
		}
		ok := true
		for i, s := range segs {
			if s != "*" && !equalFold(s, w.segment(i)) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// equalFold reports whether s and b are equal under Unicode case folding
// (strings.EqualFold), without allocating when both are ASCII.
func equalFold(s string, b []byte) bool {
	if len(s) == len(b) {
		ascii := true
		for i := 0; i < len(s); i++ {
			c, d := s[i], b[i]
			if c|d >= utf8.RuneSelf {
				ascii = false
				break
			}
			if c != d && lower(c) != lower(d) {
				return false
			}
		}
		if ascii {
			return true
		}
	}
	return strings.EqualFold(s, string(b))
}

// lower returns the ASCII letter c in lower case, any other byte as it is.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// logWriter writes the logged form of a JSON value. What it keeps of the
// input it copies in runs: lit is where the run not yet copied starts, and
// only white space, a secret or a string to cut ends a run, so that
// compact arguments without either are copied in one append.
type logWriter struct {
	data    []byte
	out     []byte
	lit     int // data[lit:] is not yet copied or dropped
	secrets secretPaths
	// path is the current member's path: its segments (member names,
	// "*" for an array element) one after the other in path, each ending
	// at its offset in ends.
	path    []byte
	ends    []int
	max     int
	scratch []byte
}

// appendLogForm appends to dst the form of the JSON arguments args that a
// record keeps: compact, with the members secrets names replaced by
// "[secret]" and every string longer than maxString bytes cut (maxString
// <= 0 cuts nothing). Arguments that are not JSON are logged as a string
// saying so and how long they were, never as they are.
func appendLogForm(dst, args []byte, secrets secretPaths, maxString int) []byte {
	if len(secrets) == 0 && compactForm(args, maxString) {
		return append(dst, args...)
	}
	return writeLogForm(dst, args, secrets, maxString)
}

// writeLogForm is appendLogForm's logWriter, for any arguments.
func writeLogForm(dst, args []byte, secrets secretPaths, maxString int) []byte {
	if len(args) == 0 {
		return append(dst, "{}"...)
	}
	w := logWriter{data: args, out: dst, secrets: secrets, max: maxString}
	if len(secrets) > 0 {
		w.path, w.ends = make([]byte, 0, 64), make([]int, 0, 8)
	}
	i := w.space(0)
	next, ok := w.value(i, 0)
	if ok {
		w.flush(next)
		next = jsonlex.SkipSpace(args, next)
	}
	if !ok || next != len(args) {
		return strconv.AppendQuote(dst, "[not JSON: "+strconv.Itoa(len(args))+" bytes]")
	}
	return w.out
}

// flush copies the run of input before data[i].
func (w *logWriter) flush(i int) {
	w.out = append(w.out, w.data[w.lit:i]...)
	w.lit = i
}

// space skips the white space at data[i], which the form drops, and
// returns the offset past it.
func (w *logWriter) space(i int) int {
	j := jsonlex.SkipSpace(w.data, i)
	if j != i {
		w.flush(i)
		w.lit = j
	}
	return j
}

// push adds a segment to the path.
func (w *logWriter) push(seg []byte) {
	w.path = append(w.path, seg...)
	w.ends = append(w.ends, len(w.path))
}

// pop removes the last segment of the path.
func (w *logWriter) pop() {
	w.ends = w.ends[:len(w.ends)-1]
	if len(w.ends) == 0 {
		w.path = w.path[:0]
		return
	}
	w.path = w.path[:w.ends[len(w.ends)-1]]
}

// segment returns the path's segment i.
func (w *logWriter) segment(i int) []byte {
	start := 0
	if i > 0 {
		start = w.ends[i-1]
	}
	return w.path[start:w.ends[i]]
}

// star is the path segment of an array element.
var star = []byte("*")

// value writes the value at data[i] and returns the offset past it.
func (w *logWriter) value(i, depth int) (int, bool) {
	if i >= len(w.data) {
		return i, false
	}
	if depth > maxLogDepth {
		return 0, false
	}
	switch c := w.data[i]; {
	case c == '{':
		return w.object(i, depth)
	case c == '[':
		return w.array(i, depth)
	case c == '"':
		s, next, msg := jsonlex.ReadString(w.data, i, &w.scratch)
		if msg != "" {
			return next, false
		}
		w.token(i, next, s)
		return next, true
	case c == 't':
		return w.literal(i, "true")
	case c == 'f':
		return w.literal(i, "false")
	case c == 'n':
		return w.literal(i, "null")
	default:
		next, _, msg := jsonlex.ScanNumber(w.data, i)
		return next, msg == ""
	}
}

// literal checks true, false or null.
func (w *logWriter) literal(i int, lit string) (int, bool) {
	next, msg := jsonlex.ScanLiteral(w.data, i, lit)
	return next, msg == ""
}

// token keeps the string data[i:next], whose content is s, as it is
// when it cannot be longer than the cut (its content is no longer than
// its raw form), else writes it as str does.
func (w *logWriter) token(i, next int, s []byte) {
	if w.max <= 0 || next-i-2 <= w.max {
		return
	}
	w.flush(i)
	w.str(s)
	w.lit = next
}

// str writes s, cut to w.max bytes (on a rune boundary) with a note of its
// length when it is longer.
func (w *logWriter) str(s []byte) {
	if len(s) <= w.max {
		w.out = jsonlex.AppendString(w.out, s)
		return
	}
	n := w.max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	cut := make([]byte, 0, n+32)
	cut = append(cut, s[:n]...)
	cut = append(cut, "…["...)
	cut = strconv.AppendInt(cut, int64(len(s)), 10)
	cut = append(cut, " bytes]"...)
	w.out = jsonlex.AppendString(w.out, cut)
}

// member checks the value of a member or element at data[i], replacing
// it when secret.
func (w *logWriter) member(i, depth int, secret bool) (int, bool) {
	if !secret {
		return w.value(i, depth+1)
	}
	w.flush(i)
	mark := len(w.out)
	next, ok := w.value(i, depth+1)
	w.out = append(w.out[:mark], secretValue...)
	w.lit = next
	return next, ok
}

// object checks the object at data[i].
func (w *logWriter) object(i, depth int) (int, bool) {
	i = w.space(i + 1)
	if i < len(w.data) && w.data[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(w.data) || w.data[i] != '"' {
			return i, false
		}
		key, next, msg := jsonlex.ReadString(w.data, i, &w.scratch)
		if msg != "" {
			return next, false
		}
		secret := false
		if len(w.secrets) > 0 {
			w.push(key)
			secret = w.secrets.match(w)
		}
		w.token(i, next, key)
		i = w.space(next)
		if i >= len(w.data) || w.data[i] != ':' {
			return i, false
		}
		i = w.space(i + 1)
		var ok bool
		i, ok = w.member(i, depth, secret)
		if len(w.secrets) > 0 {
			w.pop()
		}
		if !ok {
			return i, false
		}
		i = w.space(i)
		if i < len(w.data) && w.data[i] == ',' {
			i = w.space(i + 1)
			continue
		}
		if i < len(w.data) && w.data[i] == '}' {
			return i + 1, true
		}
		return i, false
	}
}

// array checks the array at data[i]; its elements' path segment is "*".
func (w *logWriter) array(i, depth int) (int, bool) {
	i = w.space(i + 1)
	if i < len(w.data) && w.data[i] == ']' {
		return i + 1, true
	}
	for {
		secret := false
		if len(w.secrets) > 0 {
			w.push(star)
			secret = w.secrets.match(w)
		}
		var ok bool
		i, ok = w.member(i, depth, secret)
		if len(w.secrets) > 0 {
			w.pop()
		}
		if !ok {
			return i, false
		}
		i = w.space(i)
		if i < len(w.data) && w.data[i] == ',' {
			i = w.space(i + 1)
			continue
		}
		if i < len(w.data) && w.data[i] == ']' {
			return i + 1, true
		}
		return i, false
	}
}
