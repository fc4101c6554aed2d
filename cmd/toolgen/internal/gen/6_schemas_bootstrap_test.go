package gen

import (
	"context"
	"fmt"
	"go/format"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/bootstrap/a"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/bootstrap/b"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// The bootstrap tests that build a program do not run in parallel: each
// build is a go command that uses both cores, and the tests check that
// the fixture directory holds no temporary directory afterwards.

const (
	bootstrapFixtures = "testdata/bootstrap"
	bootstrapPkg      = "github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/bootstrap"
)

func bootstrapFixtureType(pkg, name string) *bootstrapType {
	return &bootstrapType{PkgPath: bootstrapPkg + "/" + pkg, Name: name}
}

// bootstrapPos is the declaration position of a fixture tool.
func bootstrapPos(line int) token.Position {
	return token.Position{Filename: "/fixture/tools.go", Line: line, Column: 6}
}

// bootstrapListing returns the names in dir, to show that a run leaves
// nothing behind.
func bootstrapListing(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func skipBuildsInShortMode(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a bootstrap program")
	}
}

// errorMessages renders problems as toolgen prints them.
func errorMessages(errs []*problem.Error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestBootstrapSchemas(t *testing.T) {
	skipBuildsInShortMode(t)
	dir, err := filepath.Abs(bootstrapFixtures)
	require.NoError(t, err)
	before := bootstrapListing(t, dir)

	comments := map[string]string{
		bootstrapPkg + "/a.SearchInput":       "SearchInput is a simple input with tags.",
		bootstrapPkg + "/a.SearchInput.Query": "Query is what to look for.",
	}
	reqs := []schemaRequest{
		{Tool: "search", Pos: bootstrapPos(1), Input: bootstrapFixtureType("a", "SearchInput"), Output: bootstrapFixtureType("a", "SearchOutput")},
		{Tool: "hooks", Pos: bootstrapPos(2), Input: bootstrapFixtureType("a", "HookInput")},
		{Tool: "boom", Pos: bootstrapPos(3), Input: bootstrapFixtureType("a", "BoomInput"), Output: bootstrapFixtureType("a", "Item")},
		{Tool: "both", Pos: bootstrapPos(4), Input: bootstrapFixtureType("b", "BothInput")},
		{Tool: "tree", Pos: bootstrapPos(5), Input: bootstrapFixtureType("a", "Tree"), Output: bootstrapFixtureType("a", "Tree")},
		{Tool: "loose", Pos: bootstrapPos(6), Input: bootstrapFixtureType("a", "LooseInput")},
		{Tool: "noargs", Pos: bootstrapPos(7), Output: bootstrapFixtureType("a", "Item")},
		{Tool: "word", Pos: bootstrapPos(8), Input: bootstrapFixtureType("a", "Word")},
		{Tool: "secret", Pos: bootstrapPos(9), Input: bootstrapFixtureType("a", "Secret")},
		{Tool: "nooutput", Pos: bootstrapPos(10), Input: bootstrapFixtureType("a", "SearchInput")},
		{Tool: "bare", Pos: bootstrapPos(11)},
		{Tool: "boomout", Pos: bootstrapPos(12), Input: bootstrapFixtureType("a", "Item"), Output: bootstrapFixtureType("a", "BoomInput")},
	}
	got, errs := runBootstrap(context.Background(), bootstrapConfig{Dir: dir, Comments: comments}, reqs)

	t.Run("failures are reported at their tools", func(t *testing.T) {
		require.Len(t, errs, 3, errorMessages(errs))
		assert.Equal(t, bootstrapPos(3), errs[0].Pos)
		assert.Regexp(t, `^tool boom: no input schema: reflecting the JSON Schema of a\.BoomInput panicked: boom from a hook \(at a\.go:\d+ in a\.Boom\.JSONSchemaExtend\)$`, errs[0].Msg)
		assert.Equal(t, bootstrapPos(8), errs[1].Pos)
		assert.Contains(t, errs[1].Msg, `tool word: the JSON Schema of its input `+bootstrapPkg+`/a.Word is not an object schema ({"type":"string"})`)
		assert.Equal(t, bootstrapPos(12), errs[2].Pos)
		assert.Regexp(t, `^tool boomout: no output schema: reflecting the JSON Schema of a\.BoomInput panicked: boom from a hook`, errs[2].Msg)
	})
	t.Run("a failure hides no other tool", func(t *testing.T) {
		for _, r := range reqs {
			_, ok := got[r.Tool]
			assert.Equal(t, r.Tool != "boom" && r.Tool != "word" && r.Tool != "boomout", ok, r.Tool)
		}
	})
	t.Run("schemas equal schema.Reflect in this process", func(t *testing.T) {
		types := map[string]reflect.Type{
			"SearchInput": reflect.TypeFor[a.SearchInput](), "SearchOutput": reflect.TypeFor[a.SearchOutput](),
			"HookInput": reflect.TypeFor[a.HookInput](), "BothInput": reflect.TypeFor[b.BothInput](),
			"Tree": reflect.TypeFor[a.Tree](), "LooseInput": reflect.TypeFor[a.LooseInput](),
			"Item": reflect.TypeFor[a.Item](), "Secret": reflect.TypeFor[a.Secret](),
		}
		for _, r := range reqs {
			s, ok := got[r.Tool]
			if !ok {
				continue
			}
			for _, side := range []struct {
				t    *bootstrapType
				node *jsontree.Node
			}{{r.Input, s.Input}, {r.Output, s.Output}} {
				if side.t == nil {
					continue
				}
				want, err := schema.Reflect(types[side.t.Name], comments)
				require.NoError(t, err)
				require.NotNil(t, side.node, "%s %s", r.Tool, side.t)
				assert.Equal(t, string(want), string(side.node.Compact()), "%s %s", r.Tool, side.t)
			}
		}
	})
	t.Run("tags and comments", func(t *testing.T) {
		in := got["search"].Input
		require.NotNil(t, in)
		assert.Equal(t, []string{"query", "limit", "sort", "since"}, bootstrapKeys(in.Get("properties")))
		assert.Equal(t, `{"type":"string","maxLength":200,"minLength":1,"description":"Query is what to look for."}`, string(in.Get("properties").Get("query").Compact()))
		assert.Equal(t, "SearchInput is a simple input with tags.", in.Get("description").Text)
		assert.Equal(t, "object", got["search"].Output.Get("type").Text)
	})
	t.Run("hooks", func(t *testing.T) {
		in := got["hooks"].Input
		require.NotNil(t, in)
		assert.Equal(t, `{"type":"integer","enum":[1,2,3]}`, string(in.Get("properties").Get("priority").Compact()))
		assert.Equal(t, `{"type":"string","pattern":"^#[0-9a-f]{6}$"}`, string(in.Get("properties").Get("color").Resolve(in).Compact()))
	})
	t.Run("cross-package names", func(t *testing.T) {
		in := got["both"].Input
		require.NotNil(t, in)
		assert.Equal(t, []string{"a.Item", "b.Item"}, bootstrapKeys(in.Get("$defs")))
		assert.Equal(t, []string{"name"}, bootstrapKeys(in.Get("properties").Get("a").Resolve(in).Get("properties")))
		assert.Equal(t, []string{"count"}, bootstrapKeys(in.Get("properties").Get("b").Resolve(in).Get("properties")))
	})
	t.Run("recursive types", func(t *testing.T) {
		for _, n := range []*jsontree.Node{got["tree"].Input, got["tree"].Output} {
			require.NotNil(t, n)
			items := n.Get("properties").Get("children").Get("items")
			assert.Equal(t, "#/$defs/Tree", items.Get("$ref").Text)
			require.NotNil(t, items.Resolve(n))
			assert.Equal(t, "object", items.Resolve(n).Get("type").Text)
		}
	})
	t.Run("any and RawMessage", func(t *testing.T) {
		in := got["loose"].Input
		require.NotNil(t, in)
		assert.Equal(t, `{"any":{},"raw":{}}`, string(in.Get("properties").Compact()))
	})
	t.Run("tools without arguments or output", func(t *testing.T) {
		assert.Equal(t, emptyInput, string(got["noargs"].Input.Compact()))
		assert.Equal(t, `{"properties":{"name":{"type":"string"}},"additionalProperties":false,"type":"object","required":["name"]}`, string(got["noargs"].Output.Compact()))
		assert.Nil(t, got["nooutput"].Output)
		assert.Equal(t, emptyInput, string(got["bare"].Input.Compact()))
		assert.Nil(t, got["bare"].Output)
	})
	t.Run("internal packages", func(t *testing.T) {
		in := got["secret"].Input
		require.NotNil(t, in)
		assert.Equal(t, []string{"Value"}, bootstrapKeys(in.Get("$defs")))
	})
	t.Run("the temporary directory is removed", func(t *testing.T) {
		assert.Equal(t, before, bootstrapListing(t, dir))
	})
}

func bootstrapKeys(n *jsontree.Node) []string {
	var ks []string
	for _, m := range n.Members {
		ks = append(ks, m.Key)
	}
	return ks
}

func TestBootstrapCompileErrors(t *testing.T) {
	skipBuildsInShortMode(t)
	dir, err := filepath.Abs(bootstrapFixtures)
	require.NoError(t, err)
	fine := schemaRequest{Tool: "fine", Pos: bootstrapPos(2), Input: bootstrapFixtureType("a", "SearchInput")}
	tests := []struct {
		name string
		req  schemaRequest
		want []string
	}{
		{
			name: "missing type",
			req:  schemaRequest{Tool: "missing", Pos: bootstrapPos(1), Input: bootstrapFixtureType("a", "Missing")},
			want: []string{"tool missing: the JSON Schema bootstrap program cannot use its input " + bootstrapPkg + "/a.Missing: undefined: p0.Missing"},
		},
		{
			// The go command reports packages it cannot load before it
			// type-checks anything.
			name: "missing package",
			req:  schemaRequest{Tool: "nopkg", Pos: bootstrapPos(1), Output: bootstrapFixtureType("nope", "Output")},
			want: []string{"tool nopkg: the JSON Schema bootstrap program cannot use its output " + bootstrapPkg + "/nope.Output: ", bootstrapPkg + "/nope"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := bootstrapListing(t, dir)
			got, errs := runBootstrap(context.Background(), bootstrapConfig{Dir: dir}, []schemaRequest{tt.req, fine})
			assert.Nil(t, got)
			require.Len(t, errs, 1, errorMessages(errs))
			assert.Equal(t, tt.req.Pos, errs[0].Pos, "reported at the tool, not at the fine one")
			for _, w := range tt.want {
				assert.Contains(t, errs[0].Msg, w)
			}
			assert.Equal(t, before, bootstrapListing(t, dir))
		})
	}
}

func TestBootstrapRuntimeFailure(t *testing.T) {
	skipBuildsInShortMode(t)
	dir, err := filepath.Abs(bootstrapFixtures)
	require.NoError(t, err)
	before := bootstrapListing(t, dir)
	reqs := []schemaRequest{{Tool: "exit", Pos: bootstrapPos(1), Input: bootstrapFixtureType("exit", "Input")}}
	// A relative Dir works too.
	got, errs := runBootstrap(context.Background(), bootstrapConfig{Dir: bootstrapFixtures}, reqs)
	assert.Nil(t, got)
	require.Len(t, errs, 1)
	assert.Equal(t, token.Position{}, errs[0].Pos)
	assert.Contains(t, errs[0].Msg, "the JSON Schema bootstrap program failed (exit status 3)")
	assert.Contains(t, errs[0].Msg, "exit: no configuration")
	assert.Equal(t, before, bootstrapListing(t, dir))
}

func TestBootstrapCancellation(t *testing.T) {
	dir, err := filepath.Abs(bootstrapFixtures)
	require.NoError(t, err)
	reqs := []schemaRequest{{Tool: "slow", Pos: bootstrapPos(1), Input: bootstrapFixtureType("slow", "Input")}}

	t.Run("canceled before it starts", func(t *testing.T) {
		before := bootstrapListing(t, dir)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		got, errs := runBootstrap(ctx, bootstrapConfig{Dir: dir}, reqs)
		assert.Nil(t, got)
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0].Msg, "context canceled")
		assert.Equal(t, before, bootstrapListing(t, dir))
	})
	t.Run("canceled while it builds or runs", func(t *testing.T) {
		skipBuildsInShortMode(t)
		before := bootstrapListing(t, dir)
		// The fixture's init sleeps for a minute: the deadline always
		// passes during the build or the run.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		got, errs := runBootstrap(ctx, bootstrapConfig{Dir: dir}, reqs)
		assert.Nil(t, got)
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0].Msg, "context deadline exceeded")
		assert.Equal(t, before, bootstrapListing(t, dir), "the temporary directory is removed")
	})
}

