package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layerEntries counts the entries of the cache layer named layer in the
// cache directory cacheDir: the bootstrap schemas are the entries at its
// top (two-letter directories), the formatted files those of format but
// the units'.
func layerEntries(t *testing.T, cacheDir, layer string) int {
	t.Helper()
	switch layer {
	case "bootstrap":
		n := 0
		des, err := os.ReadDir(cacheDir)
		require.NoError(t, err)
		for _, de := range des {
			if de.IsDir() && len(de.Name()) == 2 {
				n += dirEntries(t, cacheDir, de.Name())
			}
		}
		return n
	case "units":
		return dirEntries(t, cacheDir, filepath.Join("format", "units"))
	case "format":
		return dirEntries(t, cacheDir, "format") - dirEntries(t, cacheDir, filepath.Join("format", "units"))
	}
	return dirEntries(t, cacheDir, layer)
}

// TOOLGEN_CACHE_SKIP turns each layer off alone: it stores and finds
// nothing, the others still do, and the files are those of a run without
// the cache.
func TestCacheSkip(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := exportCase(t)
	base := Options{Dir: dir, Patterns: []string{"./a", "./b", "./c"}, Output: "out", Identity: "one"}
	uncached := generateOutput(t, base)
	require.Empty(t, uncached.errs)

	all := base
	all.Cache = t.TempDir()
	t.Setenv(cacheSkipEnv, "output") // the other layers are used on a miss only
	require.Empty(t, generateOutput(t, all).errs)
	for _, layer := range cacheLayers() {
		if layer != "output" {
			assert.Positive(t, layerEntries(t, all.Cache, layer), "%s: the layer stores entries when on", layer)
		}
	}

	for _, layer := range cacheLayers() {
		t.Run(layer, func(t *testing.T) {
			opts := base
			opts.Cache = t.TempDir()
			t.Setenv(cacheSkipEnv, "unknown, "+layer)
			for range 2 {
				got := generateOutput(t, opts)
				require.Empty(t, got.errs)
				assert.Equal(t, uncached.files, got.files)
			}
			assert.Zero(t, layerEntries(t, opts.Cache, layer), "the layer stores nothing")
			others := 0
			for _, l := range cacheLayers() {
				if l != layer {
					others += layerEntries(t, opts.Cache, l)
				}
			}
			assert.Positive(t, others, "the other layers store")
		})
	}
}
