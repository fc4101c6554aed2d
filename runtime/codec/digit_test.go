package codec

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDigit: a one-digit number, read by digit, gives what strconv gives
// for every size of integer, followed by anything, and as a float.
func TestDigit(t *testing.T) {
	t.Parallel()
	for c := '0'; c <= '9'; c++ {
		for _, after := range []string{"]", ",1", " ", "", "0", ".5", "e1", "E1", "x"} {
			in := "[" + string(c) + after
			for _, bits := range []int{1, 2, 3, 4, 5, 8, 64, 0} {
				d := NewDecoder()
				d.Reset([]byte(in), Limits{})
				d.Array("array")
				d.Next()
				got, ok := d.Int("integer", bits)
				lit := in[1 : len(in)-len(after)]
				if after == "0" || after == ".5" || after == "e1" || after == "E1" {
					lit = in[1:]
				}
				want, err := strconv.ParseInt(lit, 10, intBits(bits))
				if err != nil {
					want = 0 // strconv gives the bound; Int gives nothing
				}
				if after != ".5" && after != "e1" && after != "E1" && !(c == '0' && after == "0") {
					assert.Equal(t, err == nil, ok, "Int %q bits %d", in, bits)
					assert.Equal(t, want, got, "Int %q bits %d", in, bits)
				} else {
					assert.False(t, ok, "Int %q", in)
				}

				d.Reset([]byte(in), Limits{})
				d.Array("array")
				d.Next()
				u, ok := d.Uint("integer", bits)
				wantU, err := strconv.ParseUint(lit, 10, intBits(bits))
				if err != nil {
					wantU = 0
				}
				if after != ".5" && after != "e1" && after != "E1" && !(c == '0' && after == "0") {
					assert.Equal(t, err == nil, ok, "Uint %q bits %d", in, bits)
					assert.Equal(t, wantU, u, "Uint %q bits %d", in, bits)
				}
			}
			d := NewDecoder()
			d.Reset([]byte(in), Limits{})
			d.Array("array")
			d.Next()
			f, ok := d.Float("number", 64)
			wantF, err := strconv.ParseFloat(in[1:len(in)-len(after)], 64)
			if after == "" || after == "]" || after == ",1" || after == " " || after == "x" {
				assert.Equal(t, err == nil, ok, "Float %q", in)
				assert.Equal(t, wantF, f, "Float %q", in)
			}
		}
	}
}