func TestBootstrapRefusesBadRequests(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(bootstrapFixtures)
	require.NoError(t, err)
	tests := []struct {
		name string
		reqs []schemaRequest
		want []string
	}{
		{
			name: "no tool name",
			reqs: []schemaRequest{{Pos: bootstrapPos(1), Input: bootstrapFixtureType("a", "Item")}},
			want: []string{"/fixture/tools.go:1:6: toolgen bug: a schema request without a tool name"},
		},
		{
			name: "duplicate tool",
			reqs: []schemaRequest{{Tool: "x", Pos: bootstrapPos(1)}, {Tool: "x", Pos: bootstrapPos(2)}},
			want: []string{"/fixture/tools.go:2:6: toolgen bug: two schema requests for tool x"},
		},
		{
			name: "unexported, generic, unnamed, no package",
			reqs: []schemaRequest{
				{Tool: "u", Pos: bootstrapPos(1), Input: bootstrapFixtureType("a", "item")},
				{Tool: "g", Pos: bootstrapPos(2), Output: bootstrapFixtureType("a", "Page[int]")},
				{Tool: "e", Pos: bootstrapPos(3), Input: bootstrapFixtureType("a", "")},
				{Tool: "p", Pos: bootstrapPos(4), Input: &bootstrapType{Name: "Item"}},
			},
			want: []string{
				`/fixture/tools.go:1:6: tool u: cannot reflect "item" in package "` + bootstrapPkg + `/a": the bootstrap program needs an exported named type`,
				`/fixture/tools.go:2:6: tool g: cannot reflect "Page[int]" in package "` + bootstrapPkg + `/a": the bootstrap program needs an exported named type`,
				`/fixture/tools.go:3:6: tool e: cannot reflect "" in package "` + bootstrapPkg + `/a": the bootstrap program needs an exported named type`,
				`/fixture/tools.go:4:6: tool p: cannot reflect "Item" in package "": the bootstrap program needs an exported named type`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, errs := runBootstrap(context.Background(), bootstrapConfig{Dir: dir}, tt.reqs)
			assert.Nil(t, got)
			assert.Equal(t, tt.want, errorMessages(errs))
		})
	}
}

