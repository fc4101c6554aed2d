package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runToolgen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"-out", ""}} {
		code, _, stderr := runToolgen(t, args...)
		assert.Equal(t, exitUsage, code, "%v", args)
		assert.Contains(t, stderr, "usage: toolgen")
	}
	code, _, _ := runToolgen(t, "-h")
	assert.Equal(t, exitOK, code)
}

// TestCheck: the committed generated/ is up to date, and an empty output
// directory is stale.
func TestCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	code, _, stderr := runToolgen(t, "-check", "-out", "../../generated", "../../tools/...")
	assert.Equal(t, exitOK, code, stderr)

	empty := t.TempDir()
	code, _, stderr = runToolgen(t, "-check", "-pkg", "reg", "-out", empty, "../../tools/...")
	assert.Equal(t, exitProblems, code)
	assert.Contains(t, stderr, "registry_gen.go: stale; run go generate")
	entries, err := os.ReadDir(empty)
	require.NoError(t, err)
	assert.Empty(t, entries, "-check writes nothing")
}

// TestProblems: problems are printed as path:line:col: message relative to
// the working directory, and nothing is written.
func TestProblems(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := t.TempDir()
	code, _, stderr := runToolgen(t, "-pkg", "reg", "-out", out, "../../internal/gen/testdata/cases/duplicate")
	assert.Equal(t, exitProblems, code)
	assert.Contains(t, stderr, filepath.FromSlash("../../internal/gen/testdata/cases/duplicate/a.go:10:1: duplicate tool name \"same_name\""))
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestBadPackageName: an output directory whose name is not an identifier
// needs -pkg.
func TestBadPackageName(t *testing.T) {
	code, _, stderr := runToolgen(t, "-out", filepath.Join(t.TempDir(), "not-an-ident"), "../../internal/gen/testdata/cases/basic")
	assert.Equal(t, exitProblems, code)
	assert.Contains(t, stderr, `the output package name "not-an-ident" is not a Go identifier; name it with -pkg`)
}

// TestWriteOnlyChanged: a second run writes nothing.
func TestWriteOnlyChanged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := filepath.Join(t.TempDir(), "reg")
	code, stdout, stderr := runToolgen(t, "-v", "-out", out, "../../internal/gen/testdata/cases/basic")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "registry_gen.go")
	code, stdout, stderr = runToolgen(t, "-v", "-out", out, "../../internal/gen/testdata/cases/basic")
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stdout, "unchanged files are not rewritten")
}
