package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStaleRegistry generates a copy of the basic case, then changes its
// input type as a user would without running go generate: the generated
// freshness test fails and says what changed and to run go generate, and a
// change that breaks the generated code fails to compile in the guard
// first.
func TestStaleRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs generated code")
	}
	src, err := os.ReadFile("testdata/cases/basic/basic.go")
	require.NoError(t, err)
	const limit = "\tLimit  int             `json:\"limit,omitempty\" jsonschema:\"minimum=1,maximum=50\"`\n"
	require.Contains(t, string(src), limit)
	dir := writeCopy(t, string(src))

	t.Run("field added and bound tightened", func(t *testing.T) {
		changed := strings.Replace(string(src), limit,
			strings.Replace(limit, "maximum=50", "maximum=10", 1)+"\tColour string `json:\"colour,omitempty\"`\n", 1)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "basic.go"), []byte(changed), 0o644))
		out, err := goCmd(dir, "test", "-count=1", "-run", "^TestToolgenFresh$", "./want")
		require.Error(t, err, "the freshness test must fail:\n%s", out)
		assert.Contains(t, out, "tool basic_search: its input type basic.Input changed since the registry was generated "+
			"(field Limit changed from int `json:\"limit,omitempty\" jsonschema:\"minimum=1,maximum=50\"` to int `json:\"limit,omitempty\" jsonschema:\"minimum=1,maximum=10\"`; "+
			"field Colour added); run go generate")
	})

	t.Run("field renamed", func(t *testing.T) {
		changed := strings.Replace(string(src), "\tLimit  int ", "\tMax    int ", 1)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "basic.go"), []byte(changed), 0o644))
		out, err := goCmd(dir, "build", "./want")
		require.Error(t, err, "the stale registry must not compile:\n%s", out)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.GreaterOrEqual(t, len(lines), 2, out)
		// The first line is the package's name; the first error is in the guard.
		assert.Contains(t, lines[1], "want/internal/basiccodec/"+guardFile+":", out)
		assert.Contains(t, lines[1], "regenerate.Limit undefined (type basic.Input has no field or method Limit)", out)
	})

	t.Run("regenerated", func(t *testing.T) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "basic.go"), src, 0o644))
		out, err := goCmd(dir, "test", "-count=1", "-run", "^TestToolgenFresh$", "./want")
		require.NoError(t, err, "%s", out)
	})
}

// writeCopy writes a copy of the basic case whose basic.go is src, in a
// module of its own (caseDir), generates its registry into want/ and
// returns its directory.
func writeCopy(t *testing.T, src string) string {
	t.Helper()
	tmp, _ := caseDir(t, "stale-")
	dir := filepath.Join(tmp, "basic")
	writeCaseFile(t, dir, "basic.go", src)
	files, errs := Generate(context.Background(), Options{Dir: dir, Output: "want"})
	require.Empty(t, errs)
	_, err := Write(files)
	require.NoError(t, err)
	return dir
}

// goCmd runs the go command in dir and returns its combined output.
func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
