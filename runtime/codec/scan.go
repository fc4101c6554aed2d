package codec

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// linearNames is how many member names an object may have before duplicate
// detection while skipping switches from a linear scan to a map.
const linearNames = 16

// skipWS returns the offset of the first byte at or after i that is not
// JSON whitespace.
func skipWS(data []byte, i int) int {
	for i < len(data) {
		if c := data[i]; c > ' ' || c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			return i
		}
		i++
	}
	return i
}

// peek skips whitespace and returns the first byte of the next value. At the
// end of input it records a fatal problem; after one it returns false.
func (d *Decoder) peek() (byte, bool) {
	if d.fatal {
		return 0, false
	}
	i := skipWS(d.data, d.pos)
	d.pos = i
	if i >= len(d.data) {
		d.syntaxError(i, "expected a JSON value, got end of input")
		return 0, false
	}
	return d.data[i], true
}

// open consumes the '{' or '[' at d.pos, counting the depth.
func (d *Decoder) open() bool {
	d.depth++
	if d.depth > d.maxDepth {
		d.fatalProblem("nesting deeper than " + strconv.Itoa(d.maxDepth) + " levels")
		return false
	}
	d.pos++
	return true
}

// literal consumes the literal lit ("true", "false" or "null") at d.pos.
func (d *Decoder) literal(lit string) bool {
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		return true
	}
	d.syntaxError(d.pos, "invalid literal (expected true, false or null)")
	return false
}

// readString consumes the string at d.pos (which holds '"') and returns its
// unescaped content, which aliases the input or d.scratch and is valid
// until the next read. Malformed strings are fatal.
func (d *Decoder) readString() ([]byte, bool) {
	data := d.data
	start := d.pos + 1
	i := start
	for i+8 <= len(data) && !special8(load8(data, i)) {
		i += 8
	}
	for ; i < len(data); i++ {
		c := data[i]
		if c == '"' {
			d.pos = i + 1
			return data[start:i], true
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return d.readStringSlow(start, i)
		}
	}
	d.syntaxError(len(data), "unterminated string")
	return nil, false
}

// special8 reports whether any of the 8 bytes in v needs more than a copy
// in a JSON string: '"', '\\', a control character (below 0x20) or a byte
// that is not ASCII. It tests the eight at once (the "has a byte less
// than" and "has a zero byte" word tricks, exact as a yes or no).
func special8(v uint64) bool {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	quote, backslash := v^('"'*lsb), v^('\\'*lsb)
	return ((v-0x20*lsb)&^v|(quote-lsb)&^quote|(backslash-lsb)&^backslash|v)&msb != 0
}

// readStringSlow continues readString at data[i], a byte that needs more
// than a copy: an escape, a control character or a non-ASCII byte.
func (d *Decoder) readStringSlow(start, i int) ([]byte, bool) {
	data := d.data
	buf := d.scratch[:0]
	escaped := false
	lit := start // start of the run of input not yet copied to buf
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			if !escaped {
				return data[start:i], true
			}
			buf = append(buf, data[lit:i]...)
			d.scratch = buf
			return buf, true
		case c == '\\':
			escaped = true
			buf = append(buf, data[lit:i]...)
			if i+1 >= len(data) {
				d.syntaxError(len(data), "unterminated string")
				return nil, false
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r := hex4(data, i+2)
				switch {
				case r < 0:
					d.syntaxError(i, `invalid \u escape in a string`)
					return nil, false
				case r >= 0xd800 && r < 0xdc00:
					var lo rune = -1
					if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
						lo = hex4(data, i+8)
					}
					if lo < 0xdc00 || lo >= 0xe000 {
						d.syntaxError(i, `unpaired surrogate in a \u escape in a string`)
						return nil, false
					}
					r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
					i += 6
				case r >= 0xdc00 && r < 0xe000:
					d.syntaxError(i, `unpaired surrogate in a \u escape in a string`)
					return nil, false
				}
				buf = utf8.AppendRune(buf, r)
				i += 4
			default:
				d.syntaxError(i, "invalid escape in a string")
				return nil, false
			}
			i += 2
			lit = i
		case c < 0x20:
			d.syntaxError(i, "control character in a string (it must be escaped)")
			return nil, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.syntaxError(i, "invalid UTF-8 in a string")
				return nil, false
			}
			i += size
		}
	}
	d.scratch = buf
	d.syntaxError(len(data), "unterminated string")
	return nil, false
}

