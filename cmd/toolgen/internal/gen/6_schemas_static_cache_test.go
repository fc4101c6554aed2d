package gen

import (
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// staticCase writes a case in a module of its own (caseDir) whose schemas
// the static path derives: tools packages s (its input holds a t.Shared
// and a plain.Word) and t (a tool of its own, and Shared), and package
// plain, which declares no tools. It returns its directory.
func staticCase(t *testing.T) string {
	t.Helper()
	abs, pkg := caseDir(t, "static-")
	files := map[string]string{
		"s/s.go": `// Package s declares a tool.
package s

import (
	"context"

	"` + pkg + `/plain"
	"` + pkg + `/t"
)

// In is the input of s_find.
type In struct {
	// Q is the query.
	Q string ` + "`json:\"q\"`" + `
	// Shared is shared with t.
	Shared t.Shared ` + "`json:\"shared\"`" + `
	// Word is a plain word.
	Word plain.Word ` + "`json:\"word\"`" + `
}

// Find finds.
//
//tool:name s_find
type Find struct{}

// Call finds.
func (Find) Call(ctx context.Context, in In) (string, error) { return in.Q, nil }
`,
		"t/t.go": `// Package t declares a tool.
package t

import "context"

// Shared is a value two packages use.
type Shared struct {
	// N counts things.
	N int ` + "`json:\"n\"`" + `
}

// Get gets.
//
//tool:name t_get
type Get struct{}

// Call gets.
func (Get) Call(ctx context.Context, in Shared) (string, error) { return "", nil }
`,
		"plain/plain.go": "// Package plain declares no tools.\npackage plain\n\n// Word is a word.\ntype Word = string\n",
	}
	writeCaseFiles(t, abs, files)
	return abs
}

// staticEntries lists the static cache's entries in the toolgen cache
// dir, by key.
func staticEntries(t *testing.T, dir string) []cache.Key {
	t.Helper()
	var keys []cache.Key
	err := filepath.WalkDir(filepath.Join(dir, staticCacheDir), func(path string, d fs.DirEntry, err error) error {
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil || d.IsDir() {
			return err
		}
		if b, err := hex.DecodeString(d.Name()); err == nil && len(b) == len(cache.Key{}) {
			keys = append(keys, cache.Key(b))
		}
		return nil
	})
	require.NoError(t, err)
	return keys
}

// Each input of the static path invalidates the entries of the packages
// it can affect, and only those; the others are used, and a run using
// them gives the bytes a run without the cache gives.
func TestStaticCache(t *testing.T) {
	dir := staticCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./s", "./t"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	uncached := func(o Options) cachedRun {
		o.Cache, o.Identity = "", ""
		return generateCached(t, o)
	}
	first := generateCached(t, opts)
	assert.False(t, first.built, "the static path derives every type")
	require.Len(t, staticEntries(t, opts.Cache), 2, "one entry per tools package")
	assert.Equal(t, uncached(opts).files, first.files)

	steps := []struct {
		name   string
		change func(*Options)
		missed int    // packages derived again
		want   string // in tools.json afterwards
	}{
		{"a field", func(*Options) {
			editCaseFile(t, dir, "s/s.go", "\tQ string", "\tExtra bool `json:\"extra\"`\n\tQ string")
		}, 1, `"extra"`},
		{"a tag of an imported tools package", func(*Options) {
			editCaseFile(t, dir, "t/t.go", "`json:\"n\"`", "`json:\"n\" jsonschema:\"minimum=2\"`")
		}, 2, `"minimum": 2`},
		{"a doc comment of an imported tools package", func(*Options) {
			editCaseFile(t, dir, "t/t.go", "N counts things.", "N counts the things.")
		}, 2, "Counts the things."},
		{"the input's doc comment", func(*Options) {
			editCaseFile(t, dir, "s/s.go", "In is the input of s_find.", "In holds the arguments of s_find.")
		}, 1, `"extra"`},
		{"a directive", func(*Options) {
			editCaseFile(t, dir, "s/s.go", "package s\n", "//tool:keepnames\npackage s\n")
		}, 1, "Q is the query."},
		{"an imported non-tools package's type", func(*Options) {
			editCaseFile(t, dir, "plain/plain.go", "Word = string", "Word = int")
		}, 1, `"type": "integer"`},
		{"build tags", func(o *Options) { o.BuildFlags = []string{"-tags=other"} }, 2, `"extra"`},
		{"toolgen's identity", func(o *Options) { o.Identity = "two" }, 2, `"extra"`},
	}
	for _, s := range steps {
		before := len(staticEntries(t, opts.Cache))
		s.change(&opts)
		got := generateCached(t, opts)
		assert.False(t, got.built, s.name)
		assert.Equal(t, s.missed, len(staticEntries(t, opts.Cache))-before, "%s: entries added", s.name)
		assert.Contains(t, got.files["tools.json"], s.want, s.name)
		assert.Equal(t, uncached(opts).files, got.files, "%s: the bytes of a run without the cache", s.name)
	}
}

// A corrupt entry, or one that does not decode, is derived again and
// overwritten; concurrent runs into one empty cache give the bytes of a
// run without the cache.
func TestStaticCacheCorruptAndConcurrent(t *testing.T) {
	dir := staticCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./s", "./t"}, Output: "out"}
	want := generateCached(t, opts)
	opts.Cache, opts.Identity = t.TempDir(), "one"
	var runs [3]cachedRun
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() { runs[i] = generateCached(t, opts) })
	}
	wg.Wait()
	for _, r := range runs {
		assert.Equal(t, want.files, r.files)
	}
	keys := staticEntries(t, opts.Cache)
	require.Len(t, keys, 2)

	c, err := cache.Open(filepath.Join(opts.Cache, staticCacheDir))
	require.NoError(t, err)
	for _, bad := range []string{"garbage", `{"Items":[]}`, `{"Items":[{"schema":{}},{"schema":{}}]}`} {
		for _, k := range keys {
			p := filepath.Join(opts.Cache, staticCacheDir, k.String()[:2], k.String())
			if bad == "garbage" {
				require.NoError(t, os.WriteFile(p, []byte("toolgen-cache 1\ngarbage"), 0o644))
			} else {
				require.NoError(t, c.Put(k, []byte(bad)))
			}
		}
		require.NoError(t, os.RemoveAll(filepath.Join(opts.Cache, outputCacheDir)), "not the output cache's hit")
		got := generateCached(t, opts)
		assert.Equal(t, want.files, got.files, bad)
		for _, k := range keys {
			data, ok := c.Get(k)
			assert.True(t, ok, "%s: written again", bad)
			assert.NotEqual(t, bad, string(data), "%s: written again", bad)
		}
	}
}
