package codec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeSearchByProperty is decodeSearchInput written as toolgen generates
// decoders since Property: a switch on the index Property returns. It must
// do exactly what decodeSearchInput does, on any input.
func decodeSearchByProperty(d *Decoder, v *searchInput) { decodeSearch(d, v, memberByProperty) }

// decodeBoth runs decodeSearchInput and decodeSearchByProperty on in and
// requires the same values, problems and position from both; it returns
// what they read and the problems.
func decodeBoth(t *testing.T, in []byte, lim Limits) (searchInput, error, bool) {
	t.Helper()
	var byKey, byProp searchInput
	d := NewDecoder()
	d.Reset(in, lim)
	decodeSearchInput(d, &byKey)
	d.End()
	keyErr, keyFailed, keyPos := d.Err(), d.Failed(), d.pos
	d.Reset(in, lim)
	decodeSearchByProperty(d, &byProp)
	d.End()
	require.Equal(t, byKey, byProp, "the same values")
	require.Equal(t, keyErr, d.Err(), "the same problems")
	require.Equal(t, keyFailed, d.Failed())
	require.Equal(t, keyPos, d.pos, "stopped at the same byte")
	return byProp, d.Err(), d.Failed()
}

// TestProperty runs every case of TestGenerated, and cases of the names
// Property compares, through both decoders.
func TestProperty(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"query":"go","limit":5,"tags":["a","b"],"range":{"from":1,"to":2.5},"extra":{"k":[1]}}`,
		" \n{ \"query\" : \"go\" ,\t\"tags\" : [ ] , \"limit\" : null }\r\n",
		`{}`, `{ }`, `["go"]`, `null`, `{"query":"q"}`, `{"query":"q" }`, `{"query":"q",}`, `{,"query":"q"}`,
		`{"query":"","limit":0,"tags":["a",2,"c",{}],"range":{"to":"x","zap":1},"bogus":[1,2],"query":"b"}`,
		`{"query":1,"limit":"5","tags":{"a":1},"range":[],"extra":{"a":1,"a":2}}`,
		`{"query":1,"limit":2 "tags":[]}`, `{"query":"q","tags":["a" "b"]}`, `{"query":"q"} {}`,
		`{"\u0071uery":"q","a\/b~":1}`, `{"qu\u0065ry":"q","limit":3}`, `{"query":"q","lim\u0069t":3,"limit":4}`,
		`{"query" "q"}`, `{"query":"q",1}`, `{1}`, `{"que`, "{\"q\xffuery\":1}", `{"query":"q"`, `{"tags":["a"`, `{"query":"q",`,
		`{"limit":5,"query":"q"}`, `{"extra":1,"range":{"to":1,"from":2},"query":"q"}`, `{"query":"q","query":"r"}`,
		`{"queryx":"q"}`, `{"quer":"q"}`, `{"query"`, `{"query":`, `{"query"x"q"}`, `{"query":"q","limit"`,
		`{"query":"q","limit":5,"limit":6,"tags":[]}`, `{"range":{"from":1,"from":2,"to":3}}`, `{"query":"q"}}`,
		`{"query":"q" , "limit":5}`, `{"query":"q",` + "\n" + `"limit":5}`, `{"range":{},"query":"q"}`, `{"range":{"zap":{"from":1}}}`,
	} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			decodeBoth(t, []byte(in), Limits{})
		})
	}
	t.Run("paths skipped", func(t *testing.T) {
		t.Parallel()
		in := `{"query":"","bogus":1,"range":{"to":"x"},"query":"b"}`
		var byKey, byProp searchInput
		d := NewDecoder()
		d.Reset([]byte(in), Limits{})
		d.SkipPaths()
		decodeSearchInput(d, &byKey)
		keyErr := d.Err()
		d.Reset([]byte(in), Limits{})
		d.SkipPaths()
		decodeSearchByProperty(d, &byProp)
		assert.Equal(t, byKey, byProp)
		assert.Equal(t, keyErr, d.Err())
		assert.Len(t, problems(t, d.Err()), 5)
	})
}

// TestPropertyOpen: an object that allows other members skips them, and
// reads on with the names it knows.
func TestPropertyOpen(t *testing.T) {
	t.Parallel()
	props := []string{"a", "b"}
	for in, want := range map[string][2]int64{
		`{"a":1,"b":2}`: {1, 2},
		`{"b":2,"a":1}`: {1, 2},
		`{"x":{"a":9},"a":1,"y":[1,{"b":8}],"b":2}`: {1, 2},
		`{"a":1,"x":"b","b":2,"z":null}`:            {1, 2},
		`{"\u0061":1,"b":2}`:                        {1, 2},
		`{"x":1}`:                                   {0, 0},
	} {
		d := NewDecoder()
		d.Reset([]byte(in), Limits{})
		require.True(t, d.Object("object"))
		var got [2]int64
		for p := -1; ; {
			if p = d.Property(props, p+1, false); p < 0 {
				break
			}
			d.Push(props[p])
			got[p], _ = d.Int("integer", 64)
			d.Pop()
		}
		d.End()
		require.NoError(t, d.Err(), in)
		assert.Equal(t, want, got, in)
	}
}

// TestPropertyKeyPosition: Property counts the members of an object as
// Key does, for PushKey's positions in an object inside it.
func TestPropertyKeyPosition(t *testing.T) {
	t.Parallel()
	in := `{"a":1,"m":{"x":"1","y":2}}`
	d := NewDecoder()
	d.Reset([]byte(in), Limits{})
	props := []string{"a", "m"}
	require.True(t, d.Object("object"))
	for p := -1; ; {
		if p = d.Property(props, p+1, true); p < 0 {
			break
		}
		d.Push(props[p])
		if p == 0 {
			d.Int("integer", 64)
		} else if d.Object("object") {
			for {
				if _, ok := d.Key(); !ok {
					break
				}
				d.PushKey()
				d.Int("integer", 64)
				d.Pop()
			}
		}
		d.Pop()
	}
	d.End()
	assert.Equal(t, []string{"/m/<key 0>: expected integer, got string"}, problems(t, d.Err()))
}

func TestPlain(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"query", "", "a b", "é", "a/b~0", "x-y.z"} {
		assert.True(t, Plain(name), name)
	}
	for _, name := range []string{`a"b`, `a\b`, "a\nb", "a\x00", "\xff", "a\x1f"} {
		assert.False(t, Plain(name), name)
	}
}

// FuzzProperty: decodeSearchByProperty does what decodeSearchInput does on
// any input, to the byte it stops at.
func FuzzProperty(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"query":"go","limit":5,"tags":["a","b"],"range":{"from":1,"to":2.5},"extra":{"k":[1]}}`))
	f.Add([]byte(`{"query":"","limit":0,"tags":["a",2,"c",{}],"range":{"to":"x","zap":1},"bogus":[1,2],"query":"b"}`))
	f.Add([]byte(`{"limit":5 , "qu\u0065ry":"q","range":{"to":1,"from":2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err, failed := decodeBoth(t, data, Limits{MaxDepth: 20})
		if failed {
			require.Error(t, err)
			last := err.(*ArgumentsError).Problems
			msg := last[len(last)-1].Message
			assert.True(t, strings.HasPrefix(msg, "malformed JSON") || strings.HasPrefix(msg, "unexpected data") || strings.HasPrefix(msg, "nesting"), msg)
		}
	})
}