// Tools without types need no program at all.
func TestBootstrapWithoutTypes(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "does-not-exist")
	got, errs := runBootstrap(context.Background(), bootstrapConfig{Dir: missing}, []schemaRequest{{Tool: "a"}, {Tool: "b"}})
	require.Empty(t, errs)
	require.Len(t, got, 2)
	for _, s := range got {
		assert.Equal(t, emptyInput, string(s.Input.Compact()))
		assert.Nil(t, s.Output)
	}
}

func TestBootstrapMissingDir(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "does-not-exist")
	got, errs := runBootstrap(context.Background(), bootstrapConfig{Dir: missing}, []schemaRequest{{Tool: "a", Input: bootstrapFixtureType("a", "Item")}})
	assert.Nil(t, got)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "reflecting JSON Schemas: ")
	assert.Contains(t, errs[0].Msg, "does-not-exist")
}

func TestBootstrapSource(t *testing.T) {
	t.Parallel()
	types := []bootstrapType{
		{PkgPath: "example.com/m/x/a", Name: "In"},
		{PkgPath: "example.com/m/x/a", Name: "Out"},
		{PkgPath: "example.com/m/y/a", Name: "In"},
	}
	src, lines := bootstrapSource(types)
	again, _ := bootstrapSource(types)
	assert.Equal(t, string(src), string(again), "deterministic")

	formatted, err := format.Source(src)
	require.NoError(t, err)
	assert.Equal(t, string(formatted), string(src), "gofmt'd")

	text := string(src)
	assert.Contains(t, text, "\tp0 \"example.com/m/x/a\"\n", "collision-free aliases")
	assert.Contains(t, text, "\tp1 \"example.com/m/y/a\"\n")

	srcLines := strings.Split(text, "\n")
	line := func(n int) string { return srcLines[n-1] }
	require.Len(t, lines.types, 3)
	for n, i := range lines.types {
		alias := map[string]string{"example.com/m/x/a": "p0", "example.com/m/y/a": "p1"}[types[i].PkgPath]
		assert.Equal(t, "\t(*"+alias+"."+types[i].Name+")(nil),", line(n), "line %d names type %d", n, i)
	}
	require.Len(t, lines.imports, 2)
	for n, idxs := range lines.imports {
		for _, i := range idxs {
			assert.Contains(t, line(n), fmt.Sprintf("%q", types[i].PkgPath), "line %d imports type %d's package", n, i)
		}
	}
}

