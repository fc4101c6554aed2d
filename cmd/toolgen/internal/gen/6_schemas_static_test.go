package gen

import (
	"context"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// parityCount is what one corpus of the parity test compared.
type parityCount struct {
	derived  []string // types derived statically, equal to the program's schema
	fallback []string // types left to the program
}

// staticParity derives every exported named type of the packages
// opts' patterns match both ways, statically and with the bootstrap
// program, and requires the same bytes for each type the static path
// derives. ok is false when the packages do not load or the program does
// not build (a corpus of refused cases).
func staticParity(t *testing.T, opts Options) (parityCount, bool) {
	t.Helper()
	ctx := context.Background()
	var count parityCount
	l, errs := load(ctx, &opts, nil, false)
	if len(errs) > 0 {
		t.Logf("not loaded: %.300s", strings.Join(errorMessages(errs), "; "))
		return count, false
	}
	comments, errs := schemaComments(l)
	require.Empty(t, errs)
	var list []bootstrapType
	var reqs []schemaRequest
	for _, p := range l.pkgs {
		for _, name := range p.Types.Scope().Names() {
			tn, ok := p.Types.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
				continue
			}
			bt := bootstrapType{PkgPath: p.PkgPath, Name: name}
			list = append(list, bt)
			reqs = append(reqs, schemaRequest{Tool: bt.String(), Output: &bt})
		}
	}
	if len(list) == 0 {
		return count, false
	}
	static := newStaticPath(l, newCommentSet(l))
	items, errs := bootstrapRun(ctx, bootstrapConfig{Dir: opts.Dir, Comments: comments}, reqs, list)
	if len(errs) > 0 {
		// A hook that panics, or a type the program cannot import, fails
		// the whole program: compare the types the static path derives
		// with a program of their own.
		t.Logf("the program does not build or run for every type: %.300s", strings.Join(errorMessages(errs), "; "))
		var derivable []bootstrapType
		var dreqs []schemaRequest
		for i, bt := range list {
			if _, ok := static.schema(bt); ok {
				derivable = append(derivable, bt)
				dreqs = append(dreqs, reqs[i])
			} else {
				count.fallback = append(count.fallback, bt.String())
			}
		}
		if len(derivable) == 0 {
			return count, false
		}
		list, reqs = derivable, dreqs
		items, errs = bootstrapRun(ctx, bootstrapConfig{Dir: opts.Dir, Comments: comments}, reqs, list)
		if len(errs) > 0 {
			t.Logf("nor for the types derived statically: %.300s", strings.Join(errorMessages(errs), "; "))
			return count, false
		}
	}
	for i, bt := range list {
		got, ok := static.schema(bt)
		if !ok {
			count.fallback = append(count.fallback, bt.String())
			continue
		}
		want, err := jsontree.Parse(items[i])
		require.NoError(t, err)
		require.Nil(t, want.Get("error"), "%s: the static path derives a type the program fails on: %s", bt, items[i])
		gotTree, err := jsontree.Parse(got)
		require.NoError(t, err)
		if assert.Equal(t, string(want.Compact()), string(gotTree.Compact()), "%s: the raw schemas differ", bt) {
			count.derived = append(count.derived, bt.String())
		}
	}
	return count, true
}

// repoRoot is the root of toolgen's module.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../../..")
	require.NoError(t, err)
	return dir
}

