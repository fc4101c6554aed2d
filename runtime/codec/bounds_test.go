package codec

import (
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// TestCompareDecimal checks the exact comparison of number literals,
// above all where float64 rounding makes different numbers equal.
func TestCompareDecimal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{
		// Equal after rounding to float64, different as written.
		{"2.0000000000000001", "2", 1},
		{"1.9999999999999999", "2", -1},
		{"-1e-400", "0", -1},
		{"1e-400", "0", 1},
		{"-1e-400", "-0", -1},
		{"1e-400", "1e-401", 1},
		{"-1e-400", "-1e-401", -1},
		{"0.30000000000000001", "0.3", 1},
		{"9007199254740993", "9007199254740992", 1},
		{"-9007199254740993", "-9007199254740992", -1},
		// Zeros, however written.
		{"0", "0", 0},
		{"0.0", "-0", 0},
		{"-0", "0", 0},
		{"-0.000e999", "0e-5", 0},
		{"0", "1e-400", -1},
		{"0", "-1e-400", 1},
		// The same number, written differently.
		{"2", "2.0", 0},
		{"2", "2.000000000000000000000000", 0},
		{"15", "1.50e1", 0},
		{"15", "1.5E+1", 0},
		{"0.015", "1.5e-2", 0},
		{"0.0015e1", "1.5E-0002", 0},
		{"100", "1e2", 0},
		{"100", "1e0002", 0},
		{"1e+02", "1E2", 0},
		{"-100", "-0.001e5", 0},
		{"123.456", "123456e-3", 0},
		// Orders of magnitude.
		{"1", "10", -1},
		{"10", "9.99", 1},
		{"0.1", "0.09", 1},
		{"0.001", "1e-2", -1},
		{"-10", "-9.99", -1},
		{"-1", "1", -1},
		{"1", "-1", 1},
		{"1e308", "1e309", -1},
		{"1e-324", "1e-323", -1},
		// Exponents of any length, leading zeros included.
		{"1e99999999999999999999", "1e99999999999999999998", 1},
		{"1e99999999999999999999", "10e99999999999999999998", 0},
		{"1e-99999999999999999999", "0", 1},
		{"-1e99999999999999999999", "-1e99999999999999999998", -1},
		{"1e99999999999999999999", "1e-99999999999999999999", 1},
		{"1e-99999999999999999999", "1e-99999999999999999998", -1},
		{"1e000000000000000000000000000002", "100", 0},
		{"1e-000000000000000000000000000002", "0.01", 0},
		{"1e" + strings.Repeat("9", 40), "1e" + strings.Repeat("9", 39), 1},
		{"12e" + strings.Repeat("9", 40), "1.2e" + strings.Repeat("9", 40), 1},
		{"0.12e" + strings.Repeat("9", 40), "1.2e" + strings.Repeat("9", 40), -1},
		{"1e-" + strings.Repeat("9", 40), "1e-" + strings.Repeat("9", 39), -1},
		// Long digit strings.
		{"1." + strings.Repeat("0", 400) + "1", "1", 1},
		{"0." + strings.Repeat("9", 400), "1", -1},
		{"0." + strings.Repeat("0", 400) + "1", "1e-401", 0},
	} {
		assert.Equal(t, tc.want, compareDecimal(tc.a, tc.b), "%s vs %s", tc.a, tc.b)
		assert.Equal(t, -tc.want, compareDecimal(tc.b, tc.a), "%s vs %s", tc.b, tc.a)
	}
}

// TestCompareNumber checks that CompareNumber finds the number just read,
// wherever it stands.
func TestCompareNumber(t *testing.T) {
	t.Parallel()
	d := NewDecoder()

	d.Reset([]byte(` 2.0000000000000001 `), Limits{})
	f, ok := d.Float("number", 64)
	require.True(t, ok)
	assert.Equal(t, 2.0, f)
	assert.Equal(t, 1, d.CompareNumber("2"))
	assert.Equal(t, 0, d.CompareNumber("2.0000000000000001"))

	d.Reset([]byte(`{"a":-1e-400,"b":[1.9999999999999999,7]}`), Limits{})
	require.True(t, d.Object("object"))
	_, ok = d.Key()
	require.True(t, ok)
	f, ok = d.Float("number", 64)
	require.True(t, ok)
	assert.Equal(t, 0.0, f)
	assert.Equal(t, -1, d.CompareNumber("0"))
	_, ok = d.Key()
	require.True(t, ok)
	require.True(t, d.Array("array"))
	require.True(t, d.Next())
	f, ok = d.Float("number", 32)
	require.True(t, ok)
	assert.Equal(t, 2.0, f)
	assert.Equal(t, -1, d.CompareNumber("2"))
	require.True(t, d.Next())
	n, ok := d.Int("integer", 64)
	require.True(t, ok)
	assert.Equal(t, int64(7), n)
	assert.Equal(t, 0, d.CompareNumber("7.0"))
	assert.Equal(t, 1, d.CompareNumber("6.9999999999999999999"))

	d.Reset(nil, Limits{})
	assert.Equal(t, 0, d.CompareNumber("1"), "no number read")
}

// bigRat is the oracle: the literal as an exact rational, or false when
// its exponent is too large to expand.
func bigRat(s string) (*big.Rat, bool) {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimLeft(s[i+1:], "+"))
		if err != nil || e > 2000 || e < -2000 {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}

func FuzzCompareDecimal(f *testing.F) {
	for _, s := range [][2]string{
		{"2.0000000000000001", "2"}, {"-1e-400", "0"}, {"0.0", "-0"}, {"1.50e1", "15"},
		{"1e0002", "100"}, {"-0.001e5", "-100"}, {"123.456", "123456e-3"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !isNumber(a) || !isNumber(b) {
			return
		}
		got := compareDecimal(a, b)
		require.Equal(t, -got, compareDecimal(b, a), "%s vs %s: not antisymmetric", a, b)
		ra, ok1 := bigRat(a)
		rb, ok2 := bigRat(b)
		if ok1 && ok2 {
			require.Equal(t, ra.Cmp(rb), got, "%s vs %s", a, b)
		}
	})
}

// isNumber reports whether s is exactly one JSON number.
func isNumber(s string) bool {
	if s == "" || !jsonlex.IsDigit(s[0]) && s[0] != '-' {
		return false
	}
	d := NewDecoder()
	d.Reset([]byte(s), Limits{})
	_, ok := d.Number("number")
	return ok && d.pos == len(s)
}

// BenchmarkCompareNumber measures a read that lands on a bound, where the
// generated code calls CompareNumber, beside one that does not.
func BenchmarkCompareNumber(b *testing.B) {
	for _, c := range []struct{ name, in string }{
		{"off_bound", `1.5`},
		{"on_bound", `2.0000000000000001`},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.in)
			d := NewDecoder()
			b.ReportAllocs()
			for b.Loop() {
				d.Reset(data, Limits{})
				f, _ := d.Float("number", 64)
				if f >= 2 && (f > 2 || d.CompareNumber("2") > 0) {
					d.Problem("must be at most 2")
				}
			}
		})
	}
}
