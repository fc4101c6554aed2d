package gen

import (
	"bytes"
	"context"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/cases")

// TestGolden runs toolgen over every case in testdata/cases. A case is a
// directory of Go packages (patterns in its args file, default ".") whose
// output goes to its want/ directory: the generated files are golden
// there, or, when the case is refused, want/errors.txt holds the expected
// problems exactly as toolgen prints them.
func TestGolden(t *testing.T) {
	cases, err := os.ReadDir("testdata/cases")
	require.NoError(t, err)
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("testdata/cases", c.Name()))
			require.NoError(t, err)
			files, errs := Generate(context.Background(), caseOptions(t, dir))
			wantDir := filepath.Join(dir, "want")
			if len(errs) > 0 {
				var got strings.Builder
				for _, e := range errs {
					got.WriteString(e.Relative(dir) + "\n")
				}
				golden(t, filepath.Join(wantDir, "errors.txt"), []byte(got.String()))
				return
			}
			_, err = os.Stat(filepath.Join(wantDir, "errors.txt"))
			require.True(t, os.IsNotExist(err), "case %s was expected to fail but generated files", c.Name())
			for _, f := range files {
				golden(t, f.Path, f.Data)
			}
			obsolete, err := Obsolete(caseOptions(t, dir), files)
			require.NoError(t, err)
			if *update {
				require.NoError(t, Remove(obsolete))
				return
			}
			assert.Empty(t, obsolete, "golden files no longer generated; run go test ./cmd/toolgen/internal/gen -update")
		})
	}
}

func caseOptions(t *testing.T, dir string) Options {
	patterns := []string{"."}
	if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
		patterns = strings.Fields(string(b))
	}
	return Options{Dir: dir, Patterns: patterns, Output: "want"}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./cmd/toolgen/internal/gen -update")
	assert.Equal(t, string(want), string(got), "%s differs; run go test ./cmd/toolgen/internal/gen -update and review the diff", path)
}

// TestDeterministic generates the same case twice: the bytes are equal.
func TestDeterministic(t *testing.T) {
	dir, err := filepath.Abs("testdata/cases/basic")
	require.NoError(t, err)
	a, errs := Generate(context.Background(), caseOptions(t, dir))
	require.Empty(t, errs)
	b, errs := Generate(context.Background(), caseOptions(t, dir))
	require.Empty(t, errs)
	require.Equal(t, len(a), len(b))
	for i := range a {
		assert.Equal(t, a[i].Path, b[i].Path)
		assert.True(t, bytes.Equal(a[i].Data, b[i].Data), "%s differs between runs", a[i].Path)
	}
}

// TestGeneratedRuns vets the golden output of the cases whose generated
// code is run, and runs the tests beside it (want/run_test.go), which call
// the generated registry: generated code that does not compile, or decodes
// wrongly, is a toolgen bug.
func TestGeneratedRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs generated code")
	}
	// Every case that generates: each want holds the freshness test, whose
	// reflect half must agree with toolgen's go/types half on every shape.
	var pkgs []string
	wants, err := filepath.Glob("testdata/cases/*/want/registry_gen.go")
	require.NoError(t, err)
	for _, w := range wants {
		pkgs = append(pkgs, "./"+filepath.ToSlash(filepath.Dir(w)))
	}
	require.GreaterOrEqual(t, len(pkgs), 6)
	out, err := exec.Command("go", append([]string{"vet"}, pkgs...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command("go", append([]string{"test", "-count=1"}, pkgs...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// TestDuplicateThroughGoGenerate runs the duplicate case's go:generate line
// as a user would: the build of the registry fails and names both
// declarations.
func TestDuplicateThroughGoGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go generate")
	}
	cmd := exec.Command("go", "generate", ".")
	cmd.Dir = "testdata/cases/duplicate"
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "go generate must fail on a duplicate tool name")
	assert.Contains(t, string(out), `a.go:10:1: duplicate tool name "same_name" (other declaration at b.go:7:1)`)
	assert.Contains(t, string(out), `b.go:7:1: duplicate tool name "same_name" (other declaration at a.go:10:1)`)
	_, statErr := os.Stat("testdata/cases/duplicate/want/registry_gen.go")
	assert.True(t, os.IsNotExist(statErr), "nothing is written when there are problems")
}

// TestNoReflectionOnTheCallPath: the generated code and the runtime
// packages it calls import neither reflect nor encoding/json (which is
// reflection).
func TestNoReflectionOnTheCallPath(t *testing.T) {
	var files []string
	for _, glob := range []string{
		"testdata/cases/*/want/*_gen.go",
		"testdata/cases/*/want/internal/*/*_gen.go",
		"../../../../generated/*_gen.go",
		"../../../../generated/internal/*/*_gen.go",
		"../../../../runtime/tool/*.go",
		"../../../../runtime/codec/*.go",
	} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		require.NotEmpty(t, m, glob)
		files = append(files, m...)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			assert.NotContains(t, []string{"reflect", "encoding/json"}, path, "%s imports %s", name, path)
		}
	}
}

// TestEveryFileHasTheVersionGuard: each generated Go file refers to the
// runtime's version constant, so a skew between the generator and the
// runtime fails to compile whichever file a program links.
func TestEveryFileHasTheVersionGuard(t *testing.T) {
	var files []string
	for _, glob := range []string{
		"testdata/cases/*/want/*_gen.go", "testdata/cases/*/want/*/*_gen.go", "testdata/cases/*/want/internal/*/*_gen.go",
		"../../../../generated/*_gen.go", "../../../../generated/*/*_gen.go", "../../../../generated/internal/*/*_gen.go",
	} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.GreaterOrEqual(t, len(files), 6)
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		assert.Contains(t, string(b), "const _ = toolimpl.SupportPackageIsVersion9", name)
	}
}

// sameContent tells a file holding exactly the data from any other,
// across reads of the buffer's size.
func TestSameContent(t *testing.T) {
	dir := t.TempDir()
	data := []byte(strings.Repeat("0123456789", 1000)) // ten reads of buf
	path := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	buf := make([]byte, 1000)
	assert.True(t, sameContent(path, data, buf))
	last := slices.Clone(data)
	last[len(last)-1] = 'x'
	assert.False(t, sameContent(path, last, buf), "the last byte differs")
	assert.False(t, sameContent(path, data[:len(data)-1], buf), "shorter")
	assert.False(t, sameContent(path, append(slices.Clone(data), '!'), buf), "longer")
	assert.False(t, sameContent(filepath.Join(dir, "missing"), data, buf))
	assert.False(t, sameContent(dir, nil, buf), "a directory")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	assert.True(t, sameContent(path, nil, buf), "both empty")
}
