package service

import (
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
		`"\u2028<>&"`:               "\"\u2028<>&\"",
		`1.0`:                       `1`,
		`1e0`:                       `1`,
		`1E2`:                       `100`,
		`1e+2`:                      `100`,
		`100e-2`:                    `1`,
		`0.50`:                      `0.5`,
		`-0`:                        `0`,
		`-0.0e10`:                   `0`,
		`0.000001`:                  `0.000001`,
		`1e-7`:                      `1e-7`,
		`0.0000012`:                 `0.0000012`,
		`1.2e-7`:                    `1.2e-7`,
		`1e21`:                      `1e+21`,
		`1e20`:                      `100000000000000000000`,
		`123.456e1`:                 `1234.56`,
		`-12.5E-1`:                  `-1.25`,
		`9007199254740993`:          `9007199254740993`, // not rounded to a float64
		`9007199254740992.0`:        `9007199254740992`,
		`12345678901234567890123`:   `1.2345678901234567890123e+22`,
		`1e99999999999999999999999`: `1e99999999999999999999999`, // an exponent past any tool's: as written
	} {
		root, err := jsontree.Parse([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, string(appendCanonical(nil, root)), in)
	}
	// Values that differ stay apart.
	for _, pair := range [][2]string{
		{`9007199254740993`, `9007199254740992`},
		{`{"a":1,"b":2}`, `{"a":2,"b":1}`},
		{`"1"`, `1`},
		{`[1,2]`, `[2,1]`},
		{`0.1`, `0.10000000000000001`},
	} {
		a, err := jsontree.Parse([]byte(pair[0]))
		require.NoError(t, err)
		b, err := jsontree.Parse([]byte(pair[1]))
		require.NoError(t, err)
		assert.NotEqual(t, string(appendCanonical(nil, a)), string(appendCanonical(nil, b)), pair)
	}
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
