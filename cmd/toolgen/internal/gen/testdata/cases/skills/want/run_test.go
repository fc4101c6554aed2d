package want_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/skills/clock"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/skills/notes"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/skills/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/skills/want/clocktools"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/skills/want/notestools"
	"github.com/toolgen-go/toolgen/runtime/skill"
)

// These tests run the golden output of the skills case: toolgen's
// internal/gen tests run them with `go test` on this directory.

func names(list []*skill.Skill) []string {
	out := []string{}
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

// TestSkillsDiscovered: the three SKILL.md folders beside the two tools
// packages are in the registry, sorted, with their checked front matter.
func TestSkillsDiscovered(t *testing.T) {
	set := want.Skills()
	assert.Equal(t, []string{"note-taking", "notes-review", "time-zones"}, names(set.All()))
	s, ok := set.Lookup("note-taking")
	require.True(t, ok)
	assert.Equal(t, "Apache-2.0", s.License)
	assert.Equal(t, []skill.Meta{{Key: "author", Value: "toolgen"}, {Key: "version", Value: "1.2"}}, s.Metadata)
	assert.Equal(t, []string{"notes_search", "notes_create"}, s.AllowedTools)
	assert.True(t, strings.HasPrefix(s.Body, "# Taking notes\n\nSearch before you create: `notes_search`"), s.Body)
	tz, ok := set.Lookup("time-zones")
	require.True(t, ok)
	assert.Equal(t, "Call clock_now, then convert.\n", tz.Body, "CRLF read as LF")
}

// TestSkillsSelected: exact names, prefixes and all; a missing name is
// skipped, never fatal.
func TestSkillsSelected(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	got, missing := skill.Patterns{"notes-*", "time-zones", "travel"}.Select(want.Skills(), quiet)
	assert.Equal(t, []string{"notes-review", "time-zones"}, names(got))
	assert.Equal(t, []string{"travel"}, missing)
	got, missing = skill.Patterns{"*"}.Select(want.Skills(), quiet)
	assert.Len(t, got, 3)
	assert.Empty(t, missing)
}

// TestAllowedToolsAreTools: every tool a skill pre-approves is a tool of
// the registry built beside it.
func TestAllowedToolsAreTools(t *testing.T) {
	reg, err := want.New([]want.Tools{clocktools.Tools{ClockNow: clock.Now{}}, notestools.Tools{NotesCreate: notes.Create{}, NotesSearch: notes.Search{}}})
	require.NoError(t, err)
	for _, s := range want.Skills().All() {
		for _, name := range s.AllowedTools {
			_, ok := reg.Lookup(name)
			assert.True(t, ok, "skill %s allows %s", s.Name, name)
		}
	}
	res, err := reg.Call(context.Background(), "notes_search", []byte(`{"query":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, "found x", res.Text())
}

// TestPreambleOfAdmittedSkills: an admitted skill rides the preamble, the
// same bytes whatever the order of admission.
func TestPreambleOfAdmittedSkills(t *testing.T) {
	all := want.Skills().All()
	var a, b skill.Admitted
	a.Admit(all[2], all[0])
	b.Admit(all[0])
	b.Admit(all[2])
	assert.Equal(t, a.Preamble(), b.Preamble())
	assert.Contains(t, a.Preamble(), "<name>note-taking</name>")
	assert.NotContains(t, a.Preamble(), "notes-review")
}
