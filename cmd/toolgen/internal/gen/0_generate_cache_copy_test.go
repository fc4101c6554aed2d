package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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
	a.put(notes, nil, nil)
	b.put(weather, nil, nil)
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
	b.put(weather, nil, nil)
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
	bad.put(weather, nil, nil)
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

// The output cache's store takes the content key a unit's entry holds for
// a file only when the file's data is the very slice that entry gave
// (codecPlan.contentKeys): a key it takes is the one the entry names, and
// a wrong one is never served (get checks every content against its
// key), while equal bytes elsewhere are hashed.
func TestOutputCacheKnownContent(t *testing.T) {
	t.Parallel()
	c, err := cache.Open(t.TempDir())
	require.NoError(t, err)
	out := t.TempDir()
	path := filepath.Join(out, "notescodec", "codec_gen.go")
	data := []byte("package notescodec\n")
	right := cache.ContentKey(outputFileKind, data)
	wrong := cache.ContentKey(outputFileKind, []byte("package other\n"))
	oc := func() *outputCache {
		return &outputCache{cache: c, key: cache.ContentKey("test run", nil), out: out, bad: map[cache.Key]bool{}}
	}
	entryKey := func() cache.Key {
		t.Helper()
		raw, ok := c.Get(oc().key)
		require.True(t, ok)
		var rec outputRecord
		require.NoError(t, json.Unmarshal(raw, &rec))
		require.Len(t, rec.Files, 1)
		return rec.Files[0].Data
	}
	files := []File{{Path: path, Data: data}}

	// The unit's own slice: its key is taken as it is, not computed.
	oc().put(files, map[string]knownContent{path: {data: data, key: wrong}}, nil)
	assert.Equal(t, wrong, entryKey(), "the unit entry's key for the unit's slice")
	_, ok := oc().get()
	assert.False(t, ok, "a wrong key is never served")

	// The same bytes in another slice: hashed.
	oc().put(files, map[string]knownContent{path: {data: bytes.Clone(data), key: wrong}}, nil)
	assert.Equal(t, right, entryKey())
	got, ok := oc().get()
	require.True(t, ok)
	assert.Equal(t, files, got)

	oc().put(files, map[string]knownContent{path: {data: data, key: right}}, nil)
	assert.Equal(t, right, entryKey())
	got, ok = oc().get()
	require.True(t, ok)
	assert.Equal(t, files, got)
}

// A unit's entry keeps each file's content key; an entry whose key is not
// a key's length does not decode.
func TestUnitEntryContentKey(t *testing.T) {
	t.Parallel()
	data := []byte("package notescodec\n")
	e := &unitEntry{
		units: []unitRef{{Path: "example.com/out/internal/notescodec", Name: "notescodec"}},
		files: []unitFile{{rel: "internal/notescodec/codec_gen.go", data: data, key: cache.ContentKey(outputFileKind, data)}},
		parts: [][]byte{[]byte(`{"name": "notes_add"}`)},
	}
	got, ok := decodeUnitEntry(e.encode())
	require.True(t, ok)
	assert.Equal(t, e, got)

	short := *e
	short.files = []unitFile{{rel: e.files[0].rel, data: data}}
	raw := short.encode()
	// The key's length prefix (32) is the byte before the key's 32 bytes,
	// which the parts follow; make it 31.
	i := bytes.Index(raw, append([]byte{32}, make([]byte, 32)...))
	require.GreaterOrEqual(t, i, 0)
	raw = append(append(slices.Clone(raw[:i]), 31), raw[i+2:]...)
	_, ok = decodeUnitEntry(raw)
	assert.False(t, ok, "a key of 31 bytes")
}
