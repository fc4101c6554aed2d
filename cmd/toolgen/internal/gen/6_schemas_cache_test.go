package gen

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheCase writes a case in a module of its own (caseDir): tools packages
// a (whose input holds a dep.D), b (with a toolgen-tagged hook file of its
// own) and c (no hook: the static path derives its schemas, without the
// program or its cache), and package dep, whose toolgen-tagged file holds
// a JSON Schema hook. It returns its directory.
func cacheCase(t *testing.T) string {
	t.Helper()
	abs, pkg := caseDir(t, "cache-")
	files := map[string]string{
		"a/a.go": `// Package a declares a tool.
package a

import (
	"context"

	"` + pkg + `/dep"
)

// In is a's input.
type In struct {
	// Q is the query.
	Q string ` + "`json:\"q\"`" + `
	D dep.D ` + "`json:\"d\"`" + `
}

// Find finds.
//
//tool:name a_find
type Find struct{}

// Call finds.
func (Find) Call(ctx context.Context, in In) (string, error) { return in.Q, nil }
`,
		"b/b.go": `// Package b declares a tool.
package b

import "context"

// In is b's input.
type In struct {
	Name string ` + "`json:\"name\"`" + `
}

// Get gets.
//
//tool:name b_get
type Get struct{}

// Call gets.
func (Get) Call(ctx context.Context, in In) (string, error) { return in.Name, nil }
`,
		"b/hook.go": "//go:build toolgen\n\npackage b\n\nimport \"github.com/invopop/jsonschema\"\n\n// JSONSchemaExtend leaves In as it is.\nfunc (In) JSONSchemaExtend(*jsonschema.Schema) {}\n",
		"c/c.go": `// Package c declares a tool without hooks.
package c

import "context"

// In is c's input.
type In struct {
	Text string ` + "`json:\"text\"`" + `
}

// Echo echoes.
//
//tool:name c_echo
type Echo struct{}

// Call echoes.
func (Echo) Call(ctx context.Context, in In) (string, error) { return in.Text, nil }
`,
		"dep/dep.go": "// Package dep is imported by a.\npackage dep\n\n// D is a value.\ntype D struct {\n\tN int `json:\"n\"`\n}\n",
		"dep/hook.go": `//go:build toolgen

package dep

import "github.com/invopop/jsonschema"

// JSONSchemaExtend titles D.
func (D) JSONSchemaExtend(s *jsonschema.Schema) { s.Title = "title-one" }
`,
	}
	writeCaseFiles(t, abs, files)
	return abs
}

// caseDir makes a module for a case in a temporary directory, removed
// when the test ends (an interrupted test leaves nothing in the checkout),
// and returns its absolute path and the module's path, example.com/
// followed by prefix without its dash. Its go.mod requires toolgen,
// replaced by this checkout, and every module toolgen requires, at
// toolgen's versions, with toolgen's go.sum: the go command loads and
// builds the case as it does toolgen's own packages, with no -mod=mod.
func caseDir(t testing.TB, prefix string) (abs, pkg string) {
	t.Helper()
	root, err := filepath.Abs("../../../..")
	require.NoError(t, err)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	pkg = "example.com/" + strings.TrimSuffix(prefix, "-")
	first, rest, ok := strings.Cut(string(mod), "\n")
	require.True(t, ok && strings.HasPrefix(first, "module "), "toolgen's go.mod starts with its module line")
	abs = t.TempDir()
	writeCaseFiles(t, abs, map[string]string{
		"go.mod": "module " + pkg + "\n" + rest + "\nrequire " + bootstrapModulePath + " v0.0.0\n\nreplace " + bootstrapModulePath + " => " + root + "\n",
		"go.sum": string(sum),
	})
	return abs, pkg
}

// bootstrapModulePath is toolgen's module.
const bootstrapModulePath = "github.com/toolgen-go/toolgen"

// writeCaseFiles writes files, by slash-separated path, under dir.
func writeCaseFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		writeCaseFile(t, dir, name, data)
	}
}

// writeCaseFile writes data to name, a slash-separated path under dir.
func writeCaseFile(t testing.TB, dir, name, data string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

// editCaseFile replaces old by new in a file of the case.
func editCaseFile(t *testing.T, dir, name, old, new string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(data), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644))
}

// cachedRun is one generation with the cache.
type cachedRun struct {
	files map[string]string // by base name
	built bool              // the bootstrap program was built
}

func generateCached(t *testing.T, opts Options) cachedRun {
	t.Helper()
	var mu sync.Mutex
	run := cachedRun{files: map[string]string{}}
	opts.Timings = func(phase string, _ time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		run.built = run.built || phase == "bootstrap build"
	}
	files, errs := Generate(context.Background(), opts)
	require.Empty(t, errorMessages(errs))
	for _, f := range files {
		run.files[filepath.Base(f.Path)] = string(f.Data)
	}
	return run
}

