package skill

import (
	"slices"
	"strings"
	"sync"
)

// Preamble renders skills for a conversation's system preamble: each
// skill's name, description, allowed tools and instructions (its body),
// sorted by name, each once, in tags models are trained to read:
//
//	<active_skills>
//	<skill>
//	<name>note-taking</name>
//	<description>Keeps and finds the user's notes ...</description>
//	<allowed_tools>notes_search notes_get</allowed_tools>
//	<instructions>
//	... the SKILL.md body ...
//	</instructions>
//	</skill>
//	</active_skills>
//
// The text depends on the set of skills only, not on their order or on
// when they were admitted: the same skills give the same bytes, so a
// provider's prompt cache keeps matching. No skills give "". The tags are
// a layout for the model, not XML: nothing is escaped (the text is the
// registry author's, compiled in).
func Preamble(skills []*Skill) string {
	list := sortedUnique(skills)
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<active_skills>\n")
	for _, s := range list {
		b.WriteString("<skill>\n<name>")
		b.WriteString(s.Name)
		b.WriteString("</name>\n<description>")
		b.WriteString(s.Description)
		b.WriteString("</description>\n")
		if len(s.AllowedTools) > 0 {
			b.WriteString("<allowed_tools>")
			b.WriteString(strings.Join(s.AllowedTools, " "))
			b.WriteString("</allowed_tools>\n")
		}
		b.WriteString("<instructions>\n")
		if body := strings.TrimRight(s.Body, "\n"); body != "" {
			b.WriteString(body)
			b.WriteString("\n")
		}
		b.WriteString("</instructions>\n</skill>\n")
	}
	b.WriteString("</active_skills>\n")
	return b.String()
}

// sortedUnique returns the non-nil skills of list sorted by name, the
// first of each name only.
func sortedUnique(list []*Skill) []*Skill {
	out := slices.DeleteFunc(slices.Clone(list), func(s *Skill) bool { return s == nil })
	slices.SortStableFunc(out, func(a, b *Skill) int { return strings.Compare(a.Name, b.Name) })
	return slices.CompactFunc(out, func(a, b *Skill) bool { return a.Name == b.Name })
}

// Admitted is the skills admitted to one conversation: a skill once
// admitted stays, and rides the conversation's preamble from then on.
// Keep one per conversation (a program that stores conversations stores
// the names and admits them again from the registry's Set). The zero
// value holds no skill and is ready; it is safe for concurrent use.
type Admitted struct {
	mu       sync.Mutex
	skills   []*Skill // sorted by name
	preamble string
	rendered bool // preamble is Preamble(skills)
}

// Admit attaches skills to the conversation and returns those it did not
// hold yet, sorted by name. A skill whose name it holds is left as it is.
func (a *Admitted) Admit(skills ...*Skill) (added []*Skill) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range sortedUnique(skills) {
		i, found := slices.BinarySearchFunc(a.skills, s.Name, func(k *Skill, n string) int { return strings.Compare(k.Name, n) })
		if found {
			continue
		}
		a.skills = slices.Insert(a.skills, i, s)
		added = append(added, s)
	}
	if len(added) > 0 {
		a.rendered = false
	}
	return added
}

// Has reports whether the skill called name is admitted.
func (a *Admitted) Has(name string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, found := slices.BinarySearchFunc(a.skills, name, func(k *Skill, n string) int { return strings.Compare(k.Name, n) })
	return found
}

// Skills returns the admitted skills, sorted by name.
func (a *Admitted) Skills() []*Skill {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.skills)
}

// Preamble returns Preamble of the admitted skills, rendered once per
// change.
func (a *Admitted) Preamble() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.rendered {
		a.preamble, a.rendered = Preamble(a.skills), true
	}
	return a.preamble
}
