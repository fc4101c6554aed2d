package codec

import (
	"bytes"
	"encoding/base64"
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
	if d.alone(b) { // makeString written out: a lone short string makes no call but its allocation's
		return string(b), true
	}
	return d.blockString(b), true
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
	if d.alone(b) {
		return string(b)
	}
	return d.blockString(b)
}

// alone reports whether makeString allocates b's string alone: too long
// for a block, or without room in the current one with too little input
// left for a new one to pay.
func (d *Decoder) alone(b []byte) bool {
	return len(b) > maxBlockString || d.block.Cap()-d.block.Len() < len(b) && len(d.data)-d.pos < minBlockRest
}

// blockString is makeString for a string carved from a block: the
// current one, or a new one when it has no room for b.
func (d *Decoder) blockString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if d.block.Cap()-d.block.Len() < len(b) {
		d.block = strings.Builder{}
		d.block.Grow(min((len(d.data)-d.pos)/2+len(b), blockSize))
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
		d.closeObject(i)
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
