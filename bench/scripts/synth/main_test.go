package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWrite(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "synth")
	require.NoError(t, run([]string{"-out", out, "-repo", "../../..", "-packages", "3", "-tools", "4"}))
	for _, name := range []string{"go.mod", "go.sum", "tools/doc.go", "tools/p00/tools.go", "tools/p02/tools.go",
		"cmd/list/main.go", "cmd/empty/main.go", "cmd/hello/main.go", "cmd/none/main.go", "generated/catalog_test.go"} {
		assert.FileExists(t, filepath.Join(out, name))
	}
	src, err := os.ReadFile(filepath.Join(out, "tools/p01/tools.go"))
	require.NoError(t, err)
	assert.Equal(t, 4, strings.Count(string(src), "//tool:name "), "tools per package")
	assert.Contains(t, string(src), "//tool:name p01_t003")
	mod, err := os.ReadFile(filepath.Join(out, "go.mod"))
	require.NoError(t, err)
	abs, err := filepath.Abs("../../..")
	require.NoError(t, err)
	assert.Contains(t, string(mod), "replace github.com/toolgen-go/toolgen => "+abs)
	test, err := os.ReadFile(filepath.Join(out, "generated/catalog_test.go"))
	require.NoError(t, err)
	assert.Contains(t, string(test), `n != 12`)
	assert.Contains(t, string(test), `"p02_t003"`)

	assert.Error(t, run([]string{"-out", out, "-repo", "../../.."}), "refuses a non-empty directory")
}

func TestRunUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{},
		{"-out", t.TempDir()},
		{"-out", t.TempDir(), "-repo", "../../..", "-tools", "0"},
		{"-out", t.TempDir(), "-repo", "/nonexistent"},
	} {
		assert.Error(t, run(args), "%q", args)
	}
}