// cacheEntries counts the bootstrap's entries in a cache directory (not
// the formatted files, in formatCacheDir, nor the output cache's, in
// outputCacheDir, nor the static cache's, the units' source keys or the
// recent records, in their directories).
func cacheEntries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && slices.Contains([]string{formatCacheDir, outputCacheDir, staticCacheDir, unitSourceDir, recentDir}, filepath.Base(path)) && filepath.Dir(path) == dir {
			return fs.SkipDir
		}
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), "tmp-") {
			n++
		}
		return err
	})
	require.NoError(t, err)
	return n
}

// Each input the bootstrap program reads invalidates the entries of the
// packages it can affect, and only those; an unchanged input hits, and a
// hit gives the bytes a run without the cache gives.
func TestBootstrapCache(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	cacheDir := t.TempDir()
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b", "./c"}, Output: "out", Cache: cacheDir, Identity: "one"}

	uncached := generateCached(t, Options{Dir: dir, Patterns: opts.Patterns, Output: opts.Output})
	first := generateCached(t, opts)
	require.True(t, first.built)
	require.Equal(t, 2, cacheEntries(t, cacheDir), "one entry per tools package the program reflects (a and b, not c)")
	hit := generateCached(t, opts)
	assert.False(t, hit.built, "unchanged input: no bootstrap program")
	assert.Equal(t, uncached.files, hit.files)
	assert.Equal(t, uncached.files, first.files)

	steps := []struct {
		name   string
		change func(*Options)
		missed int    // packages reflected again
		want   string // in tools.json afterwards
	}{
		{"a field", func(*Options) {
			editCaseFile(t, dir, "a/a.go", "\tD dep.D", "\tExtra bool `json:\"extra\"`\n\tD dep.D")
		}, 1, `"extra"`},
		{"a tag", func(*Options) {
			editCaseFile(t, dir, "b/b.go", "`json:\"name\"`", "`json:\"name\" jsonschema:\"minLength=3\"`")
		}, 1, `"minLength": 3`},
		{"a doc comment", func(*Options) { editCaseFile(t, dir, "a/a.go", "Q is the query.", "Q is the search text.") }, 1, "The search text."},
		{"a field of the package without hooks", func(*Options) {
			editCaseFile(t, dir, "c/c.go", "\tText string", "\tMore bool `json:\"more\"`\n\tText string")
		}, 0, `"more"`},
		{"a hook file of a dependency", func(*Options) { editCaseFile(t, dir, "dep/hook.go", "title-one", "title-two") }, 1, "title-two"},
		{"build tags", func(o *Options) { o.BuildFlags = []string{"-tags=other"} }, 2, "title-two"},
		{"toolgen's identity", func(o *Options) { o.Identity = "two" }, 2, "title-two"},
		{"nothing", func(*Options) {}, 0, "title-two"},
	}
	for _, s := range steps {
		before := cacheEntries(t, cacheDir)
		s.change(&opts)
		got := generateCached(t, opts)
		assert.Equal(t, s.missed > 0, got.built, "%s: bootstrap program built", s.name)
		assert.Equal(t, s.missed, cacheEntries(t, cacheDir)-before, "%s: entries added", s.name)
		assert.Contains(t, got.files["tools.json"], s.want, s.name)
	}

	// A corrupt entry is ignored and written again.
	want := generateCached(t, opts)
	err := filepath.WalkDir(cacheDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.WriteFile(path, []byte("toolgen-cache 1\ngarbage"), 0o644)
		}
		return err
	})
	require.NoError(t, err)
	rebuilt := generateCached(t, opts)
	assert.True(t, rebuilt.built, "corrupt entries: the program runs")
	assert.Equal(t, want.files, rebuilt.files)
	again := generateCached(t, opts)
	assert.False(t, again.built, "the rebuilt entries are used")
}

// Two generations at once into one empty cache both succeed with the same
// output.
func TestBootstrapCacheConcurrent(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b", "./c"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	var runs [2][]File
	var errs [2][]string
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() {
			files, es := Generate(context.Background(), opts)
			runs[i], errs[i] = files, errorMessages(es)
		})
	}
	wg.Wait()
	require.Empty(t, errs[0])
	require.Empty(t, errs[1])
	require.NotEmpty(t, runs[0])
	assert.Equal(t, runs[0], runs[1])
	assert.Equal(t, 2, cacheEntries(t, opts.Cache))
	assert.False(t, generateCached(t, opts).built)
}

// The formatted files are cached, one entry per file formatted, and a run
// reading them back gives the bytes a run without the cache gives.
func TestFormatCache(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out"}
	want, errs := Generate(context.Background(), opts)
	require.Empty(t, errorMessages(errs))
	opts.Cache, opts.Identity = t.TempDir(), "one"
	for range 2 {
		got, errs := Generate(context.Background(), opts)
		require.Empty(t, errorMessages(errs))
		assert.Equal(t, want, got)
	}
	goFiles := 0
	for _, f := range want {
		if strings.HasSuffix(f.Path, ".go") && !unitFilePath(filepath.Join(dir, opts.Output), f.Path) {
			goFiles++
		}
	}
	assert.Equal(t, goFiles, cacheEntries(t, filepath.Join(opts.Cache, formatCacheDir))-len(unitEntryFiles(t, opts.Cache)), "the files of the units are in their entries")
}
