package skill

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Meta is one pair of a skill's metadata map.
type Meta struct {
	Key, Value string
}

// Skill is one skill as its SKILL.md declares it. A Skill handed out by a
// Set is shared: callers must not modify it or the slices it holds.
type Skill struct {
	// Name is the skill's name: 1 to 64 lower-case letters, digits and
	// hyphens, the name of its folder; unique in a registry.
	Name string
	// Description says what the skill does and when to use it.
	Description string
	// License is the skill's license, or "".
	License string
	// Compatibility states the skill's environment requirements, or "".
	Compatibility string
	// Metadata holds the front matter's metadata map, sorted by key.
	Metadata []Meta
	// AllowedTools names the registry's tools the skill pre-approves, in
	// the order its front matter lists them (the format's experimental
	// allowed-tools field).
	AllowedTools []string
	// Body is the Markdown after the front matter: the instructions.
	Body string
	// Source is where toolgen found the SKILL.md, relative to the root of
	// its module, with slashes.
	Source string
}

// Set is a registry's skills, sorted by name. Its methods never modify
// it: one Set can serve every conversation at once.
type Set struct {
	list []Skill
}

// NewSet returns the Set of the skills in list, sorted by name; list is
// copied. It fails on an empty name and on a name given twice.
func NewSet(list []Skill) (*Set, error) {
	list = slices.Clone(list)
	slices.SortFunc(list, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	var errs []error
	for i, s := range list {
		switch {
		case s.Name == "":
			errs = append(errs, errors.New("skill: a skill has no name"))
		case i > 0 && list[i-1].Name == s.Name:
			errs = append(errs, fmt.Errorf("skill: duplicate skill name %q", s.Name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Set{list: list}, nil
}

// NewTable returns the Set of a table a generated package holds: sorted by
// name, names unique, never modified. It is for generated code only:
// toolgen checked the table when it wrote it, so nothing is checked or
// copied here.
func NewTable(table []Skill) *Set {
	return &Set{list: table}
}

// Len returns how many skills s holds.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.list)
}

// All returns every skill of s, sorted by name.
func (s *Set) All() []*Skill {
	out := make([]*Skill, s.Len())
	for i := range out {
		out[i] = &s.list[i]
	}
	return out
}

// Lookup returns the skill named name.
func (s *Set) Lookup(name string) (*Skill, bool) {
	if s == nil {
		return nil, false
	}
	i, ok := slices.BinarySearchFunc(s.list, name, func(k Skill, n string) int { return cmp.Compare(k.Name, n) })
	if !ok {
		return nil, false
	}
	return &s.list[i], true
}

// withPrefix returns the skills of s whose names start with prefix, sorted
// by name.
func (s *Set) withPrefix(prefix string) []*Skill {
	if s == nil {
		return nil
	}
	i, _ := slices.BinarySearchFunc(s.list, prefix, func(k Skill, n string) int { return cmp.Compare(k.Name, n) })
	var out []*Skill
	for ; i < len(s.list) && strings.HasPrefix(s.list[i].Name, prefix); i++ {
		out = append(out, &s.list[i])
	}
	return out
}
