package codec

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// maxJSONDepth bounds the nesting of MarshalJSON output, as encoding/json
// bounds it.
const maxJSONDepth = 10000

// Encoder appends JSON to an internal buffer, writing the commas between
// members and elements itself. It is reused through Reset; it is not safe
// for concurrent use.
//
// A failure (see Err) does not stop the encoder, but the output is then
// not meaningful: a failed value is written as null.
//
// An encoder may have a limit (SetLimit) on the bytes it writes. A write
// that would pass it makes the encoder too large (see TooLarge): the
// bytes written since the last Reset are dropped and every later write
// does nothing, so the memory an oversized output takes stays near the
// limit, whatever the size of the values the caller goes on writing.
type Encoder struct {
	buf       []byte
	needComma bool
	err       error
	dec       *Decoder // validates MarshalJSON output, made on first use
	// base is len(buf) at the last Reset or ResetAppend; limit the most
	// bytes written past it (0: none). The length buf may not pass is
	// math.MaxInt-cut (stored so, the zero Encoder has no limit):
	// base+limit, or 0 once too large, which fails every write. A cut of
	// math.MaxInt is the too-large state, which no limit gives: base+limit
	// is at least 1.
	base, limit, cut int
}

// NewEncoder returns an empty Encoder, without a limit. The zero Encoder
// is one too.
func NewEncoder() *Encoder { return &Encoder{} }

// Reset empties the buffer and forgets the failure and the too-large
// state, keeping the memory and the limit.
func (e *Encoder) Reset() {
	e.buf = e.buf[:0]
	e.needComma = false
	e.forgetErr()
	e.setBase()
}

// forgetErr forgets the failure. Cleared only when set: a store of a
// pointer costs a write barrier while the collector runs.
func (e *Encoder) forgetErr() {
	if e.err != nil {
		e.err = nil
	}
}

// SetLimit caps at n the bytes written from now until the next Reset or
// ResetAppend, and after each of them; n <= 0 removes the cap. The bytes
// of a ResetAppend's buf do not count.
func (e *Encoder) SetLimit(n int) {
	e.limit = max(n, 0)
	if !e.TooLarge() {
		e.cut = math.MaxInt - e.limitEnd()
	}
}

// setBase starts counting the limit from the buffer's current length.
func (e *Encoder) setBase() {
	e.base = len(e.buf)
	e.cut = math.MaxInt - e.limitEnd()
}

// limitEnd is base+limit, or math.MaxInt when there is no limit (or the
// sum does not fit).
func (e *Encoder) limitEnd() int {
	if e.limit == 0 || e.limit > math.MaxInt-e.base {
		return math.MaxInt
	}
	return e.base + e.limit
}

// TooLarge reports whether a write since the last Reset or ResetAppend
// would have passed the limit. The output is then empty (Bytes returns
// only a ResetAppend's buf) and writes do nothing until the next Reset or
// ResetAppend.
func (e *Encoder) TooLarge() bool { return e.cut == math.MaxInt }

// fits reports whether n more bytes keep the buffer within the limit;
// when they do not, the encoder becomes too large. Writes whose size is
// not bounded call it before writing, with a lower bound of what they
// write, so that an oversized value is never copied.
//
// Becoming too large is one store: Bytes and Len leave out what was
// written since the last Reset, and no later write fits, since the room
// left is then negative or zero (a zero-length write is no write). The
// generated encoders inline fits at every member; a longer rare path
// would be compiled again at each.
func (e *Encoder) fits(n int) bool {
	if n <= math.MaxInt-e.cut-len(e.buf) {
		return true
	}
	e.cut = math.MaxInt
	return false
}

// checkLimit makes the encoder too large if the last write passed the
// limit. Every write calls it after writing.
func (e *Encoder) checkLimit() {
	if len(e.buf) > math.MaxInt-e.cut {
		e.cut = math.MaxInt
	}
}

// ResetAppend is Reset, but what is encoded next is appended to buf, after
// its contents, in buf's memory: Bytes then returns buf followed by the
// encoded bytes, and Len counts buf's bytes too. The encoder writes into
// buf's spare capacity (and whatever memory it grows into) until
// ResetAppend is called with other memory; Reset empties the current
// buffer and keeps writing into its memory.
func (e *Encoder) ResetAppend(buf []byte) {
	e.buf = buf
	e.needComma = false
	e.forgetErr()
	e.setBase()
}

// Bytes returns the encoded bytes. They alias the buffer: they are valid
// until the next write or Reset.
func (e *Encoder) Bytes() []byte {
	if e.TooLarge() {
		return e.buf[:e.base]
	}
	return e.buf
}

// Len returns the number of encoded bytes.
func (e *Encoder) Len() int { return len(e.Bytes()) }

// Err returns the first failure: NaN or an infinity, a time that RFC 3339
// cannot represent, a value Any does not support, or an error or invalid
// output from a MarshalJSON or MarshalText method.
func (e *Encoder) Err() error { return e.err }

