package gen

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outputRun is one generation: its files and the phases it reported.
type outputRun struct {
	files  []File
	phases []string
	errs   []string
}

func (r outputRun) hit() bool  { return slices.Contains(r.phases, "cache hit") }
func (r outputRun) miss() bool { return slices.Contains(r.phases, "cache miss") }

// tools is the generated tools.json.
func (r outputRun) tools() string {
	for _, f := range r.files {
		if filepath.Base(f.Path) == manifestFile {
			return string(f.Data)
		}
	}
	return ""
}

func generateOutput(t *testing.T, opts Options) outputRun {
	t.Helper()
	var mu sync.Mutex
	var run outputRun
	opts.Timings = func(phase string, _ time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		run.phases = append(run.phases, phase)
	}
	files, errs := Generate(context.Background(), opts)
	run.files, run.errs = files, errorMessages(errs)
	return run
}

// dirEntries counts the files (not the temporary ones of a write under
// way) in the directory sub of the cache directory cacheDir.
func dirEntries(t *testing.T, cacheDir, sub string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(cacheDir, sub), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), "tmp-") {
			n++
		}
		if os.IsNotExist(err) {
			return nil
		}
		return err
	})
	require.NoError(t, err)
	return n
}

const outputSkill = `---
name: a-review
description: Reviews what a finds.
---
Read what a_find returns.
`

// A hit gives exactly the files of a run without the cache; each input of
// generation invalidates the entry, and the run after it hits again.
func TestOutputCache(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	uncached := generateOutput(t, Options{Dir: dir, Patterns: opts.Patterns, Output: opts.Output})
	require.Empty(t, uncached.errs)
	assert.False(t, uncached.hit() || uncached.miss(), "no cache: no lookup")

	first := generateOutput(t, opts)
	require.Empty(t, first.errs)
	assert.True(t, first.miss())
	hit := generateOutput(t, opts)
	require.True(t, hit.hit())
	assert.Equal(t, []string{"cache hit"}, hit.phases, "a hit loads and renders nothing")
	assert.Equal(t, uncached.files, hit.files)

	skill := filepath.Join("a", "skills", "a-review", skillFile)
	steps := []struct {
		name   string
		change func(*Options)
		want   string // in tools.json afterwards
	}{
		{"a tools file", func(*Options) {
			editCaseFile(t, dir, "a/a.go", "\tD dep.D", "\tExtra bool `json:\"extra\"`\n\tD dep.D")
		}, `"extra"`},
		{"a file of a package the tools import", func(*Options) {
			editCaseFile(t, dir, "dep/dep.go", `json:"n"`, `json:"count"`)
		}, `"count"`},
		{"a skill file added", func(*Options) { writeCaseFile(t, dir, skill, outputSkill) }, "Reviews what a finds."},
		{"a skill file changed", func(*Options) { editCaseFile(t, dir, skill, "Reviews", "Checks") }, "Checks what a finds."},
		{"build flags", func(o *Options) { o.BuildFlags = []string{"-tags=other"} }, "Checks what a finds."},
		{"the package name", func(o *Options) { o.Package = "other" }, "Checks what a finds."},
		{"the output directory", func(o *Options) { o.Output = "out2" }, "Checks what a finds."},
		{"toolgen's identity", func(o *Options) { o.Identity = "two" }, "Checks what a finds."},
		{"the output directory above the tools packages", func(o *Options) { o.Output = "." }, "Checks what a finds."},
		{"a tools file below the output directory", func(*Options) {
			editCaseFile(t, dir, "b/b.go", "`json:\"name\"`", "`json:\"title\"`")
		}, `"title"`},
		{"a skill file removed", func(*Options) { require.NoError(t, os.Remove(filepath.Join(dir, skill))) }, `"a_find"`},
	}
	for _, s := range steps {
		s.change(&opts)
		got := generateOutput(t, opts)
		require.Empty(t, got.errs, s.name)
		assert.True(t, got.miss(), "%s: the entry is not used", s.name)
		assert.Contains(t, got.tools(), s.want, s.name)
		again := generateOutput(t, opts)
		assert.True(t, again.hit(), "%s: the new entry is used", s.name)
		assert.Equal(t, got.files, again.files, s.name)
	}
	assert.NotContains(t, generateOutput(t, opts).tools(), "a-review", "the removed skill is gone")
	final := generateOutput(t, opts)
	require.True(t, final.hit())
	opts.Cache, opts.Identity = "", ""
	off := generateOutput(t, opts)
	assert.False(t, off.hit() || off.miss(), "no cache: no lookup")
	assert.Equal(t, off.files, final.files, "a hit gives the files of a run without the cache")
}

