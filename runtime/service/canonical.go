package service

import (
	"bytes"
	"encoding/hex"
	"hash"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// The arguments of a call with a call ID are digested in a canonical form
// (Record.ArgsDigest), so that a repeat that sends the same JSON value
// written otherwise is the same call, answered from the record, and not
// one reusing the call ID. The form is RFC 8785's (JSON Canonicalization
// Scheme) but for numbers: no white space; the members of an object
// sorted by their names' UTF-16 code units; strings by their value,
// written with the fewest escapes. A number is written by its exact decimal value, as ECMAScript
// writes a number (1.0 and 1e0 are 1, 1E2 is 100, 0.50 is 0.5, -0 is 0)
// but with every digit kept: RFC 8785 rounds a number to a float64 first,
// which would make 9007199254740993 the same argument as 9007199254740992,
// two values a tool decoding an int64 tells apart. Arguments that are not
// JSON, name a member twice in one object (RFC 8785 takes I-JSON, which
// has no such objects) or nest deeper than maxCanonicalDepth are digested with
// their white space removed, as before: a repeat is the same call only
// when written the same way.
//
// Records written before the canonical form (digest domain "toolgen call
// v1": the arguments with their white space removed, whatever their
// member order and number spelling) are still matched: a repeat whose
// digest does not match its record's is compared once more in that form
// (sameLegacyArgs).

// writeCanonical writes the canonical form of args to h: of the JSON value
// args, or, when args is not JSON (or names a member twice), args without
// its white space.
func writeCanonical(h hash.Hash, args []byte) {
	c := canonicals.Get().(*canonicalizer)
	defer canonicals.Put(c)
	out, ok := c.canonical(args)
	if !ok {
		writeCompact(h, args)
		return
	}
	h.Write(out)
}

// canonicals pools canonicalizers, whose buffers are reused.
var canonicals = sync.Pool{New: func() any { return new(canonicalizer) }}

// maxCanonicalDepth bounds the nesting the canonical form is made for:
// deeper arguments are digested as written.
const maxCanonicalDepth = 1000

// canonicalizer writes the canonical form of JSON text in one pass: an
// object's members are written as read, and moved into order at the
// object's end when they were not in order.
type canonicalizer struct {
	out, tmp, keys, scratch []byte
	members                 []canonicalMember // the members of the objects open, outermost first
}

// canonicalMember is one member written to out: its name (unescaped) in
// keys, and its canonical bytes ("name":value) in out.
type canonicalMember struct{ key, keyEnd, start, end int }

// canonical returns the canonical form of data, valid until the next use
// of c, and whether data is one JSON value.
func (c *canonicalizer) canonical(data []byte) ([]byte, bool) {
	c.out, c.keys, c.members = c.out[:0], c.keys[:0], c.members[:0]
	i, ok := c.value(data, jsonlex.SkipSpace(data, 0), 0)
	if !ok || jsonlex.SkipSpace(data, i) != len(data) {
		return nil, false
	}
	return c.out, true
}

// value writes the value at data[i] (no white space before it) and
// returns the offset past it.
func (c *canonicalizer) value(data []byte, i, depth int) (int, bool) {
	if i >= len(data) || depth > maxCanonicalDepth {
		return i, false
	}
	switch data[i] {
	case '{':
		return c.object(data, i+1, depth+1)
	case '[':
		c.out = append(c.out, '[')
		i = jsonlex.SkipSpace(data, i+1)
		if i < len(data) && data[i] == ']' {
			c.out = append(c.out, ']')
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = c.value(data, i, depth+1); !ok {
				return i, false
			}
			i = jsonlex.SkipSpace(data, i)
			if i >= len(data) {
				return i, false
			}
			switch data[i] {
			case ',':
				c.out = append(c.out, ',')
				i = jsonlex.SkipSpace(data, i+1)
			case ']':
				c.out = append(c.out, ']')
				return i + 1, true
			default:
				return i, false
			}
		}
	case '"':
		s, next, msg := jsonlex.ReadString(data, i, &c.scratch)
		if msg != "" {
			return next, false
		}
		c.out = appendCanonicalString(c.out, s)
		return next, true
	case 't', 'f', 'n':
		for _, lit := range [...]string{"true", "false", "null"} {
			if lit[0] == data[i] {
				next, msg := jsonlex.ScanLiteral(data, i, lit)
				c.out = append(c.out, lit...)
				return next, msg == ""
			}
		}
	}
	next, _, msg := jsonlex.ScanNumber(data, i)
	if msg != "" {
		return next, false
	}
	c.out = appendCanonicalNumber(c.out, data[i:next])
	return next, true
}

// object writes the object whose members start at data[i] (past its
// '{'), its members in order.
func (c *canonicalizer) object(data []byte, i, depth int) (int, bool) {
	start, base := len(c.out), len(c.members)
	defer func() { c.members = c.members[:base] }()
	c.out = append(c.out, '{')
	i = jsonlex.SkipSpace(data, i)
	if i < len(data) && data[i] == '}' {
		c.out = append(c.out, '}')
		return i + 1, true
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return i, false
		}
		key, next, msg := jsonlex.ReadString(data, i, &c.scratch)
		if msg != "" {
			return next, false
		}
		m := canonicalMember{key: len(c.keys), start: len(c.out)}
		c.keys = append(c.keys, key...)
		m.keyEnd = len(c.keys)
		c.out = appendCanonicalString(c.out, key)
		i = jsonlex.SkipSpace(data, next)
		if i >= len(data) || data[i] != ':' {
			return i, false
		}
		c.out = append(c.out, ':')
		var ok bool
		if i, ok = c.value(data, jsonlex.SkipSpace(data, i+1), depth); !ok {
			return i, false
		}
		m.end = len(c.out)
		c.members = append(c.members, m)
		i = jsonlex.SkipSpace(data, i)
		if i >= len(data) {
			return i, false
		}
		if data[i] == '}' {
			i++
			break
		}
		if data[i] != ',' {
			return i, false
		}
		c.out = append(c.out, ',')
		i = jsonlex.SkipSpace(data, i+1)
	}
	members := c.members[base:]
	sorted := true
	for k := 1; k < len(members); k++ {
		switch d := compareUTF16(c.key(members[k-1]), c.key(members[k])); {
		case d == 0:
			return i, false // a member named twice: not I-JSON
		case d > 0:
			sorted = false
		}
	}
	if !sorted {
		slices.SortFunc(members, func(a, b canonicalMember) int { return compareUTF16(c.key(a), c.key(b)) })
		for k := 1; k < len(members); k++ {
			if compareUTF16(c.key(members[k-1]), c.key(members[k])) == 0 {
				return i, false
			}
		}
		c.tmp = append(c.tmp[:0], c.out[start:]...)
		c.out = append(c.out[:start], '{')
		for k, m := range members {
			if k > 0 {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, c.tmp[m.start-start:m.end-start]...)
		}
	}
	c.out = append(c.out, '}')
	c.keys = c.keys[:members[0].key]
	return i, true
}

