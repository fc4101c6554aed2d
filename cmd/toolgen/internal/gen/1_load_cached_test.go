package gen

import (
	"context"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// exportCase is cacheCase without its hooks: no file names the bootstrap
// tag, so the scan lists the packages as the load sees them.
func exportCase(t *testing.T) string {
	t.Helper()
	dir := cacheCase(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "b", "hook.go")))
	require.NoError(t, os.Remove(filepath.Join(dir, "dep", "hook.go")))
	return dir
}

// loadBesideScan loads as Generate does after a miss of the output cache,
// beside the scan of opts.
func loadBesideScan(t *testing.T, opts Options) *loaded {
	t.Helper()
	scan := startBootstrapScan(context.Background(), &opts)
	defer scan.stop()
	l, errs := load(context.Background(), &opts, scan, true)
	require.Empty(t, errorMessages(errs))
	return l
}

// describeLoaded is what the later phases read of l: each package's path,
// name, files, direct imports, and every object of its scope with its
// type and, for a named type, its methods, as go/types prints them; and
// the packages its types reach.
func describeLoaded(l *loaded) []string {
	var out []string
	for _, p := range l.pkgs {
		out = append(out, p.PkgPath+" "+p.Name+" "+strings.Join(p.GoFiles, ",")+" "+strings.Join(p.IgnoredFiles, ","))
		var imports []string
		for path, q := range p.Imports {
			imports = append(imports, "import "+path+" "+q.PkgPath)
		}
		slices.Sort(imports)
		out = append(out, imports...)
		for _, q := range typesPackages(p.Types) {
			out = append(out, "reaches "+q.Path()+" "+q.Name())
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			out = append(out, types.ObjectString(obj, nil))
			if tn, ok := obj.(*types.TypeName); ok {
				ms := types.NewMethodSet(types.NewPointer(tn.Type()))
				for i := range ms.Len() {
					out = append(out, "method "+ms.At(i).String())
				}
			}
		}
		out = append(out, "module "+p.Module.Path+" "+p.Module.Dir+" "+p.Module.GoVersion)
	}
	return out
}

// The cached load gives what go/packages gives; a change to an imported
// package, the go env, the build flags or toolgen's identity is a new key
// (go/packages loads, and stores the entry the next run reads); a change
// to a tools package needs none (they are read from source); and the
// output is the output of a run without the cache after each.
func TestExportCache(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := exportCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b", "./c"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	first := loadBesideScan(t, opts)
	assert.False(t, first.cached, "no entries yet: go/packages")
	stored := dirEntries(t, opts.Cache, exportCacheDir)
	assert.Equal(t, 2, stored, "context and dep, which the tools packages import")
	again := loadBesideScan(t, opts)
	require.True(t, again.cached, "the entries are used")
	assert.Equal(t, describeLoaded(first), describeLoaded(again))

	steps := []struct {
		name   string
		change func(*Options)
		cached bool // the first load after the change
	}{
		{"a field of a tools package", func(*Options) {
			editCaseFile(t, dir, "a/a.go", "\tD dep.D", "\tExtra bool `json:\"extra\"`\n\tD dep.D")
		}, true},
		{"a tag", func(*Options) { editCaseFile(t, dir, "a/a.go", "`json:\"extra\"`", "`json:\"more\"`") }, true},
		{"a doc comment", func(*Options) { editCaseFile(t, dir, "c/c.go", "// In is c's input.", "// In is what c reads.") }, true},
		{"a directive", func(*Options) {
			editCaseFile(t, dir, "c/c.go", "//tool:name c_echo", "//tool:name c_echo\n//tool:readonly")
		}, true},
		{"an imported package's type", func(*Options) {
			editCaseFile(t, dir, "dep/dep.go", "\tN int", "\tM string `json:\"m\"`\n\tN int")
		}, false},
		{"go env", func(o *Options) { o.Env = append(os.Environ(), "GONOSUMDB=example.invalid") }, false},
		{"build flags", func(o *Options) { o.BuildFlags = []string{"-tags=other"} }, false},
		{"toolgen's identity", func(o *Options) { o.Identity = "two" }, false},
	}
	for _, s := range steps {
		s.change(&opts)
		got := loadBesideScan(t, opts)
		assert.Equal(t, s.cached, got.cached, "%s: the first load", s.name)
		next := loadBesideScan(t, opts)
		assert.True(t, next.cached, "%s: the next load", s.name)
		assert.Equal(t, describeLoaded(got), describeLoaded(next), s.name)
		cached := generateOutput(t, opts)
		require.Empty(t, cached.errs, s.name)
		off := opts
		off.Cache, off.Identity = "", ""
		assert.Equal(t, generateOutput(t, off).files, cached.files, "%s: the files of a run without the cache", s.name)
	}
}

