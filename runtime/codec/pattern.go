package codec

import (
	"regexp"
	"sync"
)

// Pattern is a regular expression compiled on its first use: how generated
// code checks a schema's "pattern" keyword. Generated code declares one
// per pattern as a package-level composite literal,
//
//	var itemNamePattern = toolimpl.Pattern{Expr: `^[a-z]+$`}
//
// which the linker lays out as data, so a program runs no code at start-up
// for the patterns of the tools it never calls. A Pattern must not be
// copied after its first use.
type Pattern struct {
	// Expr is the expression in RE2 syntax. toolgen compiles every
	// pattern when it generates the code, so a generated Expr is valid.
	Expr string

	once sync.Once
	re   *regexp.Regexp
}

// MatchString reports whether s contains a match of the pattern, compiling
// it on the first call. It panics if Expr is not a valid expression.
func (p *Pattern) MatchString(s string) bool {
	p.once.Do(func() { p.re = regexp.MustCompile(p.Expr) })
	return p.re.MatchString(s)
}
