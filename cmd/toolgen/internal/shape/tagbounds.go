package shape

import (
	"math/big"
	"strings"
)

// Numeric bounds of jsonschema tags, compared exactly (big.Rat): what
// tagCheck.bounds uses to refuse bounds that contradict each other or an
// enum value outside them.

// bound is a numeric bound, whether it excludes its value, and the key
// that set it.
type bound struct {
	r      *big.Rat
	strict bool
	text   string
}

// excludes reports whether the lower bound b and the upper bound hi leave
// no value between them.
func (b *bound) excludes(hi *bound) bool {
	c := b.r.Cmp(hi.r)
	return c > 0 || c == 0 && (b.strict || hi.strict)
}

// below reports whether v is under the lower bound b.
func (b *bound) below(v *big.Rat) bool {
	c := v.Cmp(b.r)
	return c < 0 || c == 0 && b.strict
}

// above reports whether v is over the upper bound b.
func (b *bound) above(v *big.Rat) bool {
	c := v.Cmp(b.r)
	return c > 0 || c == 0 && b.strict
}

// numericBounds is the tightest lower and upper bound the keywords set.
// For integers an exclusive bound becomes the inclusive one of the next
// integer, so that exclusiveMinimum=1,exclusiveMaximum=2 leaves nothing.
func numericBounds(vals map[string]string, integer bool) (lo, hi *bound) {
	one := big.NewRat(1, 1)
	for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
		v, ok := vals[k]
		if !ok {
			continue
		}
		r, ok := new(big.Rat).SetString(v)
		if !ok {
			continue
		}
		b := &bound{r: r, strict: strings.HasPrefix(k, "exclusive"), text: k + "=" + v}
		lower := strings.HasSuffix(k, "inimum")
		if integer {
			switch {
			case lower && b.strict:
				b.r = new(big.Rat).Add(floorRat(r), one)
			case lower:
				b.r = ceilRat(r)
			case b.strict:
				b.r = new(big.Rat).Sub(ceilRat(r), one)
			default:
				b.r = floorRat(r)
			}
			b.strict = false
		}
		if lower {
			if lo == nil || b.r.Cmp(lo.r) > 0 || b.r.Cmp(lo.r) == 0 && b.strict {
				lo = b
			}
		} else if hi == nil || b.r.Cmp(hi.r) < 0 || b.r.Cmp(hi.r) == 0 && b.strict {
			hi = b
		}
	}
	return lo, hi
}

func floorRat(r *big.Rat) *big.Rat {
	q := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: floor for a positive denominator
	return new(big.Rat).SetInt(q)
}

func ceilRat(r *big.Rat) *big.Rat {
	f := floorRat(r)
	if f.Cmp(r) == 0 {
		return f
	}
	return new(big.Rat).Add(f, big.NewRat(1, 1))
}

// pair returns two unsigned values of vals when both are set.
func pair(vals map[string]string, a, b string) (*big.Int, *big.Int, bool) {
	va, okA := vals[a]
	vb, okB := vals[b]
	if !okA || !okB {
		return nil, nil, false
	}
	return bigInt(va), bigInt(vb), true
}

func bigInt(s string) *big.Int {
	n, _ := new(big.Int).SetString(s, 10)
	if n == nil {
		return new(big.Int)
	}
	return n
}
