package jsonlex

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string // the string starts at in[0] and is followed by ",x"
		want string
	}{
		{"empty", `""`, ""},
		{"plain", `"hello"`, "hello"},
		{"long plain", `"0123456789abcdefghij"`, "0123456789abcdefghij"},
		{"short escapes", `"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{"unicode escapes", `"\u00e9\u00C9\ud83d\ude00"`, "éÉ😀"},
		{"raw multi-byte", `"café 😀"`, "café 😀"},
		{"escape after a long run", `"0123456789\n"`, "0123456789\n"},
		{"line separator", "\"\u2028\"", "\u2028"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := []byte(tt.in + ",x")
			var scratch []byte
			s, next, msg := ReadString(data, 0, &scratch)
			require.Empty(t, msg)
			assert.Equal(t, tt.want, string(s))
			assert.Equal(t, len(tt.in), next)
		})
	}
}

func TestReadStringAliases(t *testing.T) {
	t.Parallel()
	data := []byte(`["abc","d\ne"]`)
	var scratch []byte
	s, next, msg := ReadString(data, 1, &scratch)
	require.Empty(t, msg)
	assert.Equal(t, "abc", string(s))
	assert.Same(t, &data[2], &s[0], "a string without escapes aliases the input")
	s, _, msg = ReadString(data, next+1, &scratch)
	require.Empty(t, msg)
	assert.Equal(t, "d\ne", string(s))
	assert.Same(t, &scratch[0], &s[0], "an escaped string is unescaped into scratch")
}

func TestReadStringRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, msg string
		offset        int
	}{
		{"unterminated", `"abc`, "unterminated string", 4},
		{"unterminated long", `"0123456789abcdef`, "unterminated string", 17},
		{"unterminated after an escape", `"a\n`, "unterminated string", 4},
		{"unterminated in an escape", `"a\`, "unterminated string", 3},
		{"control character", "\"a\tb\"", "control character in a string (it must be escaped)", 2},
		{"invalid escape", `"\x"`, "invalid escape in a string", 1},
		{"short unicode escape", `"\u12"`, `invalid \u escape in a string`, 1},
		{"unicode escape at the end", `"\u12`, `invalid \u escape in a string`, 1},
		{"lone high surrogate", `"\ud800"`, `unpaired surrogate in a \u escape in a string`, 1},
		{"lone low surrogate", `"\udc00x"`, `unpaired surrogate in a \u escape in a string`, 1},
		{"high surrogate and a letter", `"a\ud800\u0041"`, `unpaired surrogate in a \u escape in a string`, 2},
		{"invalid UTF-8", "\"a\xffb\"", "invalid UTF-8 in a string", 2},
		{"encoded surrogate", "\"\xed\xa0\x80\"", "invalid UTF-8 in a string", 1},
		{"invalid UTF-8 after an escape", "\"\\n\xc3\"", "invalid UTF-8 in a string", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var scratch []byte
			s, next, msg := ReadString([]byte(tt.in), 0, &scratch)
			assert.Nil(t, s)
			assert.Equal(t, tt.msg, msg)
			assert.Equal(t, tt.offset, next)
		})
	}
}

func TestScanNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		next  int
		isInt bool
		msg   string
	}{
		{"0", 1, true, ""},
		{"-0", 2, true, ""},
		{"123,", 3, true, ""},
		{"-1.5e+10]", 8, false, ""},
		{"1E2", 3, false, ""},
		{"0.25", 4, false, ""},
		{"", 0, false, "expected a digit in a number, got end of input"},
		{"-", 1, false, "expected a digit in a number, got end of input"},
		{"01", 1, false, "leading zero in a number"},
		{"-x", 1, false, "expected a digit in a number"},
		{"1.", 2, false, "expected a digit after the decimal point in a number"},
		{"1.e5", 2, false, "expected a digit after the decimal point in a number"},
		{"1e", 2, false, "expected a digit in the exponent of a number"},
		{"1e+", 3, false, "expected a digit in the exponent of a number"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			next, isInt, msg := ScanNumber([]byte(tt.in), 0)
			assert.Equal(t, tt.msg, msg)
			assert.Equal(t, tt.next, next)
			assert.Equal(t, tt.isInt, isInt)
		})
	}
}

func TestScanLiteral(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, lit string
		next    int
		msg     string
	}{
		{"[true]", "true", 5, ""},
		{"[false", "false", 6, ""},
		{"[null,", "null", 5, ""},
		{"[nul", "null", 1, "invalid literal (expected true, false or null)"},
		{"[True", "true", 1, "invalid literal (expected true, false or null)"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			next, msg := ScanLiteral([]byte(tt.in), 1, tt.lit)
			assert.Equal(t, tt.msg, msg)
			assert.Equal(t, tt.next, next)
		})
	}
}

func TestSkipSpace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		from int
		want int
	}{
		{"", 0, 0},
		{" \t\r\n", 0, 4},
		{" \t\r\nx", 0, 4},
		{"x ", 1, 2},
		{"\v", 0, 0},    // not JSON white space
		{"\xa0", 0, 0},  // nor is a non-ASCII byte
		{"\x00 ", 0, 0}, // nor NUL
		{"  !", 1, 2},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, SkipSpace([]byte(tt.in), tt.from), "%q from %d", tt.in, tt.from)
	}
}
