package codec

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzLimits match the limits of jsontext and encoding/json (no size
// limit, depth 10000) so that acceptance can be compared.
var fuzzLimits = Limits{MaxBytes: math.MaxInt, MaxDepth: 10000}

// fuzzSeeds are inputs that exercise every branch of the scanner.
func fuzzSeeds() []string {
	return []string{
		``, ` `, `1`, `-0`, `0.5e-3`, `1E+2`, `01`, `-`, `1.`, `1e`, `.5`, `+1`, `NaN`, `true`, `tru`, `null`, `nullx`,
		`""`, `"\u00e9\ud83d\ude00"`, `"\/\b\f\n\r\t\"\\"`, `"\u0000"`, "\"\u2028\"", `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`,
		"\"\xff\"", "\"\xed\xa0\x80\"", "\"\x01\"", `"\x"`, `"a`, `[]`, `{}`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`, `{1:2}`,
		`{"a":{"b":[{},[],{"c":null}]},"d":[1,"2",true]}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `[{"a":1},{"a":2}]`,
		`1 2`, `{}}`, "\xef\xbb\xbf1", `{"a":[1e400]}`, `[-1.5e-300, 1e308, 12345678901234567890]`,
	}
}

func FuzzSkip(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder()
		d.Reset(data, fuzzLimits)
		d.Skip()
		d.End()
		want := jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true))
		assert.Equal(t, want, d.Err() == nil, "Skip accepts the same JSON as jsontext: %v", d.Err())

		// Raw also refuses duplicate names, as jsontext does by default.
		d.Reset(data, fuzzLimits)
		raw, ok := d.Raw()
		d.End()
		want = jsontext.Value(data).IsValid()
		assert.Equal(t, want, d.Err() == nil, "Raw accepts the same JSON as jsontext: %v", d.Err())
		if want {
			require.True(t, ok)
			assert.Equal(t, string(bytes.Trim(data, " \t\r\n")), string(raw))
		}
	})
}

func FuzzAny(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder()
		d.Reset(data, fuzzLimits)
		got, ok := d.Any()
		d.End()
		err := d.Err()
		if !jsontext.Value(data).IsValid() {
			assert.Error(t, err, "Any refuses what jsontext refuses")
			assert.False(t, ok && err == nil)
			return
		}
		var want any
		if stdErr := json.Unmarshal(data, &want); stdErr != nil {
			// Valid JSON that encoding/json refuses has a number out of range.
			assert.Error(t, err, "encoding/json: %v", stdErr)
			return
		}
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, want, got)
	})
}

func FuzzString(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := NewEncoder()
		e.String(s)
		require.NoError(t, e.Err())
		assert.Equal(t, stdJSON(t, s), string(e.Bytes()), "the encoder writes strings like encoding/json")

		d := NewDecoder()
		d.Reset(e.Bytes(), fuzzLimits)
		got, ok := d.String("string")
		d.End()
		require.NoError(t, d.Err())
		require.True(t, ok)
		// Each byte of invalid UTF-8 became U+FFFD.
		var want strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			want.WriteRune(r)
			i += size
		}
		assert.Equal(t, want.String(), got)
	})
}

// FuzzGenerated drives decodeSearchInput, the shape of generated code, over
// arbitrary input: it must never panic or loop, and it must never accept
// malformed JSON.
func FuzzGenerated(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"query":"go","limit":5,"tags":["a","b"],"range":{"from":1,"to":2.5},"extra":{"k":[1]}}`))
	f.Add([]byte(`{"query":"","limit":0,"tags":["a",2,"c",{}],"range":{"to":"x","zap":1},"bogus":[1,2],"query":"b"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder()
		d.Reset(data, Limits{MaxDepth: 20})
		var v searchInput
		decodeSearchInput(d, &v)
		d.End()
		valid := jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true))
		if !d.Failed() {
			assert.True(t, valid, "input read to the end is valid JSON")
			return
		}
		var ae *ArgumentsError
		require.ErrorAs(t, d.Err(), &ae)
		last := ae.Problems[len(ae.Problems)-1].Message
		if strings.HasPrefix(last, "malformed JSON") || strings.HasPrefix(last, "unexpected data") {
			assert.False(t, valid, "a syntax error is found only in malformed JSON: %s", last)
		}
	})
}
