package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runToolgen runs toolgen with a cache of the test's own, unless the test
// set TOOLGEN_CACHE.
func runToolgen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if _, ok := os.LookupEnv("TOOLGEN_CACHE"); !ok {
		t.Setenv("TOOLGEN_CACHE", t.TempDir())
	}
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

// TestCheck: the committed generated/ is up to date; in an empty output
// directory each file is missing (issue N, item 3: they were "stale"), and
// an output directory that does not exist is one line.
func TestCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	code, _, stderr := runToolgen(t, "-check", "-out", "../../generated", "../../tools/...")
	assert.Equal(t, exitOK, code, stderr)

	empty := t.TempDir()
	code, _, stderr = runToolgen(t, "-check", "-pkg", "reg", "-out", empty, "../../tools/...")
	assert.Equal(t, exitProblems, code)
	relEmpty, err := filepath.Rel(mustGetwd(t), empty)
	require.NoError(t, err)
	assert.Contains(t, stderr, filepath.Join(relEmpty, "registry_gen.go")+": missing; run go generate (or toolgen) to write it\n", "paths are relative, like every other message")
	assert.NotContains(t, stderr, "stale")
	assert.NotRegexp(t, `(?m)^/`, stderr, "no absolute path")
	entries, err := os.ReadDir(empty)
	require.NoError(t, err)
	assert.Empty(t, entries, "-check writes nothing")

	none := filepath.Join(empty, "registry")
	code, _, stderr = runToolgen(t, "-check", "-out", none, "../../tools/...")
	assert.Equal(t, exitProblems, code)
	assert.Equal(t, filepath.Join(relEmpty, "registry")+": missing: no generated files there; run go generate (or toolgen) to write them, or give -check the -out of the go:generate line\n", stderr)
	_, err = os.Stat(none)
	assert.ErrorIs(t, err, os.ErrNotExist, "-check writes nothing")
}

// TestCacheTimings: a second run of the same input takes its output from
// the cache, which TOOLGEN_CACHE places, without loading or building the
// bootstrap program; TOOLGEN_CACHE=off always builds it. -timings names
// the phases.
func TestCacheTimings(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	t.Setenv("TOOLGEN_CACHE", dir)
	args := []string{"-timings", "-check", "-out", "../../generated", "../../tools/..."}
	phases := func(stderr string) []string {
		var got []string
		for _, m := range regexp.MustCompile(`(?m)^toolgen: ([a-z ]*[a-z]) +\d+\.\d{3} s$`).FindAllStringSubmatch(stderr, -1) {
			got = append(got, m[1])
		}
		return got
	}
	code, _, stderr := runToolgen(t, args...)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, []string{"cache miss", "load", "model", "comments", "static schemas", "cache lookup", "bootstrap build", "bootstrap run", "schemas", "shapes", "plan", "render", "cache store", "total"}, phases(stderr))
	code, _, stderr = runToolgen(t, args...)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, []string{"cache hit", "total"}, phases(stderr))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.NotEmpty(t, entries)

	t.Setenv("TOOLGEN_CACHE", "off")
	code, _, stderr = runToolgen(t, args...)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, []string{"load", "model", "comments", "static schemas", "cache lookup", "bootstrap build", "bootstrap run", "schemas", "shapes", "plan", "render", "total"}, phases(stderr))
}

// TestProblems: problems are printed as path:line:col: message relative to
// the working directory, and nothing is written.
func TestProblems(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := t.TempDir()
	code, _, stderr := runToolgen(t, "-pkg", "reg", "-out", out, "./internal/gen/testdata/cases/duplicate")
	assert.Equal(t, exitProblems, code)
	assert.Contains(t, stderr, filepath.FromSlash("internal/gen/testdata/cases/duplicate/a.go:10:1: duplicate tool name \"same_name\""))
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestPatternMatchesNoPackage: a pattern that names no package is named
// as the user wrote it, and is not reported as a compile error; patterns
// that match packages without tools say so.
func TestPatternMatchesNoPackage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "reg")
	code, _, stderr := runToolgen(t, "-out", out, "./nonexist/")
	assert.Equal(t, exitProblems, code)
	assert.Equal(t, "pattern ./nonexist/ matches no package: there is no such directory\n", stderr)

	code, _, stderr = runToolgen(t, "-out", out, "./nonexist/...", "./internal/gen/testdata/cases/nomatch")
	assert.Equal(t, exitProblems, code)
	assert.Contains(t, stderr, "pattern ./nonexist/... matches no package: there is no such directory\n")
	assert.NotContains(t, stderr, "do not compile")

	code, _, stderr = runToolgen(t, "-out", out, "./internal/gen/testdata/cases/nomatch")
	assert.Equal(t, exitProblems, code)
	assert.Equal(t, "no tools found in ./internal/gen/testdata/cases/nomatch: declare a type with a //tool:name directive in its doc comment\n", stderr)
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "nothing is written")
}

// TestBadPackageName: an output directory whose name is not an identifier
// needs -pkg.
func TestBadPackageName(t *testing.T) {
	code, _, stderr := runToolgen(t, "-out", filepath.Join(t.TempDir(), "not-an-ident"), "./internal/gen/testdata/cases/basic")
	assert.Equal(t, exitProblems, code)
	assert.Contains(t, stderr, `the output package name "not-an-ident" is not a Go identifier; name it with -pkg`)
}

