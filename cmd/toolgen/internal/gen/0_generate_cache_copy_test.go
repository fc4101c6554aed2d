package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entryFile is the file of the entry k in the cache directory dir.
func entryFile(dir string, k cache.Key) string {
	s := k.String()
	return filepath.Join(dir, s[:2], s)
}

// A valid entry copied over another is a miss, never served: an output
// entry (keyed by the run's inputs) under another run's key, and a
// file's content (named by its content) under another file's name.
func TestOutputCacheCopiedEntry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, err := cache.Open(dir)
	require.NoError(t, err)
	out := t.TempDir()
	open := func(name string) *outputCache {
		h := cache.NewHasher("test run 1")
		h.String(name)
		return &outputCache{cache: c, key: h.Key(), out: out, bad: map[cache.Key]bool{}}
	}
	notes := []File{{Path: filepath.Join(out, "notescodec", "codec_gen.go"), Data: []byte("package notescodec\n")}}
	weather := []File{{Path: filepath.Join(out, "weathercodec", "codec_gen.go"), Data: []byte("package weathercodec\n")}}
	a, b := open("notes"), open("weather")
	a.put(notes, nil)
	b.put(weather, nil)
	got, ok := b.get()
	require.True(t, ok)
	require.Equal(t, weather, got)

	copyFile := func(from, to string) {
		t.Helper()
		raw, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(to, raw, 0o644))
	}
	copyFile(entryFile(dir, a.key), entryFile(dir, b.key))
	_, ok = open("weather").get()
	assert.False(t, ok, "a's entry under b's key")
	b.put(weather, nil)
	got, ok = open("weather").get()
	require.True(t, ok, "stored again")
	require.Equal(t, weather, got)

	notesData := cache.ContentKey(outputFileKind, notes[0].Data)
	weatherData := cache.ContentKey(outputFileKind, weather[0].Data)
	copyFile(entryFile(dir, notesData), entryFile(dir, weatherData))
	_, ok = open("weather").get()
	assert.False(t, ok, "notes' content under the name of weather's")
	// An entry whose checksum is valid for its name, but whose content is
	// not the one the name says, is not served either.
	require.NoError(t, c.Put(weatherData, notes[0].Data))
	bad := open("weather")
	_, ok = bad.get()
	assert.False(t, ok, "content that is not its name's")
	bad.put(weather, nil)
	got, ok = open("weather").get()
	require.True(t, ok, "stored again")
	assert.Equal(t, weather, got)
}

// The cases tests write live outside the checkout: a test interrupted
// before its cleanup leaves nothing in testdata.
func TestCaseDirOutsideCheckout(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../../../..")
	require.NoError(t, err)
	dir, pkg := caseDir(t, "cache-")
	assert.False(t, within(root, dir), "%s is inside the checkout %s", dir, root)
	assert.Equal(t, "example.com/cache", pkg)
	assert.FileExists(t, filepath.Join(dir, "go.mod"))
}
