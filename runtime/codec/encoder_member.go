package codec

import (
	"encoding/binary"
	"strconv"
	"time"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// The generated encoders write a member whose value is a scalar with one
// call: its text (the ',' and name and ':', as RawMember writes them) and
// its value, with one test of the limit where the size is known. Each
// call is compiled at its site in a codec package, and a call is smaller
// there than RawMember inlined beside the value's own call.
//
// A text of 8 to 16 bytes, most members' (`,"limit":`), is copied as two
// words that may overlap, into the buffer's spare capacity, with the
// value in the same reslice: as fast as RawMember's copy of a constant,
// which the compiler makes where it is inlined. Other texts, and a
// buffer without the room, are appended.

// word returns the eight bytes of s from i as one little-endian word,
// which the compiler loads at once.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// flat reports whether a text of t bytes and n more fit the buffer's spare
// capacity, the text copied as words: t is 8 to 16.
func (e *Encoder) flat(t, n int) bool {
	return t >= 8 && t <= 16 && t+n <= cap(e.buf)-len(e.buf)
}

// StringMember writes text as RawMember does, then s as String does, with
// one test of the limit.
func (e *Encoder) StringMember(text, s string) {
	n := len(text) + len(s) + 2
	if !e.fits(n) {
		return
	}
	e.needComma = true
	if jsonlex.Plain(s) {
		if m, t := len(e.buf), len(text); e.flat(t, len(s)+2) {
			e.buf = e.buf[:m+n]
			b := e.buf[m:]
			binary.LittleEndian.PutUint64(b, word(text, 0))
			binary.LittleEndian.PutUint64(b[t-8:], word(text, t-8))
			b[t] = '"'
			b[n-1] = '"'
			copy(b[t+1:], s)
			return
		}
		e.buf = append(append(append(append(e.buf, text...), '"'), s...), '"')
		return
	}
	e.buf = jsonlex.AppendString(append(e.buf, text...), s)
	e.checkLimit()
}

// IntMember writes text as RawMember does, then v as Int does.
func (e *Encoder) IntMember(text string, v int64) {
	if uint64(v) < 100 {
		e.smallMember(text, uint64(v))
		return
	}
	if e.member(text) {
		e.buf = strconv.AppendInt(e.buf, v, 10)
		e.checkLimit()
	}
}

// UintMember writes text as RawMember does, then v as Uint does.
func (e *Encoder) UintMember(text string, v uint64) {
	if v < 100 {
		e.smallMember(text, v)
		return
	}
	if e.member(text) {
		e.buf = strconv.AppendUint(e.buf, v, 10)
		e.checkLimit()
	}
}

// smallMember writes text as RawMember does, then v, below 100, as one or
// two digits.
func (e *Encoder) smallMember(text string, v uint64) {
	n := len(text) + 1
	if v >= 10 {
		n++
	}
	if !e.fits(n) {
		return
	}
	e.needComma = true
	m, t := len(e.buf), len(text)
	if !e.flat(t, n-t) {
		e.buf = appendSmall(append(e.buf, text...), v)
		return
	}
	e.buf = e.buf[:m+n]
	b := e.buf[m:]
	binary.LittleEndian.PutUint64(b, word(text, 0))
	binary.LittleEndian.PutUint64(b[t-8:], word(text, t-8))
	if v < 10 {
		b[t] = byte('0' + v)
		return
	}
	b[t] = byte('0' + v/10)
	b[t+1] = byte('0' + v%10)
}

// BoolMember writes text as RawMember does, then v as Bool does.
func (e *Encoder) BoolMember(text string, v bool) {
	n := len(text) + 5
	if v {
		n--
	}
	if !e.fits(n) {
		return
	}
	e.needComma = true
	m, t := len(e.buf), len(text)
	if !e.flat(t, n-t) {
		e.buf = strconv.AppendBool(append(e.buf, text...), v)
		return
	}
	e.buf = e.buf[:m+n]
	b := e.buf[m:]
	binary.LittleEndian.PutUint64(b, word(text, 0))
	binary.LittleEndian.PutUint64(b[t-8:], word(text, t-8))
	if v {
		copy(b[t:], "true")
	} else {
		copy(b[t:], "false")
	}
}

// member begins a member whose value is at least one byte: text as
// RawMember writes it, with a test of the limit, and reports whether to
// write the value.
func (e *Encoder) member(text string) bool {
	if !e.fits(len(text) + 1) {
		return false
	}
	e.needComma = true
	if m, t := len(e.buf), len(text); e.flat(t, 0) {
		e.buf = e.buf[:m+t]
		b := e.buf[m:]
		binary.LittleEndian.PutUint64(b, word(text, 0))
		binary.LittleEndian.PutUint64(b[t-8:], word(text, t-8))
		return true
	}
	e.buf = append(e.buf, text...)
	return true
}

// FloatMember writes text as RawMember does, then v as Float does.
func (e *Encoder) FloatMember(text string, v float64, bits int) {
	if e.member(text) {
		e.float(v, bits)
	}
}

// TimeMember writes text as RawMember does, then t as Time does.
func (e *Encoder) TimeMember(text string, t time.Time) {
	if e.member(text) {
		e.time(t)
	}
}
