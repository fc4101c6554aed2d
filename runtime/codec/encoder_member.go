package codec

import (
	"strconv"
	"time"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// The generated encoders write a member whose value is a scalar with one
// call: its text (the ',' and name and ':', as RawMember writes them) and
// its value, with one test of the limit where the size is known. Each
// call is compiled at its site in a codec package, and a call is smaller
// there than RawMember inlined beside the value's own call.

// StringMember writes text as RawMember does, then s as String does, with
// one test of the limit.
func (e *Encoder) StringMember(text, s string) {
	n := len(text) + len(s) + 2
	if !e.fits(n) {
		return
	}
	e.needComma = true
	if jsonlex.Plain(s) {
		if m := len(e.buf); n <= cap(e.buf)-m {
			// As in String, with the text first.
			e.buf = e.buf[:m+n]
			b := e.buf[m:]
			i := copy(b, text)
			b[i] = '"'
			copy(b[i+1:], s)
			b[n-1] = '"'
			return
		}
		e.buf = append(append(append(append(e.buf, text...), '"'), s...), '"')
		return
	}
	e.buf = jsonlex.AppendString(append(e.buf, text...), s)
	e.checkLimit()
}

// member begins a member whose value is at least one byte: text as
// RawMember writes it, with a test of the limit, and reports whether to
// write the value.
func (e *Encoder) member(text string) bool {
	if !e.fits(len(text) + 1) {
		return false
	}
	e.buf = append(e.buf, text...)
	e.needComma = true
	return true
}

// IntMember writes text as RawMember does, then v as Int does.
func (e *Encoder) IntMember(text string, v int64) {
	if e.member(text) {
		if uint64(v) < 100 {
			e.buf = appendSmall(e.buf, uint64(v))
		} else {
			e.buf = strconv.AppendInt(e.buf, v, 10)
		}
		e.checkLimit()
	}
}

// UintMember writes text as RawMember does, then v as Uint does.
func (e *Encoder) UintMember(text string, v uint64) {
	if e.member(text) {
		if v < 100 {
			e.buf = appendSmall(e.buf, v)
		} else {
			e.buf = strconv.AppendUint(e.buf, v, 10)
		}
		e.checkLimit()
	}
}

// BoolMember writes text as RawMember does, then v as Bool does.
func (e *Encoder) BoolMember(text string, v bool) {
	if e.member(text) {
		e.buf = strconv.AppendBool(e.buf, v)
		e.checkLimit()
	}
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
