package gen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listingModule writes a module whose tools package declares find in
// every build and get in the file getFile alone (src, which the bootstrap
// program's listing does not select), whose input is lim.Query, bounded
// by a maxLength; extra are more files. It returns the module's directory
// and the environment of its go command.
func listingModule(t *testing.T, getFile, constraint string, extra map[string]string) (string, []string) {
	t.Helper()
	files := map[string]string{
		"tools/tools.go": `// Package tools declares tools.
package tools

import "context"

// In is find's input.
type In struct {
	Q string ` + "`json:\"q\"`" + `
}

// Find finds.
//
//tool:name find
type Find struct{}

// Call finds.
func (Find) Call(ctx context.Context, in In) (string, error) { return in.Q, nil }
`,
		"tools/" + getFile: constraint + `package tools

import (
	"context"

	"example.com/user/lim"
)

// Get gets.
//
//tool:name get
type Get struct{}

// Call gets.
func (Get) Call(ctx context.Context, in lim.Query) (string, error) { return in.S, nil }
`,
		"lim/lim.go": "// Package lim holds a bounded query.\npackage lim\n\n// Query is a bounded query.\ntype Query struct {\n\tS string `json:\"s\" jsonschema:\"maxLength=5\"`\n}\n",
	}
	for name, data := range extra {
		files[name] = data
	}
	return bootstrapModule(t, files)
}

// A package the tools packages import only from a file the bootstrap
// program's build does not select (a file of the user's GOFLAGS tags, a
// !toolgen file, a file of the load's GOOS) is in the output cache's key:
// an edit to it misses, and the run gives the files of a run without the
// cache.
func TestOutputCacheLoadOnlyFiles(t *testing.T) {
	skipBuildsInShortMode(t)
	hookX := `//go:build x

package tools

import "github.com/invopop/jsonschema"

// JSONSchemaExtend titles find's input, in builds with x only.
func (In) JSONSchemaExtend(s *jsonschema.Schema) { s.Title = "titled-under-x" }
`
	otherOS := "windows"
	if strings.HasPrefix(os.Getenv("GOOS"), "windows") || filepath.Separator == '\\' {
		otherOS = "linux"
	}
	goEnvFile := filepath.Join(t.TempDir(), "env")
	require.NoError(t, os.WriteFile(goEnvFile, []byte("GOFLAGS=-mod=mod -tags=x\n"), 0o644))
	tests := []struct {
		name, getFile, constraint string
		env                       []string
		extra                     map[string]string
		want                      string // in tools.json besides the new bound
	}{
		{"GOFLAGS tags", "get_x.go", "//go:build x\n\n", []string{"GOFLAGS=-mod=mod -tags=x"}, map[string]string{"tools/hook_x.go": hookX}, "titled-under-x"},
		{"GOFLAGS tags from the go env file", "get_x.go", "//go:build x\n\n", []string{"GOFLAGS=", "GOENV=" + goEnvFile}, map[string]string{"tools/hook_x.go": hookX}, "titled-under-x"},
		{"a !toolgen file", "get.go", "//go:build !toolgen\n\n", nil, nil, `"get"`},
		{"another GOOS", "get_" + otherOS + ".go", "", []string{"GOOS=" + otherOS}, nil, `"get"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := listingModule(t, tt.getFile, tt.constraint, tt.extra)
			env = append(slices.Clip(env), tt.env...)
			opts := Options{Dir: dir, Patterns: []string{"./tools"}, Output: "out", Cache: t.TempDir(), Identity: "one", Env: env}
			off := opts
			off.Cache, off.Identity = "", ""
			// -mod=mod completes go.mod as the go command first meets
			// the module's imports; a run without the cache settles it.
			require.Empty(t, generateOutput(t, off).errs)
			first := generateOutput(t, opts)
			require.Empty(t, first.errs)
			require.True(t, first.miss())
			require.Contains(t, first.tools(), `"maxLength": 5`, "the load selects the file")
			assert.Contains(t, first.tools(), tt.want)
			second := generateOutput(t, opts)
			require.True(t, second.hit(), "%v", second.phases)

			editCaseFile(t, dir, "lim/lim.go", "maxLength=5", "maxLength=9")
			got := generateOutput(t, opts)
			require.Empty(t, got.errs)
			assert.True(t, got.miss(), "an edit to the imported package misses")
			assert.Contains(t, got.tools(), `"maxLength": 9`)
			assert.Contains(t, got.tools(), tt.want)
			assert.Equal(t, generateOutput(t, off).files, got.files, "a run without the cache")
			again := generateOutput(t, opts)
			assert.True(t, again.hit())
			assert.Equal(t, got.files, again.files)
		})
	}
}

// The load is listed a second time only when it may select a file the
// program's listing leaves out: a file built with the toolgen tag alone
// (a hook file) leaves the load fewer files, which the listing covers.
func TestScanListsTheLoadWhenNeeded(t *testing.T) {
	skipBuildsInShortMode(t)
	for constraint, want := range map[string]bool{
		"//go:build toolgen\n\n":          false,
		"//go:build linux || toolgen\n\n": false,
		"//go:build !toolgen\n\n":         true,
	} {
		dir, env := listingModule(t, "get.go", constraint, nil)
		opts := Options{Dir: dir, Patterns: []string{"./tools"}, Output: "out", Cache: t.TempDir(), Identity: "one", Env: env}
		scan := startBootstrapScan(t.Context(), &opts)
		in, err := scan.wait()
		scan.stop()
		require.NoError(t, err, "%q", constraint)
		assert.Equal(t, want, in.loadListed, "%q", constraint)
		assert.True(t, in.tagged["example.com/user/tools"], "%q", constraint)
		_, listed := in.pkgs["example.com/user/lim"]
		assert.True(t, listed, "%q: lim, which the file imports, is listed", constraint)
	}
}
