package jsonlex

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzStrings are seeds that reach every branch of the escaper and the
// string reader.
var fuzzStrings = []string{
	``, `""`, `"plain text, long enough for words"`, `"\u00e9\ud83d\ude00"`, `"\/\b\f\n\r\t\"\\"`, `"\u0000"`,
	"\"\u2028\u2029\"", `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\u12"`, `"\x"`, "\"\xff\"", "\"\xed\xa0\x80\"",
	"\"\x01\"", `"a`, `"a\`, `"<a href='x'>&amp;</a>"`, `"01234567<89abcdef"`, "caf\xc3\xa9", "\xe2\x82",
}

// FuzzAppendString checks the escaper against encoding/json, with and
// without HTML escaping, and that ReadString reads back what it wrote
// (each byte of invalid UTF-8 as U+FFFD).
func FuzzAppendString(f *testing.F) {
	for _, s := range fuzzStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		plain := AppendString(nil, s)
		assert.Equal(t, stdString(t, s, false), string(plain), "as encoding/json without HTML escaping")
		if Plain(s) {
			assert.Equal(t, `"`+s+`"`, string(plain), "Plain: written as it is")
		}
		assert.Equal(t, string(plain), string(AppendString(nil, []byte(s))), "the same from a []byte")
		html := AppendStringHTML(nil, s)
		assert.Equal(t, stdString(t, s, true), string(html), "as json.Marshal")

		var want strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			want.WriteRune(r)
			i += size
		}
		for _, out := range [][]byte{plain, html} {
			var scratch []byte
			got, next, msg := ReadString(out, 0, &scratch)
			require.Empty(t, msg, "%q", out)
			assert.Equal(t, len(out), next)
			assert.Equal(t, want.String(), string(got))
		}
	})
}

// FuzzReadString checks the string reader against jsontext (strict
// RFC 8259, as ReadString is) and encoding/json: it accepts exactly the
// valid JSON strings, reads the value encoding/json reads, and reports
// problems at an offset inside the input.
func FuzzReadString(f *testing.F) {
	for _, s := range fuzzStrings {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// jsontext allows white space around a value; ReadString reads
		// from the quote.
		data = bytes.TrimRight(data, " \t\r\n")
		if len(data) == 0 || data[0] != '"' {
			return
		}
		var scratch []byte
		s, next, msg := ReadString(data, 0, &scratch)
		assert.True(t, next > 0 && next <= len(data), "offset %d in %d bytes", next, len(data))
		valid := jsontext.Value(data).IsValid()
		assert.Equal(t, valid, msg == "" && next == len(data), "accepts the same strings as jsontext: %s", msg)
		if msg != "" {
			assert.Nil(t, s)
			return
		}
		assert.True(t, jsontext.Value(data[:next]).IsValid(), "what ReadString read is a JSON string")
		var want string
		require.NoError(t, json.Unmarshal(data[:next], &want))
		assert.Equal(t, want, string(s))
	})
}
