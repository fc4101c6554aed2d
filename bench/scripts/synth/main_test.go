package main

import (
	"encoding/json"
	"os"
	"os/exec"
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

func TestWriteNested(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "synth")
	require.NoError(t, run([]string{"-out", out, "-repo", "../../..", "-packages", "2", "-tools", "4", "-nested"}))
	for _, name := range []string{"cmd/sdk/main.go", "sdk/doc.go", "sdk/p00/register.go", "sdk/p01/register.go", "sdk/p01/tools.go"} {
		assert.FileExists(t, filepath.Join(out, name))
	}
	src, err := os.ReadFile(filepath.Join(out, "tools/p01/tools.go"))
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(src), "\ntype Scope"), "tools 1 and 3 have a nested struct")
	assert.Equal(t, 2, strings.Count(string(src), "\ntype Filter"), "tools 2 and 3 have a slice of structs")
	assert.Equal(t, 3, strings.Count(string(src), "\ntype Record"), "the three that nest return records")
	reg, err := os.ReadFile(filepath.Join(out, "sdk/p01/register.go"))
	require.NoError(t, err)
	assert.Equal(t, 4, strings.Count(string(reg), "mcp.AddTool("))
	assert.Contains(t, string(reg), "in In003) (*mcp.CallToolResult, Out003, error)")
	sdkTools, err := os.ReadFile(filepath.Join(out, "sdk/p01/tools.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), `jsonschema:"minimum=1,maximum=100"`, "the tool packages carry invopop's keywords")
	assert.Contains(t, string(sdkTools), `jsonschema:"how many records to return"`, "the SDK's copies carry descriptions")
	assert.Equal(t, strings.Count(string(src), "\ntype "), strings.Count(string(sdkTools), "\ntype "), "the same types on both sides")
	mod, err := os.ReadFile(filepath.Join(out, "go.mod"))
	require.NoError(t, err)
	assert.Contains(t, string(mod), "require github.com/modelcontextprotocol/go-sdk "+sdkVersion)
	test, err := os.ReadFile(filepath.Join(out, "generated/catalog_test.go"))
	require.NoError(t, err)
	assert.Contains(t, string(test), nestedCallArgs(3))
}

func TestNestedCallArgs(t *testing.T) {
	t.Parallel()
	for n := range 4 {
		args := nestedCallArgs(n)
		assert.True(t, json.Valid([]byte(args)), args)
		scope, filters := variant(n)
		assert.Equal(t, scope, strings.Contains(args, `"scope"`), "tool %d", n)
		assert.Equal(t, filters, strings.Contains(args, `"filters"`), "tool %d", n)
	}
}

// TestNestedBuilds runs toolgen on a nested catalog of 12 tools, builds
// the toolgen program and the MCP SDK program, and runs both: toolgen
// accepts the types, the SDK infers their schemas from the same types
// (mcp.AddTool panics on a tag it refuses), and both list the 12 tools.
// Then the catalog benchmarks run once each (BenchmarkCall calls the last
// tool, which has both a nested struct and a slice of structs).
func TestNestedBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs toolgen, builds two programs and a test binary")
	}
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "synth")
	require.NoError(t, run([]string{"-out", dir, "-repo", "../../..", "-packages", "3", "-tools", "4", "-nested"}))
	// -e, as scripts/catalog.sh runs it: the catalog's test imports the
	// providers package, which toolgen has not written yet.
	goCmd(t, dir, "mod", "tidy", "-e")
	goCmd(t, dir, "tool", "toolgen", "-out", "generated", "./tools/...")
	bin := t.TempDir()
	goCmd(t, dir, "build", "-o", bin+string(filepath.Separator), "./cmd/list", "./cmd/sdk")
	for _, prog := range []string{"list", "sdk"} {
		out, err := exec.Command(filepath.Join(bin, prog)).Output()
		require.NoError(t, err, prog)
		fields := strings.Fields(string(out))
		require.Len(t, fields, 2, "%s printed %q", prog, out)
		assert.Equal(t, "12", fields[0], "%s: tools listed", prog)
	}
	goCmd(t, dir, "test", "-run=^$", "-bench=.", "-benchtime=1x", "./generated/")
}

// goCmd runs the go command in dir and fails the test with its output.
func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
}
