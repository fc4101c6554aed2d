// Package patternprog compiles a schema's "pattern" into the program a
// codec.Pattern runs: what toolgen writes into generated code, so that a
// program checks its patterns without linking package regexp. The
// encoding is described on codec.Pattern.
package patternprog

import (
	"errors"
	"math"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// The ops of codec.Pattern's instructions.
const (
	opFail = iota
	opMatch
	opAlt
	opEmpty
	opNop
	opRune
	opAny
	opAnyNotNL
)

// ErrTooLarge is returned for a pattern whose program does not fit the
// encoding: more than 65,535 instructions or distinct rune ranges.
var ErrTooLarge = errors.New("pattern compiles to a program too large to encode")

// Compile compiles expr as regexp.Compile does (syntax.Parse with
// syntax.Perl, Simplify, syntax.Compile) and encodes the program as a
// codec.Pattern's bytes. It returns the *syntax.Error of an invalid
// expression, as regexp.Compile does, or ErrTooLarge.
func Compile(expr string) (string, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return "", err
	}
	if len(prog.Inst) > math.MaxUint16 {
		return "", ErrTooLarge
	}
	var flags byte
	if cond := prog.StartCond(); cond != ^syntax.EmptyOp(0) && cond&syntax.EmptyBeginText != 0 {
		flags = 1
	}
	var b, ranges strings.Builder
	b.WriteByte(flags)
	put16(&b, len(prog.Inst))
	put16(&b, prog.Start)
	tables := map[string]int{} // encoded ranges -> index of the first
	count := 0
	for i := range prog.Inst {
		in := &prog.Inst[i]
		op, arg, n := opNop, 0, 0
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			op, arg = opAlt, int(in.Arg)
		case syntax.InstEmptyWidth:
			op, arg = opEmpty, int(in.Arg)
		case syntax.InstMatch:
			op = opMatch
		case syntax.InstFail:
			op = opFail
		case syntax.InstRuneAny:
			op = opAny
		case syntax.InstRuneAnyNotNL:
			op = opAnyNotNL
		case syntax.InstRune, syntax.InstRune1:
			rs := runeRanges(in)
			var t strings.Builder
			for _, r := range rs {
				put24(&t, r)
			}
			k, ok := tables[t.String()]
			if !ok {
				k = count
				tables[t.String()] = k
				ranges.WriteString(t.String())
				count += len(rs) / 2
			}
			op, arg, n = opRune, k, len(rs)/2
		}
		if arg > math.MaxUint16 || count > math.MaxUint16 {
			return "", ErrTooLarge
		}
		b.WriteByte(byte(op))
		put16(&b, int(in.Out))
		put16(&b, arg)
		put16(&b, n)
	}
	b.WriteString(ranges.String())
	return b.String(), nil
}

// runeRanges is the sorted, disjoint pairs of lowest and highest rune that a
// rune instruction accepts, with its case folding expanded: the runes
// instruction.MatchRune accepts.
func runeRanges(in *syntax.Inst) []rune {
	var rs []rune
	switch {
	case in.Op == syntax.InstRune1 || len(in.Rune) == 1:
		r0 := in.Rune[0]
		rs = []rune{r0, r0}
		if in.Op == syntax.InstRune && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
				rs = append(rs, r, r)
			}
		}
	default:
		rs = slices.Clone(in.Rune)
	}
	pairs := make([][2]rune, 0, len(rs)/2)
	for i := 0; i+1 < len(rs); i += 2 {
		pairs = append(pairs, [2]rune{rs[i], rs[i+1]})
	}
	slices.SortFunc(pairs, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	out := rs[:0]
	for _, p := range pairs {
		if n := len(out); n > 0 && p[0] <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p[1])
			continue
		}
		out = append(out, p[0], p[1])
	}
	return out
}

// put16 writes v, at most 65,535, in 2 bytes little-endian.
func put16(b *strings.Builder, v int) {
	b.WriteByte(byte(v))
	b.WriteByte(byte(v >> 8))
}

// put24 writes the rune r in 3 bytes little-endian.
func put24(b *strings.Builder, r rune) {
	b.WriteByte(byte(r))
	b.WriteByte(byte(r >> 8))
	b.WriteByte(byte(r >> 16))
}