func TestBootstrapCompileErrorParsing(t *testing.T) {
	t.Parallel()
	types := []bootstrapType{{PkgPath: "example.com/m/a", Name: "In"}, {PkgPath: "example.com/m/b", Name: "In"}}
	_, lines := bootstrapSource(types)
	var typeLine, importLine int
	for n, i := range lines.types {
		if i == 0 {
			typeLine = n
		}
	}
	for n, idxs := range lines.imports {
		if idxs[0] == 1 {
			importLine = n
		}
	}
	reqs := []schemaRequest{
		{Tool: "ta", Pos: bootstrapPos(1), Input: &types[0]},
		{Tool: "tb", Pos: bootstrapPos(2), Input: &types[1], Output: &types[0]},
	}
	exit := fmt.Errorf("exit status 1")
	tests := []struct {
		name   string
		output string
		want   []string
	}{
		{
			name:   "type line",
			output: fmt.Sprintf("# example.com/m/.toolgen-bootstrap-1\n./main.go:%d:29: undefined: p0.In\n", typeLine),
			want: []string{
				"/fixture/tools.go:1:6: tool ta: the JSON Schema bootstrap program cannot use its input example.com/m/a.In: undefined: p0.In",
				"/fixture/tools.go:2:6: tool tb: the JSON Schema bootstrap program cannot use its output example.com/m/a.In: undefined: p0.In",
			},
		},
		{
			name:   "import line with a continuation",
			output: fmt.Sprintf("main.go:%d:2: no required module provides package example.com/m/b; to add it:\n\tgo get example.com/m/b\n", importLine),
			want: []string{
				"/fixture/tools.go:2:6: tool tb: the JSON Schema bootstrap program cannot use its input example.com/m/b.In: no required module provides package example.com/m/b; to add it: go get example.com/m/b",
			},
		},
		{
			name:   "elsewhere",
			output: "# example.com/m/a\na/a.go:3:1: syntax error\n",
			want:   []string{"the JSON Schema bootstrap program does not build (exit status 1):\n# example.com/m/a\na/a.go:3:1: syntax error"},
		},
		{
			name:   "invopop not required",
			output: "reflector.go:21:2: missing go.sum entry for module providing package github.com/invopop/jsonschema (imported by example.com/m/.toolgen-bootstrap-1); to add:\n\tgo get example.com/m/.toolgen-bootstrap-1\n",
			want: []string{"the JSON Schema bootstrap program does not build (exit status 1):\n" +
				"reflector.go:21:2: missing go.sum entry for module providing package github.com/invopop/jsonschema (imported by example.com/m/.toolgen-bootstrap-1); to add:\n\tgo get example.com/m/.toolgen-bootstrap-1\n" +
				"the module must require github.com/invopop/jsonschema (toolgen's bootstrap program imports it): install toolgen as a tool with `go get -tool github.com/toolgen-go/toolgen/cmd/toolgen`, or run `go get github.com/invopop/jsonschema`"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, errorMessages(bootstrapCompileErrors(reqs, types, lines, tt.output, exit)))
		})
	}
}

