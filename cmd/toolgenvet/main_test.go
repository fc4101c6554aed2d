package main_test

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoVet builds toolgenvet and runs it as go vet does for a user, over
// testdata/mistakes: notes has mistakes of its own and admin, which
// imports it, declares one of its tool names again. It is not skipped in
// short mode: it is the only test of the command as go vet runs it
// (unitchecker, with facts passed between packages in files).
func TestGoVet(t *testing.T) {
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "toolgenvet")
	out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)

	out, err = exec.Command(goCmd, "vet", "-vettool="+bin, "./testdata/mistakes/...").CombinedOutput()
	require.Error(t, err, "go vet must fail on the mistakes:\n%s", out)
	want := []string{
		`testdata/mistakes/admin/admin.go:12:1: duplicate tool name "notes_search" (other declaration at ../notes/notes.go:14:1)`,
		`testdata/mistakes/notes/notes.go:15:1: unknown directive //tool:readnoly; did you mean //tool:readonly?`,
		`testdata/mistakes/notes/notes.go:25:1: //tool:destructive conflicts with //tool:kind read`,
		`testdata/mistakes/notes/notes.go:29:15: Delete.Call: the first parameter must be context.Context; want func (T) Call(ctx context.Context, in In) (Out, error) or func (T) Call(ctx context.Context) (Out, error)`,
		`testdata/mistakes/notes/notes.go:9:2: notes.SearchInput.Seen: channels have no JSON form`,
	}
	assert.Equal(t, want, diagnostics(string(out)), "go vet printed:\n%s", out)

	// The did-you-mean fix, as go vet -fix -diff shows it.
	out, _ = exec.Command(goCmd, "vet", "-vettool="+bin, "-fix", "-diff", "./testdata/mistakes/notes").CombinedOutput()
	assert.Contains(t, string(out), "-//tool:readnoly\n+//tool:readonly\n", "go vet -fix -diff printed:\n%s", out)
}

// diagnostics returns go vet's diagnostic lines, sorted: packages are
// vetted in parallel, and the "# package" headers are left out.
func diagnostics(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	slices.Sort(lines)
	return lines
}
