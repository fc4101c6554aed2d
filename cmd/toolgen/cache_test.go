package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheNotes are the lines of stderr about the cache.
var cacheNotes = regexp.MustCompile(`(?m)^toolgen: .*cache.*$`)

// A file at TOOLGEN_CACHE, or a cache toolgen cannot write to, is said
// once on stderr, and the run goes on.
func TestCacheUnusable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("not a directory"), 0o644))
	readOnly := t.TempDir()
	if os.Geteuid() == 0 {
		readOnly = "/sys" // root writes in any directory a mode makes read-only
		if f, err := os.CreateTemp(readOnly, "tmp-*"); err == nil {
			f.Close()
			os.Remove(f.Name())
			readOnly = ""
		}
	} else {
		require.NoError(t, os.Chmod(readOnly, 0o555))
		t.Cleanup(func() { os.Chmod(readOnly, 0o755) })
	}
	for _, tt := range []struct{ name, dir, want string }{
		{"a file", file, "toolgen: no cache: " + file + " is a file, not a directory"},
		{"read-only", readOnly, "toolgen: the cache in " + readOnly + " is read-only: it is read, and nothing is stored"},
	} {
		if tt.dir == "" {
			t.Logf("%s: no read-only directory here", tt.name)
			continue
		}
		t.Setenv("TOOLGEN_CACHE", tt.dir)
		code, _, stderr := runToolgen(t, "-pkg", "reg", "-out", t.TempDir(), "./nonexistent")
		assert.Equal(t, exitProblems, code, tt.name)
		notes := cacheNotes.FindAllString(stderr, -1)
		require.Len(t, notes, 1, "%s: %s", tt.name, stderr)
		assert.Contains(t, notes[0], tt.want, tt.name)
		assert.Contains(t, stderr, "pattern ./nonexistent matches no package", "%s: the run goes on", tt.name)
	}
}

// writeEntries stores entries in the cache in dir, one in a cache of a
// subdirectory, and returns their keys.
func writeEntries(t *testing.T, dir string) []cache.Key {
	t.Helper()
	var keys []cache.Key
	for _, sub := range []string{"", "output"} {
		c, err := cache.Open(filepath.Join(dir, sub))
		require.NoError(t, err)
		h := cache.NewHasher("test 1")
		h.String(sub)
		k := h.Key()
		require.NoError(t, c.Put(k, []byte("entry")))
		keys = append(keys, k)
	}
	return keys
}

// entryPath is the file of entry k of the cache in dir.
func entryPath(dir string, k cache.Key) string {
	return filepath.Join(dir, k.String()[:2], k.String())
}

// -cache=clean removes every entry, -cache=trim the unused ones; a run
// trims the cache at most once a day.
func TestCacheCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TOOLGEN_CACHE", dir)
	keys := writeEntries(t, dir)
	code, stdout, stderr := runToolgen(t, "-cache=clean")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "toolgen: removed 2 cache files (0.0 MB) from "+dir+"\n", stdout)
	assert.NoFileExists(t, entryPath(dir, keys[0]))
	assert.NoFileExists(t, entryPath(filepath.Join(dir, "output"), keys[1]))

	keys = writeEntries(t, dir)
	old := time.Now().Add(-cache.UnusedFor - time.Hour)
	require.NoError(t, os.Chtimes(entryPath(dir, keys[0]), old, old))
	code, stdout, _ = runToolgen(t, "-cache", "trim")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "removed 1 cache files")
	assert.NoFileExists(t, entryPath(dir, keys[0]))
	assert.FileExists(t, entryPath(filepath.Join(dir, "output"), keys[1]))

	// A run trims when trim.txt is a day old, and records it.
	keys = writeEntries(t, dir)
	require.NoError(t, os.Chtimes(entryPath(dir, keys[0]), old, old))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "trim.txt"), []byte("1\n"), 0o644))
	code, _, _ = runToolgen(t, "-pkg", "reg", "-out", t.TempDir(), "./nonexistent")
	assert.Equal(t, exitProblems, code)
	assert.NoFileExists(t, entryPath(dir, keys[0]), "trimmed after the run")
	data, err := os.ReadFile(filepath.Join(dir, "trim.txt"))
	require.NoError(t, err)
	assert.NotEqual(t, "1\n", string(data))

	code, _, stderr = runToolgen(t, "-cache=all")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "want clean or trim")
	t.Setenv("TOOLGEN_CACHE", "off")
	code, _, stderr = runToolgen(t, "-cache=clean")
	assert.Equal(t, exitProblems, code)
	assert.Contains(t, stderr, "there is no cache")
}

func TestCacheMaxSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"": cache.DefaultMaxSize, "1000": 1000, "512M": 512 << 20, "2g": 2 << 30, " 3K ": 3 << 10} {
		got, err := cacheMaxSize(in)
		require.NoError(t, err, "%q", in)
		assert.Equal(t, want, got, "%q", in)
	}
	for _, in := range []string{"x", "-1", "0", "1T", "5MB", "99999999999G"} {
		_, err := cacheMaxSize(in)
		assert.ErrorContains(t, err, "TOOLGEN_CACHE_MAX=", "%q", in)
	}
}

func TestCacheMaxSizeUsage(t *testing.T) {
	t.Setenv(cacheMaxEnv, "lots")
	code, _, stderr := runToolgen(t, "-cache=trim")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `TOOLGEN_CACHE_MAX="lots": want a size`)
}
