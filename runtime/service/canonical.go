package service

import (
	"context"
	"encoding/hex"
	"hash"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
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
// JSON, or name a member twice in one object (RFC 8785 takes I-JSON, which
// has no such objects; jsontree.Parse refuses them), are digested with
// their white space removed, as before: a repeat is the same call only
// when written the same way.
//
// Records written before the canonical form (digest domain "toolgen call
// v1": the arguments with their white space removed, whatever their
// member order and number spelling) are still matched: a repeat whose
// digest does not match its record's is compared once more in that form
// (sameLegacyArgs).

// writeCanonical writes the canonical form of args to h: of the JSON value
// args, or, when args is not JSON, args without its white space.
func writeCanonical(h hash.Hash, args []byte) {
	root, err := jsontree.Parse(args)
	if err != nil {
		writeCompact(h, args)
		return
	}
	h.Write(appendCanonical(make([]byte, 0, len(args)), root))
}

// appendCanonical appends the canonical form of n to dst.
func appendCanonical(dst []byte, n *jsontree.Node) []byte {
	switch n.Kind {
	case jsonlex.Object:
		members := slices.Clone(n.Members)
		slices.SortFunc(members, func(a, b jsontree.Member) int { return compareUTF16(a.Key, b.Key) })
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCanonicalString(dst, m.Key)
			dst = append(dst, ':')
			dst = appendCanonical(dst, m.Value)
		}
		return append(dst, '}')
	case jsonlex.Array:
		dst = append(dst, '[')
		for i, item := range n.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCanonical(dst, item)
		}
		return append(dst, ']')
	case jsonlex.String:
		return appendCanonicalString(dst, n.Text)
	case jsonlex.Number:
		return appendCanonicalNumber(dst, n.Text)
	case jsonlex.Bool:
		if n.Bool {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	}
	return append(dst, "null"...)
}

// compareUTF16 orders a and b (valid UTF-8) by their UTF-16 code units,
// as RFC 8785 sorts member names: it differs from the order of code
// points only where a character outside the Basic Multilingual Plane
// (written as a surrogate pair, 0xD800-0xDBFF first) meets one in
// 0xE000-0xFFFF.
func compareUTF16(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	for i := range min(len(ra), len(rb)) {
		x, y := ra[i], rb[i]
		if x == y {
			continue
		}
		if hx, hy := firstUnit(x), firstUnit(y); hx != hy {
			return int(hx) - int(hy)
		}
		return int(x) - int(y) // same high surrogate: the low ones order as the code points
	}
	return len(ra) - len(rb)
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
func appendCanonicalString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// maxExponent bounds the exponents appendCanonicalNumber reads as numbers:
// a number whose exponent is longer is written as read (its value
// compared by its spelling), which no argument a tool decodes has.
const maxExponent = 1 << 40

// appendCanonicalNumber appends the JSON number lit (valid, RFC 8259) by
// its exact decimal value, in ECMAScript's Number::toString layout: the
// digits without leading or trailing zeros, a decimal point or zeros for
// an exponent up to 21 (0.000001 and 1e-7, 100000000000000000000 and
// 1e+21), an exponent past that.
func appendCanonicalNumber(dst []byte, lit string) []byte {
	neg := strings.HasPrefix(lit, "-")
	s := strings.TrimPrefix(lit, "-")
	var exp int64
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.ParseInt(strings.TrimPrefix(s[i+1:], "+"), 10, 64)
		if err != nil || e > maxExponent || e < -maxExponent {
			return append(dst, lit...)
		}
		exp, s = e, s[:i]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	digits = trimmed
	if digits == "" {
		return append(dst, '0') // -0 too, as RFC 8785 writes it
	}
	if neg {
		dst = append(dst, '-')
	}
	k := int64(len(digits))
	n := k + exp // the decimal point sits after the first n digits
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, n-1, 10)
	}
	return dst
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

// reusedArgs is reused, but for a prior record written before the
// canonical form (see writeCanonical), which holds the call of args when
// its digest is theirs in that record's form.
func (s *Service) reusedArgs(ctx context.Context, rec, prior *Record, args []byte) *tool.Error {
	e := reused(rec, prior)
	if e == nil || prior.Tool != rec.Tool {
		return e
	}
	key, err := s.key(ctx)
	if err == nil && prior.ArgsDigest == legacyArgsDigest(key, rec.Tool, args) {
		return nil
	}
	return e
}
