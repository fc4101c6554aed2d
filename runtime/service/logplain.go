package service

import "github.com/toolgen-go/toolgen/runtime/jsonlex"

// plainDepth bounds the nesting appendPlainForm follows: its stack of
// open containers is one bit each in a word. Deeper arguments, within
// maxLogDepth or not, are left to the logWriter.
const plainDepth = 62

// appendPlainForm appends to dst the logged form of args when nothing in
// them is to be replaced or cut: args valid JSON, nested at most
// plainDepth deep, with no string longer than maxString (<= 0: no cut),
// for a tool without secrets. The form is then args without white space,
// which it copies in runs, as the logWriter does, but in one loop over the
// input rather than a call per value. Otherwise it returns ok false, and
// what it appended is to be dropped: the logWriter then writes the form
// (or says that the arguments are not JSON).
func appendPlainForm(dst, args []byte, maxString int) ([]byte, bool) {
	p := plainForm{data: args, out: dst, max: maxString}
	if p.scan() {
		return append(p.out, args[p.lit:]...), true
	}
	return p.out, false
}

// plainForm is appendPlainForm's state.
type plainForm struct {
	data    []byte
	out     []byte
	lit     int    // data[lit:] is not yet copied or dropped
	stack   uint64 // bit d: the container open at depth d+1 is an object
	depth   int
	max     int
	scratch []byte
}

// scan checks the arguments, copying all but the last run to p.out.
func (p *plainForm) scan() bool {
	data, n := p.data, len(p.data)
	i := p.space(0)
	for {
		// A value starts at data[i].
		if i >= n {
			return false
		}
		ok := true
		switch c := data[i]; c {
		case '{', '[':
			if p.depth == plainDepth {
				return false
			}
			p.stack = p.stack<<1 | b2u(c == '{')
			p.depth++
			i = p.space(i + 1)
			if i < n && data[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				p.stack >>= 1
				p.depth--
				i++
				break
			}
			if c == '{' {
				if i, ok = p.key(i); !ok {
					return false
				}
			}
			continue
		case '"':
			i, ok = p.str(i)
		case 't':
			i, ok = p.literal(i, "true")
		case 'f':
			i, ok = p.literal(i, "false")
		case 'n':
			i, ok = p.literal(i, "null")
		default:
			var msg string
			i, _, msg = jsonlex.ScanNumber(data, i)
			ok = msg == ""
		}
		if !ok {
			return false
		}
		if i, ok = p.after(i); !ok || i < 0 {
			return ok
		}
	}
}

// after goes on after a value that ends at data[i]: it closes the
// containers the value ends, then reads the comma and, in an object, the
// next member's name. It returns the offset of the next value, or -1 and
// true when the arguments end there.
func (p *plainForm) after(i int) (int, bool) {
	data, n := p.data, len(p.data)
	for {
		i = p.space(i)
		if p.depth == 0 {
			return -1, i == n
		}
		if i >= n {
			return i, false
		}
		object := p.stack&1 == 1
		switch c := data[i]; {
		case c == ',':
			i = p.space(i + 1)
			if object {
				return p.key(i)
			}
			return i, true
		case object && c == '}' || !object && c == ']':
			p.stack >>= 1
			p.depth--
			i++
		default:
			return i, false
		}
	}
}

// space skips the white space at data[i], copying the run before it.
func (p *plainForm) space(i int) int {
	j := jsonlex.SkipSpace(p.data, i)
	if j != i {
		p.out = append(p.out, p.data[p.lit:i]...)
		p.lit = j
	}
	return j
}

// str checks the string at data[i] and returns the offset past it; false
// when it is malformed or to be cut.
func (p *plainForm) str(i int) (int, bool) {
	if i >= len(p.data) || p.data[i] != '"' {
		return i, false
	}
	_, next, msg := jsonlex.ReadString(p.data, i, &p.scratch)
	return next, msg == "" && (p.max <= 0 || next-i-2 <= p.max)
}

// key checks a member's name and colon at data[i] and returns the offset
// of its value.
func (p *plainForm) key(i int) (int, bool) {
	next, ok := p.str(i)
	if !ok {
		return next, false
	}
	i = p.space(next)
	if i >= len(p.data) || p.data[i] != ':' {
		return i, false
	}
	return p.space(i + 1), true
}

// literal checks true, false or null at data[i].
func (p *plainForm) literal(i int, lit string) (int, bool) {
	next, msg := jsonlex.ScanLiteral(p.data, i, lit)
	return next, msg == ""
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
