package jsonlex

import "unicode/utf8"

// hexDigits are the digits of \u escapes, lower case as in encoding/json.
const hexDigits = "0123456789abcdef"

// AppendString appends src as a quoted JSON string, escaped as
// encoding/json does with HTML escaping off (json.Encoder with
// SetEscapeHTML(false)): '"', '\\' and control characters are escaped
// (\b, \f, \n, \r, \t or \u00XX), so are U+2028 and U+2029, and each byte
// of invalid UTF-8 becomes \ufffd.
func AppendString[S ~string | ~[]byte](dst []byte, src S) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, src)
	return append(dst, '"')
}

// AppendStringHTML is AppendString with HTML escaping on, as json.Marshal
// escapes strings: '<', '>' and '&' are also written as \u003c, \u003e and
// \u0026. Schemas are written this way, so that their bytes match those
// invopop's reflector and encoding/json produce.
//
// It is AppendString's escaper applied to the text between those three
// bytes: being ASCII, they are never part of a multi-byte sequence, so
// cutting there changes nothing else, and AppendString, on the call path,
// pays nothing for the option.
func AppendStringHTML[S ~string | ~[]byte](dst []byte, src S) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '<', '>', '&':
			dst = appendEscaped(dst, src[start:i])
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			start = i + 1
		}
	}
	dst = appendEscaped(dst, src[start:])
	return append(dst, '"')
}

// Plain reports whether src is ASCII without '"', '\\' or a control
// character: AppendString then writes it between the quotes as it is,
// and a caller may write it so itself (codec.Encoder.String). It tests
// eight bytes at a time, the last eight overlapping those tested, as
// AppendString tests first.
func Plain[S ~string | ~[]byte](src S) bool {
	if len(src) < 8 {
		for i := 0; i < len(src); i++ {
			if c := src[i]; c < ' ' || c == '"' || c == '\\' || c >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	for i := 0; i+8 < len(src); i += 8 {
		if specials8(load8(src, i)) != 0 {
			return false
		}
	}
	return specials8(load8(src, len(src)-8)) == 0
}

// appendEscaped appends src escaped as AppendString escapes it, without
// the quotes.
func appendEscaped[S ~string | ~[]byte](dst []byte, src S) []byte {
	// Most strings need no escape: their words are tested eight bytes at
	// a time, then the last eight bytes (overlapping the words tested)
	// rather than the last few one by one, and a clean string is copied
	// at once. The loop below takes over from the first word that holds
	// a byte to escape.
	i := 0
	for i+8 <= len(src) && specials8(load8(src, i)) == 0 {
		i += 8
	}
	if i+8 > len(src) && (i == len(src) || len(src) >= 8 && specials8(load8(src, len(src)-8)) == 0) {
		return append(dst, src...)
	}
	start := 0
	for i < len(src) {
		if i+8 <= len(src) && !special8(load8(src, i)) {
			i += 8 // eight bytes copied as they are
			continue
		}
		c := src[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, src[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		n := min(len(src)-i, utf8.UTFMax)
		r, size := utf8.DecodeRuneInString(string(src[i : i+n]))
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, src[start:]...)
}

// load8 returns the eight bytes of s at i as a little-endian word (one
// load: the compiler combines the shifts).
func load8[S ~string | ~[]byte](s S, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// special8 reports whether any of the 8 bytes in v needs more than a copy
// in a JSON string, read or written: '"', '\\', a control character (below
// 0x20) or a byte that is not ASCII. It tests the eight at once (the "has
// a byte less than" and "has a zero byte" word tricks, exact as a yes or
// no).
func special8(v uint64) bool { return specials8(v) != 0 }

// specials8 is special8 as a mask: the high bit of each byte of v that
// tells it needs more than a copy is set, and every other bit is clear.
// The lowest set bit is exact (a borrow only runs towards the higher
// bytes), so bits.TrailingZeros64(m)/8 is the index of the first such
// byte; the bits above it may also flag bytes that need nothing.
func specials8(v uint64) uint64 {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	quote, backslash := v^('"'*lsb), v^('\\'*lsb)
	return ((v-0x20*lsb)&^v | (quote-lsb)&^quote | (backslash-lsb)&^backslash | v) & msb
}