// The load goes through go/packages, and stores nothing, when the scan may
// list other packages than it: a file naming the bootstrap tag, GOFLAGS
// setting tags, another GOOS or GOARCH than the host's.
func TestExportCacheNotListedAlike(t *testing.T) {
	skipBuildsInShortMode(t)
	for _, c := range []struct {
		name   string
		change func(t *testing.T, dir string, o *Options)
	}{
		{"a file naming the tag", func(t *testing.T, dir string, _ *Options) {
			writeCaseFile(t, dir, "c/hook.go", "//go:build !toolgen\n\npackage c\n\n// Only is built without the tag.\nconst Only = 1\n")
		}},
		{"GOFLAGS with tags", func(_ *testing.T, _ string, o *Options) { o.Env = append(os.Environ(), "GOFLAGS=-tags=other") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := exportCase(t)
			opts := Options{Dir: dir, Patterns: []string{"./a", "./c"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
			c.change(t, dir, &opts)
			for range 2 {
				assert.False(t, loadBesideScan(t, opts).cached)
			}
			assert.Zero(t, dirEntries(t, opts.Cache, exportCacheDir), "nothing stored")
		})
	}
	// Another GOOS or GOARCH: asked of the scan's result, as loading
	// for another platform compiles the standard library for it.
	dir := exportCase(t)
	otherOS, otherArch := "windows", "arm64"
	if runtime.GOOS == otherOS {
		otherOS = "linux"
	}
	if runtime.GOARCH == otherArch {
		otherArch = "amd64"
	}
	goEnv := filepath.Join(t.TempDir(), "env")
	require.NoError(t, os.WriteFile(goEnv, []byte("GOOS="+otherOS+"\n"), 0o644))
	host := append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	for _, tt := range []struct {
		name string
		env  []string
		want bool
	}{
		{"the host's", host, true},
		{"another GOOS", append(slices.Clip(host), "GOOS="+otherOS), false},
		{"another GOARCH", append(slices.Clip(host), "GOARCH="+otherArch), false},
		{"a go env file that sets another GOOS", append(os.Environ(), "GOOS=", "GOENV="+goEnv), false},
	} {
		opts := Options{Dir: dir, Patterns: []string{"./a"}, Output: "out", Cache: t.TempDir(), Identity: "one", Env: tt.env}
		scan := startBootstrapScan(context.Background(), &opts)
		in, err := scan.wait()
		scan.stop()
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, in.listsAsLoaded(), tt.name)
		assert.Equal(t, !tt.want, in.loadListed, "%s: the load's listing merged in", tt.name)
	}
}

// A corrupt entry is not read: go/packages loads and the entry is written
// again. Loads at once into one cache all succeed alike.
func TestExportCacheCorruptAndConcurrent(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := exportCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./c"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	var loads [3]*loaded
	var wg sync.WaitGroup
	for i := range loads {
		wg.Go(func() { loads[i] = loadBesideScan(t, opts) })
	}
	wg.Wait()
	want := describeLoaded(loads[0])
	for _, l := range loads {
		assert.Equal(t, want, describeLoaded(l))
	}
	var paths []string
	err := filepath.WalkDir(filepath.Join(opts.Cache, exportCacheDir), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, path)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		require.NoError(t, os.WriteFile(p, []byte("toolgen-cache 1\ngarbage"), 0o644))
		got := loadBesideScan(t, opts)
		assert.False(t, got.cached, "%s corrupt: not read", filepath.Base(p))
		assert.Equal(t, want, describeLoaded(got))
		again := loadBesideScan(t, opts)
		assert.True(t, again.cached, "%s corrupt: written again", filepath.Base(p))
		assert.Equal(t, want, describeLoaded(again))
	}
}

// A tools package importing another is checked after it, with its types
// from source, as go/packages does.
func TestExportCacheToolsImportTools(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := exportCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./dep", "./c"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	first := loadBesideScan(t, opts)
	require.False(t, first.cached)
	again := loadBesideScan(t, opts)
	require.True(t, again.cached)
	assert.Equal(t, describeLoaded(first), describeLoaded(again))
	a, dep := again.pkgs[slices.IndexFunc(again.pkgs, func(p *packages.Package) bool { return p.Name == "a" })], again.pkgs[slices.IndexFunc(again.pkgs, func(p *packages.Package) bool { return p.Name == "dep" })]
	assert.Same(t, dep.Types, a.Types.Imports()[slices.IndexFunc(a.Types.Imports(), func(p *types.Package) bool { return p.Name() == "dep" })], "a sees dep's types from source")
	editCaseFile(t, dir, "a/a.go", "\tD dep.D", "\tExtra bool `json:\"extra\"`\n\tD dep.D")
	cached := generateOutput(t, opts)
	require.Empty(t, cached.errs)
	off := opts
	off.Cache, off.Identity = "", ""
	assert.Equal(t, generateOutput(t, off).files, cached.files)
}

// With the output package among the patterns (./... from its parent),
// the load goes through go/packages, which leaves it out, and the recent
// record says so, so that the next run starts go/packages at once.
func TestExportCacheOutputListed(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := exportCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./..."}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	first := generateOutput(t, opts)
	require.Empty(t, first.errs)
	_, err := Write(first.files)
	require.NoError(t, err)
	editCaseFile(t, dir, "c/c.go", "// In is c's input.", "// In is what c reads.")
	got := generateOutput(t, opts)
	require.Empty(t, got.errs)
	assert.False(t, loadBesideScan(t, opts).cached, "the output package is listed")
	assert.False(t, openRecent(&opts).likelyListed())
	off := opts
	off.Cache, off.Identity = "", ""
	assert.Equal(t, generateOutput(t, off).files, got.files)
}