// Fail records err as a failure unless one is already recorded.
func (e *Encoder) Fail(err error) {
	if e.err == nil && err != nil {
		e.err = err
	}
}

// comma writes the ',' before a value when one is needed, and marks that
// the next value needs one.
func (e *Encoder) comma() {
	if e.needComma {
		e.buf = append(e.buf, ',')
	}
	e.needComma = true
}

// ObjectStart writes '{'.
func (e *Encoder) ObjectStart() { e.start('{') }

// start writes the ',' the value needs, if any, and c, '{' or '[', which
// opens it. The size is known: one test of the limit, before writing,
// does for both bytes.
func (e *Encoder) start(c byte) {
	n := 1
	if e.needComma {
		n++
	}
	if !e.fits(n) {
		return
	}
	if e.needComma {
		e.buf = append(e.buf, ',', c)
	} else {
		e.buf = append(e.buf, c)
	}
	e.needComma = false
}

// ObjectEnd writes '}'.
func (e *Encoder) ObjectEnd() {
	if !e.fits(1) {
		return
	}
	e.buf = append(e.buf, '}')
	e.needComma = true
}

// ArrayStart writes '['.
func (e *Encoder) ArrayStart() { e.start('[') }

// ArrayEnd writes ']'.
func (e *Encoder) ArrayEnd() {
	if !e.fits(1) {
		return
	}
	e.buf = append(e.buf, ']')
	e.needComma = true
}

// Key writes a member name and ':'.
func (e *Encoder) Key(name string) {
	if !e.fits(len(name) + 3) {
		return
	}
	e.comma()
	e.buf = jsonlex.AppendString(e.buf, name)
	e.buf = append(e.buf, ':')
	e.needComma = false
	e.checkLimit()
}

// RawKey writes a member name given as its JSON text and ':', such as
// `"query":`, exactly as Key would write it: generated code computes the
// text once, at generation time, and RawKey saves the escaping. The text
// may also open the object whose first member it names, `{"query":`, for
// ObjectStart and RawKey in one write: the ',' before it is the one the
// object needs, as ObjectStart writes it. The text is not checked.
func (e *Encoder) RawKey(text string) {
	n := len(text)
	if e.needComma {
		n++
	}
	if !e.fits(n) {
		return
	}
	if e.needComma {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, text...)
	e.needComma = false
}

// RawMember writes a member's ',' and name given as JSON text, such as
// `,"limit":`, where the ',' is certain: generated code writes it so after
// a member that is always written. Unlike RawKey it writes no ',' of its
// own, one write and one test of the limit. The text is not checked.
func (e *Encoder) RawMember(text string) {
	if !e.fits(len(text)) {
		return
	}
	e.buf = append(e.buf, text...)
	e.needComma = false
}

// String writes s as a JSON string, escaped as encoding/json does without
// HTML escaping: '"', '\\' and control characters are escaped (\b, \f,
// \n, \r, \t or \u00XX), so are U+2028 and U+2029, and each byte of
// invalid UTF-8 becomes \ufffd.
//
// A string with nothing to escape, the common case of a tool's output,
// is tested a word at a time (jsonlex.Plain) and written at once, its
// size known before writing (one test of the limit).
func (e *Encoder) String(s string) {
	n := len(s) + 2
	if e.needComma {
		n++
	}
	if !e.fits(n) {
		return
	}
	if e.needComma {
		e.buf = append(e.buf, ',')
	}
	e.needComma = true
	if jsonlex.Plain(s) {
		if m := len(e.buf); len(s)+2 <= cap(e.buf)-m {
			// In the buffer's spare capacity: buf resliced, its pointer
			// not stored again (a write barrier while the collector
			// runs), as an append of three parts would store it.
			e.buf = e.buf[:m+len(s)+2]
			b := e.buf[m:]
			b[0] = '"'
			b[len(s)+1] = '"'
			copy(b[1:], s)
			return
		}
		e.buf = append(append(append(e.buf, '"'), s...), '"')
		return
	}
	e.buf = jsonlex.AppendString(e.buf, s)
	e.checkLimit()
}

// StringBytes writes b as a JSON string, like String.
func (e *Encoder) StringBytes(b []byte) {
	if !e.fits(len(b) + 2) {
		return
	}
	e.comma()
	e.buf = jsonlex.AppendString(e.buf, b)
	e.checkLimit()
}

// Int writes an integer.
func (e *Encoder) Int(v int64) {
	if !e.fits(1) {
		return
	}
	e.comma()
	if uint64(v) < 100 { // one or two digits, without strconv's calls
		e.buf = appendSmall(e.buf, uint64(v))
	} else {
		e.buf = strconv.AppendInt(e.buf, v, 10)
	}
	e.checkLimit()
}

