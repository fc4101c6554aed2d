package cache

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func key(fields ...string) Key {
	h := NewHasher("test 1")
	for _, f := range fields {
		h.String(f)
	}
	return h.Key()
}

func TestPutGet(t *testing.T) {
	t.Parallel()
	c, err := Open(filepath.Join(t.TempDir(), "sub", "dir"))
	require.NoError(t, err)
	k := key("a")
	_, ok := c.Get(k)
	assert.False(t, ok, "empty cache")
	assert.False(t, c.Has(k))
	require.NoError(t, c.Put(k, []byte("data")))
	assert.True(t, c.Has(k))
	got, ok := c.Get(k)
	assert.True(t, ok)
	assert.Equal(t, "data", string(got))
	require.NoError(t, c.Put(k, []byte("other")), "an entry is overwritten")
	got, _ = c.Get(k)
	assert.Equal(t, "other", string(got))
	_, ok = c.Get(key("b"))
	assert.False(t, ok)
}

func TestHasherFields(t *testing.T) {
	t.Parallel()
	assert.NotEqual(t, key("ab", "c"), key("a", "bc"), "fields are delimited")
	assert.NotEqual(t, key("a"), key("a", ""))
	assert.Equal(t, key("a", "b"), key("a", "b"))
	other := NewHasher("test 2")
	other.String("a")
	assert.NotEqual(t, key("a"), other.Key(), "kinds differ")
}

// A damaged entry reads as missing, and a Put repairs it.
func TestCorruptEntries(t *testing.T) {
	t.Parallel()
	c, err := Open(t.TempDir())
	require.NoError(t, err)
	k := key("a")
	for name, damage := range map[string]func([]byte) []byte{
		"truncated":      func(b []byte) []byte { return b[:len(b)-1] },
		"flipped byte":   func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
		"no header":      func(b []byte) []byte { return b[len(magic):] },
		"empty":          func([]byte) []byte { return nil },
		"short checksum": func(b []byte) []byte { return b[:len(magic)+3] },
	} {
		require.NoError(t, c.Put(k, []byte("some data")))
		raw, err := os.ReadFile(c.path(k))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(c.path(k), damage(raw), 0o644))
		_, ok := c.Get(k)
		assert.False(t, ok, name)
	}
	require.NoError(t, c.Put(k, []byte("some data")))
	got, ok := c.Get(k)
	assert.True(t, ok)
	assert.Equal(t, "some data", string(got))
}

func TestOff(t *testing.T) {
	t.Parallel()
	for _, c := range []*Cache{nil, {}} {
		require.NoError(t, c.Put(key("a"), []byte("x")))
		_, ok := c.Get(key("a"))
		assert.False(t, ok)
		assert.False(t, c.Has(key("a")))
	}
	c, err := Open("")
	require.NoError(t, err)
	require.NoError(t, c.Put(key("a"), []byte("x")))
	_, ok := c.Get(key("a"))
	assert.False(t, ok, "Open with no directory stores nothing")
}

// Writers racing on one key leave a whole entry and no temporary files.
func TestConcurrentPut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, err := Open(dir)
	require.NoError(t, err)
	k := key("a")
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			assert.NoError(t, c.Put(k, data))
			if got, ok := c.Get(k); ok {
				assert.Equal(t, data, got)
			}
		})
	}
	wg.Wait()
	got, ok := c.Get(k)
	assert.True(t, ok)
	assert.Equal(t, data, got)
	entries, err := os.ReadDir(filepath.Dir(c.path(k)))
	require.NoError(t, err)
	assert.Len(t, entries, 1)
}

// copyEntry copies the file of the entry from over the entry to, as a
// user copying cache files around (or a broken file system) would.
func copyEntry(t *testing.T, c *Cache, from, to Key) {
	t.Helper()
	raw, err := os.ReadFile(c.path(from))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(c.path(to)), 0o755))
	require.NoError(t, os.WriteFile(c.path(to), raw, 0o644))
}

// A valid entry copied over another is not served: the checksum binds an
// entry to its key.
func TestCopiedEntry(t *testing.T) {
	t.Parallel()
	c, err := Open(t.TempDir())
	require.NoError(t, err)
	a, b := key("a"), key("b")
	require.NoError(t, c.Put(a, []byte("package notescodec")))
	require.NoError(t, c.Put(b, []byte("package weathercodec")))
	copyEntry(t, c, a, b)
	_, ok := c.Get(b)
	assert.False(t, ok, "a's entry under b's name")
	got, ok := c.Get(a)
	assert.True(t, ok)
	assert.Equal(t, "package notescodec", string(got))
}

// A content-addressed entry is checked against its name: data stored
// under another content's key is not served.
func TestGetContent(t *testing.T) {
	t.Parallel()
	c, err := Open(t.TempDir())
	require.NoError(t, err)
	const kind = "test content 1"
	one, two := []byte("package notescodec"), []byte("package weathercodec")
	k1, k2 := ContentKey(kind, one), ContentKey(kind, two)
	require.NoError(t, c.Put(k1, one))
	got, ok := c.GetContent(kind, k1)
	assert.True(t, ok)
	assert.Equal(t, one, got)
	require.NoError(t, c.Put(k2, one), "a valid entry, whose content is not the one its name says")
	_, ok = c.Get(k2)
	assert.True(t, ok, "Get checks the checksum alone")
	_, ok = c.GetContent(kind, k2)
	assert.False(t, ok)
	_, ok = c.GetContent("test content 2", k1)
	assert.False(t, ok, "another kind")
	copyEntry(t, c, k1, k2)
	_, ok = c.GetContent(kind, k2)
	assert.False(t, ok, "a copied entry")
}
