package analyzer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/toolgen-go/toolgen/cmd/toolgen/analyzer"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen"
)

// casesDir holds toolgen's golden cases.
const casesDir = "../internal/gen/testdata/cases"

// The golden cases of toolgen, by what the analyzer must say about them.
var (
	// covered: every problem toolgen reports, the analyzer reports, at
	// the same position in the same words.
	// The app directives' file checks (apperrors) read the HTML beside
	// the Go files, as toolgen's directives phase does.
	covered = []string{"directives", "duplicate", "mainpkg", "shapes", "signature", "spaced", "tags", "fieldnames", "hookerrors", "defererrors", "apperrors"}
	// silent: correct tools (basic, embedded, nojson, descriptions, unset, bom, mapbounds, hooks, deferred, kindcheck, contract, shared, apps, wide), or problems only toolgen can
	// see: the keywords invopop publishes and hooks that panic need the
	// bootstrap program (keywords, hookpanic), an import of the generated
	// package needs the output directory (cycle, and registryuser, whose
	// users of the registry toolgen skips), and patterns matching no tool
	// need the patterns (nomatch). Skills are not Go: the analyzer sees Go
	// files only, so toolgen alone checks them (skills, skillerrors,
	// skilldup). A group may be described in any package of a run, so
	// toolgen alone matches descriptions with groups (groupdocs).
	silent = []string{"basic", "embedded", "nojson", "descriptions", "unset", "bom", "mapbounds", "hooks", "keywords", "hookpanic", "cycle", "nomatch", "registryuser", "skills", "skillerrors", "skilldup", "deferred", "groupdocs", "kindcheck", "contract", "shared", "apps", "wide"}
	// compile does not type-check: go vet runs no analyzer on it and the
	// compiler reports it. nopackage's patterns match no package: there is
	// nothing to analyze, and the go command says so.
	notAnalyzed = []string{"compile", "nopackage"}
)

// TestSameAsToolgen runs toolgen (gen.Generate) and the analyzer on the
// same golden cases and compares what they report as (path relative to
// the case, line, column, message).
func TestSameAsToolgen(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir(casesDir)
	require.NoError(t, err)
	var all []string
	for _, e := range entries {
		if e.IsDir() {
			all = append(all, e.Name())
		}
	}
	listed := slices.Concat(covered, silent, notAnalyzed)
	slices.Sort(listed)
	require.Equal(t, all, listed, "a new golden case: say whether the analyzer covers it")

	byCase := analyze(t, slices.Concat(covered, silent))
	for _, c := range covered {
		t.Run(c, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join(casesDir, c))
			require.NoError(t, err)
			_, errs := gen.Generate(context.Background(), gen.Options{Dir: dir, Patterns: casePatterns(t, c), Output: "want"})
			require.NotEmpty(t, errs, "toolgen reports problems in %s", c)
			var want []string
			for _, e := range errs {
				want = append(want, e.Relative(dir))
			}
			slices.Sort(want)
			assert.Equal(t, want, byCase[c])
		})
	}
	for _, c := range silent {
		assert.Empty(t, byCase[c], "the analyzer reports nothing in %s", c)
	}
}

func casePatterns(t *testing.T, name string) []string {
	b, err := os.ReadFile(filepath.Join(casesDir, name, "args"))
	if os.IsNotExist(err) {
		return []string{"."}
	}
	require.NoError(t, err)
	return strings.Fields(string(b))
}

// analyze loads the cases' packages at once (as the checker needs them:
// with their dependencies' syntax, for facts) and returns each case's
// diagnostics as "path:line:col: message", the path relative to the case.
func analyze(t *testing.T, cases []string) map[string][]string {
	t.Helper()
	root, err := filepath.Abs(casesDir)
	require.NoError(t, err)
	var patterns []string
	for _, c := range cases {
		for _, p := range casePatterns(t, c) {
			patterns = append(patterns, "./"+filepath.ToSlash(filepath.Join(c, p)))
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: root}, patterns...)
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs), "the cases load")
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
	require.NoError(t, err)
	out := map[string][]string{}
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		require.NoError(t, act.Err)
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			rel, err := filepath.Rel(root, p.Filename)
			require.NoError(t, err)
			c, file, _ := strings.Cut(filepath.ToSlash(rel), "/")
			out[c] = append(out[c], fmt.Sprintf("%s:%d:%d: %s", file, p.Line, p.Column, d.Message))
		}
	}
	for _, ds := range out {
		slices.Sort(ds)
	}
	return out
}