// TestStaticParity: for every type of every corpus the static path
// derives, its schema is the bootstrap program's, byte for byte: the
// golden cases, tools/, bench/tools, the schema package's fixtures (one
// of them, testdata/static, holds a construct of every kind) and the
// synthetic catalogs, nested and flat.
func TestStaticParity(t *testing.T) {
	skipBuildsInShortMode(t)
	root := repoRoot(t)
	schemaDir := filepath.Join(root, "cmd", "toolgen", "internal", "schema")
	fixed := []struct {
		name, dir string
		patterns  []string
	}{
		{"tools", root, []string{"./tools/..."}},
		{"schema testdata", schemaDir, []string{"./testdata/a", "./testdata/b", "./testdata/comments", "./testdata/nested/a", "./testdata/static"}},
		{"bench tools", filepath.Join(root, "bench"), []string{"./tools/"}},
		{"nested catalog", synthCatalog(t, root, true), []string{"./tools/..."}},
		{"flat catalog", synthCatalog(t, root, false), []string{"./tools/..."}},
	}
	for _, c := range fixed {
		t.Run(c.name, func(t *testing.T) {
			count, ok := staticParity(t, Options{Dir: c.dir, Patterns: c.patterns, Output: "generated"})
			require.True(t, ok, "the corpus loads and its program builds")
			assert.NotEmpty(t, count.derived)
			t.Logf("%d types derived statically, %d left to the program: %v", len(count.derived), len(count.fallback), count.fallback)
			if c.name == "schema testdata" {
				for _, want := range []string{"Kinds", "More", "Shadow", "Wrapper", "Tree", "Empty", "Scores", "Blob"} {
					assert.Contains(t, count.derived, "github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/static."+want)
				}
			}
		})
	}
	cases, err := os.ReadDir("testdata/cases")
	require.NoError(t, err)
	compared := 0
	for _, c := range cases {
		t.Run("case "+c.Name(), func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("testdata/cases", c.Name()))
			require.NoError(t, err)
			count, ok := staticParity(t, caseOptions(t, dir))
			if ok {
				compared++
			}
			t.Logf("%d types derived statically, %d left to the program: %v", len(count.derived), len(count.fallback), count.fallback)
		})
	}
	assert.GreaterOrEqual(t, compared, 20, "most golden cases load and build")
}

// synthCatalog writes a small synthetic catalog (bench/scripts/synth) in
// a temporary directory and returns it.
func synthCatalog(t *testing.T, root string, nested bool) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "synth")
	args := []string{"run", "./scripts/synth", "-out", out, "-repo", root, "-packages", "3", "-tools", "6"}
	if nested {
		args = append(args, "-nested")
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Join(root, "bench")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	tidy := exec.Command("go", "mod", "tidy", "-e")
	tidy.Dir = out
	b, err = tidy.CombinedOutput()
	require.NoError(t, err, "%s", strings.TrimSpace(string(b)))
	return out
}

// staticLoad loads patterns in dir and returns the static path for them.
func staticLoad(t *testing.T, dir string, patterns ...string) *staticPath {
	t.Helper()
	l, errs := load(context.Background(), &Options{Dir: dir, Patterns: patterns, Output: "generated"}, nil, false)
	require.Empty(t, errorMessages(errs))
	_, errs = schemaComments(l)
	require.Empty(t, errs)
	return newStaticPath(l, newCommentSet(l))
}

// TestStaticFallsBackOnPackages: the types of a package with a file built
// only with the bootstrap tag (tools/notes has schema_hooks.go), and the
// types whose graph holds a named type of a package toolgen did not load
// from source (other than the standard library), go through the program.
func TestStaticFallsBackOnPackages(t *testing.T) {
	root := repoRoot(t)
	static := staticLoad(t, root, "./tools/notes", "./tools/clock")
	const tools = "github.com/toolgen-go/toolgen/tools/"
	_, ok := static.schema(bootstrapType{tools + "notes", "SearchInput"})
	assert.False(t, ok, "notes has a toolgen-tagged file")
	_, ok = static.schema(bootstrapType{tools + "clock", "WaitInput"})
	assert.True(t, ok, "clock has none")

	static = staticLoad(t, filepath.Join(root, "cmd", "toolgen", "internal", "schema"), "./testdata/static")
	const fixture = "github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/static"
	_, ok = static.schema(bootstrapType{fixture, "Kinds"})
	assert.False(t, ok, "Kinds holds a.Item and b.Item, of packages not loaded")
	_, ok = static.schema(bootstrapType{fixture, "Tree"})
	assert.True(t, ok, "Tree needs nothing but its own package")
}

