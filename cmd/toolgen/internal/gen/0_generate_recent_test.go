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
	r.update(in, nil)
	assert.False(t, openRecent(opts).likelyMiss(), "nothing changed")
	other := *opts
	other.Identity = "two"
	assert.True(t, openRecent(&other).likelyMiss(), "another toolgen: another record")

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(pkg, "p.go"), later, later))
	r = openRecent(opts)
	assert.True(t, r.likelyMiss(), "a file touched")
	r.update(in, nil)
	assert.False(t, openRecent(opts).likelyMiss(), "recorded again")

	require.NoError(t, os.WriteFile(filepath.Join(pkg, "q.go"), []byte("package p\n"), 0o644))
	require.NoError(t, os.Chtimes(pkg, later.Add(time.Hour), later.Add(time.Hour)))
	assert.True(t, openRecent(opts).likelyMiss(), "a file added to the package's directory")

	// Whether the last scan listed the packages as the load sees them
	// (listsAsLoaded), recorded even when no file changed.
	r = openRecent(opts)
	r.update(in, []string{})
	assert.False(t, openRecent(opts).likelyListed(), "a scan without go env's output lists nothing alike")
	in.env = []byte(`{"GOHOSTOS":"` + runtime.GOOS + `","GOHOSTARCH":"` + runtime.GOARCH + `"}`)
	openRecent(opts).update(in, []string{})
	assert.True(t, openRecent(opts).likelyListed(), "listed alike")
	assert.False(t, openRecent(opts).likelyMiss(), "and nothing changed")
	in.tagged = map[string]bool{"example.com/p": true}
	openRecent(opts).update(in, []string{})
	assert.False(t, openRecent(opts).likelyListed(), "a file names the bootstrap tag")
}
