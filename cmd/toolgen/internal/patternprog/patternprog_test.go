package patternprog

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
)

// patternCorpus is the expressions the matcher is compared with regexp
// on: anchors, alternation, classes, word boundaries, Unicode classes,
// case folding, repetition, empty width, dot and line modes.
var patternCorpus = []string{
	`^[a-z]+$`, `^n[1-9][0-9]*$`, `^[a-z0-9][a-z0-9-]*$`, `abc`, ``, `^`, `$`, `^$`,
	`a|b|cd`, `^(foo|bar)+$`, `(a|ab)(c|bcd)(d*)`, `[^a-z]`, `^[^\n]*$`, `[\d\s]+x`,
	`\bword\b`, `\Bin\B`, `\b`, `\B`, `^\w+@\w+\.\w{2,3}$`, `\pL+`, `^\p{Greek}+$`, `\PL`,
	`[\p{Lu}\d]{2}`, `(?i)hello`, `(?i)^straße$`, `(?i)k`, `(?i)[a-fσ]+$`, `(?i)ǅ`,
	`a{2,4}`, `^a{3}$`, `^(ab){1,3}c?$`, `x*`, `(a*)*b`, `(|a)+$`, `a.c`, `(?s)a.c`,
	`^.*$`, `(?s)^.*$`, `(?m)^b$`, `(?m)a$\n^b`, `\Aa\z`, `(?U)a+?b`, `\x{FFFD}`,
	`[\x{FFFD}]+`, `^[^a]$`, `[α-ω]`, `\.\*\+`, `^-?[0-9]+(\.[0-9]+)?$`, `日本`,
	`^[\x00-\x7f]*$`, `(?i)[^k]`, `\QA.B\E`, `[[:alpha:]]+[[:^digit:]]`, `^(?:a|b)*?c$`,
}

// patternInputs is the texts every corpus expression is tried on,
// invalid UTF-8 included.
var patternInputs = []string{
	"", "a", "abc", "n12", "n0", "n1x", "abc-1", "-abc", "ABC", "Hello", "HELLO world",
	"word", "a word here", "wording", "within", "a@b.com", "αβγ", "Ωmega", "K", "\u212a", "k",
	"STRASSE", "straße", "STRAẞE", "aa", "aaaa", "aaaaa", "ababc", "abcd", "b", "a\nc", "a\nb\nc",
	"\n", "x\nb", "aab", "3.14", "-7", "日本語", "\xff", "a\xffc", "\xef\xbf\xbd", "\xc3", "\xe6\x97",
	"Ǆ", "ǆ", "ǅ", "σς", "Σ", "A.B", "_x_", "ab\n", "\x00", "aΣb",
}

// compilePattern is the Pattern toolgen writes for expr.
func compilePattern(t testing.TB, expr string) codec.Pattern {
	t.Helper()
	prog, err := Compile(expr)
	require.NoError(t, err, expr)
	return codec.Pattern(prog)
}

// instructions is the number of instructions of p.
func instructions(p codec.Pattern) int { return int(p[1]) | int(p[2])<<8 }

// padded is p with unreachable fail instructions added up to n: the same
// expression, run by the machine for programs of n instructions (more
// than 64: queues; more than 256: queues on the heap).
func padded(p codec.Pattern, n int) codec.Pattern {
	have := instructions(p)
	if have >= n {
		return p
	}
	var b strings.Builder
	b.WriteByte(p[0])
	put16(&b, n)
	b.WriteString(string(p[3 : 5+7*have]))
	b.WriteString(strings.Repeat("\x00", 7*(n-have)))
	b.WriteString(string(p[5+7*have:]))
	return codec.Pattern(b.String())
}

// assertMatch checks that p answers on s as re does, by each of the
// matcher's machines: MatchString chooses one by the program's size.
func assertMatch(t *testing.T, re *regexp.Regexp, p codec.Pattern, s string) {
	t.Helper()
	want := re.MatchString(s)
	assert.Equal(t, want, p.MatchString(s), "%q on %q", re, s)
	assert.Equal(t, want, padded(p, 65).MatchString(s), "%q on %q (queues)", re, s)
	assert.Equal(t, want, padded(p, 300).MatchString(s), "%q on %q (queues on the heap)", re, s)
}

