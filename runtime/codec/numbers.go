package codec

import (
	"math"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// number consumes the next value if it is a number and returns its
// literal; on another kind it records a problem and skips the value.
func (d *Decoder) number(want string) (lit []byte, isInt, ok bool) {
	c, ok := d.peekNow()
	if !ok {
		c, ok = d.peek()
	}
	if !ok {
		return nil, false, false
	}
	if c != '-' && !jsonlex.IsDigit(c) {
		d.refuse(want, c)
		return nil, false, false
	}
	// A one-digit integer, the commonest number in arguments, is read
	// without ScanNumber's call: what follows it is no digit, fraction or
	// exponent (a zero followed by a digit is ScanNumber's to refuse).
	if i := d.pos + 1; c != '-' && (i == len(d.data) || !jsonlex.IsDigit(d.data[i]) && d.data[i] != '.' && d.data[i]|0x20 != 'e') {
		lit = d.data[d.pos:i]
		d.pos = i
		return lit, true, true
	}
	next, isInt, msg := jsonlex.ScanNumber(d.data, d.pos)
	if msg != "" {
		d.syntaxError(next, msg)
		return nil, false, false
	}
	lit = d.data[d.pos:next]
	d.pos = next
	return lit, isInt, true
}

// digit consumes a one-digit integer that starts at d.pos at once
// (compact JSON), the commonest number in arguments, and returns its
// value; otherwise it consumes nothing and returns ok false, and the
// caller reads the number with number. It is inlined: Int, Uint and Float
// make no call for such a number.
func (d *Decoder) digit() (v uint64, ok bool) {
	data, i := d.data, d.pos
	if uint(i+1) < uint(len(data)) && !d.fatal {
		// What follows the digit is no digit, fraction or exponent (a
		// zero followed by a digit is ScanNumber's to refuse). A digit
		// that ends the input is left to number.
		if c, next := data[i]-'0', data[i+1]; c < 10 && next-'0' >= 10 && next != '.' && next|0x20 != 'e' {
			d.pos = i + 1
			return uint64(c), true
		}
	}
	return 0, false
}

// Number reads a number and returns its literal, which aliases the input
// and is valid until the next read.
func (d *Decoder) Number(want string) ([]byte, bool) {
	lit, _, ok := d.number(want)
	return lit, ok
}

// intBits returns bits, or 64 when it is not between 1 and 64.
func intBits(bits int) int {
	if bits < 1 || bits > 64 {
		return 64
	}
	return bits
}

// parseDigits returns the value of the decimal digits b, and false when it
// overflows a uint64.
func parseDigits(b []byte) (uint64, bool) {
	if len(b) < 20 {
		var u uint64
		for _, c := range b {
			u = u*10 + uint64(c-'0')
		}
		return u, true
	}
	var u uint64
	for _, c := range b {
		if u > math.MaxUint64/10 {
			return 0, false
		}
		u *= 10
		if u > math.MaxUint64-uint64(c-'0') {
			return 0, false
		}
		u += uint64(c - '0')
	}
	return u, true
}

// Int reads an integer that fits a signed bits-bit integer (bits outside
// 1..64 mean 64). A number with a fraction or an exponent is refused, even
// "1.0" or "1e2", as encoding/json refuses it for Go integers.
func (d *Decoder) Int(want string, bits int) (int64, bool) {
	bits = intBits(bits)
	if bits >= 5 { // 9 fits
		if u, ok := d.digit(); ok {
			return int64(u), true
		}
	}
	lit, isInt, ok := d.number(want)
	if !ok {
		return 0, false
	}
	if !isInt {
		d.Problem("expected " + want + ", got a number with a fraction or exponent")
		return 0, false
	}
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	u, ok := parseDigits(lit)
	limit := uint64(1) << (bits - 1)
	if !neg {
		limit--
	}
	if !ok || u > limit {
		d.Problem("expected " + want + ", got a number out of range for a " + strconv.Itoa(bits) + "-bit integer")
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// Uint reads a non-negative integer that fits an unsigned bits-bit integer
// (bits outside 1..64 mean 64). Fractions and exponents are refused as by
// Int, and so is any negative number, "-0" included, as encoding/json does.
func (d *Decoder) Uint(want string, bits int) (uint64, bool) {
	bits = intBits(bits)
	if bits >= 4 { // 9 fits
		if u, ok := d.digit(); ok {
			return u, true
		}
	}
	lit, isInt, ok := d.number(want)
	if !ok {
		return 0, false
	}
	if !isInt {
		d.Problem("expected " + want + ", got a number with a fraction or exponent")
		return 0, false
	}
	if lit[0] == '-' {
		d.Problem("expected " + want + ", got a negative number")
		return 0, false
	}
	u, ok := parseDigits(lit)
	if !ok || bits < 64 && u >= uint64(1)<<bits {
		d.Problem("expected " + want + ", got a number out of range for a " + strconv.Itoa(bits) + "-bit integer")
		return 0, false
	}
	return u, true
}

// Float reads a number as strconv.ParseFloat(literal, bits) does (bits 32
// or 64; other values mean 64). A number too large for the float type is
// refused; one too small becomes zero, as in encoding/json.
func (d *Decoder) Float(want string, bits int) (float64, bool) {
	if u, ok := d.digit(); ok {
		return float64(u), true // exact in a float32 too
	}
	lit, isInt, ok := d.number(want)
	if !ok {
		return 0, false
	}
	if bits != 32 {
		bits = 64
	}
	// Integers of up to 15 digits are exact in a float64, and rounding them
	// once to float32 is what ParseFloat does.
	if isInt && len(lit) <= 16 {
		digits := lit
		if lit[0] == '-' {
			digits = lit[1:]
		}
		if len(digits) <= 15 {
			u, _ := parseDigits(digits)
			f := float64(u)
			if lit[0] == '-' {
				f = -f
			}
			if bits == 32 {
				f = float64(float32(f))
			}
			return f, true
		}
	}
	if !isInt && bits == 64 {
		if f, ok := shortDecimal(lit); ok {
			return f, true
		}
	}
	f, err := strconv.ParseFloat(string(lit), bits)
	if err != nil {
		d.Problem("expected " + want + ", got a number out of range for a " + strconv.Itoa(bits) + "-bit float")
		return 0, false
	}
	return f, true
}

// pow10 holds the powers of ten that a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// shortDecimal returns the float64 nearest the number lit, a valid JSON
// number with a fraction, when it has no exponent and at most 15 digits:
// the digits are then an integer a float64 holds exactly, divided by a
// power of ten it holds exactly, and one correctly rounded division gives
// what strconv.ParseFloat gives (the exact case of its own fast path,
// without its general parsing). ok is false for any other number.
func shortDecimal(lit []byte) (f float64, ok bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) > 16 { // 15 digits and the point
		return 0, false
	}
	var u uint64
	frac := -1 // digits after the point, -1 before it
	for _, c := range lit {
		switch {
		case c >= '0' && c <= '9':
			u = u*10 + uint64(c-'0')
			if frac >= 0 {
				frac++
			}
		case c == '.':
			frac = 0
		default: // an exponent
			return 0, false
		}
	}
	if frac < 0 {
		return 0, false
	}
	f = float64(u) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}