// bootstrapModule writes a module outside this one that requires toolgen
// (replaced by this checkout) and returns its directory and the
// environment to build it (-mod=mod: the go command completes go.mod from
// toolgen's requirements, normally all in the module cache already).
func bootstrapModule(t testing.TB, files map[string]string) (string, []string) {
	t.Helper()
	root, err := filepath.Abs("../../../..")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	dir := t.TempDir()
	all := map[string]string{
		"go.mod": "module example.com/user\n\ngo 1.26\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\nreplace github.com/toolgen-go/toolgen => " + root + "\n",
		"go.sum": string(sum),
	}
	for name, data := range files {
		all[name] = data
	}
	writeCaseFiles(t, dir, all)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	return dir, env
}

// The program lives in the user's module, next to internal packages.
func TestBootstrapInAnotherModule(t *testing.T) {
	skipBuildsInShortMode(t)
	dir, env := bootstrapModule(t, map[string]string{
		"internal/tools/tools.go": `// Package tools declares tool types.
package tools

// Input is an input.
type Input struct {
	// Q is a query.
	Q string ` + "`json:\"q\" jsonschema:\"minLength=1\"`" + `
}
`,
	})
	reqs := []schemaRequest{{Tool: "t", Pos: bootstrapPos(1), Input: &bootstrapType{PkgPath: "example.com/user/internal/tools", Name: "Input"}}}
	comments := map[string]string{"example.com/user/internal/tools.Input.Q": "Q is a query."}
	got, errs := runBootstrap(context.Background(), bootstrapConfig{Dir: dir, Comments: comments, Env: env, BuildFlags: []string{"-tags=example"}}, reqs)
	require.Empty(t, errs, errorMessages(errs))
	assert.Equal(t, `{"properties":{"q":{"type":"string","minLength":1,"description":"Q is a query."}},"additionalProperties":false,"type":"object","required":["q"]}`, string(got["t"].Input.Compact()))
	assert.Equal(t, []string{"go.mod", "go.sum", "internal"}, bootstrapListing(t, dir), "nothing left behind")
}