// Uint writes an unsigned integer.
func (e *Encoder) Uint(v uint64) {
	if !e.fits(1) {
		return
	}
	e.comma()
	if v < 100 { // one or two digits, without strconv's calls
		e.buf = appendSmall(e.buf, v)
	} else {
		e.buf = strconv.AppendUint(e.buf, v, 10)
	}
	e.checkLimit()
}

// Bool writes true or false.
func (e *Encoder) Bool(v bool) {
	if !e.fits(1) {
		return
	}
	e.comma()
	e.buf = strconv.AppendBool(e.buf, v)
	e.checkLimit()
}

// Null writes null.
func (e *Encoder) Null() {
	if !e.fits(1) {
		return
	}
	e.comma()
	e.buf = append(e.buf, "null"...)
	e.checkLimit()
}

// Float writes v as encoding/json writes a float32 (bits 32) or float64
// (any other bits): like ES6, in decimal notation unless the magnitude is
// below 1e-6 or at least 1e21. NaN and infinities fail (and write null).
func (e *Encoder) Float(v float64, bits int) {
	if !e.fits(1) {
		return
	}
	e.comma()
	e.float(v, bits)
}

// float writes v, its ',' or member text written: the value of Float and
// FloatMember.
func (e *Encoder) float(v float64, bits int) {
	if bits != 32 {
		bits = 64
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		e.Fail(fmt.Errorf("codec: unsupported value: %s", strconv.FormatFloat(v, 'g', -1, bits)))
		e.buf = append(e.buf, "null"...)
		e.checkLimit()
		return
	}
	abs := math.Abs(v)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b := strconv.AppendFloat(e.buf, v, format, -1, bits)
	if format == 'e' {
		// Write e-7, not e-07.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.buf = b
	e.checkLimit()
}

// Time writes t as time.Time.MarshalJSON does (RFC 3339 with nanoseconds).
// A time RFC 3339 cannot represent (a year outside [0,9999], a zone
// offset of 24 hours or more) fails and writes null.
func (e *Encoder) Time(t time.Time) {
	if !e.fits(1) {
		return
	}
	e.comma()
	e.time(t)
}

// time writes t, its ',' or member text written: the value of Time and
// TimeMember.
func (e *Encoder) time(t time.Time) {
	b, err := t.AppendText(append(e.buf, '"'))
	if err != nil {
		e.Fail(fmt.Errorf("codec: encoding a time: %w", err))
		e.buf = append(e.buf, "null"...)
	} else {
		e.buf = append(b, '"')
	}
	e.checkLimit()
}

// Base64 writes b as a string of standard padded base64, as encoding/json
// writes a []byte. A nil b writes "" (writing null is the caller's choice).
func (e *Encoder) Base64(b []byte) {
	if !e.fits(base64.StdEncoding.EncodedLen(len(b)) + 2) {
		return
	}
	e.comma()
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
	e.checkLimit()
}

// JSON writes the output of a MarshalJSON method: err fails; otherwise b
// must be one valid JSON value (strictly: valid UTF-8, see the package
// doc), which is written without its insignificant whitespace.
func (e *Encoder) JSON(b []byte, err error) {
	if !e.fits(1) {
		return
	}
	if err != nil {
		e.comma()
		e.Fail(fmt.Errorf("codec: calling MarshalJSON: %w", err))
		e.buf = append(e.buf, "null"...)
		e.checkLimit()
		return
	}
	if e.dec == nil {
		e.dec = NewDecoder()
	}
	d := e.dec
	d.Reset(b, Limits{MaxBytes: math.MaxInt, MaxDepth: maxJSONDepth})
	d.Skip()
	d.End()
	if d.Failed() {
		e.comma()
		e.Fail(fmt.Errorf("codec: invalid JSON from MarshalJSON: %s", d.problems[0].Message))
		e.buf = append(e.buf, "null"...)
		e.checkLimit()
		return
	}
	d.Reset(nil, Limits{}) // drop the reference to b
	e.comma()
	e.buf = appendCompact(e.buf, b)
	e.checkLimit()
}

// appendCompact appends the valid JSON src without whitespace outside
// strings.
func appendCompact(dst, src []byte) []byte {
	start := 0
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}

// Text writes the output of a MarshalText method as a JSON string: err
// fails (and writes null).
func (e *Encoder) Text(b []byte, err error) {
	if err != nil {
		if !e.fits(1) {
			return
		}
		e.comma()
		e.Fail(fmt.Errorf("codec: calling MarshalText: %w", err))
		e.buf = append(e.buf, "null"...)
		e.checkLimit()
		return
	}
	e.StringBytes(b)
}

// RawText appends s verbatim, without quoting or a comma: it is for tool
// output that is plain text, not JSON.
func (e *Encoder) RawText(s string) {
	if !e.fits(len(s)) {
		return
	}
	e.buf = append(e.buf, s...)
}

// appendSmall appends v, below 100, in decimal.
func appendSmall(dst []byte, v uint64) []byte {
	if v < 10 {
		return append(dst, byte('0'+v))
	}
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}
