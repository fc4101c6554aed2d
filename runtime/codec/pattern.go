package codec

import (
	"math/bits"
	"unicode/utf8"
)

// Pattern is a regular expression compiled by toolgen into a program: how
// generated code checks a schema's "pattern" keyword. Generated code
// declares one per pattern as a typed string constant,
//
//	const itemNamePattern toolimpl.Pattern = "\x00\x06\x00..."
//
// which the linker lays out as read-only bytes, so a program links no
// regular expression package, builds no tables and runs no code at
// start-up for its patterns. MatchString gives exactly the answer of Go's
// regexp.MustCompile(expr).MatchString for every input, valid UTF-8 or
// not, in time linear in the input.
//
// The program is that of regexp/syntax (Parse with syntax.Perl, Simplify,
// Compile), encoded by toolgen; a Pattern is only valid as toolgen writes
// it. Its bytes are a header, the instructions and their rune ranges:
//
//	header:      flags (1: the match must start at the beginning of the
//	             text), number of instructions (2 bytes), first
//	             instruction (2 bytes)
//	instruction: op, out (2 bytes), arg (2 bytes), count (2 bytes)
//	rune range:  lowest and highest rune, 3 bytes each
//
// with every number little-endian. The ops are those of regexp/syntax:
// alternation (out and arg), empty width (the conditions in arg, with the
// values of syntax.EmptyOp), no-op (captures too), any rune, any rune but
// a newline, match, fail; and runes, count ranges from the range arg,
// case folding expanded by toolgen.
type Pattern string

// The ops of a Pattern's instructions.
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

// The empty-width conditions, as syntax.EmptyOp numbers them.
const (
	emptyBeginLine = 1 << iota
	emptyEndLine
	emptyBeginText
	emptyEndText
	emptyWordBoundary
	emptyNoWordBoundary
)

// The layout of a Pattern's bytes.
const (
	patternHeader = 5
	patternInst   = 7
	patternRange  = 6
)

// smallPattern is the most instructions a match runs with its state on
// the stack, without allocating; a longer program (rare: a class such as
// \pL is one instruction, a{1,100} a hundred) allocates its state. A
// program of at most 64 instructions, the common case, runs on bit sets
// (matchBits).
const smallPattern = 256

// MatchString reports whether s contains a match of the pattern.
func (p Pattern) MatchString(s string) bool {
	if p.u16(1) <= 64 {
		return p.matchBits(s)
	}
	return p.matchQueues(s)
}

// matchQueues is MatchString for a program of any size.
func (p Pattern) matchQueues(s string) bool {
	n := int(p.u16(1))
	if n <= smallPattern {
		var on [2][smallPattern / 64]uint64
		var pcs [2][smallPattern]uint16
		var stack [smallPattern]uint16
		m := machine{p: p, stack: stack[:n]}
		m.q[0] = queue{on: on[0][:(n+63)/64], pcs: pcs[0][:n]}
		m.q[1] = queue{on: on[1][:(n+63)/64], pcs: pcs[1][:n]}
		return m.match(s)
	}
	words := (n + 63) / 64
	m := machine{p: p, stack: make([]uint16, n)}
	m.q[0] = queue{on: make([]uint64, words), pcs: make([]uint16, n)}
	m.q[1] = queue{on: make([]uint64, words), pcs: make([]uint16, n)}
	return m.match(s)
}

// matchBits is MatchString for a program of at most 64 instructions: the
// instructions a match is at, at a position, are the bits of a word.
func (p Pattern) matchBits(s string) bool {
	anchored := p[0]&1 != 0
	var runes uint64 // the instructions that consume a rune
	for pc := range int(p.u16(1)) {
		if p[patternHeader+pc*patternInst] >= opRune {
			runes |= 1 << pc
		}
	}
	var cur, lastTargets, lastCur uint64
	lastAt := uint16(0xffff) // no context: lastCur is not yet set
	prev := rune(-1)
	r, w := step(s, 0)
	for pos := 0; ; {
		if pos == 0 || !anchored {
			var matched bool
			if cur, matched = p.follow(cur, 1<<p.u16(3), context(prev, r)); matched {
				return true
			}
		} else if cur&runes == 0 {
			return false
		}
		if w == 0 {
			return false
		}
		r1, w1 := step(s, pos+w)
		var targets uint64
		for set := cur & runes; set != 0; set &= set - 1 {
			i := patternHeader + bits.TrailingZeros64(set)*patternInst
			if p.consumes(i, r) {
				targets |= 1 << p.u16(i+1)
			}
		}
		// A loop such as [a-z]* comes back to the same instructions at
		// every rune: what they lead to is that of the last step.
		if at := context(r, r1); targets != lastTargets || at != lastAt {
			var matched bool
			if cur, matched = p.follow(0, targets, at); matched {
				return true
			}
			lastTargets, lastAt, lastCur = targets, at, cur
		} else {
			cur = lastCur
		}
		pos += w
		prev, r, w = r, r1, w1
	}
}

// follow adds to the set on the instructions reached from those of from
// without consuming a rune, in the empty-width context at, and reports
// whether one is a match.
func (p Pattern) follow(on, from uint64, at uint16) (uint64, bool) {
	pending := from &^ on
	on |= pending
	for pending != 0 {
		i := patternHeader + bits.TrailingZeros64(pending)*patternInst
		pending &= pending - 1
		var out uint64
		switch p[i] {
		case opMatch:
			return on, true
		case opAlt:
			out = 1<<p.u16(i+1) | 1<<p.u16(i+3)
		case opNop:
			out = 1 << p.u16(i+1)
		case opEmpty:
			if p.u16(i+3)&^at == 0 {
				out = 1 << p.u16(i+1)
			}
		}
		out &^= on
		on |= out
		pending |= out
	}
	return on, false
}

