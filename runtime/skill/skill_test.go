package skill_test

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/skill"
)

// testSet is a registry's skills as a generated package holds them.
func testSet() *skill.Set {
	return skill.NewTable([]skill.Skill{
		{Name: "clock-zones", Description: "Time zones.", Body: "Use clock_zones.\n"},
		{Name: "note-taking", Description: "Notes.", AllowedTools: []string{"notes_search", "notes_create"}, Body: "Search first.\n"},
		{Name: "notes-archive", Description: "Archiving.", Body: "Tag, then delete.\n"},
		{Name: "notes-review", Description: "Reviews.", Body: ""},
	})
}

func names(list []*skill.Skill) []string {
	out := []string{}
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

func TestNewSet(t *testing.T) {
	t.Parallel()
	set, err := skill.NewSet([]skill.Skill{{Name: "b"}, {Name: "a"}, {Name: "c"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, names(set.All()), "sorted by name")
	assert.Equal(t, 3, set.Len())
	s, ok := set.Lookup("b")
	require.True(t, ok)
	assert.Equal(t, "b", s.Name)
	_, ok = set.Lookup("d")
	assert.False(t, ok)

	_, err = skill.NewSet([]skill.Skill{{Name: "a"}, {Name: "b"}, {Name: "a"}, {}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `duplicate skill name "a"`)
	assert.Contains(t, err.Error(), "a skill has no name")
}

func TestNilSet(t *testing.T) {
	t.Parallel()
	var set *skill.Set
	assert.Equal(t, 0, set.Len())
	assert.Empty(t, set.All())
	_, ok := set.Lookup("a")
	assert.False(t, ok)
	got, missing := skill.Patterns{"*", "a"}.Select(set, discard())
	assert.Empty(t, got)
	assert.Equal(t, []string{"*", "a"}, missing)
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// logTo returns a logger writing text lines to buf, without times.
func logTo(buf *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}