func TestPatternMatchesRegexp(t *testing.T) {
	t.Parallel()
	for _, expr := range patternCorpus {
		p, re := compilePattern(t, expr), regexp.MustCompile(expr)
		for _, s := range patternInputs {
			assertMatch(t, re, p, s)
		}
	}
}

func TestPatternLarge(t *testing.T) {
	t.Parallel()
	expr := `^(?:[a-z]{1,200}|x)$`
	p, re := compilePattern(t, expr), regexp.MustCompile(expr)
	assert.Greater(t, instructions(p), 256)
	for _, s := range []string{strings.Repeat("a", 200), strings.Repeat("a", 201), "x", "", "ab1"} {
		assertMatch(t, re, p, s)
	}
	huge := `^[a-z]{1,999}$`
	q := compilePattern(t, huge)
	assert.Greater(t, instructions(q), 256)
	for _, s := range []string{strings.Repeat("a", 999), strings.Repeat("a", 1000), "é"} {
		assertMatch(t, regexp.MustCompile(huge), q, s)
	}
}

// TestPatternLinear runs a pattern that makes a backtracking matcher take
// exponential time on a text where it fails.
func TestPatternLinear(t *testing.T) {
	t.Parallel()
	p := compilePattern(t, `^(a|a?)+b$`)
	assert.False(t, p.MatchString(strings.Repeat("a", 10000)))
	assert.True(t, p.MatchString(strings.Repeat("a", 10000)+"b"))
	assert.False(t, padded(p, 65).MatchString(strings.Repeat("a", 10000)))
}

func TestPatternAllocs(t *testing.T) {
	p := compilePattern(t, `^[a-z0-9][a-z0-9-]*$`)
	u := compilePattern(t, `(?i)\b\pL{2,8}\b`)
	q := compilePattern(t, `^[a-z]{1,100}$`) // more than 64 instructions
	require.Greater(t, instructions(q), 64)
	s := "release-2026-" + strings.Repeat("x", 100)
	allocs := testing.AllocsPerRun(100, func() {
		if !p.MatchString(s) || !u.MatchString("a Straße b") || !q.MatchString("abc") {
			t.Fatal("no match")
		}
	})
	assert.Zero(t, allocs)
}

func FuzzPattern(f *testing.F) {
	for i, expr := range patternCorpus {
		f.Add(expr, patternInputs[i%len(patternInputs)])
	}
	f.Fuzz(func(t *testing.T, expr, s string) {
		re, err := regexp.Compile(expr)
		if err != nil || !utf8.ValidString(expr) {
			return
		}
		prog, err := Compile(expr)
		if errors.Is(err, ErrTooLarge) {
			return
		}
		require.NoError(t, err, expr)
		assertMatch(t, re, codec.Pattern(prog), s)
		for _, c := range patternCorpus {
			assertMatch(t, regexp.MustCompile(c), compilePattern(t, c), s)
		}
	})
}

// BenchmarkPattern compares a match with regexp's, on the patterns of the
// notes tools.
func BenchmarkPattern(b *testing.B) {
	cases := []struct{ name, expr, text string }{
		{"id", `^n[1-9][0-9]*$`, "n1234"},
		{"tag", `^[a-z0-9][a-z0-9-]*$`, "release-notes-2026"},
	}
	for _, c := range cases {
		p, re := compilePattern(b, c.expr), regexp.MustCompile(c.expr)
		b.Run(c.name+"/Pattern", func(b *testing.B) {
			for b.Loop() {
				if !p.MatchString(c.text) {
					b.Fatal("no match")
				}
			}
		})
		b.Run(c.name+"/regexp", func(b *testing.B) {
			for b.Loop() {
				if !re.MatchString(c.text) {
					b.Fatal("no match")
				}
			}
		})
	}
}