// key returns the name of m.
func (c *canonicalizer) key(m canonicalMember) []byte { return c.keys[m.key:m.keyEnd] }

// compareUTF16 orders a and b (valid UTF-8) by their UTF-16 code units,
// as RFC 8785 sorts member names: it differs from the order of code
// points only where a character outside the Basic Multilingual Plane
// (written as a surrogate pair, 0xD800-0xDBFF first) meets one in
// 0xE000-0xFFFF.
func compareUTF16(a, b []byte) int {
	for len(a) > 0 && len(b) > 0 {
		x, n := utf8.DecodeRune(a)
		y, m := utf8.DecodeRune(b)
		a, b = a[n:], b[m:]
		if x == y {
			continue
		}
		if hx, hy := firstUnit(x), firstUnit(y); hx != hy {
			return int(hx) - int(hy)
		}
		return int(x) - int(y) // same high surrogate: the low ones order as the code points
	}
	return len(a) - len(b)
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r < 0x10000 {
		return r
	}
	return 0xD800 + (r-0x10000)>>10
}

// appendCanonicalString appends s as a JSON string with RFC 8785's
// escapes: '"' and '\\', \b \t \n \f \r, \u00xx for the other control
// characters, every other character as itself.
// Not jsonlex.AppendString: that escapes U+2028 and U+2029 as
// encoding/json does, and a record's digest is RFC 8785's.
func appendCanonicalString(dst, s []byte) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i, c := range s {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		start = i + 1
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// maxExponent bounds the exponents appendCanonicalNumber reads as numbers:
// a number whose exponent is larger is written as read (its value
// compared by its spelling), which no argument a tool decodes has.
const maxExponent = 1 << 40

// appendCanonicalNumber appends the JSON number lit (valid, RFC 8259) by
// its exact decimal value, in ECMAScript's Number::toString layout: the
// digits without leading or trailing zeros, a decimal point or zeros for
// an exponent up to 21 (0.000001 and 1e-7, 100000000000000000000 and
// 1e+21), an exponent past that.
func appendCanonicalNumber(dst, lit []byte) []byte {
	s := lit
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	var exp int64
	if i := bytes.IndexAny(s, "eE"); i >= 0 {
		e, ok := parseExponent(s[i+1:])
		if !ok {
			return append(dst, lit...)
		}
		exp, s = e, s[:i]
	}
	d := newDecimal(s, exp)
	k := d.len()
	if k == 0 {
		return append(dst, '0') // -0 too, as RFC 8785 writes it
	}
	if neg {
		dst = append(dst, '-')
	}
	n := k + d.exp // the decimal point sits after the first n digits
	switch {
	case k <= n && n <= 21:
		dst = d.appendDigits(dst, 0, k)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = d.appendDigits(dst, 0, n)
		dst = append(dst, '.')
		dst = d.appendDigits(dst, n, k)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = d.appendDigits(dst, 0, k)
	default:
		dst = append(dst, d.digit(0))
		if k > 1 {
			dst = append(dst, '.')
			dst = d.appendDigits(dst, 1, k)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, n-1, 10)
	}
	return dst
}

// decimal is a number's significant digits, intPart then frac, without
// leading or trailing zeros, times ten to the power exp.
type decimal struct {
	intPart, frac []byte
	exp           int64
}

// newDecimal returns the decimal of s, a JSON number without its sign or
// exponent, times ten to the power exp.
func newDecimal(s []byte, exp int64) decimal {
	intPart, frac, _ := bytes.Cut(s, []byte("."))
	intPart = bytes.TrimLeft(intPart, "0")
	exp -= int64(len(frac))
	if len(intPart) == 0 {
		frac = bytes.TrimLeft(frac, "0")
	}
	// The digits are intPart then frac; trailing zeros go to the exponent.
	if t := bytes.TrimRight(frac, "0"); len(frac) > 0 {
		exp += int64(len(frac) - len(t))
		frac = t
		if len(frac) == 0 {
			t := bytes.TrimRight(intPart, "0")
			exp += int64(len(intPart) - len(t))
			intPart = t
		}
	} else {
		t := bytes.TrimRight(intPart, "0")
		exp += int64(len(intPart) - len(t))
		intPart = t
	}
	return decimal{intPart: intPart, frac: frac, exp: exp}
}

// len returns the number of significant digits.
func (d *decimal) len() int64 { return int64(len(d.intPart) + len(d.frac)) }

// digit returns the j-th significant digit.
func (d *decimal) digit(j int64) byte {
	if j < int64(len(d.intPart)) {
		return d.intPart[j]
	}
	return d.frac[j-int64(len(d.intPart))]
}

// appendDigits appends the significant digits from to to.
func (d *decimal) appendDigits(dst []byte, from, to int64) []byte {
	for j := from; j < to; j++ {
		dst = append(dst, d.digit(j))
	}
	return dst
}

// parseExponent reads a JSON number's exponent (after its 'e'), within
// maxExponent.
func parseExponent(s []byte) (int64, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	var e int64
	for _, c := range s {
		e = e*10 + int64(c-'0')
		if e > maxExponent {
			return 0, false
		}
	}
	if neg {
		e = -e
	}
	return e, len(s) > 0
}

// legacyArgsDigest is the argument digest of the records written before
// the canonical form: the arguments with their white space removed.
func legacyArgsDigest(key []byte, name string, args []byte) string {
	h := newMAC(key, "toolgen call v1")
	writeField(h, name)
	if len(args) == 0 {
		args = []byte("{}")
	}
	writeCompact(h, args)
	return hex.EncodeToString(h.Sum(nil))
}