// hex4 returns the value of the four hexadecimal digits at data[i:], or -1.
func hex4(data []byte, i int) rune {
	if i+4 > len(data) {
		return -1
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// scanNumber consumes the number at d.pos and returns its literal and
// whether it is an integer (no fraction, no exponent).
func (d *Decoder) scanNumber() (lit []byte, isInt, ok bool) {
	data := d.data
	start := d.pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		d.syntaxError(i, "expected a digit in a number, got end of input")
		return nil, false, false
	case data[i] == '0':
		i++
		if i < len(data) && isDigit(data[i]) {
			d.syntaxError(i, "leading zero in a number")
			return nil, false, false
		}
	case isDigit(data[i]):
		i = skipDigits(data, i+1)
	default:
		d.syntaxError(i, "expected a digit in a number")
		return nil, false, false
	}
	isInt = true
	if i < len(data) && data[i] == '.' {
		isInt = false
		i++
		if i >= len(data) || !isDigit(data[i]) {
			d.syntaxError(i, "expected a digit after the decimal point in a number")
			return nil, false, false
		}
		i = skipDigits(data, i+1)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		isInt = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			d.syntaxError(i, "expected a digit in the exponent of a number")
			return nil, false, false
		}
		i = skipDigits(data, i+1)
	}
	d.pos = i
	return data[start:i], isInt, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func skipDigits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

// skip consumes the value at d.pos (whitespace already skipped), checking
// its syntax, UTF-8 and depth. With dups set it also refuses duplicate
// member names: each is a problem at its own path, and skip goes on to the
// end of the value. It reports whether the value was fine.
func (d *Decoder) skip(dups bool) bool {
	data := d.data
	clear(d.frames) // frames left by a fatal problem may hold maps
	d.frames = d.frames[:0]
	d.names = d.names[:0]
	d.nameEnds = d.nameEnds[:0]
	clean := true
	for {
		// A value starts at d.pos.
		if d.pos >= len(data) {
			d.syntaxError(d.pos, "expected a JSON value, got end of input")
			return false
		}
		switch c := data[d.pos]; c {
		case '{', '[':
			if !d.open() {
				return false
			}
			i := skipWS(data, d.pos)
			if i < len(data) && (c == '{' && data[i] == '}' || c == '[' && data[i] == ']') {
				d.pos = i + 1
				d.depth--
				break
			}
			d.pos = i
			d.frames = append(d.frames, frame{object: c == '{', names: len(d.nameEnds)})
			if c == '{' {
				ok, fine := d.member(dups, "expected a member name or '}'")
				if !ok {
					return false
				}
				clean = clean && fine
			}
			continue
		case '"':
			if _, ok := d.readString(); !ok {
				return false
			}
		case 't':
			if !d.literal("true") {
				return false
			}
		case 'f':
			if !d.literal("false") {
				return false
			}
		case 'n':
			if !d.literal("null") {
				return false
			}
		default:
			if c != '-' && !isDigit(c) {
				d.syntaxError(d.pos, "expected a JSON value")
				return false
			}
			if _, _, ok := d.scanNumber(); !ok {
				return false
			}
		}
		// A value ended: close containers until another value follows.
		for {
			n := len(d.frames)
			if n == 0 {
				return clean
			}
			f := &d.frames[n-1]
			i := skipWS(data, d.pos)
			if i >= len(data) {
				d.syntaxError(i, "unexpected end of input")
				return false
			}
			c := data[i]
			if c == ',' {
				d.pos = skipWS(data, i+1)
				if f.object {
					ok, fine := d.member(dups, "expected a member name")
					if !ok {
						return false
					}
					clean = clean && fine
				} else {
					f.index++
				}
				break
			}
			if f.object && c != '}' {
				d.syntaxError(i, "expected ',' or '}'")
				return false
			}
			if !f.object && c != ']' {
				d.syntaxError(i, "expected ',' or ']'")
				return false
			}
			d.pos = i + 1
			d.depth--
			if f.object {
				d.names = d.names[:d.nameOffset(f.names)]
				d.nameEnds = d.nameEnds[:f.names]
			}
			*f = frame{}
			d.frames = d.frames[:n-1]
		}
	}
}

// member consumes a member name and ':' inside a value being skipped,
// leaving d.pos at the value. With dups set it records a problem when the
// name occurs twice in the innermost object (fine is then false).
func (d *Decoder) member(dups bool, expected string) (ok, fine bool) {
	data := d.data
	if d.pos >= len(data) || data[d.pos] != '"' {
		d.syntaxError(d.pos, expected)
		return false, false
	}
	name, ok := d.readString()
	if !ok {
		return false, false
	}
	i := skipWS(data, d.pos)
	if i >= len(data) || data[i] != ':' {
		d.syntaxError(i, "expected ':' after a member name")
		return false, false
	}
	d.pos = skipWS(data, i+1)
	if !dups {
		return true, true
	}
	f := &d.frames[len(d.frames)-1]
	fine = true
	if d.seenName(f, name) {
		if d.room() {
			d.addProblem(d.skipPointer(name), "duplicate property")
		}
		fine = false
	}
	// Kept even when a duplicate: skipPointer takes the member being read
	// as the last name of its object.
	d.names = append(d.names, name...)
	d.nameEnds = append(d.nameEnds, len(d.names))
	if f.set != nil && fine {
		f.set[string(name)] = struct{}{}
	}
	return true, fine
}

// seenName reports whether the object of frame f already has a member name.
func (d *Decoder) seenName(f *frame, name []byte) bool {
	if f.set != nil {
		_, ok := f.set[string(name)]
		return ok
	}
	count := len(d.nameEnds) - f.names
	if count >= linearNames {
		f.set = make(map[string]struct{}, 2*count)
		for k := f.names; k < len(d.nameEnds); k++ {
			f.set[string(d.names[d.nameOffset(k):d.nameEnds[k]])] = struct{}{}
		}
		_, ok := f.set[string(name)]
		return ok
	}
	for k := f.names; k < len(d.nameEnds); k++ {
		if bytes.Equal(d.names[d.nameOffset(k):d.nameEnds[k]], name) {
			return true
		}
	}
	return false
}

// nameOffset returns where name k starts in d.names.
func (d *Decoder) nameOffset(k int) int {
	if k == 0 {
		return 0
	}
	return d.nameEnds[k-1]
}

// skipPointer returns the pointer of member name of the innermost object
// being skipped: the current path, then the open containers' members and
// indices.
func (d *Decoder) skipPointer(name []byte) string {
	b := d.appendPath(d.ptr[:0])
	for k, f := range d.frames[:len(d.frames)-1] {
		if f.object {
			// The member being read is the last name of the object.
			last := d.frames[k+1].names - 1
			b = appendPointerToken(b, string(d.names[d.nameOffset(last):d.nameEnds[last]]))
		} else {
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(f.index), 10)
		}
	}
	b = appendPointerToken(b, string(name))
	d.ptr = b
	return string(b)
}
