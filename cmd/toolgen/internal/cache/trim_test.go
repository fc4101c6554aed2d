package cache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clockCache is a cache in a temporary directory whose clock is *now.
func clockCache(t *testing.T, now *time.Time) *Cache {
	t.Helper()
	c, err := Open(t.TempDir())
	require.NoError(t, err)
	c.now = func() time.Time { return *now }
	return c
}

// age sets the modification time of k's entry.
func age(t *testing.T, c *Cache, k Key, mod time.Time) {
	t.Helper()
	require.NoError(t, os.Chtimes(c.path(k), mod, mod))
}

func modTime(t *testing.T, path string) time.Time {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.ModTime()
}

// Entries unused for UnusedFor go, at most once per TrimInterval; a read
// marks an entry used, at most once per touchInterval.
func TestTrimUnused(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 7, 4, 0, 0, 0, time.UTC)
	c := clockCache(t, &now)
	sub, err := Open(filepath.Join(c.dir, "output"))
	require.NoError(t, err)
	sub.now = c.now
	old, used, fresh, nested := key("old"), key("used"), key("fresh"), key("nested")
	for _, k := range []Key{old, used, fresh} {
		require.NoError(t, c.Put(k, []byte("data of "+k.String())))
	}
	require.NoError(t, sub.Put(nested, []byte("in a subdirectory")))
	long := now.Add(-UnusedFor - time.Hour)
	age(t, c, old, long)
	age(t, c, used, long)
	age(t, sub, nested, long)
	age(t, c, fresh, now.Add(-time.Minute))
	other := filepath.Join(c.dir, "README")
	require.NoError(t, os.WriteFile(other, []byte("not an entry"), 0o644))
	require.NoError(t, os.Chtimes(other, long, long))
	staleTmp := filepath.Join(c.dir, "ab", "tmp-123")
	require.NoError(t, os.MkdirAll(filepath.Dir(staleTmp), 0o755))
	require.NoError(t, os.WriteFile(staleTmp, []byte("half"), 0o644))
	require.NoError(t, os.Chtimes(staleTmp, now.Add(-2*tmpStale), now.Add(-2*tmpStale)))

	_, ok := c.Get(used)
	require.True(t, ok)
	assert.True(t, now.Equal(modTime(t, c.path(used))), "a read marks an old entry used")
	age(t, c, fresh, now.Add(-time.Minute))
	_, ok = c.Get(fresh)
	require.True(t, ok)
	assert.True(t, now.Add(-time.Minute).Equal(modTime(t, c.path(fresh))), "a recently used entry is not written")

	removed, err := c.Trim(0)
	require.NoError(t, err)
	assert.Equal(t, 3, removed.Entries, "old, nested and the stale temporary file")
	for k, want := range map[Key]bool{old: false, used: true, fresh: true} {
		assert.Equal(t, want, c.Has(k), k.String())
	}
	assert.False(t, sub.Has(nested), "entries of the caches in subdirectories")
	assert.NoFileExists(t, staleTmp)
	assert.FileExists(t, other, "a file that is not an entry")

	// Within TrimInterval nothing is looked at; after it, trimming again.
	age(t, c, fresh, long)
	now = now.Add(TrimInterval - time.Minute)
	removed, err = c.Trim(0)
	require.NoError(t, err)
	assert.Zero(t, removed.Entries)
	assert.True(t, c.Has(fresh))
	age(t, c, fresh, long)
	now = now.Add(2 * time.Minute)
	removed, err = c.Trim(0)
	require.NoError(t, err)
	assert.Equal(t, 1, removed.Entries)
	assert.False(t, c.Has(fresh))
}

// Over the size bound, the least recently used entries go first, until
// the others fit.
func TestTrimSize(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 7, 4, 0, 0, 0, time.UTC)
	c := clockCache(t, &now)
	data := make([]byte, 1000)
	keys := []Key{key("1"), key("2"), key("3"), key("4")}
	for i, k := range keys {
		require.NoError(t, c.Put(k, data))
		age(t, c, k, now.Add(-time.Duration(len(keys)-i)*time.Hour)) // keys[0] the least recently used
	}
	size := int64(len(magic) + 32 + len(data))
	removed, err := c.TrimNow(2*size + 1)
	require.NoError(t, err)
	assert.Equal(t, Removed{Entries: 2, Bytes: 2 * size}, removed)
	for i, k := range keys {
		assert.Equal(t, i >= 2, c.Has(k), "entry %d", i)
	}
	removed, err = c.TrimNow(0)
	require.NoError(t, err)
	assert.Zero(t, removed.Entries, "the default bound")
}

func TestClean(t *testing.T) {
	t.Parallel()
	now := time.Now()
	c := clockCache(t, &now)
	sub, err := Open(filepath.Join(c.dir, "export"))
	require.NoError(t, err)
	require.NoError(t, c.Put(key("a"), []byte("a")))
	require.NoError(t, sub.Put(key("b"), []byte("b")))
	removed, err := c.Clean()
	require.NoError(t, err)
	assert.Equal(t, 2, removed.Entries)
	assert.False(t, c.Has(key("a")))
	assert.False(t, sub.Has(key("b")))
	require.NoError(t, c.Put(key("a"), []byte("a")), "the cache is still usable")
}

func TestWritable(t *testing.T) {
	t.Parallel()
	c, err := Open(t.TempDir())
	require.NoError(t, err)
	assert.NoError(t, c.Writable())
	entries, err := os.ReadDir(c.dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "the probe leaves nothing")
	if os.Geteuid() == 0 {
		t.Skip("root writes in read-only directories")
	}
	require.NoError(t, os.Chmod(c.dir, 0o555))
	t.Cleanup(func() { os.Chmod(c.dir, 0o755) })
	assert.Error(t, c.Writable())
}
