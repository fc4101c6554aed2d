package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file a phase reads through the run's record (a file a directive
// names) is part of the output entry: a change to it, its removal or
// the creation of a file recorded as missing is a miss; the units' keys
// hash the record.
func TestOutputCacheReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ui := filepath.Join(dir, "ui", "app.html")
	absent := filepath.Join(dir, "ui", "absent.html")
	writeCaseFile(t, dir, "ui/app.html", "<p>one</p>")

	reads := &fileReads{}
	data, err := reads.read(ui)
	require.NoError(t, err)
	assert.Equal(t, "<p>one</p>", string(data))
	_, err = reads.read(absent)
	require.ErrorIs(t, err, os.ErrNotExist)
	list := reads.list()
	require.Len(t, list, 2)
	assert.Equal(t, absent, list[0].Path)
	assert.Nil(t, list[0].Sum, "recorded as missing")
	assert.NotEqual(t, (&fileReads{}).digest(), reads.digest())

	c, err := cache.Open(t.TempDir())
	require.NoError(t, err)
	out := filepath.Join(dir, "out")
	oc := &outputCache{cache: c, key: cache.ContentKey("test run 1", nil), out: out, bad: map[cache.Key]bool{}}
	files := []File{{Path: filepath.Join(out, "tools.json"), Data: []byte("[]\n")}}
	oc.put(files, nil, list)
	got, ok := oc.get()
	require.True(t, ok)
	assert.Equal(t, files, got)

	writeCaseFile(t, dir, "ui/app.html", "<p>two</p>")
	_, ok = oc.get()
	assert.False(t, ok, "the file changed")
	writeCaseFile(t, dir, "ui/app.html", "<p>one</p>")
	_, ok = oc.get()
	assert.True(t, ok, "as it was")
	writeCaseFile(t, dir, "ui/absent.html", "")
	_, ok = oc.get()
	assert.False(t, ok, "a file recorded as missing appeared")
	require.NoError(t, os.Remove(absent))
	require.NoError(t, os.Remove(ui))
	_, ok = oc.get()
	assert.False(t, ok, "the file removed")

	var none *fileReads
	_, err = none.read(absent)
	require.ErrorIs(t, err, os.ErrNotExist, "a nil record reads")
	assert.Empty(t, none.list())
}
