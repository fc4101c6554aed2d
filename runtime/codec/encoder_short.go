package codec

import "unicode/utf8"

// maxPlainString is the longest string Encoder.String tests byte by byte
// for characters to escape; a longer one goes to jsonlex.AppendString,
// which tests a word at a time.
const maxPlainString = 32

// plainString reports whether s holds nothing that JSON escapes: no
// control character, '"' or '\\', and only ASCII (U+2028, U+2029 and
// invalid UTF-8 are escaped too; valid UTF-8 beyond ASCII goes to the
// escaper, which copies it).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendSmall appends v, below 100, in decimal.
func appendSmall(dst []byte, v uint64) []byte {
	if v < 10 {
		return append(dst, byte('0'+v))
	}
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}
