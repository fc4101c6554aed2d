package palette

import (
	"slices"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Selector picks tools by their specs. Selectors are values: build them
// with Names, Groups, Packages, Kinds, ReadOnly and All, and combine them
// with Union and Minus.
type Selector interface {
	// Match reports whether the selector picks the tool.
	Match(spec *tool.Spec) bool
}

// match is a Selector from a function.
type match func(spec *tool.Spec) bool

func (m match) Match(spec *tool.Spec) bool { return m(spec) }

// Names picks the tools with one of the exact names.
func Names(names ...string) Selector {
	names = slices.Clone(names)
	return match(func(s *tool.Spec) bool { return slices.Contains(names, s.Name) })
}

// Groups picks the tools of one of the groups (//tool:group); a tool with
// no group is in none.
func Groups(groups ...string) Selector {
	groups = slices.Clone(groups)
	return match(func(s *tool.Spec) bool { return s.Group != "" && slices.Contains(groups, s.Group) })
}

// Packages picks the tools declared in one of the Go packages, by exact
// import path (Spec.Package).
func Packages(paths ...string) Selector {
	paths = slices.Clone(paths)
	return match(func(s *tool.Spec) bool { return s.Package != "" && slices.Contains(paths, s.Package) })
}

// Kinds picks the tools of one of the kinds.
func Kinds(kinds ...tool.Kind) Selector {
	kinds = slices.Clone(kinds)
	return match(func(s *tool.Spec) bool { return slices.Contains(kinds, s.Kind) })
}

// ReadOnly picks the tools that say //tool:readonly (Spec.ReadOnly); every
// other tool is mutating.
func ReadOnly() Selector {
	return match(func(s *tool.Spec) bool { return s.ReadOnly })
}

// All picks every tool.
func All() Selector {
	return match(func(*tool.Spec) bool { return true })
}

// Union picks the tools any of the selectors picks; with none, no tool.
func Union(sels ...Selector) Selector {
	sels = slices.Clone(sels)
	return match(func(s *tool.Spec) bool {
		for _, sel := range sels {
			if sel.Match(s) {
				return true
			}
		}
		return false
	})
}

// Minus picks the tools a picks and b does not.
func Minus(a, b Selector) Selector {
	return match(func(s *tool.Spec) bool { return a.Match(s) && !b.Match(s) })
}
