package layout

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The limits TestSizes keeps: a reader finds a concern by its file and
// reads a function on one screen.
const (
	maxFileLines = 600
	maxFuncLines = 80
)

// sizeRoots are the trees TestSizes measures, from the module root.
var sizeRoots = []string{"cmd", "runtime"}

// runtimeOver are the files and functions of runtime/ over the limits when
// the size test came in (issue R, item 5), as sizes reports them. The
// list may only shrink: TestSizes fails when an entry is no longer over
// its limit (remove it) and when anything else is (split it). Empty it.
var runtimeOver = []string{
	"runtime/service/storetest/shared.go: file",
	"runtime/service/storetest/storetest.go: file",
}

// oversize is a file or function over its limit.
type oversize struct {
	key   string // "path: file" or "path: func Recv.Name"
	lines int
	limit int
}

// sizes measures every hand-written Go file below the roots (dir is the
// module root): not a test (_test.go), not generated (the "Code
// generated ... DO NOT EDIT." line), not under testdata/ or a dot
// directory. A function counts from its func keyword to its closing brace,
// the function literals inside it included.
func sizes(t *testing.T, dir string, roots []string) (over []oversize, files int) {
	t.Helper()
	for _, root := range roots {
		err := filepath.WalkDir(filepath.Join(dir, root), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			if ast.IsGenerated(f) {
				return nil
			}
			files++
			over = append(over, fileOver(fset, f, filepath.ToSlash(rel))...)
			return nil
		})
		require.NoError(t, err)
	}
	return over, files
}

// fileOver lists what of the parsed file f, at path rel, is over a limit.
func fileOver(fset *token.FileSet, f *ast.File, rel string) []oversize {
	var over []oversize
	if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
		over = append(over, oversize{key: rel + ": file", lines: n, limit: maxFileLines})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
			over = append(over, oversize{key: rel + ": func " + funcName(fd), lines: n, limit: maxFuncLines})
		}
	}
	return over
}

// funcName is Name, or Recv.Name for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// TestSizes fails when a hand-written Go file of cmd/ or runtime/ is
// longer than maxFileLines, or one of its functions is longer than
// maxFuncLines, unless runtimeOver lists it; and when an entry of
// runtimeOver is within its limit. Split by concern when it fails; do not
// raise the limits.
func TestSizes(t *testing.T) {
	t.Parallel()
	over, files := sizes(t, "../../../..", sizeRoots)
	require.Greater(t, files, 100, "the walk found the module's files")
	var got []string
	for _, o := range over {
		got = append(got, o.key)
		if !slices.Contains(runtimeOver, o.key) {
			assert.Fail(t, "over the size limit", "%s has %d lines, over %d: split it by concern", o.key, o.lines, o.limit)
		}
	}
	for _, k := range runtimeOver {
		assert.True(t, strings.HasPrefix(k, "runtime/"), "runtimeOver lists %s, outside runtime/", k)
		assert.Contains(t, got, k, "%s is within its limit now: remove it from runtimeOver", k)
	}
}

// TestSizesMeasures keeps the measure honest on a module written here: a
// file and a function one line over (its literals counted), a method
// one line over, a file and a function at the limit, and what is not
// measured (a test, a generated file, testdata).
func TestSizesMeasures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := func(n int) string { return strings.Repeat("\t_ = 0\n", n) }
	files := map[string]string{
		"cmd/a/long.go":         "package a\n" + strings.Repeat("\n", maxFileLines),
		"cmd/a/fitsfile.go":     "package a\n" + strings.Repeat("\n", maxFileLines-1),
		"cmd/a/fits.go":         "package a\n\nfunc fits() {\n" + body(maxFuncLines-2) + "}\n",
		"cmd/a/fn.go":           "package a\n\nfunc f() {\n\tg := func() {\n" + body(maxFuncLines-4) + "\t}\n\tg()\n}\n",
		"runtime/b/method.go":   "package b\n\ntype T[X any] struct{}\n\nfunc (*T[X]) m() {\n" + body(maxFuncLines-1) + "}\n",
		"runtime/b/b_test.go":   "package b\n\nfunc long() {\n" + body(2*maxFuncLines) + "}\n",
		"runtime/b/gen.go":      "// Code generated by toolgen. DO NOT EDIT.\n\npackage b\n\nfunc long() {\n" + body(2*maxFuncLines) + "}\n",
		"runtime/testdata/x.go": "package x\n\nfunc long() {\n" + body(2*maxFuncLines) + "}\n",
	}
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	over, n := sizes(t, dir, sizeRoots)
	var got []string
	for _, o := range over {
		got = append(got, fmt.Sprintf("%s (%d)", o.key, o.lines))
	}
	slices.Sort(got)
	assert.Equal(t, []string{
		fmt.Sprintf("cmd/a/fn.go: func f (%d)", maxFuncLines+1),
		fmt.Sprintf("cmd/a/long.go: file (%d)", maxFileLines+1),
		fmt.Sprintf("runtime/b/method.go: func T.m (%d)", maxFuncLines+1),
	}, got)
	assert.Equal(t, 5, n, "the test, the generated file and testdata are not measured")
}
