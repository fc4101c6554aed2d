package gen

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSkillDuplicateThroughGoGenerate runs the skilldup case's go:generate
// line as a user would: two folders declare one skill name, and the build
// of the registry fails naming both.
func TestSkillDuplicateThroughGoGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go generate")
	}
	cmd := exec.Command("go", "generate", ".")
	cmd.Dir = "testdata/cases/skilldup/a"
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "go generate must fail on a duplicate skill name")
	assert.Contains(t, string(out), `skills/shared-skill/SKILL.md:2:7: duplicate skill name "shared-skill" (other declaration at ../b/skills/shared-skill/SKILL.md:3:7)`)
	assert.Contains(t, string(out), `b/skills/shared-skill/SKILL.md:3:7: duplicate skill name "shared-skill" (other declaration at skills/shared-skill/SKILL.md:2:7)`)
	_, statErr := os.Stat("testdata/cases/skilldup/want/registry_gen.go")
	assert.True(t, os.IsNotExist(statErr), "nothing is written when there are problems")
}

func TestSkillNameFor(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Bad_Name":       "bad-name",
		"-lead":          "lead",
		"a--b":           "a-b",
		"Notes Review!":  "notes-review",
		"___":            "",
		"already-valid1": "already-valid1",
	} {
		assert.Equal(t, want, skillNameFor(in), in)
	}
}
