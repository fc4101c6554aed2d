package codec

import (
	"bytes"
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// Kind skips whitespace and returns the kind of the next value without
// consuming it. A byte that cannot start a value, or the end of input, is
// a fatal problem and gives jsonlex.Invalid.
func (d *Decoder) Kind() jsonlex.Kind {
	c, ok := d.peek()
	if !ok {
		return jsonlex.Invalid
	}
	k := jsonlex.KindOf(c)
	if k == jsonlex.Invalid {
		d.syntaxError(d.pos, "expected a JSON value")
	}
	return k
}

// Skip consumes the next value, checking its syntax, UTF-8 and depth.
// Duplicate member names are not refused.
func (d *Decoder) Skip() {
	if _, ok := d.peek(); ok {
		d.skip(false)
	}
}

// refuse records that the next value, which starts with c, is not of the
// wanted kind, and skips it. A byte that cannot start a value is fatal.
func (d *Decoder) refuse(want string, c byte) {
	k := jsonlex.KindOf(c)
	if k == jsonlex.Invalid {
		d.syntaxError(d.pos, "expected a JSON value")
		return
	}
	if d.skip(false) && d.room() {
		d.addProblem(d.pointer(), "expected "+want+", got "+k.String())
	}
}

// Null consumes a null and returns true; on any other value it consumes
// nothing and returns false.
func (d *Decoder) Null() bool {
	c, ok := d.peekNow()
	if !ok {
		c, ok = d.peek()
	}
	if !ok || c != 'n' {
		return false
	}
	return d.literal("null")
}

// Bool reads a boolean. On another kind of value it records "expected
// <want>, got <kind>", skips the value and returns ok false.
func (d *Decoder) Bool(want string) (v, ok bool) {
	c, ok := d.peekNow()
	if !ok {
		c, ok = d.peek()
	}
	if !ok {
		return false, false
	}
	switch c {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	}
	d.refuse(want, c)
	return false, false
}

// StringBytes reads a string and returns its unescaped bytes, which alias
// the input or a scratch buffer and are valid until the next read. On
// another kind of value it records a problem, skips the value and returns
// ok false.
func (d *Decoder) StringBytes(want string) ([]byte, bool) {
	c, ok := d.peekNow()
	if !ok {
		c, ok = d.peek()
	}
	if !ok {
		return nil, false
	}
	if c != '"' {
		d.refuse(want, c)
		return nil, false
	}
	s, next, msg := jsonlex.ReadString(d.data, d.pos, &d.scratch)
	if msg != "" {
		d.syntaxError(next, msg)
		return nil, false
	}
	d.pos = next
	return s, true
}

// String reads a string. On another kind of value it records a problem,
// skips the value and returns ok false.
//
// Strings of up to maxBlockString bytes share blocks of memory allocated
// for the input being read (see makeString): decoding an object with many
// short strings allocates once or twice rather than once per string. A
// string kept after the call keeps its block alive, at most blockSize
// bytes.
func (d *Decoder) String(want string) (string, bool) {
	// StringBytes written out: String is on the path of every string
	// property, and a frame less is worth its lines.
	c, ok := d.peekNow()
	if !ok {
		if c, ok = d.peek(); !ok {
			return "", false
		}
	}
	if c != '"' {
		d.refuse(want, c)
		return "", false
	}
	b, next, msg := jsonlex.ReadString(d.data, d.pos, &d.scratch)
	if msg != "" {
		d.syntaxError(next, msg)
		return "", false
	}
	d.pos = next
	if len(b) == 0 {
		return "", true
	}
	return d.makeString(b), true
}

// KeyString returns name, a member name that Key returned, as a string
// that stays valid: copied into the blocks String's strings share (see
// String), so that the keys of a map cost no allocation each. The
// generated decoders of maps make their keys with it.
func (d *Decoder) KeyString(name []byte) string {
	return d.makeString(name)
}

// blockSize caps the blocks makeString allocates; maxBlockString is the
// longest string it copies into one (longer ones are allocated alone);
// with less than minBlockRest bytes of input left it starts no block (a
// lone short string costs less from Go's tiny allocator).
const (
	blockSize      = 4096
	maxBlockString = 512
	minBlockRest   = 64
)

// makeString returns a string holding the bytes of b. Short strings are
// appended to d.block, a strings.Builder, and alias its buffer: a Builder
// only ever appends, so the strings stay immutable, and a full block is
// replaced rather than grown. Reset drops the block rather than reuse it. A
// new block holds b and half of what is left of the input (string values
// are rarely more than half of a JSON text: keys, quotes and punctuation
// take the rest), at most blockSize bytes; Builder.Grow allocates it
// without zeroing it. Sized to the whole rest of the input, blocks cost
// more time in allocated bytes than they saved in allocations.
func (d *Decoder) makeString(b []byte) string {
	switch {
	case len(b) == 0:
		return ""
	case len(b) > maxBlockString:
		return string(b)
	}
	if d.block.Cap()-d.block.Len() < len(b) {
		rest := len(d.data) - d.pos
		if rest < minBlockRest {
			return string(b) // too little input left for a block to pay
		}
		d.block = strings.Builder{}
		d.block.Grow(min(rest/2+len(b), blockSize))
	}
	start := d.block.Len()
	d.block.Write(b)
	return d.block.String()[start:]
}

// Time reads a string holding an RFC 3339 date-time: one that the JSON
// Schema format "date-time" accepts (see IsDateTime) and that
// time.Time.UnmarshalJSON accepts (but with JSON escapes decoded first).
// Both are needed: Go's parser also takes a one-digit hour ("T9:00:00")
// and a comma before the fraction, which the published format refuses, and
// it refuses a leap second, which the format allows but a time.Time cannot
// hold. A lower-case "t" or "z", which RFC 3339 allows and Go's parser
// does not, is read as upper case.
func (d *Decoder) Time(want string) (time.Time, bool) {
	b, ok := d.StringBytes(want)
	if !ok {
		return time.Time{}, false
	}
	var t time.Time
	if !IsDateTime(string(b)) || t.UnmarshalText(upperTZ(b)) != nil {
		d.Problem("expected " + want + ", got a string that is not an RFC 3339 date-time")
		return time.Time{}, false
	}
	return t, true
}

// Base64 reads a string holding standard base64 (padded; line breaks
// ignored), as encoding/json decodes a []byte, and returns the decoded bytes
// in a fresh slice.
func (d *Decoder) Base64(want string) ([]byte, bool) {
	b, ok := d.StringBytes(want)
	if !ok {
		return nil, false
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(b)))
	n, err := base64.StdEncoding.Decode(out, b)
	if err != nil {
		d.Problem("expected " + want + ", got a string that is not valid base64")
		return nil, false
	}
	return out[:n], true
}

