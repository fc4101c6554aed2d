package gen

import (
	"context"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
)

// generateUnits generates with opts and returns the files by path
// relative to the output directory.
func generateUnits(t *testing.T, opts Options) map[string]string {
	t.Helper()
	files, errs := Generate(context.Background(), opts)
	require.Empty(t, errorMessages(errs))
	out := map[string]string{}
	for _, f := range files {
		rel, err := filepath.Rel(filepath.Join(opts.Dir, opts.Output), f.Path)
		require.NoError(t, err)
		out[filepath.ToSlash(rel)] = string(f.Data)
	}
	return out
}

// unitEntryFiles lists the units' entries in the cache directory dir.
func unitEntryFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	root := filepath.Join(dir, filepath.FromSlash(unitCacheDir))
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), "tmp-") {
			out = append(out, path)
		}
		return err
	})
	require.NoError(t, err)
	return out
}

// unitFilePath reports whether the generated file at path, in the output
// directory out, is a unit's: in a codec package or a set package, or a
// providers file but the index.
func unitFilePath(out, path string) bool {
	rel, err := filepath.Rel(out, path)
	if err != nil {
		return false
	}
	dir, name := filepath.Split(filepath.ToSlash(rel))
	return strings.HasPrefix(dir, codecDir+"/") || strings.HasPrefix(dir, providersDir+"/"+codecDir+"/") || name == setFile ||
		(dir == "" && name != freshFile && strings.HasPrefix(name, "fresh_") && strings.HasSuffix(name, "_gen_test.go"))
}

// changedFiles lists the files whose content differs between two runs, or
// that one of them lacks.
func changedFiles(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// A run with a cold cache, a warm one, and one whose unit entries are
// corrupt (a broken checksum, or a sound checksum over bytes that are no
// entry) gives the files a run without the cache gives.
func TestUnitCacheDeterministic(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	cacheDir := t.TempDir()
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out", Cache: cacheDir, Identity: "one"}
	want := generateUnits(t, Options{Dir: dir, Patterns: opts.Patterns, Output: opts.Output})

	assert.Equal(t, want, generateUnits(t, opts), "cold cache")
	entries := unitEntryFiles(t, cacheDir)
	require.Len(t, entries, 2, "one entry per unit: a with dep, and b")
	assert.Equal(t, want, generateUnits(t, opts), "warm cache")

	for _, e := range entries {
		require.NoError(t, os.WriteFile(e, []byte("not an entry"), 0o644))
	}
	assert.Equal(t, want, generateUnits(t, opts), "entries failing their checksum")

	c, err := cache.Open(filepath.Join(cacheDir, filepath.FromSlash(unitCacheDir)))
	require.NoError(t, err)
	for _, e := range unitEntryFiles(t, cacheDir) {
		var k cache.Key
		_, err := hex.Decode(k[:], []byte(filepath.Base(e)))
		require.NoError(t, err)
		require.NoError(t, c.Put(k, []byte{3, 1, 'x'}))
	}
	assert.Equal(t, want, generateUnits(t, opts), "entries that do not decode")
	for _, other := range []struct {
		what  string
		entry unitEntry
	}{
		{"an entry without one part per tool", unitEntry{files: []unitFile{{rel: "x.go", data: []byte("package x\n")}}}},
		{"an entry with a file outside the output directory", unitEntry{files: []unitFile{{rel: "../x.go", data: []byte("package x\n")}}, parts: [][]byte{[]byte("{}")}}},
	} {
		for _, e := range unitEntryFiles(t, cacheDir) {
			var k cache.Key
			_, err := hex.Decode(k[:], []byte(filepath.Base(e)))
			require.NoError(t, err)
			require.NoError(t, c.Put(k, other.entry.encode()))
		}
		assert.Equal(t, want, generateUnits(t, opts), other.what)
	}
	assert.Len(t, unitEntryFiles(t, cacheDir), 2, "the same keys")
}

// Each change to what a unit reads gives it a new key, and only it: a
// field added, a description changed, a directive changed; an option
// that shapes every file gives every unit a new key. Each run gives what
// a run without the cache gives, and a change to b changes b's files alone.
func TestUnitCacheKeys(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	cacheDir := t.TempDir()
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out", Cache: cacheDir, Identity: "one"}
	prev := generateUnits(t, opts)
	require.Len(t, unitEntryFiles(t, cacheDir), 2)
	n := 2
	for _, c := range []struct {
		name     string
		old, new string
	}{
		{"a field added", "\tName string `json:\"name\"`\n", "\tName string `json:\"name\"`\n\tKind string `json:\"kind,omitempty\"`\n"},
		{"a description changed", "// Get gets.", "// Get fetches."},
		{"a directive changed", "//tool:name b_get\n", "//tool:name b_get\n//tool:readonly\n"},
	} {
		editCaseFile(t, dir, "b/b.go", c.old, c.new)
		got := generateUnits(t, opts)
		n++
		assert.Len(t, unitEntryFiles(t, cacheDir), n, "%s: one new key", c.name)
		assert.Equal(t, generateUnits(t, Options{Dir: dir, Patterns: opts.Patterns, Output: opts.Output}), got, "%s: the files of a run without the cache", c.name)
		for _, f := range changedFiles(prev, got) {
			if f == manifestFile || f == "fresh_gen_test.go" || (c.name != "a field added" && f == registryFile) {
				continue // descriptions and directives are in the registry's specs
			}
			assert.True(t, strings.Contains(f, "bcodec"), "%s: %s changed", c.name, f)
		}
		prev = got
	}
	opts.Package = "other"
	generateUnits(t, opts)
	assert.Len(t, unitEntryFiles(t, cacheDir), n+2, "the package name: a new key for each unit")
	opts.Identity = "two"
	generateUnits(t, opts)
	assert.Len(t, unitEntryFiles(t, cacheDir), n+4, "another toolgen: a new key for each unit")
}
