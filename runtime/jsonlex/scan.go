package jsonlex

import (
	"math/bits"
	"unicode/utf8"
)

// The messages of the scanning functions. They say what is wrong and never
// quote the input.
const (
	msgUnterminated   = "unterminated string"
	msgBadEscape      = "invalid escape in a string"
	msgBadUnicode     = `invalid \u escape in a string`
	msgSurrogate      = `unpaired surrogate in a \u escape in a string`
	msgControl        = "control character in a string (it must be escaped)"
	msgBadUTF8        = "invalid UTF-8 in a string"
	msgDigitEOF       = "expected a digit in a number, got end of input"
	msgLeadingZero    = "leading zero in a number"
	msgDigit          = "expected a digit in a number"
	msgFractionDigit  = "expected a digit after the decimal point in a number"
	msgExponentDigit  = "expected a digit in the exponent of a number"
	msgInvalidLiteral = "invalid literal (expected true, false or null)"
)

// SkipSpace returns the offset of the first byte at or after i that is not
// JSON white space (space, tab, line feed, carriage return), or len(data).
func SkipSpace(data []byte, i int) int {
	for i < len(data) {
		if c := data[i]; c > ' ' || c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			return i
		}
		i++
	}
	return i
}

// ReadString reads the JSON string whose opening quote is data[i] and
// returns its content, unescaped, and next, the offset just past the
// closing quote. The content aliases data when the string has no escapes,
// and otherwise *scratch, which ReadString reuses and grows: it is valid
// until the next call with the same scratch.
//
// A malformed string (unterminated, a control character, an invalid
// escape, invalid UTF-8, or a \u escape of an unpaired surrogate) gives a
// non-empty msg saying what is wrong, and next is then the offset of the
// offending byte (len(data) for an unterminated string).
func ReadString(data []byte, i int, scratch *[]byte) (s []byte, next int, msg string) {
	start := i + 1
	i = start
	for i+8 <= len(data) {
		m := specials8(load8(data, i))
		if m == 0 {
			i += 8
			continue
		}
		// The first byte of the eight that needs more than a copy, at
		// once: most often the closing quote.
		i += bits.TrailingZeros64(m) >> 3
		if data[i] == '"' {
			return data[start:i], i + 1, ""
		}
		return readStringSlow(data, start, i, scratch)
	}
	for ; i < len(data); i++ {
		c := data[i]
		if c == '"' {
			return data[start:i], i + 1, ""
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return readStringSlow(data, start, i, scratch)
		}
	}
	return nil, len(data), msgUnterminated
}

// readStringSlow continues ReadString at data[i], a byte that needs more
// than a copy: an escape, a control character or a non-ASCII byte.
func readStringSlow(data []byte, start, i int, scratch *[]byte) (s []byte, next int, msg string) {
	buf := (*scratch)[:0]
	escaped := false
	lit := start // start of the run of input not yet copied to buf
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			if !escaped {
				return data[start:i], i + 1, ""
			}
			buf = append(buf, data[lit:i]...)
			*scratch = buf
			return buf, i + 1, ""
		case c == '\\':
			escaped = true
			buf = append(buf, data[lit:i]...)
			if i+1 >= len(data) {
				*scratch = buf
				return nil, len(data), msgUnterminated
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
				// A rune of the basic plane inline, not in a function:
				// it is on the decoding path of every non-ASCII escape.
				r := hex4(data, i+2)
				if r < 0 || r >= 0xd800 && r < 0xe000 {
					var msg string
					if r, msg = surrogatePair(data, i, r); msg != "" {
						*scratch = buf
						return nil, i, msg
					}
					i += 6
				}
				buf = utf8.AppendRune(buf, r)
				i += 4
			default:
				*scratch = buf
				return nil, i, msgBadEscape
			}
			i += 2
			lit = i
		case c < 0x20:
			*scratch = buf
			return nil, i, msgControl
		case c < utf8.RuneSelf:
			// A run of plain ASCII, in a loop of its own: cheaper per
			// byte than going round the switch.
			for i++; i < len(data); i++ {
				if c := data[i]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
					break
				}
			}
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				*scratch = buf
				return nil, i, msgBadUTF8
			}
			i += size
		}
	}
	*scratch = buf
	return nil, len(data), msgUnterminated
}

// surrogatePair reads the rest of the \u escape at data[i] (the
// backslash) whose four digits gave hi, not a rune of the basic plane: a
// high surrogate that must be followed by a low one in a second \u
// escape. It returns the rune the pair stands for, or msg.
func surrogatePair(data []byte, i int, hi rune) (r rune, msg string) {
	if hi < 0 {
		return 0, msgBadUnicode
	}
	if hi >= 0xdc00 {
		return 0, msgSurrogate
	}
	var lo rune = -1
	if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
		lo = hex4(data, i+8)
	}
	if lo < 0xdc00 || lo >= 0xe000 {
		return 0, msgSurrogate
	}
	return 0x10000 + (hi-0xd800)<<10 + (lo - 0xdc00), ""
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

// ScanNumber scans the JSON number at data[i] (RFC 8259: an optional
// minus, an integer part without leading zeros, an optional fraction and
// an optional exponent) and returns next, the offset just past it, and
// whether it is an integer (no fraction, no exponent). The literal is
// data[i:next]. A malformed number gives a non-empty msg, and next is then
// the offset of the offending byte.
func ScanNumber(data []byte, i int) (next int, isInt bool, msg string) {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		return i, false, msgDigitEOF
	case data[i] == '0':
		i++
		if i < len(data) && IsDigit(data[i]) {
			return i, false, msgLeadingZero
		}
	case IsDigit(data[i]):
		i = skipDigits(data, i+1)
	default:
		return i, false, msgDigit
	}
	isInt = true
	if i < len(data) && data[i] == '.' {
		isInt = false
		i++
		if i >= len(data) || !IsDigit(data[i]) {
			return i, false, msgFractionDigit
		}
		i = skipDigits(data, i+1)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		isInt = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !IsDigit(data[i]) {
			return i, false, msgExponentDigit
		}
		i = skipDigits(data, i+1)
	}
	return i, isInt, ""
}

// IsDigit reports whether c is an ASCII decimal digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipDigits returns the offset of the first byte at or after i that is
// not a digit.
func skipDigits(data []byte, i int) int {
	for i < len(data) && IsDigit(data[i]) {
		i++
	}
	return i
}

// ScanLiteral checks that the literal lit ("true", "false" or "null") is
// at data[i] and returns next, the offset just past it. Anything else
// gives a non-empty msg, and next is then i.
func ScanLiteral(data []byte, i int, lit string) (next int, msg string) {
	if len(data)-i >= len(lit) && string(data[i:i+len(lit)]) == lit {
		return i + len(lit), ""
	}
	return i, msgInvalidLiteral
}