// number consumes the next value if it is a number and returns its
// literal; on another kind it records a problem and skips the value.
func (d *Decoder) number(want string) (lit []byte, isInt, ok bool) {
	c, ok := d.peekNow()
	if !ok {
		c, ok = d.peek()
	}
	if !ok {
		return nil, false, false
	}
	if c != '-' && !jsonlex.IsDigit(c) {
		d.refuse(want, c)
		return nil, false, false
	}
	next, isInt, msg := jsonlex.ScanNumber(d.data, d.pos)
	if msg != "" {
		d.syntaxError(next, msg)
		return nil, false, false
	}
	lit = d.data[d.pos:next]
	d.pos = next
	return lit, isInt, true
}

// Number reads a number and returns its literal, which aliases the input
// and is valid until the next read.
func (d *Decoder) Number(want string) ([]byte, bool) {
	lit, _, ok := d.number(want)
	return lit, ok
}

// intBits returns bits, or 64 when it is not between 1 and 64.
func intBits(bits int) int {
	if bits < 1 || bits > 64 {
		return 64
	}
	return bits
}

// parseDigits returns the value of the decimal digits b, and false when it
// overflows a uint64.
func parseDigits(b []byte) (uint64, bool) {
	if len(b) < 20 {
		var u uint64
		for _, c := range b {
			u = u*10 + uint64(c-'0')
		}
		return u, true
	}
	var u uint64
	for _, c := range b {
		if u > math.MaxUint64/10 {
			return 0, false
		}
		u *= 10
		if u > math.MaxUint64-uint64(c-'0') {
			return 0, false
		}
		u += uint64(c - '0')
	}
	return u, true
}

