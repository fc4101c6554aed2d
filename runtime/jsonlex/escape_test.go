package jsonlex

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdString returns s as encoding/json writes it, with or without HTML
// escaping.
func stdString(t *testing.T, s string, html bool) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	require.NoError(t, enc.Encode(s))
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func TestAppendString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, plain, html string
	}{
		{"empty", "", `""`, `""`},
		{"plain", "hello, world", `"hello, world"`, `"hello, world"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`, `"a\"b\\c"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`, `"\b\f\n\r\t"`},
		{"other controls", "\x00\x1f\x7f", `"\u0000\u001f` + "\x7f" + `"`, `"\u0000\u001f` + "\x7f" + `"`},
		{"html", "<a href=x&y>", `"<a href=x&y>"`, `"\u003ca href=x\u0026y\u003e"`},
		{"html in a long run", "0123456789<0123456789", `"0123456789<0123456789"`, `"0123456789\u003c0123456789"`},
		{"html next to escapes", "&\n<\xff>\u2028&", `"&\n<\ufffd>\u2028&"`, `"\u0026\n\u003c\ufffd\u003e\u2028\u0026"`},
		{"html cutting a broken rune", "\xe2\x82<\xa0", `"\ufffd\ufffd<\ufffd"`, `"\ufffd\ufffd\u003c\ufffd"`},
		{"line separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`, `"a\u2028b\u2029c"`},
		{"multi-byte", "café 😀", `"café 😀"`, `"café 😀"`},
		{"invalid UTF-8", "a\xffb\xed\xa0\x80", `"a\ufffdb\ufffd\ufffd\ufffd"`, `"a\ufffdb\ufffd\ufffd\ufffd"`},
		{"truncated rune at the end", "ab\xe2\x82", `"ab\ufffd\ufffd"`, `"ab\ufffd\ufffd"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.plain, string(AppendString(nil, tt.in)))
			assert.Equal(t, tt.plain, string(AppendString(nil, []byte(tt.in))), "from a []byte")
			assert.Equal(t, tt.html, string(AppendStringHTML(nil, tt.in)))
			assert.Equal(t, tt.html, string(AppendStringHTML(nil, []byte(tt.in))), "from a []byte")
			assert.Equal(t, stdString(t, tt.in, false), tt.plain, "as encoding/json without HTML escaping")
			assert.Equal(t, stdString(t, tt.in, true), tt.html, "as encoding/json's Marshal")
			assert.Equal(t, "x"+tt.plain, string(AppendString([]byte("x"), tt.in)), "appends")
		})
	}
}

// TestSpecial8 checks the word test against the byte test: every byte
// value at every position, and random words.
func TestSpecial8(t *testing.T) {
	t.Parallel()
	ref := func(w []byte) bool {
		for _, c := range w {
			if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				return true
			}
		}
		return false
	}
	for pos := range 8 {
		for c := range 256 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			require.Equal(t, ref(w), special8(load8(w, 0)), "%q", w)
			require.Equal(t, ref(w), special8(load8(string(w), 0)), "%q as a string", w)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		w := binary.LittleEndian.AppendUint64(nil, r.Uint64())
		for i := range w {
			if r.IntN(8) != 0 { // mostly plain bytes, so that both answers occur
				w[i] = byte(' ' + r.IntN(0x7f-' '))
			}
		}
		require.Equal(t, ref(w), special8(load8(w, 0)), "%q", w)
	}
}

// TestPlain: Plain answers whether the string is ASCII without a byte to
// escape, and AppendString then writes it as it is: every length up to
// three words, with each kind of byte at each position (the byte loop
// below a word, the words, the overlapping last word).
func TestPlain(t *testing.T) {
	t.Parallel()
	for n := range 25 {
		s := strings.Repeat("a", n)
		require.True(t, Plain(s), "%q", s)
		require.True(t, Plain([]byte(s)), "%q as bytes", s)
		for pos := range n {
			for _, c := range []string{"\"", "\\", "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff"} {
				b := []byte(s)
				w := append(append(b[:pos:pos], c...), s[pos+1:]...)
				want := !bytes.ContainsFunc(w, func(r rune) bool { return r < ' ' || r == '"' || r == '\\' || r >= utf8.RuneSelf })
				require.Equal(t, want, Plain(w), "%q", w)
				require.Equal(t, want, Plain(string(w)), "%q as a string", w)
				if want {
					require.Equal(t, `"`+string(w)+`"`, string(AppendString(nil, w)))
				}
			}
		}
	}
}
