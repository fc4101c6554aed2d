package skill

import (
	"context"
	"log/slog"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/editdist"
)

// Patterns names the skills a program admits, by pattern:
//
//   - an exact name: "note-taking";
//   - a prefix followed by "*": "notes-*" is every skill whose name
//     starts with "notes-";
//   - "*" alone: every skill.
//
// A "*" anywhere else is part of a name, which no skill has. A pattern
// that matches no skill is logged and skipped, never fatal: patterns
// declared in configuration outlive the skills they name, and a registry
// regenerated without one of them still starts. No patterns select
// nothing. The patterns are in any order.
type Patterns []string

// Select returns the skills of set the patterns name, sorted by name and
// each once, and the patterns that match none, in the patterns' order and
// each once. Each missing pattern is logged to logger (with the closest
// skill names when an exact name was misspelt); a nil logger means
// slog.Default(), and slog.New(slog.DiscardHandler) silences it.
func (ps Patterns) Select(set *Set, logger *slog.Logger) (selected []*Skill, missing []string) {
	for _, p := range ps {
		found := match(set, p)
		if len(found) == 0 {
			if !slices.Contains(missing, p) {
				missing = append(missing, p)
				logMissing(logger, set, p)
			}
			continue
		}
		selected = append(selected, found...)
	}
	slices.SortFunc(selected, func(a, b *Skill) int { return strings.Compare(a.Name, b.Name) })
	return slices.CompactFunc(selected, func(a, b *Skill) bool { return a.Name == b.Name }), missing
}

// Admits reports whether the patterns name the skill called name, as
// Select would choose it: what a tool that admits skills on the model's
// request checks first.
func (ps Patterns) Admits(name string) bool {
	if name == "" {
		return false
	}
	for _, p := range ps {
		prefix, isPrefix := strings.CutSuffix(p, "*")
		if (isPrefix && strings.HasPrefix(name, prefix)) || (!isPrefix && p == name) {
			return true
		}
	}
	return false
}

// match returns the skills of set that pattern p names.
func match(set *Set, p string) []*Skill {
	if prefix, ok := strings.CutSuffix(p, "*"); ok {
		return set.withPrefix(prefix)
	}
	if s, ok := set.Lookup(p); ok {
		return []*Skill{s}
	}
	return nil
}

// logMissing logs to log (nil: slog.Default()) that pattern p matches no
// skill of set.
func logMissing(log *slog.Logger, set *Set, p string) {
	if log == nil {
		log = slog.Default()
	}
	attrs := []slog.Attr{slog.String("pattern", p), slog.Int("skills", set.Len())}
	if !strings.HasSuffix(p, "*") {
		if near := closest(set, p); len(near) > 0 {
			attrs = append(attrs, slog.String("did_you_mean", strings.Join(near, ", ")))
		}
	}
	log.LogAttrs(context.Background(), slog.LevelWarn, "skill patterns: no skill matches the pattern; skipped", attrs...)
}

// closest returns the names of set nearest to name by edit distance, at
// most three, when they are near enough to be a plausible typo.
func closest(set *Set, name string) []string {
	limit := max(1, len(name)/3)
	best := limit + 1
	var out []string
	for _, s := range set.All() {
		switch d := editdist.Distance(name, s.Name); {
		case d < best:
			best, out = d, []string{s.Name}
		case d == best && len(out) < 3:
			out = append(out, s.Name)
		}
	}
	return out
}