// A temporary directory left behind by a killed run must not break the
// user's `./...` commands, and the go command must build a program in a
// directory with such a name.
func TestBootstrapDirName(t *testing.T) {
	skipBuildsInShortMode(t)
	dir, env := bootstrapModule(t, map[string]string{
		"p/p.go":                           "package p\n\n// V is a value.\nconst V = 1\n",
		".toolgen-bootstrap-1/main.go":     "package main\n\nthis is not Go\n",
		".toolgen-bootstrap-2/main.go":     "package main\n\nimport \"example.com/user/p\"\n\nfunc main() { _ = p.V }\n",
		"sub/.toolgen-bootstrap-3/main.go": "package main\n\nthis is not Go either\n",
	})
	matched, err := filepath.Match(bootstrapDirPattern, ".toolgen-bootstrap-1")
	require.NoError(t, err)
	require.True(t, matched)
	for _, args := range [][]string{{"list", "./..."}, {"vet", "./..."}, {"build", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "go %s: %s", strings.Join(args, " "), out)
		assert.NotContains(t, string(out), "toolgen-bootstrap")
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "prog"), ".")
	cmd.Dir, cmd.Env = filepath.Join(dir, ".toolgen-bootstrap-2"), env
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "go build in the program's directory: %s", out)
}

// BenchmarkBootstrap reflects 1,000 tools (an input and an output type
// each) from 20 packages with one program.
func BenchmarkBootstrap(b *testing.B) {
	const pkgs, perPkg = 20, 50
	files := map[string]string{}
	var reqs []schemaRequest
	for p := range pkgs {
		var src strings.Builder
		fmt.Fprintf(&src, "// Package p%d declares tool types.\npackage p%d\n\nimport \"time\"\n\n// Item is shared by the tools of this package.\ntype Item struct {\n\tName string `json:\"name\"`\n\tAt time.Time `json:\"at\"`\n}\n", p, p)
		for i := range perPkg {
			fmt.Fprintf(&src, "\n// In%d is an input.\ntype In%d struct {\n\tQuery string `json:\"query\" jsonschema:\"minLength=1\"`\n\tLimit int `json:\"limit,omitempty\" jsonschema:\"minimum=1,maximum=50\"`\n\tTags []string `json:\"tags,omitempty\"`\n}\n", i, i)
			fmt.Fprintf(&src, "\n// Out%d is an output.\ntype Out%d struct {\n\tItems []Item `json:\"items\"`\n\tTotal int `json:\"total\"`\n}\n", i, i)
			pkg := fmt.Sprintf("example.com/user/internal/p%d", p)
			reqs = append(reqs, schemaRequest{
				Tool:   fmt.Sprintf("p%d_t%d", p, i),
				Pos:    bootstrapPos(len(reqs) + 1),
				Input:  &bootstrapType{PkgPath: pkg, Name: fmt.Sprintf("In%d", i)},
				Output: &bootstrapType{PkgPath: pkg, Name: fmt.Sprintf("Out%d", i)},
			})
		}
		files[fmt.Sprintf("internal/p%d/p.go", p)] = src.String()
	}
	dir, env := bootstrapModule(b, files)
	cfg := bootstrapConfig{Dir: dir, Env: env}
	for b.Loop() {
		got, errs := runBootstrap(context.Background(), cfg, reqs)
		if len(errs) > 0 || len(got) != len(reqs) {
			b.Fatalf("got %d schemas, problems: %v", len(got), errorMessages(errs))
		}
	}
}

func TestBootstrapBuildFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      []string
		goflags string
		want    []string
	}{
		{nil, "", []string{"-tags=toolgen"}},
		{[]string{"-race"}, "", []string{"-race", "-tags=toolgen"}},
		{[]string{"-tags=a,b"}, "", []string{"-tags=a,b,toolgen"}},
		{[]string{"-tags", "a b", "-v"}, "", []string{"-tags=a,b,toolgen", "-v"}},
		{[]string{"--tags=toolgen"}, "", []string{"-tags=toolgen"}},
		// GOFLAGS' tags, which a -tags flag of the program's own would
		// replace, are kept; a -tags flag of the user's replaces them.
		{nil, "-mod=mod -tags=x,y", []string{"-tags=x,y,toolgen"}},
		{[]string{"-race"}, "--tags=x -tags=z", []string{"-race", "-tags=z,toolgen"}},
		{[]string{"-tags=a"}, "-tags=x", []string{"-tags=a,toolgen"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, bootstrapBuildFlags(tt.in, tt.goflags), "%q %q", tt.in, tt.goflags)
	}
}