// A corrupt entry, or a corrupt file of one, is computed again; a run with
// problems stores nothing.
func TestOutputCacheCorruptAndFailing(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	want := generateOutput(t, opts)
	require.Empty(t, want.errs)
	stored := dirEntries(t, opts.Cache, outputCacheDir)
	require.Greater(t, stored, 1, "the entry and its files")

	var paths []string
	err := filepath.WalkDir(filepath.Join(opts.Cache, outputCacheDir), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, path)
		}
		return err
	})
	require.NoError(t, err)
	for _, p := range paths {
		require.NoError(t, os.WriteFile(p, []byte("toolgen-cache 1\ngarbage"), 0o644))
		got := generateOutput(t, opts)
		require.Empty(t, got.errs)
		assert.True(t, got.miss(), "%s corrupt: the entry is not used", filepath.Base(p))
		assert.Equal(t, want.files, got.files)
		assert.True(t, generateOutput(t, opts).hit(), "%s corrupt: written again", filepath.Base(p))
	}

	editCaseFile(t, dir, "b/b.go", "//tool:name b_get", "//tool:name b_get\n//tool:bogus")
	for range 2 {
		failed := generateOutput(t, opts)
		require.NotEmpty(t, failed.errs)
		assert.True(t, failed.miss(), "a failing run is never a hit")
	}
	assert.Equal(t, stored, dirEntries(t, opts.Cache, outputCacheDir), "a failing run stores nothing")
}

// An entry naming a file outside the output directory is a miss: the run
// generates, and the file outside is never written.
func TestOutputCacheEntryOutsideOutput(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	want := generateOutput(t, opts)
	require.Empty(t, want.errs)
	c, err := cache.Open(filepath.Join(opts.Cache, outputCacheDir))
	require.NoError(t, err)
	var entryKey cache.Key
	var entries []outputEntry
	err = filepath.WalkDir(filepath.Join(opts.Cache, outputCacheDir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), "tmp-") {
			return err
		}
		b, err := hex.DecodeString(d.Name())
		if err != nil || len(b) != len(entryKey) {
			return nil
		}
		var k cache.Key
		copy(k[:], b)
		var rec outputRecord
		data, ok := c.Get(k)
		// The entry, not a stored file that parses as a record.
		if ok && json.Unmarshal(data, &rec) == nil && len(rec.Files) > 0 && !slices.ContainsFunc(rec.Files, func(e outputEntry) bool { return e.Path == "" }) {
			entryKey, entries = k, rec.Files
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, entries, "the run's entry")
	entries[0].Path = "../escaped.go"
	data, err := json.Marshal(outputRecord{Files: entries})
	require.NoError(t, err)
	require.NoError(t, c.Put(entryKey, data))

	got := generateOutput(t, opts)
	require.Empty(t, got.errs)
	assert.True(t, got.miss(), "the entry is not used")
	assert.Equal(t, want.files, got.files)
	for _, f := range got.files {
		assert.True(t, within(filepath.Join(dir, "out"), f.Path), f.Path)
	}
}

// Two generations at once into one empty cache both succeed with the
// bytes of a run without the cache, and the entry they store is used.
func TestOutputCacheConcurrent(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out"}
	want := generateOutput(t, opts)
	require.Empty(t, want.errs)
	opts.Cache, opts.Identity = t.TempDir(), "one"
	var runs [3]outputRun
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() { runs[i] = generateOutput(t, opts) })
	}
	wg.Wait()
	for _, r := range runs {
		require.Empty(t, r.errs)
		assert.Equal(t, want.files, r.files)
	}
	hit := generateOutput(t, opts)
	assert.True(t, hit.hit())
	assert.Equal(t, want.files, hit.files)
}