// Int reads an integer that fits a signed bits-bit integer (bits outside
// 1..64 mean 64). A number with a fraction or an exponent is refused, even
// "1.0" or "1e2", as encoding/json refuses it for Go integers.
func (d *Decoder) Int(want string, bits int) (int64, bool) {
	lit, isInt, ok := d.number(want)
	if !ok {
		return 0, false
	}
	if !isInt {
		d.Problem("expected " + want + ", got a number with a fraction or exponent")
		return 0, false
	}
	bits = intBits(bits)
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	u, ok := parseDigits(lit)
	limit := uint64(1) << (bits - 1)
	if !neg {
		limit--
	}
	if !ok || u > limit {
		d.Problem("expected " + want + ", got a number out of range for a " + strconv.Itoa(bits) + "-bit integer")
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// Uint reads a non-negative integer that fits an unsigned bits-bit integer
// (bits outside 1..64 mean 64). Fractions and exponents are refused as by
// Int, and so is any negative number, "-0" included, as encoding/json does.
func (d *Decoder) Uint(want string, bits int) (uint64, bool) {
	lit, isInt, ok := d.number(want)
	if !ok {
		return 0, false
	}
	if !isInt {
		d.Problem("expected " + want + ", got a number with a fraction or exponent")
		return 0, false
	}
	if lit[0] == '-' {
		d.Problem("expected " + want + ", got a negative number")
		return 0, false
	}
	bits = intBits(bits)
	u, ok := parseDigits(lit)
	if !ok || bits < 64 && u >= uint64(1)<<bits {
		d.Problem("expected " + want + ", got a number out of range for a " + strconv.Itoa(bits) + "-bit integer")
		return 0, false
	}
	return u, true
}

// Float reads a number as strconv.ParseFloat(literal, bits) does (bits 32
// or 64; other values mean 64). A number too large for the float type is
// refused; one too small becomes zero, as in encoding/json.
func (d *Decoder) Float(want string, bits int) (float64, bool) {
	lit, isInt, ok := d.number(want)
	if !ok {
		return 0, false
	}
	if bits != 32 {
		bits = 64
	}
	// Integers of up to 15 digits are exact in a float64, and rounding them
	// once to float32 is what ParseFloat does.
	if isInt && len(lit) <= 16 {
		digits := lit
		if lit[0] == '-' {
			digits = lit[1:]
		}
		if len(digits) <= 15 {
			u, _ := parseDigits(digits)
			f := float64(u)
			if lit[0] == '-' {
				f = -f
			}
			if bits == 32 {
				f = float64(float32(f))
			}
			return f, true
		}
	}
	if !isInt && bits == 64 {
		if f, ok := shortDecimal(lit); ok {
			return f, true
		}
	}
	f, err := strconv.ParseFloat(string(lit), bits)
	if err != nil {
		d.Problem("expected " + want + ", got a number out of range for a " + strconv.Itoa(bits) + "-bit float")
		return 0, false
	}
	return f, true
}

// pow10 holds the powers of ten that a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// shortDecimal returns the float64 nearest the number lit, a valid JSON
// number with a fraction, when it has no exponent and at most 15 digits:
// the digits are then an integer a float64 holds exactly, divided by a
// power of ten it holds exactly, and one correctly rounded division gives
// what strconv.ParseFloat gives (the exact case of its own fast path,
// without its general parsing). ok is false for any other number.
func shortDecimal(lit []byte) (f float64, ok bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) > 16 { // 15 digits and the point
		return 0, false
	}
	var u uint64
	frac := -1 // digits after the point, -1 before it
	for _, c := range lit {
		switch {
		case c >= '0' && c <= '9':
			u = u*10 + uint64(c-'0')
			if frac >= 0 {
				frac++
			}
		case c == '.':
			frac = 0
		default: // an exponent
			return 0, false
		}
	}
	if frac < 0 {
		return 0, false
	}
	f = float64(u) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// Object consumes the '{' that opens an object; Key then reads its
// members. On another kind of value it records a problem, skips the value
// and returns false.
func (d *Decoder) Object(want string) bool {
	c, ok := d.peekNow()
	if !ok {
		c, ok = d.peek()
	}
	if !ok {
		return false
	}
	if c != '{' {
		d.refuse(want, c)
		return false
	}
	if !d.open() {
		return false
	}
	d.first = true
	d.keys = append(d.keys, -1)
	return true
}

// Key consumes the ',' before a member when one is needed, the member
// name and the ':', and returns the unescaped name, valid until the next
// read. It returns false when it consumed the '}' that closes the object,
// or after a fatal problem.
func (d *Decoder) Key() ([]byte, bool) {
	if d.fatal {
		return nil, false
	}
	data := d.data
	i := jsonlex.SkipSpace(data, d.pos)
	if i >= len(data) {
		d.syntaxError(i, "unexpected end of input")
		return nil, false
	}
	c := data[i]
	switch {
	case c == '}':
		d.first = false
		d.pos = i + 1
		d.depth--
		if n := len(d.keys); n > 0 {
			d.keys = d.keys[:n-1]
		}
		return nil, false
	case d.first:
		d.first = false
		if c != '"' {
			d.syntaxError(i, "expected a member name or '}'")
			return nil, false
		}
	case c == ',':
		i = jsonlex.SkipSpace(data, i+1)
		if i >= len(data) || data[i] != '"' {
			d.syntaxError(i, "expected a member name")
			return nil, false
		}
	default:
		d.syntaxError(i, "expected ',' or '}'")
		return nil, false
	}
	name, next, msg := jsonlex.ReadString(data, i, &d.scratch)
	if msg != "" {
		d.syntaxError(next, msg)
		return nil, false
	}
	i = jsonlex.SkipSpace(data, next)
	if i >= len(data) || data[i] != ':' {
		d.syntaxError(i, "expected ':' after a member name")
		return nil, false
	}
	d.pos = i + 1
	if n := len(d.keys); n > 0 {
		d.keys[n-1]++
	}
	return name, true
}

// Array consumes the '[' that opens an array; Next then steps through its
// elements. On another kind of value it records a problem, skips the value
// and returns false.
func (d *Decoder) Array(want string) bool {
	c, ok := d.peekNow()
	if !ok {
		c, ok = d.peek()
	}
	if !ok {
		return false
	}
	if c != '[' {
		d.refuse(want, c)
		return false
	}
	if !d.open() {
		return false
	}
	d.first = true
	return true
}

// Next reports whether another element follows in the array, consuming the
// ',' before it when needed. It returns false when it consumed the ']'
// that closes the array, or after a fatal problem.
func (d *Decoder) Next() bool {
	if d.fatal {
		return false
	}
	data := d.data
	i := jsonlex.SkipSpace(data, d.pos)
	if i >= len(data) {
		d.syntaxError(i, "unexpected end of input")
		return false
	}
	switch c := data[i]; {
	case c == ']':
		d.first = false
		d.pos = i + 1
		d.depth--
		return false
	case d.first:
		d.first = false
		d.pos = i
		return true
	case c == ',':
		d.pos = i + 1
		return true
	default:
		d.syntaxError(i, "expected ',' or ']'")
		return false
	}
}

// Raw returns a fresh copy of the next value's bytes, checked for syntax,
// UTF-8, depth and duplicate member names (each duplicate is a problem at
// its own path, and Raw then returns ok false).
func (d *Decoder) Raw() ([]byte, bool) {
	if _, ok := d.peek(); !ok {
		return nil, false
	}
	start := d.pos
	if !d.skip(true) {
		return nil, false
	}
	return bytes.Clone(d.data[start:d.pos]), true
}

// Any reads the next value as encoding/json decodes into an any:
// map[string]any, []any, float64, string, bool or nil. Duplicate member
// names are refused, each a problem at its own path, and so are numbers
// too large for a float64; ok is then false.
func (d *Decoder) Any() (any, bool) { return d.AnyWith(nil) }

// AnyWith is Any with each number made by number from its literal (the
// bytes of the number as sent, valid JSON, aliasing the input: number
// copies what it keeps): a json.Number, say, for a reader that must not
// lose precision. A nil number makes float64s, as Any does; a number too
// large for one is then a problem.
func (d *Decoder) AnyWith(number func(lit []byte) any) (any, bool) {
	before := d.problemCount()
	v := d.anyValue(number)
	if d.fatal || d.problemCount() != before {
		return nil, false
	}
	return v, true
}

// anyValue reads the next value for AnyWith.
func (d *Decoder) anyValue(number func(lit []byte) any) any {
	switch d.Kind() {
	case jsonlex.Null:
		d.Null()
		return nil
	case jsonlex.Bool:
		v, _ := d.Bool("boolean")
		return v
	case jsonlex.Number:
		if number == nil {
			v, _ := d.Float("number", 64)
			return v
		}
		lit, ok := d.Number("number")
		if !ok {
			return nil
		}
		return number(lit)
	case jsonlex.String:
		v, _ := d.String("string")
		return v
	case jsonlex.Array:
		if !d.Array("array") {
			return nil
		}
		a := []any{}
		for i := 0; d.Next(); i++ {
			d.PushIndex(i)
			a = append(a, d.anyValue(number))
			d.Pop()
		}
		return a
	case jsonlex.Object:
		if !d.Object("object") {
			return nil
		}
		m := map[string]any{}
		for {
			key, ok := d.Key()
			if !ok {
				break
			}
			name := d.makeString(key)
			d.PushKey()
			if _, dup := m[name]; dup {
				d.Duplicate()
				d.Skip()
			} else {
				m[name] = d.anyValue(number)
			}
			d.Pop()
		}
		return m
	}
	return nil
}
