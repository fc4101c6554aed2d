package codec

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// floatAgrees checks that Float reads the JSON number lit as
// strconv.ParseFloat does, to the bit (negative zero included).
func floatAgrees(t *testing.T, lit string, bits int) {
	t.Helper()
	want, err := strconv.ParseFloat(lit, bits)
	d := NewDecoder()
	d.Reset([]byte(lit), Limits{})
	got, ok := d.Float("number", bits)
	if err != nil {
		assert.False(t, ok, "%s: ParseFloat refuses it: %v", lit, err)
		return
	}
	require.True(t, ok, "%s: %v", lit, d.Err())
	assert.Equal(t, math.Float64bits(want), math.Float64bits(got), "%s (%d bits): got %v, want %v", lit, bits, got, want)
}

// TestFloatShortDecimal checks the short decimals Float reads without
// ParseFloat (shortDecimal) against ParseFloat: numbers at, under and over
// 15 digits, the point anywhere, leading zeros, both signs, exponents.
func TestFloatShortDecimal(t *testing.T) {
	for _, lit := range []string{
		"0.1", "-0.1", "0.0", "-0.0", "1.5", "3.25", "19.99", "66.807",
		"0.000000000000001", "0.00000000000001", "123456789012345.0",
		"1234567890123456.0", "0.123456789012345", "0.1234567890123456",
		"999999999999999.9", "99999999999999.99", "9007199254740993.0",
		"1.0e1", "1.5E-3", "2.5e+2", "0.3", "0.7", "4.35", "1.1",
	} {
		floatAgrees(t, lit, 64)
		floatAgrees(t, lit, 32)
	}
	r := rand.New(rand.NewPCG(24, 3))
	var b strings.Builder
	for range 20000 {
		b.Reset()
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		digits := 1 + r.IntN(18)
		point := 1 + r.IntN(digits)
		for k := range digits {
			if k == point {
				b.WriteByte('.')
			}
			c := byte('0' + r.IntN(10))
			if k == 0 && point > 1 && c == '0' {
				c = '1' // no leading zero before the point
			}
			b.WriteByte(c)
		}
		if point == digits {
			b.WriteString(".5")
		}
		lit := b.String()
		if next, _, msg := jsonlex.ScanNumber([]byte(lit), 0); msg != "" || next != len(lit) {
			t.Fatalf("test input %s is no JSON number", lit)
		}
		floatAgrees(t, lit, 64)
	}
}

// FuzzFloat checks that Float agrees with strconv.ParseFloat on every
// JSON number.
func FuzzFloat(f *testing.F) {
	for _, s := range []string{"0.1", "-0.0", "19.99", "123456789012345.6", "1e5", "-2.5E-3", "7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		if next, _, msg := jsonlex.ScanNumber([]byte(lit), 0); msg != "" || next != len(lit) {
			return
		}
		floatAgrees(t, lit, 64)
		floatAgrees(t, lit, 32)
	})
}

// FuzzNumber checks that a number is read, to its last byte, exactly when
// it is the valid JSON number jsontext accepts, and that Int reads the
// integers strconv.ParseInt reads.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"5", "5 ", "05", "5.", "5e", "5E1", "-5", "-", "7}", "0", "12", "9.5", "1e2", " 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := NewDecoder()
		d.Reset([]byte(s), Limits{})
		lit, ok := d.Number("number")
		d.End()
		value := jsontext.Value(s)
		valid := value.IsValid() && value.Kind() == '0'
		assert.Equal(t, valid, ok && d.Err() == nil, "%q: %v", s, d.Err())
		if valid {
			assert.Equal(t, strings.TrimSpace(s), string(lit))
		}
		want, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		d.Reset([]byte(s), Limits{})
		got, ok := d.Int("integer", 64)
		d.End()
		if valid && err == nil {
			require.True(t, ok && d.Err() == nil, "%q: %v", s, d.Err())
			assert.Equal(t, want, got)
		}
	})
}
