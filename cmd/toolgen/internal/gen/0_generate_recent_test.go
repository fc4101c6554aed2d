package gen

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The recent record guesses a miss without a record, and after a file
// of a listed package, or its directory's listing, changed.
func TestRecentRecord(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "p")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "p.go"), []byte("package p\n"), 0o644))
	in := &bootstrapInputs{pkgs: map[string]*listedPackage{
		"example.com/p": {ImportPath: "example.com/p", Dir: pkg, GoFiles: []string{"p.go"}},
		"fmt":           {ImportPath: "fmt", Dir: filepath.Join(dir, "goroot", "fmt"), Standard: true},
	}}
	opts := &Options{Dir: dir, Patterns: []string{"./p"}, Output: "out", Cache: t.TempDir(), Identity: "one"}
	assert.Nil(t, openRecent(&Options{Dir: dir, Output: "out"}), "no cache: no record")

	r := openRecent(opts)
	assert.True(t, r.likelyMiss(), "no record")
	r.update(in, opts)
	assert.False(t, openRecent(opts).likelyMiss(), "nothing changed")
	other := *opts
	other.Identity = "two"
	assert.True(t, openRecent(&other).likelyMiss(), "another toolgen: another record")

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(pkg, "p.go"), later, later))
	r = openRecent(opts)
	assert.True(t, r.likelyMiss(), "a file touched")
	r.update(in, opts)
	assert.False(t, openRecent(opts).likelyMiss(), "recorded again")

	require.NoError(t, os.WriteFile(filepath.Join(pkg, "q.go"), []byte("package p\n"), 0o644))
	require.NoError(t, os.Chtimes(pkg, later.Add(time.Hour), later.Add(time.Hour)))
	assert.True(t, openRecent(opts).likelyMiss(), "a file added to the package's directory")

	// Whether the last scan listed the packages as the load sees them
	// (listsAsLoaded), recorded even when no file changed.
	alike := &Options{Dir: dir, Patterns: opts.Patterns, Output: opts.Output, Env: []string{}}
	r = openRecent(opts)
	r.update(in, alike)
	assert.False(t, openRecent(opts).likelyListed(), "a scan without go env's output lists nothing alike")
	in.env = []byte(`{"GOHOSTOS":"` + runtime.GOOS + `","GOHOSTARCH":"` + runtime.GOARCH + `","GOOS":"` + runtime.GOOS + `","GOARCH":"` + runtime.GOARCH + `"}`)
	in.order = []string{"example.com/p", "fmt"}
	in.pkgs["example.com/p"].Name, in.pkgs["example.com/p"].Match = "p", []string{"./p"}
	openRecent(opts).update(in, alike)
	assert.True(t, openRecent(opts).likelyListed(), "listed alike")
	in.pkgs["example.com/p"].Imports = []string{"example.com/out"}
	in.pkgs["example.com/out"] = &listedPackage{ImportPath: "example.com/out", Name: "out", Dir: filepath.Join(dir, "out"), GoFiles: []string{"out.go"}}
	openRecent(opts).update(in, alike)
	assert.False(t, openRecent(opts).likelyListed(), "the output package listed: the load goes through go/packages")
	in.pkgs["example.com/p"].Imports = nil
	openRecent(opts).update(in, alike)
	require.True(t, openRecent(opts).likelyListed())
	assert.False(t, openRecent(opts).likelyMiss(), "and nothing changed")
	in.tagged = map[string]bool{"example.com/p": true}
	openRecent(opts).update(in, alike)
	assert.False(t, openRecent(opts).likelyListed(), "a file names the bootstrap tag")
}
