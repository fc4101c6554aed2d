package sqlstore

import (
	"database/sql/driver"
	"fmt"
	"unicode/utf8"
)

// Text a caller controls (a principal, a conversation, a call ID, a tool
// name as the call gave it, a message quoting the model's input) may hold
// any bytes: NUL, which a PostgreSQL text column refuses, and invalid
// UTF-8, which PostgreSQL refuses too and SQLite keeps as it is. Every
// such column holds one stored form instead, the same in both dialects,
// and a read gives back the bytes that were written:
//
//   - valid UTF-8 without NUL or ESC (U+001B) is stored as it is, so the
//     tables read plainly in SQL;
//   - NUL, ESC and each byte of an invalid UTF-8 sequence are stored as
//     ESC followed by the byte in two lowercase hex digits ("\x1b00" for
//     NUL, "\x1b1b" for ESC, "\x1bff" for a lone 0xFF).
//
// The form is valid UTF-8 without NUL, one-to-one (so equality, the
// unique index of call IDs and the filters of Records compare stored
// forms), and reading leaves an ESC that starts no escape as it is: rows
// written before the form existed read back as they were written.

// esc starts an escape in the stored form of text.
const esc = 0x1b

// storedForm returns s as a text column holds it.
func storedForm(s string) string {
	i := plainPrefix(s)
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0 || c == esc {
				b = appendEscape(b, c)
			} else {
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = appendEscape(b, c)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// plainPrefix returns the length of the longest prefix of s that is
// stored as it is.
func plainPrefix(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0 || c == esc {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

const hexDigits = "0123456789abcdef"

// appendEscape appends the escape of the byte c.
func appendEscape(b []byte, c byte) []byte {
	return append(b, esc, hexDigits[c>>4], hexDigits[c&0xf])
}

// fromStoredForm returns the text a column's stored form holds.
func fromStoredForm(s string) string {
	i := 0
	for i < len(s) && s[i] != esc {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c == esc && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b = append(b, hi<<4|lo)
				i += 3
				continue
			}
		}
		b = append(b, c)
		i++
	}
	return string(b)
}

// unhex returns the value of a lowercase hex digit.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// text is a value written to a text column that a caller controls: its
// stored form. Every such column is written through it.
type text string

// Value implements driver.Valuer.
func (t text) Value() (driver.Value, error) { return storedForm(string(t)), nil }

// textInto reads a text column into *dst, from its stored form. Every
// such column is read through it.
type textInto struct{ dst *string }

// Scan implements sql.Scanner.
func (t textInto) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*t.dst = fromStoredForm(v)
	case []byte:
		*t.dst = fromStoredForm(string(v))
	case nil:
		*t.dst = ""
	default:
		return fmt.Errorf("a text column holds a %T", src)
	}
	return nil
}
