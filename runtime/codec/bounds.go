package codec

import "github.com/toolgen-go/toolgen/runtime/jsonlex"

// Exact comparison of JSON numbers with the bounds of minimum, maximum,
// exclusiveMinimum and exclusiveMaximum.
//
// Generated decoders compare the float64 they read with the bound first:
// rounding to the nearest float64 never reverses an order, so when the two
// floats differ the numbers as written differ the same way, and that test
// decides almost every call. Only when they are equal can the rounding
// have hidden a difference ("2.0000000000000001" reads as 2, "-1e-400" as
// -0), and then the generated code calls Decoder.CompareNumber, which
// compares the decimal text exactly, as a JSON Schema validator does.

// CompareNumber compares the number the decoder has just read (by Float,
// Int, Uint or Number, with no read since) with bound, a JSON number
// literal, exactly as decimals: it returns -1, 0 or +1 as the number is
// less than, equal to or greater than bound. "-0" equals "0", and
// "1.50e1" equals "15". With no number just read it returns 0.
func (d *Decoder) CompareNumber(bound string) int {
	// A number ends where the read left d.pos, and the byte before a
	// number (whitespace, ':', ',', '[' or none) is never part of one,
	// so the literal is the run of number bytes that ends there. Finding
	// it again costs nothing on the reads, which the fast path needs.
	end := min(d.pos, len(d.data))
	start := end
	for start > 0 && isNumberByte(d.data[start-1]) {
		start--
	}
	if start == end {
		return 0
	}
	return compareDecimal(string(d.data[start:end]), bound)
}

// isNumberByte reports whether c can occur in a JSON number.
func isNumberByte(c byte) bool {
	return jsonlex.IsDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// decimal is a JSON number literal taken apart, without allocating: its
// value is ±0.digits × 10^(exp+point), where digits are the literal's
// digits after its leading zeros (the integer part's and the fraction's,
// without the point) and exp is the exponent as written.
type decimal struct {
	neg    bool
	whole  string // integer part
	frac   string // fraction part, without the point
	lead   int    // leading zeros of whole+frac
	expNeg bool
	exp    string // exponent digits without the sign and leading zeros
}

// parseDecimal takes apart s, which must be a JSON number (the grammar of
// RFC 8259); it does not check the grammar.
func parseDecimal(s string) decimal {
	var n decimal
	if s != "" && s[0] == '-' {
		n.neg = true
		s = s[1:]
	}
	i := 0
	for i < len(s) && jsonlex.IsDigit(s[i]) {
		i++
	}
	n.whole = s[:i]
	s = s[i:]
	if s != "" && s[0] == '.' {
		i = 1
		for i < len(s) && jsonlex.IsDigit(s[i]) {
			i++
		}
		n.frac = s[1:i]
		s = s[i:]
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '+' || s[0] == '-') {
			n.expNeg = s[0] == '-'
			s = s[1:]
		}
		for len(s) > 1 && s[0] == '0' {
			s = s[1:]
		}
		n.exp = s
	}
	for n.lead < len(n.whole)+len(n.frac) && n.digit(n.lead) == '0' {
		n.lead++
	}
	return n
}

// digits is the number of digits of whole and frac.
func (n *decimal) digits() int { return len(n.whole) + len(n.frac) }

// digit returns digit i of whole+frac, or '0' past the end.
func (n *decimal) digit(i int) byte {
	switch {
	case i < len(n.whole):
		return n.whole[i]
	case i < n.digits():
		return n.frac[i-len(n.whole)]
	}
	return '0'
}

// isZero reports whether every digit is zero.
func (n *decimal) isZero() bool { return n.lead == n.digits() }

// point is where the decimal point sits relative to the first significant
// digit: the value is 0.d1d2... × 10^(exp+point) with d1 not zero.
func (n *decimal) point() int { return len(n.whole) - n.lead }

// saturation bounds the exponent differences expDiff computes: beyond it
// only the sign matters, since the points of literals that fit in memory
// differ by far less. Ten times it plus 18 still fits in an int64.
const saturation = 1 << 59

// expDiff returns the written exponent of a minus that of b, or ±saturation
// when the difference is at least that large. Exponents can have any
// number of digits, so they are subtracted digit by digit: once the
// running difference is non-zero, later digits cannot change its sign.
func expDiff(a, b *decimal) int64 {
	la, lb := len(a.exp), len(b.exp)
	width := max(la, lb)
	var v int64
	for i := range width {
		var da, db int64
		if j := i - (width - la); j >= 0 {
			da = int64(a.exp[j] - '0')
		}
		if j := i - (width - lb); j >= 0 {
			db = int64(b.exp[j] - '0')
		}
		if a.expNeg {
			da = -da
		}
		if b.expNeg {
			db = -db
		}
		v = v*10 + da - db
		v = min(max(v, -saturation), saturation)
	}
	return v
}

// compareDecimal compares the JSON number literals a and b exactly: -1, 0
// or +1.
func compareDecimal(a, b string) int {
	x, y := parseDecimal(a), parseDecimal(b)
	switch xz, yz := x.isZero(), y.isZero(); {
	case xz && yz:
		return 0
	case xz:
		return sign(!y.neg)
	case yz:
		return sign(x.neg)
	case x.neg != y.neg:
		return sign(x.neg)
	}
	// Same sign, neither zero: compare magnitudes, then flip for negatives.
	c := compareMagnitude(&x, &y)
	if x.neg {
		c = -c
	}
	return c
}

// compareMagnitude compares |x| and |y|, both non-zero.
func compareMagnitude(x, y *decimal) int {
	// The larger order of magnitude, exp+point, wins: compare
	// exp(x)-exp(y) with point(y)-point(x).
	e := expDiff(x, y)
	p := int64(y.point()) - int64(x.point())
	switch {
	case e > p:
		return 1
	case e < p:
		return -1
	}
	// Same order of magnitude: the significant digits decide, the shorter
	// one padded with zeros.
	n := max(x.digits()-x.lead, y.digits()-y.lead)
	for i := range n {
		dx, dy := x.digit(x.lead+i), y.digit(y.lead+i)
		if dx != dy {
			if dx < dy {
				return -1
			}
			return 1
		}
	}
	return 0
}

// sign returns -1 when neg is set, +1 otherwise.
func sign(neg bool) int {
	if neg {
		return -1
	}
	return 1
}
