package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A unit whose sources did not change finds its key under its source
// key, and gets the files a run without the cache gives; a change to a
// package its tools import (one that declares no tools), to toolgen or to
// the build flags gives it a new source key.
func TestUnitSourceKeys(t *testing.T) {
	dir := staticCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./s", "./t"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	uncached := func(o Options) cachedRun {
		o.Cache, o.Identity = "", ""
		return generateCached(t, o)
	}
	first := generateCached(t, opts)
	require.Equal(t, 1, dirEntries(t, opts.Cache, unitSourceDir), "s and t form one unit (s's input holds a t.Shared)")
	units := len(unitEntryFiles(t, opts.Cache))
	noOutput := func() { require.NoError(t, os.RemoveAll(filepath.Join(opts.Cache, outputCacheDir))) }
	noOutput()
	again := generateCached(t, opts)
	assert.Equal(t, first.files, again.files)
	assert.Equal(t, 1, dirEntries(t, opts.Cache, unitSourceDir), "the source key found")
	assert.Equal(t, units, len(unitEntryFiles(t, opts.Cache)), "the unit's entry found")

	steps := []struct {
		name   string
		change func(*Options)
	}{
		{"an imported package that declares no tools", func(*Options) {
			editCaseFile(t, dir, "plain/plain.go", "// Word is a word.", "// Word is one word.")
		}},
		{"a field", func(*Options) {
			editCaseFile(t, dir, "t/t.go", "\tN int", "\tM bool `json:\"m\"`\n\tN int")
		}},
		{"build flags", func(o *Options) { o.BuildFlags = []string{"-tags=other"} }},
		{"toolgen's identity", func(o *Options) { o.Identity = "two" }},
	}
	for i, s := range steps {
		s.change(&opts)
		got := generateCached(t, opts)
		assert.Equal(t, 2+i, dirEntries(t, opts.Cache, unitSourceDir), "%s: a new source key", s.name)
		assert.Equal(t, uncached(opts).files, got.files, s.name)
	}
}
