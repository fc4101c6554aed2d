package codec

import (
	"bytes"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// linearNames is how many member names an object may have before duplicate
// detection while skipping switches from a linear scan to a map.
const linearNames = 16

// peek skips whitespace and returns the first byte of the next value. At the
// end of input it records a fatal problem; after one it returns false. The
// hot reads call peekNow first, and peek only when it fails.
func (d *Decoder) peek() (byte, bool) {
	if d.fatal {
		return 0, false
	}
	i := jsonlex.SkipSpace(d.data, d.pos)
	d.pos = i
	if i >= len(d.data) {
		d.syntaxError(i, "expected a JSON value, got end of input")
		return 0, false
	}
	return d.data[i], true
}

// peekNow returns the byte at d.pos and true when a value starts there at
// once (compact JSON: no whitespace before it) and no fatal problem was
// recorded; otherwise it returns false and the caller calls peek. It is
// small enough to be inlined, which peek is not: a read of compact JSON
// makes no call to find its value.
func (d *Decoder) peekNow() (byte, bool) {
	if data, i := d.data, d.pos; uint(i) < uint(len(data)) && !d.fatal {
		if c := data[i]; c > ' ' {
			return c, true
		}
	}
	return 0, false
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
	next, msg := jsonlex.ScanLiteral(d.data, d.pos, lit)
	if msg != "" {
		d.syntaxError(next, msg)
		return false
	}
	d.pos = next
	return true
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
			i := jsonlex.SkipSpace(data, d.pos)
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
		default:
			if !d.skipScalar(c) {
				return false
			}
		}
		more, ok, fine := d.skipEnd(dups)
		if !ok {
			return false
		}
		clean = clean && fine
		if !more {
			return clean
		}
	}
}

// skipScalar consumes the string, literal or number starting with c at
// d.pos, a value skip meets.
func (d *Decoder) skipScalar(c byte) bool {
	data := d.data
	switch c {
	case '"':
		_, next, msg := jsonlex.ReadString(data, d.pos, &d.scratch)
		if msg != "" {
			d.syntaxError(next, msg)
			return false
		}
		d.pos = next
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	default:
		if c != '-' && !jsonlex.IsDigit(c) {
			d.syntaxError(d.pos, "expected a JSON value")
			return false
		}
		next, _, msg := jsonlex.ScanNumber(data, d.pos)
		if msg != "" {
			d.syntaxError(next, msg)
			return false
		}
		d.pos = next
	}
	return true
}

// skipEnd consumes what follows a value skip has read: the ends of the
// containers it closes, up to the ',' and, in an object, the member name
// before the next value. more reports that such a value follows at d.pos
// (false when the outermost value has ended); fine is false when dups is
// set and that member name is a duplicate.
func (d *Decoder) skipEnd(dups bool) (more, ok, fine bool) {
	data := d.data
	for {
		n := len(d.frames)
		if n == 0 {
			return false, true, true
		}
		f := &d.frames[n-1]
		i := jsonlex.SkipSpace(data, d.pos)
		if i >= len(data) {
			d.syntaxError(i, "unexpected end of input")
			return false, false, false
		}
		c := data[i]
		if c == ',' {
			d.pos = jsonlex.SkipSpace(data, i+1)
			if !f.object {
				f.index++
				return true, true, true
			}
			ok, fine := d.member(dups, "expected a member name")
			return ok, ok, fine
		}
		if f.object && c != '}' {
			d.syntaxError(i, "expected ',' or '}'")
			return false, false, false
		}
		if !f.object && c != ']' {
			d.syntaxError(i, "expected ',' or ']'")
			return false, false, false
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

// member consumes a member name and ':' inside a value being skipped,
// leaving d.pos at the value. With dups set it records a problem when the
// name occurs twice in the innermost object (fine is then false).
func (d *Decoder) member(dups bool, expected string) (ok, fine bool) {
	data := d.data
	if d.pos >= len(data) || data[d.pos] != '"' {
		d.syntaxError(d.pos, expected)
		return false, false
	}
	name, next, msg := jsonlex.ReadString(data, d.pos, &d.scratch)
	if msg != "" {
		d.syntaxError(next, msg)
		return false, false
	}
	i := jsonlex.SkipSpace(data, next)
	if i >= len(data) || data[i] != ':' {
		d.syntaxError(i, "expected ':' after a member name")
		return false, false
	}
	d.pos = jsonlex.SkipSpace(data, i+1)
	if !dups {
		return true, true
	}
	f := &d.frames[len(d.frames)-1]
	fine = true
	if d.seenName(f, name) {
		if d.room() {
			d.addProblem(d.skipPointer(), "duplicate property")
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

// skipPointer returns the pointer of the member of the innermost object
// being skipped that is being read (its name not yet among the object's):
// the current path, then the open containers' members and indices. The
// members of a value being skipped (Raw, a free-form value) are keys the
// model chose: each is given by its position (KeyToken), not its name.
func (d *Decoder) skipPointer() string {
	b := d.appendPath(d.ptr[:0])
	for k, f := range d.frames[:len(d.frames)-1] {
		if f.object {
			// The member being read is the last name of the object.
			b = appendKeyToken(b, d.frames[k+1].names-1-f.names)
		} else {
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(f.index), 10)
		}
	}
	f := &d.frames[len(d.frames)-1]
	b = appendKeyToken(b, len(d.nameEnds)-f.names)
	d.ptr = b
	return string(b)
}
