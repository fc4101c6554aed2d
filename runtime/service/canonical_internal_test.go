package service

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// TestCanonicalForm: the canonical form of JSON values, RFC 8785's but for
// numbers, which keep every digit.
func TestCanonicalForm(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		` { "b" : 1 , "a" : [ true , false , null ] } `: `{"a":[true,false,null],"b":1}`,
		`{"b":{"d":1,"c":2},"a":"x"}`:                   `{"a":"x","b":{"c":2,"d":1}}`,
		// Names by UTF-16 code units: U+1F600 (D83D DE00) before U+FB01.
		`{"\ufb01":1,"\ud83d\ude00":2,"\u00e9":3}`:   `{"é":3,"😀":2,"ﬁ":1}`,
		`"\u0041\u00e9\/\"\\\b\f\n\r\t\u0001\u001f"`: `"Aé/\"\\\b\f\n\r\t\u0001\u001f"`,
		`"\u2028<>&"`:                         "\"\u2028<>&\"",
		`1.0`:                                 `1`,
		`1e0`:                                 `1`,
		`1E2`:                                 `100`,
		`1e+2`:                                `100`,
		`100e-2`:                              `1`,
		`0.50`:                                `0.5`,
		`-0`:                                  `0`,
		`-0.0e10`:                             `0`,
		`0.000001`:                            `0.000001`,
		`1e-7`:                                `1e-7`,
		`0.0000012`:                           `0.0000012`,
		`1.2e-7`:                              `1.2e-7`,
		`1e21`:                                `1e+21`,
		`1e20`:                                `100000000000000000000`,
		`123.456e1`:                           `1234.56`,
		`-12.5E-1`:                            `-1.25`,
		`9007199254740993`:                    `9007199254740993`, // not rounded to a float64
		`9007199254740992.0`:                  `9007199254740992`,
		`12345678901234567890123`:             `1.2345678901234567890123e+22`,
		`1e99999999999999999999999`:           `1e99999999999999999999999`, // an exponent past any tool's: as written
		`0.000`:                               `0`,
		`100`:                                 `100`,
		`1000.0010`:                           `1000.001`,
		`-0.00120e3`:                          `-1.2`,
		`[]`:                                  `[]`,
		`{}`:                                  `{}`,
		` [ 1 , { "z" : [ ] , "y" : { } } ] `: `[1,{"y":{},"z":[]}]`,
		`{"b":{"d":{"f":1,"e":2},"c":3},"a":[{"y":1,"x":2}]}`: `{"a":[{"x":2,"y":1}],"b":{"c":3,"d":{"e":2,"f":1}}}`,
	} {
		var c canonicalizer
		out, ok := c.canonical([]byte(in))
		require.True(t, ok, in)
		assert.Equal(t, want, string(out), in)
	}
	// Values that differ stay apart.
	for _, pair := range [][2]string{
		{`9007199254740993`, `9007199254740992`},
		{`{"a":1,"b":2}`, `{"a":2,"b":1}`},
		{`"1"`, `1`},
		{`[1,2]`, `[2,1]`},
		{`0.1`, `0.10000000000000001`},
	} {
		var c, d canonicalizer
		a, ok := c.canonical([]byte(pair[0]))
		require.True(t, ok, pair[0])
		b, ok := d.canonical([]byte(pair[1]))
		require.True(t, ok, pair[1])
		assert.NotEqual(t, string(a), string(b), pair)
	}
}

// TestCanonicalFormRefuses: what is not one JSON value, or names a
// member twice, has no canonical form.
func TestCanonicalFormRefuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{``, ` `, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `tru`, `"\x"`, `{"a":1}{}`, `{"a":1,"a":1}`, `{"b":1,"a":2,"b":3}`, `{a:1}`, `"\ud800"`, string([]byte{'"', 0xff, '"'}),
		strings.Repeat("[", maxCanonicalDepth+2) + strings.Repeat("]", maxCanonicalDepth+2)} {
		var c canonicalizer
		_, ok := c.canonical([]byte(in))
		assert.False(t, ok, "%.40q", in)
	}
	var c canonicalizer
	_, ok := c.canonical([]byte(strings.Repeat("[", maxCanonicalDepth) + strings.Repeat("]", maxCanonicalDepth)))
	assert.True(t, ok, "nested to the bound")
}