// TestWriteOnlyChanged: a second run writes nothing.
func TestWriteOnlyChanged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := filepath.Join(t.TempDir(), "reg")
	code, stdout, stderr := runToolgen(t, "-v", "-out", out, "./internal/gen/testdata/cases/basic")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "registry_gen.go")
	code, stdout, stderr = runToolgen(t, "-v", "-out", out, "./internal/gen/testdata/cases/basic")
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stdout, "unchanged files are not rewritten")
}

// TestObsoleteFiles: a file toolgen wrote before and no longer writes (a
// codec or set package whose Go package is gone, the codec_gen.go of an
// older toolgen) is stale for -check and removed by a run; a file without
// toolgen's header is left alone, and so is a directory that is no set
// package (no tools_gen.go) even when its name ends in "tools".
func TestObsoleteFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := filepath.Join(t.TempDir(), "reg")
	code, _, stderr := runToolgen(t, "-out", out, "./internal/gen/testdata/cases/basic")
	require.Equal(t, exitOK, code, stderr)
	ours := "// Code generated by toolgen. DO NOT EDIT.\n\npackage x\n"
	files := map[string]string{
		"internal/gonecodec/codec_gen.go":   ours,
		"internal/gonecodec/a_guard_gen.go": ours,
		"codec_gen.go":                      ours,
		"internal/basiccodec/extra_gen.go":  ours,
		"gonetools/tools_gen.go":            ours,
		"gonetools2/tools_gen.go":           ours,
		"handtools/hand_gen.go":             ours,
		"internal/mine/mine.go":             "package mine\n",
		"other_gen.go":                      "// Code generated by stringer. DO NOT EDIT.\n\npackage reg\n",
	}
	for name, src := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(out, name), []byte(src), 0o644))
	}
	obsolete := []string{"codec_gen.go", "gonetools/tools_gen.go", "gonetools2/tools_gen.go", "internal/basiccodec/extra_gen.go", "internal/gonecodec/a_guard_gen.go", "internal/gonecodec/codec_gen.go"}

	code, _, stderr = runToolgen(t, "-check", "-out", out, "./internal/gen/testdata/cases/basic")
	assert.Equal(t, exitProblems, code)
	for _, name := range obsolete {
		assert.Contains(t, stderr, filepath.FromSlash(name)+": no longer generated; run go generate (or toolgen) to remove it")
	}
	assert.NotContains(t, stderr, "mine.go")
	assert.NotContains(t, stderr, "hand_gen.go")
	assert.NotContains(t, stderr, "other_gen.go")

	code, stdout, stderr := runToolgen(t, "-v", "-out", out, "./internal/gen/testdata/cases/basic")
	require.Equal(t, exitOK, code, stderr)
	for _, name := range obsolete {
		assert.Contains(t, stdout, "removed ")
		assert.NoFileExists(t, filepath.Join(out, name))
	}
	assert.NoDirExists(t, filepath.Join(out, "internal/gonecodec"), "an emptied codec package directory is removed")
	assert.NoDirExists(t, filepath.Join(out, "gonetools"), "an emptied set package directory is removed")
	assert.FileExists(t, filepath.Join(out, "handtools/hand_gen.go"))
	assert.FileExists(t, filepath.Join(out, "basictools", "tools_gen.go"))
	assert.FileExists(t, filepath.Join(out, "internal/mine/mine.go"))
	assert.FileExists(t, filepath.Join(out, "other_gen.go"))
	assert.FileExists(t, filepath.Join(out, "internal/basiccodec/codec_gen.go"))

	code, _, stderr = runToolgen(t, "-check", "-out", out, "./internal/gen/testdata/cases/basic")
	assert.Equal(t, exitOK, code, stderr)
}

// TestHelpListsEveryFlag: -h prints each flag the command defines.
func TestHelpListsEveryFlag(t *testing.T) {
	code, _, stderr := runToolgen(t, "-h")
	assert.Equal(t, exitOK, code)
	for _, f := range []string{"-out", "-pkg", "-tags", "-check", "-v", "-version"} {
		assert.Regexp(t, `\n  `+f+`\s`, stderr, "the flag list shows %s", f)
		assert.Contains(t, stderr, "["+f, "the usage line shows %s", f)
	}
}

// TestVersion: -version prints the module version and touches nothing.
func TestVersion(t *testing.T) {
	code, stdout, stderr := runToolgen(t, "-version")
	assert.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `^toolgen \S`, stdout)
}

func TestModuleVersion(t *testing.T) {
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"main module", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "v1.2.3"},
		{"main module, no version", &debug.BuildInfo{Main: debug.Module{Path: modulePath}}, "(devel)"},
		{"dependency", &debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}, Deps: []*debug.Module{{Path: "golang.org/x/tools", Version: "v0.1.0"}, {Path: modulePath, Version: "v0.4.0"}}}, "v0.4.0"},
		{"replaced by a directory", &debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}, Deps: []*debug.Module{{Path: modulePath, Version: "v0.0.0", Replace: &debug.Module{Path: "../toolgen"}}}}, "v0.0.0 (replaced by ../toolgen)"},
		{"replaced by a version", &debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}, Deps: []*debug.Module{{Path: modulePath, Version: "v0.4.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v0.4.1"}}}}, "v0.4.1"},
		{"absent", &debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}}, "(unknown: github.com/toolgen-go/toolgen is not in the build information)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, moduleVersion(tt.info, true), tt.name)
	}
	assert.Equal(t, "(unknown: no build information)", moduleVersion(nil, false))
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	return wd
}