// TestStaticWithoutProgram: when the static path derives every type, no
// program is written (its directory does not even exist here).
func TestStaticWithoutProgram(t *testing.T) {
	root := repoRoot(t)
	static := staticLoad(t, root, "./tools/clock")
	in := bootstrapType{"github.com/toolgen-go/toolgen/tools/clock", "WaitInput"}
	out := bootstrapType{"github.com/toolgen-go/toolgen/tools/clock", "Waited"}
	cfg := bootstrapConfig{Dir: filepath.Join(t.TempDir(), "missing"), static: static}
	got, errs := runBootstrap(context.Background(), cfg, []schemaRequest{{Tool: "clock_wait", Input: &in, Output: &out}})
	require.Empty(t, errorMessages(errs))
	require.Contains(t, got, "clock_wait")
	assert.Equal(t, "object", got["clock_wait"].Input.Get("type").Text)
	cfg.static = nil
	_, errs = runBootstrap(context.Background(), cfg, []schemaRequest{{Tool: "clock_wait", Input: &in, Output: &out}})
	assert.NotEmpty(t, errs, "without the static path, the program is written there and fails")
}

// TestNamesBootstrapTag: which build constraints name the bootstrap tag.
func TestNamesBootstrapTag(t *testing.T) {
	for src, want := range map[string]bool{
		"//go:build toolgen\n\npackage p\n":               true,
		"//go:build linux && !toolgen\n\npackage p\n":     true,
		"// +build toolgen\n\npackage p\n":                true,
		"// Package p.\n//go:build ignore\n\npackage p\n": false,
		"package p\n\n//go:build toolgen\n":               false, // not a constraint after the package clause
		"//go:build toolgen_other\n\npackage p\n":         false,
		"//go:build (\n\npackage p\n":                     true, // unreadable: assumed to
		"//go:build linux || toolgen\n\npackage p\n":      true, // not reached by an evaluation
		"//go:build !linux && toolgen\n\npackage p\n":     true,
	} {
		assert.Equal(t, want, namesBootstrapTag([]byte(src)), "%q", src)
	}
	// Whether the tag is named under a negation: only such a file can be
	// in the load's build and not in the program's.
	for src, want := range map[string]bool{
		"//go:build toolgen\n\npackage p\n":                     false,
		"//go:build linux || toolgen\n\npackage p\n":            false,
		"//go:build !toolgen\n\npackage p\n":                    true,
		"//go:build linux && !toolgen\n\npackage p\n":           true,
		"//go:build !(toolgen && x)\n\npackage p\n":             true,
		"//go:build !(!toolgen)\n\npackage p\n":                 false,
		"// +build !toolgen\n\npackage p\n":                     true,
		"//go:build (\n\npackage p\n":                           true,
		"//go:build toolgen\n// +build !toolgen\n\npackage p\n": true,
	} {
		named, negated := bootstrapTagUse([]byte(src))
		assert.True(t, named, "%q", src)
		assert.Equal(t, want, negated, "%q", src)
	}
}

// TestStaticFallsBackOnTaggedFiles: a package whose files differ with the
// bootstrap tag (here one type declared twice, with and without it) goes
// through the program, which sees the tagged declaration; a package
// without such a file is derived statically.
func TestStaticFallsBackOnTaggedFiles(t *testing.T) {
	skipBuildsInShortMode(t)
	dir, env := bootstrapModule(t, map[string]string{
		"p/untagged.go": "//go:build !toolgen\n\npackage p\n\ntype In struct{ A string }\n",
		"p/tagged.go":   "//go:build toolgen\n\npackage p\n\ntype In struct{ B int }\n",
		"q/q.go":        "package q\n\ntype In struct{ C bool }\n",
	})
	l, errs := load(context.Background(), &Options{Dir: dir, Patterns: []string{"./..."}, Env: env, Output: "generated"}, nil, false)
	require.Empty(t, errorMessages(errs))
	static := newStaticPath(l, nil)
	p := bootstrapType{"example.com/user/p", "In"}
	q := bootstrapType{"example.com/user/q", "In"}
	_, ok := static.schema(p)
	assert.False(t, ok, "p's files name the tag")
	_, ok = static.schema(q)
	assert.True(t, ok)
	cfg := bootstrapConfig{Dir: dir, Env: env, static: static}
	got, errs := runBootstrap(context.Background(), cfg, []schemaRequest{{Tool: "p", Input: &p}, {Tool: "q", Input: &q}})
	require.Empty(t, errorMessages(errs))
	assert.Equal(t, `{"properties":{"B":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["B"]}`, string(got["p"].Input.Compact()), "the program's declaration")
	assert.Equal(t, `{"properties":{"C":{"type":"boolean"}},"additionalProperties":false,"type":"object","required":["C"]}`, string(got["q"].Input.Compact()))
}