// TestArgsDigestCanonical: the argument digest of a value written
// otherwise is the same; of arguments that are not JSON, their digest
// without white space, as before.
func TestArgsDigestCanonical(t *testing.T) {
	t.Parallel()
	key := make([]byte, MinKeyLen)
	d := argsDigest(key, "act", []byte(`{"text":"x","id":1}`))
	assert.Equal(t, d, argsDigest(key, "act", []byte(`{ "id": 1.0, "text": "\u0078" }`)))
	assert.Equal(t, d, argsDigest(key, "act", []byte(`{"id":10E-1,"text":"x"}`)))
	assert.NotEqual(t, d, argsDigest(key, "act", []byte(`{"id":2,"text":"x"}`)))
	assert.NotEqual(t, d, argsDigest(key, "echo", []byte(`{"text":"x","id":1}`)))
	assert.Equal(t, argsDigest(key, "act", nil), argsDigest(key, "act", []byte(`{}`)))
	assert.Equal(t, argsDigest(key, "act", []byte(`{"a": 1`)), argsDigest(key, "act", []byte(`{"a":1`)), "not JSON: white space removed")
	assert.NotEqual(t, argsDigest(key, "act", []byte(`{"a":1`)), argsDigest(key, "act", []byte(`{"a":1.0`)))
	assert.Equal(t, argsDigest(key, "act", []byte(`{"a":1,"a":2}`)), argsDigest(key, "act", []byte(`{"a":1, "a":2}`)), "a member named twice: white space removed")
	assert.NotEqual(t, argsDigest(key, "act", []byte(`{"a":1,"a":2}`)), argsDigest(key, "act", []byte(`{"a":2,"a":1}`)))
}

// BenchmarkArgsDigest: the digest of a call's arguments with a call ID,
// canonical form and all (medium arguments, 12 members).
func BenchmarkArgsDigest(b *testing.B) {
	key := make([]byte, MinKeyLen)
	args := []byte(`{"title":"Quarterly report","body":"The numbers for the third quarter are in; revenue grew by 12 percent over the second quarter.","tags":["finance","q3","report"],"priority":3,"due":"2026-12-31","owner":"ana","notify":true,"ratio":0.125,"limit":50,"sort":"newest","colour":"blue","draft":false}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = argsDigest(key, "notes_create", args)
	}
}

// BenchmarkArgsDigestLegacy: the same, in the form before the canonical
// one (white space removed), for comparison.
func BenchmarkArgsDigestLegacy(b *testing.B) {
	key := make([]byte, MinKeyLen)
	args := []byte(`{"title":"Quarterly report","body":"The numbers for the third quarter are in; revenue grew by 12 percent over the second quarter.","tags":["finance","q3","report"],"priority":3,"due":"2026-12-31","owner":"ana","notify":true,"ratio":0.125,"limit":50,"sort":"newest","colour":"blue","draft":false}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = legacyArgsDigest(key, "notes_create", args)
	}
}

// FuzzCanonicalForm: the canonical form is JSON of the same value (as
// encoding/json reads both), its own canonical form, and made exactly
// for the texts jsontree.Parse (which refuses a member named twice)
// reads.
func FuzzCanonicalForm(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1.0,2e3,"x\u0041"]}`, `[{"\ud83d\ude00":0,"\ufb01":-0.0}]`, `"\u001f\/"`, `1E-7`, `{"a":{"a":{}}}`, `{"a":1,"a":2}`, `[1,]`, `123456789012345678901234567890e-10`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c canonicalizer
		out, ok := c.canonical(data)
		_, perr := jsontree.Parse(data)
		if ok != (perr == nil) && bytes.Count(data, []byte("[")) < maxCanonicalDepth {
			t.Fatalf("canonical form made: %v, jsontree.Parse: %v", ok, perr)
		}
		if !ok {
			return
		}
		out = bytes.Clone(out)
		var d canonicalizer
		again, ok := d.canonical(out)
		if !ok || !bytes.Equal(again, out) {
			t.Fatalf("not its own canonical form: %q -> %q", out, again)
		}
		var x, y any
		errX, errY := json.Unmarshal(data, &x), json.Unmarshal(out, &y)
		if errX == nil && (errY != nil || !reflect.DeepEqual(x, y)) {
			t.Fatalf("another value: %q -> %q", data, out)
		}
	})
}
