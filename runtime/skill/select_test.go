package skill_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/skill"
)

func TestSelect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		patterns []string
		want     []string
		missing  []string
	}{
		{"exact", []string{"note-taking"}, []string{"note-taking"}, nil},
		{"exact names in any order", []string{"notes-review", "clock-zones"}, []string{"clock-zones", "notes-review"}, nil},
		{"prefix", []string{"notes-*"}, []string{"notes-archive", "notes-review"}, nil},
		{"prefix of a whole name", []string{"note-taking*"}, []string{"note-taking"}, nil},
		{"prefix and exact overlap: each once", []string{"note*", "note-taking", "notes-review"}, []string{"note-taking", "notes-archive", "notes-review"}, nil},
		{"all", []string{"*"}, []string{"clock-zones", "note-taking", "notes-archive", "notes-review"}, nil},
		{"none", nil, []string{}, nil},
		{"missing name skipped", []string{"note-taking", "travel-planning"}, []string{"note-taking"}, []string{"travel-planning"}},
		{"missing prefix skipped", []string{"weather-*", "clock-zones"}, []string{"clock-zones"}, []string{"weather-*"}},
		{"a star inside is part of a name", []string{"notes-*-x", "n*tes"}, []string{}, []string{"notes-*-x", "n*tes"}},
		{"missing once", []string{"gone", "gone", ""}, []string{}, []string{"gone", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, missing := skill.Patterns(tt.patterns).Select(testSet(), discard())
			assert.Equal(t, tt.want, names(got))
			assert.Equal(t, tt.missing, missing)
		})
	}
}

// TestSelectLogsMissing: a name the registry lacks is logged, with the
// closest names when it looks misspelt, and skipped.
func TestSelectLogsMissing(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	got, missing := skill.Patterns{"note-takng", "weather-*", "clock-zones"}.Select(testSet(), logTo(&buf))
	assert.Equal(t, []string{"clock-zones"}, names(got))
	assert.Equal(t, []string{"note-takng", "weather-*"}, missing)
	assert.Equal(t,
		`level=WARN msg="skill patterns: no skill matches the pattern; skipped" pattern=note-takng skills=4 did_you_mean=note-taking`+"\n"+
			`level=WARN msg="skill patterns: no skill matches the pattern; skipped" pattern=weather-* skills=4`+"\n",
		buf.String())
}

func TestAdmits(t *testing.T) {
	t.Parallel()
	sel := skill.Patterns{"note-taking", "clock-*"}
	assert.True(t, sel.Admits("note-taking"))
	assert.True(t, sel.Admits("clock-zones"))
	assert.True(t, sel.Admits("clock-anything"), "a prefix admits names the registry may not have")
	assert.False(t, sel.Admits("notes-review"))
	assert.False(t, sel.Admits(""))
	assert.True(t, skill.Patterns{"*"}.Admits("x"))
	assert.False(t, skill.Patterns{}.Admits("x"))
}
