package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseProgram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want program
		err  bool
	}{
		{in: "toolgen=./cmd/list:generated/*.go", want: program{name: "toolgen", pkg: "./cmd/list", glob: "generated/*.go"}},
		{in: "sdk=./cmd/sdk", want: program{name: "sdk", pkg: "./cmd/sdk"}},
		{in: "./cmd/sdk", err: true},
		{in: "=./cmd/sdk", err: true},
		{in: "sdk=", err: true},
	} {
		got, err := parseProgram(tc.in)
		if tc.err {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestSourceSize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, size := range map[string]int{"g/a.go": 3, "g/a_test.go": 5, "g/internal/x/b.go": 7, "g/internal/x/c.txt": 11, "h.go": 13} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644))
	}
	d := &driver{dir: dir}
	for glob, want := range map[string][2]int64{"g/*.go": {3, 1}, "g/...": {10, 2}, "g/internal/...": {7, 1}, "*.go": {13, 1}, "g/*.go,g/internal/...": {10, 2}} {
		size, files, err := d.sourceSize(glob)
		require.NoError(t, err, glob)
		assert.Equal(t, want, [2]int64{size, int64(files)}, glob)
	}
}

func TestFlagValue(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "example.com/m/p", flagValue([]string{"-o", "x.a", "-p", "example.com/m/p", "-lang=go1.26"}, "-p"))
	assert.Equal(t, "main", flagValue([]string{"-p=main"}, "-p"))
	assert.Empty(t, flagValue([]string{"-pack", "-p"}, "-p"))
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	recs := []record{
		{Tool: "compile", Package: "example.com/synth/tools/p00", CPU: 0.5, RSS: 20 << 10},
		{Tool: "compile", Package: "example.com/synth/generated", CPU: 30, RSS: 1800 << 10},
		{Tool: "compile", Package: "main", CPU: 0.1, RSS: 30 << 10},
		{Tool: "link", CPU: 2, RSS: 400 << 10},
	}
	b := summarize("toolgen", "example.com/synth", 40, recs)
	assert.InDelta(t, 32.6, b.cpu, 1e-9)
	b.cpu = 0
	assert.Equal(t, build{program: "toolgen", wall: 40, compileRSS: 1800 << 10, compilePkg: "example.com/synth/generated",
		linkRSS: 400 << 10, compiles: 3}, b)

	b = summarize("sdk", "example.com/synth", 1, append(recs, record{Tool: "compile", Package: "fmt"},
		record{Tool: "compile", Package: "example.com/synthetic"}))
	assert.Equal(t, []string{"fmt", "example.com/synthetic"}, b.outside, "a compile outside the module is a cache miss")
}

func TestStatistics(t *testing.T) {
	t.Parallel()
	assert.InDelta(t, 2.0, median([]float64{3, 1, 2}), 0)
	assert.InDelta(t, 2.5, median([]float64{4, 1, 3, 2}), 0)
	f := func(v float64) string { return mib(int64(v)) }
	assert.Equal(t, "1.50 GiB (1.00 GiB–2.00 GiB)", spread([]float64{1 << 20, 2 << 20, 1.5 * (1 << 20)}, f))
	assert.Equal(t, "512 MiB", spread([]float64{512 << 10}, f))
}

// TestWrap runs a fake "compile" through the wrapper: its exit code is
// passed on and one record is appended; a version query is not recorded.
func TestWrap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := filepath.Join(dir, "compile")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\nexit 3\n"), 0o755))
	log := filepath.Join(dir, "log")
	assert.Equal(t, 3, wrap(log, []string{tool, "-p", "example.com/m/p", "x.go"}))
	assert.Equal(t, 3, wrap(log, []string{tool, "-V=full"}))
	recs, err := readRecords(log)
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, "compile", recs[0].Tool)
	assert.Equal(t, "example.com/m/p", recs[0].Package)
	assert.Positive(t, recs[0].Wall)
	assert.Equal(t, 2, wrap(log, nil), "no tool")
}

func TestCopyTree(t *testing.T) {
	t.Parallel()
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	require.NoError(t, os.MkdirAll(filepath.Join(src, "0a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "0a", "x-d"), []byte("data"), 0o644))
	require.NoError(t, copyTree(src, dst))
	got, err := os.ReadFile(filepath.Join(dst, "0a", "x-d"))
	require.NoError(t, err)
	assert.Equal(t, "data", string(got))
}
