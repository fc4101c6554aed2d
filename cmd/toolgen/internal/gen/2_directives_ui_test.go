package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codecOf is the generated codec_gen.go of the codec package name of a
// run: where the specs, and the apps they hold, are.
func (r outputRun) codecOf(name string) string {
	for _, f := range r.files {
		if filepath.Base(f.Path) == "codec_gen.go" && filepath.Base(filepath.Dir(f.Path)) == name {
			return string(f.Data)
		}
	}
	return ""
}

// An app's HTML is an input of generation, read through the run's record
// (1_load_reads.go): editing it on a cached run misses the output cache
// and changes the embedded bytes, the SHA-256 in tools.json and the
// unit's tools.json entry; editing it back misses again (the entry holds
// the record of the last run) and gives the first run's files. An HTML
// file no //tool:ui names is no input. Removing the app fails the run,
// naming the directive.
func TestOutputCacheApp(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	editCaseFile(t, dir, "a/a.go", "//tool:name a_find", "//tool:name a_find\n//tool:ui find.html")
	writeCaseFile(t, dir, "a/find.html", "<!doctype html>\n<p>first</p>\n")
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out", Cache: t.TempDir(), Identity: "one"}

	first := generateOutput(t, opts)
	require.Empty(t, first.errs)
	require.True(t, first.miss())
	assert.Contains(t, first.codecOf("acodec"), `"<!doctype html>\n<p>first</p>\n"`)
	require.True(t, generateOutput(t, opts).hit())

	writeCaseFile(t, dir, "a/find.html", "<!doctype html>\n<p>second</p>\n")
	second := generateOutput(t, opts)
	require.Empty(t, second.errs)
	assert.True(t, second.miss(), "an edited app misses the entry")
	assert.Contains(t, second.codecOf("acodec"), `"<!doctype html>\n<p>second</p>\n"`)
	assert.NotEqual(t, first.tools(), second.tools(), "the app's sha256 in tools.json")
	again := generateOutput(t, opts)
	assert.True(t, again.hit())
	assert.Equal(t, second.files, again.files)

	writeCaseFile(t, dir, "a/find.html", "<!doctype html>\n<p>first</p>\n")
	back := generateOutput(t, opts)
	require.Empty(t, back.errs)
	assert.True(t, back.miss(), "the entry records the second app")
	assert.Equal(t, first.files, back.files)
	require.True(t, generateOutput(t, opts).hit())

	writeCaseFile(t, dir, "a/other.html", "<!doctype html>\n<p>other</p>\n")
	assert.True(t, generateOutput(t, opts).hit(), "an HTML file no //tool:ui names")

	require.NoError(t, os.Remove(filepath.Join(dir, "a", "find.html")))
	gone := generateOutput(t, opts)
	require.Len(t, gone.errs, 1)
	assert.True(t, strings.HasSuffix(gone.errs[0], "//tool:ui find.html: no such file in the package directory"), gone.errs[0])
}