// u16 is the little-endian number at p[i:i+2].
func (p Pattern) u16(i int) uint16 { return uint16(p[i]) | uint16(p[i+1])<<8 }

// rune3 is the little-endian rune at p[i:i+3].
func (p Pattern) rune3(i int) rune { return rune(p[i]) | rune(p[i+1])<<8 | rune(p[i+2])<<16 }

// queue is the set of instructions a match is at, at one position: on
// marks every instruction visited there, pcs[:n] lists those that consume
// a rune. (Slices written by index, never appended to, so that their
// arrays stay on the stack.)
type queue struct {
	on  []uint64
	pcs []uint16
	n   int
}

// reset empties q.
func (q *queue) reset() {
	clear(q.on)
	q.n = 0
}

// machine runs a Pattern's program over a text, a thread per instruction
// (a Pike VM): the instructions at the current position and at the next.
type machine struct {
	p     Pattern
	q     [2]queue
	stack []uint16 // stack[:top]: the instructions add has still to follow
	top   int
}

// match reports whether the program matches somewhere in s.
func (m *machine) match(s string) bool {
	anchored := m.p[0]&1 != 0
	start := m.p.u16(3)
	cur, next := &m.q[0], &m.q[1]
	prev := rune(-1)
	r, w := step(s, 0)
	for pos := 0; ; {
		if pos == 0 || !anchored {
			if m.add(cur, start, context(prev, r)) {
				return true
			}
		} else if cur.n == 0 {
			return false
		}
		if w == 0 {
			return false
		}
		r1, w1 := step(s, pos+w)
		at := context(r, r1)
		next.reset()
		for _, pc := range cur.pcs[:cur.n] {
			if m.p.consumes(patternHeader+int(pc)*patternInst, r) && m.add(next, m.p.u16(patternHeader+int(pc)*patternInst+1), at) {
				return true
			}
		}
		cur, next = next, cur
		pos += w
		prev, r, w = r, r1, w1
	}
}

// add puts on q the instructions reached from pc without consuming a rune,
// in the empty-width context at, and reports whether one is a match.
func (m *machine) add(q *queue, pc uint16, at uint16) bool {
	if !m.push(q, pc) {
		return false
	}
	for m.top > 0 {
		m.top--
		pc = m.stack[m.top]
		i := patternHeader + int(pc)*patternInst
		switch m.p[i] {
		case opMatch:
			m.top = 0
			return true
		case opAlt:
			m.push(q, m.p.u16(i+1))
			m.push(q, m.p.u16(i+3))
		case opNop:
			m.push(q, m.p.u16(i+1))
		case opEmpty:
			if m.p.u16(i+3)&^at == 0 {
				m.push(q, m.p.u16(i+1))
			}
		case opRune, opAny, opAnyNotNL:
			q.pcs[q.n] = pc
			q.n++
		}
	}
	return false
}

// push marks pc as visited on q and stacks it, unless it was visited.
func (m *machine) push(q *queue, pc uint16) bool {
	w, b := pc/64, uint64(1)<<(pc%64)
	if q.on[w]&b != 0 {
		return false
	}
	q.on[w] |= b
	m.stack[m.top] = pc
	m.top++
	return true
}

// consumes reports whether the rune instruction at p[i:] accepts r.
func (p Pattern) consumes(i int, r rune) bool {
	switch p[i] {
	case opAny:
		return true
	case opAnyNotNL:
		return r != '\n'
	}
	base := patternHeader + int(p.u16(1))*patternInst + int(p.u16(i+3))*patternRange
	count := int(p.u16(i + 5))
	if count <= 8 {
		for j := range count {
			k := base + j*patternRange
			if r < p.rune3(k) {
				return false
			}
			if r <= p.rune3(k+3) {
				return true
			}
		}
		return false
	}
	lo, hi := 0, count
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		k := base + mid*patternRange
		switch {
		case r < p.rune3(k):
			hi = mid
		case r > p.rune3(k+3):
			lo = mid + 1
		default:
			return true
		}
	}
	return false
}

// step decodes the rune at s[i:] as regexp does: an invalid byte is
// utf8.RuneError of width 1, and the end of s is -1 of width 0.
func step(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// context is the empty-width conditions that hold between r1 and r2 (-1
// at either end of the text), as syntax.EmptyOpContext has them.
func context(r1, r2 rune) uint16 {
	var op uint16 = emptyNoWordBoundary
	var boundary byte
	switch {
	case isWordChar(r1):
		boundary = 1
	case r1 == '\n':
		op |= emptyBeginLine
	case r1 < 0:
		op |= emptyBeginText | emptyBeginLine
	}
	switch {
	case isWordChar(r2):
		boundary ^= 1
	case r2 == '\n':
		op |= emptyEndLine
	case r2 < 0:
		op |= emptyEndText | emptyEndLine
	}
	if boundary != 0 {
		op ^= emptyWordBoundary | emptyNoWordBoundary
	}
	return op
}

// isWordChar reports whether r is an ASCII word character, what \b means
// by one.
func isWordChar(r rune) bool {
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}
