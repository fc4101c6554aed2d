package skill_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/skill"
)

func TestPreamble(t *testing.T) {
	t.Parallel()
	set := testSet()
	taking, _ := set.Lookup("note-taking")
	review, _ := set.Lookup("notes-review")
	want := "<active_skills>\n" +
		"<skill>\n<name>note-taking</name>\n<description>Notes.</description>\n<allowed_tools>notes_search notes_create</allowed_tools>\n<instructions>\nSearch first.\n</instructions>\n</skill>\n" +
		"<skill>\n<name>notes-review</name>\n<description>Reviews.</description>\n<instructions>\n</instructions>\n</skill>\n" +
		"</active_skills>\n"
	assert.Equal(t, want, skill.Preamble([]*skill.Skill{taking, review}))
	assert.Equal(t, want, skill.Preamble([]*skill.Skill{review, nil, taking, review}), "order, nils and repeats make no difference")
	assert.Empty(t, skill.Preamble(nil))
}

// TestAdmitted: a skill admitted once stays; the preamble is byte-identical
// for the same set whatever the order of admission.
func TestAdmitted(t *testing.T) {
	t.Parallel()
	set := testSet()
	all := set.All()

	var a skill.Admitted
	assert.Empty(t, a.Preamble())
	assert.Equal(t, []string{"notes-review"}, names(a.Admit(all[3])))
	assert.Equal(t, []string{"clock-zones", "note-taking"}, names(a.Admit(all[1], all[0], all[3])), "only the new ones")
	assert.Empty(t, a.Admit(all[0]))
	assert.True(t, a.Has("note-taking"))
	assert.False(t, a.Has("notes-archive"))
	assert.Equal(t, []string{"clock-zones", "note-taking", "notes-review"}, names(a.Skills()))

	var b skill.Admitted
	b.Admit(all[0], all[1], all[3])
	require.NotEmpty(t, a.Preamble())
	assert.Equal(t, b.Preamble(), a.Preamble())
	assert.Equal(t, skill.Preamble([]*skill.Skill{all[0], all[1], all[3]}), a.Preamble())

	a.Admit(all[2])
	assert.Contains(t, a.Preamble(), "<name>notes-archive</name>", "rendered again after a change")
}

func TestAdmittedConcurrently(t *testing.T) {
	t.Parallel()
	var a skill.Admitted
	var wg sync.WaitGroup
	for _, s := range testSet().All() {
		wg.Go(func() {
			a.Admit(s)
			_ = a.Preamble()
		})
	}
	wg.Wait()
	assert.Equal(t, skill.Preamble(testSet().All()), a.Preamble())
}
