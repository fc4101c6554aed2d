package codec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStringBlocks checks that strings carved from a shared block stay
// intact while the decoder goes on and is reused, and that they are cut
// from few allocations.
func TestStringBlocks(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("L", maxBlockString+1)
	for _, tc := range []struct {
		name  string
		input string
		want  []string
	}{
		{"short strings", `["a","bc","","d\"e","\u00e9t\u00e9"]`, []string{"a", "bc", "", `d"e`, "été"}},
		{"a long string between short ones", `["x","` + long + `","y"]`, []string{"x", long, "y"}},
		{"many strings over several blocks", `[` + strings.TrimSuffix(strings.Repeat(`"0123456789",`, 1000), ",") + `]`,
			slicesRepeat("0123456789", 1000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := NewDecoder()
			d.Reset([]byte(tc.input), Limits{})
			var got []string
			require.True(t, d.Array("array"))
			for d.Next() {
				s, ok := d.String("string")
				require.True(t, ok)
				got = append(got, s)
			}
			d.End()
			require.NoError(t, d.Err())
			// Reuse the decoder on other input: the strings must not change.
			d.Reset([]byte(`["zzzzzzzzzzzzzzzzzzzz","yyyyyyyyyy"]`), Limits{})
			require.True(t, d.Array("array"))
			for d.Next() {
				_, ok := d.String("string")
				require.True(t, ok)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func slicesRepeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestAnyEmptyKey checks that an empty member name in Any, which makes no
// room in a block, decodes.
func TestAnyEmptyKey(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.Reset([]byte(`{"":"","a":{"":1}}`), Limits{})
	v, ok := d.Any()
	require.True(t, ok)
	assert.Equal(t, map[string]any{"": "", "a": map[string]any{"": 1.0}}, v)
}

// TestStringBlockAllocations checks that an object of many short strings
// costs one block, not one allocation per string.
func TestStringBlockAllocations(t *testing.T) {
	input := []byte(`{"a":"alpha","b":"bravo","c":"charlie","d":"delta","e":"echo","f":"foxtrot","g":"golf","h":"hotel"}`)
	d := NewDecoder()
	var sink []string
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(input, Limits{})
		sink = sink[:0]
		if !d.Object("object") {
			panic("not an object")
		}
		for {
			if _, ok := d.Key(); !ok {
				break
			}
			s, _ := d.String("string")
			sink = append(sink, s)
		}
	})
	assert.Len(t, sink, 8)
	assert.LessOrEqual(t, allocs, 1.0, "eight strings, one block")
}

// TestKeyString checks that member names made strings with KeyString stay
// intact while the decoder reads on (Key's bytes are reused) and is
// reused, and that a map's keys and values share one block.
func TestKeyString(t *testing.T) {
	input := []byte(`{"alpha":"a","b\u00e9ta":"b","gamma":"c","delta":"d","epsilon":"e","zeta":"f","eta":"g","theta":"h"}`)
	want := map[string]string{"alpha": "a", "béta": "b", "gamma": "c", "delta": "d", "epsilon": "e", "zeta": "f", "eta": "g", "theta": "h"}
	d := NewDecoder()
	got := make(map[string]string, 8)
	read := func() {
		d.Reset(input, Limits{})
		clear(got)
		require.True(t, d.Object("object"))
		for {
			name, ok := d.Key()
			if !ok {
				break
			}
			k := d.KeyString(name)
			got[k], _ = d.String("string")
		}
	}
	read()
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	d.Reset([]byte(`{"zzzzzzzzzzzzzzzzzzzz":"yyyyyyyyyyyyy"}`), Limits{})
	require.True(t, d.Object("object"))
	name, ok := d.Key()
	require.True(t, ok)
	_ = d.KeyString(name)
	assert.Equal(t, want, got)
	assert.ElementsMatch(t, []string{"alpha", "béta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}, keys)
	allocs := testing.AllocsPerRun(100, read)
	assert.LessOrEqual(t, allocs, 1.0, "sixteen strings, one block")
}
