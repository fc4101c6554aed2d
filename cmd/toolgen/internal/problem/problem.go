// Package problem holds what every phase of toolgen reports: a problem in
// the code toolgen reads, at the position that causes it (Error), with the
// edit a "did you mean" suggests (Edit), sorted the way go build prints
// them (Sort), and the two helpers its messages share (Quote, Closest).
package problem

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/editdist"
)

// Error is one problem in the code toolgen reads, at the position that
// causes it. Every phase reports problems as *Error so that one run lists
// them all, sorted, in the `path:line:col: message` form of go build.
type Error struct {
	Pos token.Position // Filename is absolute; zero when no position is known
	Msg string
	// Other is a second place the problem involves, such as the other
	// declaration of a duplicated tool name; zero when there is none.
	Other token.Position
	// Fix, when not nil, is the edit a "did you mean" suggests; go vet's
	// analyzer offers it as a suggested fix.
	Fix *Edit
}

// Edit replaces the source between Pos and End (positions of the file set
// the problem was found with) by New; Title says what it does.
type Edit struct {
	Pos, End token.Pos
	New      string
	Title    string
}

// Error formats the problem with the positions as recorded.
func (e *Error) Error() string { return e.Relative("") }

// Relative formats the problem with its paths relative to dir, as go build
// prints paths below the working directory.
func (e *Error) Relative(dir string) string {
	return formatPos(e.Pos, dir) + e.Message(dir)
}

// Message is the problem without its position: Msg, and Other relative to
// dir when there is one.
func (e *Error) Message(dir string) string {
	if e.Other.Filename == "" {
		return e.Msg
	}
	return e.Msg + " (other declaration at " + strings.TrimSuffix(formatPos(e.Other, dir), ": ") + ")"
}

func formatPos(p token.Position, dir string) string {
	if p.Filename == "" {
		return ""
	}
	name := p.Filename
	if dir != "" {
		// As go build does: the relative path when it is shorter.
		if rel, err := filepath.Rel(dir, name); err == nil && len(rel) < len(name) {
			name = rel
		}
	}
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d: ", name, p.Line, p.Column)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: ", name, p.Line)
	default:
		return name + ": "
	}
}

// Errorf returns a problem at pos.
func Errorf(pos token.Position, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// Sort orders problems by file, line, column and message and drops
// exact duplicates, so output is stable however the phases found them.
func Sort(errs []*Error) []*Error {
	slices.SortFunc(errs, func(a, b *Error) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Msg, b.Msg),
			cmp.Compare(a.Other.Filename, b.Other.Filename),
			cmp.Compare(a.Other.Line, b.Other.Line),
		)
	})
	return slices.CompactFunc(errs, func(a, b *Error) bool { return *a == *b })
}

// Quote is s in double quotes, as a message names a tool, key or skill.
func Quote(s string) string { return `"` + s + `"` }

// Closest returns the candidate nearest to s by edit distance, or "" when
// none is near enough to be a plausible typo.
func Closest(s string, candidates []string) string {
	best, bestDist := "", max(1, len(s)/2)+1
	for _, c := range candidates {
		if d := editdist.Distance(s, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
