package layout

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/toolgen-go/toolgen"

// generatorDeps are the generator's own dependencies: no program that
// serves tools may link them.
var generatorDeps = []string{
	"github.com/invopop/jsonschema",
	"go.yaml.in/yaml/", "gopkg.in/yaml", "github.com/goccy/go-yaml", "sigs.k8s.io/yaml",
	"go/parser", "go/ast", "go/doc", "go/types",
	"golang.org/x/tools/",
}

// sdkRoots are third-party SDKs that an adapter or example wraps: what they
// link themselves is theirs (anthropic-sdk-go imports invopop/jsonschema
// for its own tool helpers), and is not counted against the package that
// imports them. Anything else the package links is.
var sdkRoots = []string{
	"github.com/anthropics/anthropic-sdk-go/v2",
}

// deps returns what `go list -deps` prints for the packages.
func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../../../.."
	out, err := cmd.Output()
	require.NoError(t, err, "go list -deps %s", strings.Join(pkgs, " "))
	return strings.Fields(string(out))
}

// list returns the packages a pattern matches.
func list(t *testing.T, pattern string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", pattern)
	cmd.Dir = "../../../.."
	out, err := cmd.Output()
	require.NoError(t, err, "go list %s", pattern)
	return strings.Fields(string(out))
}

// banned returns the deps that match a prefix of the banned list: a
// prefix ending in '/' matches the packages below it, any other must match
// a whole path or a path below it.
func banned(deps, bannedList []string) []string {
	var out []string
	for _, d := range deps {
		for _, b := range bannedList {
			if d == strings.TrimSuffix(b, "/") || strings.HasPrefix(d, strings.TrimSuffix(b, "/")+"/") || (strings.HasSuffix(b, "/") && strings.HasPrefix(d, b)) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// ownDeps returns deps(pkg) less what the SDKs it links link themselves.
func ownDeps(t *testing.T, pkg string) []string {
	t.Helper()
	all := deps(t, pkg)
	var theirs []string
	for _, root := range sdkRoots {
		if slices.Contains(all, root) {
			theirs = append(theirs, deps(t, root)...)
		}
	}
	return slices.DeleteFunc(all, func(d string) bool { return slices.Contains(theirs, d) })
}

// TestRuntimeImportsOnlyRuntime: no package under runtime/ links a package
// of this module outside runtime/.
func TestRuntimeImportsOnlyRuntime(t *testing.T) {
	t.Parallel()
	pkgs := list(t, "./runtime/...")
	require.NotEmpty(t, pkgs)
	for _, p := range pkgs {
		for _, d := range deps(t, p) {
			if strings.HasPrefix(d, module+"/") {
				assert.True(t, strings.HasPrefix(d, module+"/runtime/"), "%s links %s, outside runtime/", p, d)
			}
		}
	}
}

// TestCoreLinksNothingOfTheGenerator: the registry runtime, the codec, the
// JSON tree and the provider projections link neither the generator's
// dependencies nor encoding/json.
func TestCoreLinksNothingOfTheGenerator(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"runtime/tool", "runtime/codec", "runtime/jsonlex", "runtime/jsontree", "runtime/editdist", "runtime/provider"} {
		got := banned(deps(t, module+"/"+p), append(slices.Clone(generatorDeps), "encoding/json"))
		assert.Empty(t, got, "%s links the generator's dependencies or encoding/json", p)
	}
}

// testOnly are runtime packages for tests only, which no program links:
// the store contract every store's tests run (it links testify, whose
// YAMLEq links a YAML package) and the PostgreSQL server of those tests.
var testOnly = []string{module + "/runtime/service/storetest", module + "/runtime/internal/pgtest"}

// TestProgramsLinkNothingOfTheGenerator: every other runtime package, the
// generated registry and its providers package, and the example programs
// link none of the generator's dependencies (encoding/json is allowed:
// the MCP and provider SDKs use it, and so may tools). The packages for
// tests only (testOnly) are left out.
func TestProgramsLinkNothingOfTheGenerator(t *testing.T) {
	t.Parallel()
	pkgs := append(list(t, "./runtime/..."), list(t, "./examples/...")...)
	pkgs = append(pkgs, module+"/generated", module+"/generated/providers")
	for _, p := range pkgs {
		if slices.Contains(testOnly, p) {
			assert.Contains(t, deps(t, p), "testing", "%s is for tests only: it imports testing", p)
			continue
		}
		got := banned(ownDeps(t, p), generatorDeps)
		assert.Empty(t, got, "%s links the generator's dependencies", p)
	}
}

// TestSkillsLinkNoYAML: skills are read from YAML front matter at
// generate time only. The skills runtime and the generated registry that
// carries this repository's sample skills link no YAML library (checked to
// link runtime/skill, or the test would pass vacuously). runtime/skill may
// link encoding/json: log/slog does.
func TestSkillsLinkNoYAML(t *testing.T) {
	t.Parallel()
	yaml := []string{"go.yaml.in/yaml/", "gopkg.in/yaml", "github.com/goccy/go-yaml", "sigs.k8s.io/yaml"}
	for _, p := range []string{module + "/runtime/skill", module + "/generated"} {
		all := deps(t, p)
		assert.Contains(t, all, module+"/runtime/skill", "%s does not link the skills runtime", p)
		assert.Empty(t, banned(all, yaml), "%s links a YAML library", p)
		assert.Empty(t, banned(all, generatorDeps), "%s links the generator's dependencies", p)
	}
}

// TestTracingIsAnAdapter: the registry runtime and the call service link
// no OpenTelemetry package, so a program that does not trace pays nothing
// for it; the adapter runtime/service/oteltrace brings it (checked too, or
// a renamed module path would make the first half pass vacuously).
func TestTracingIsAnAdapter(t *testing.T) {
	t.Parallel()
	otel := []string{"go.opentelemetry.io/"}
	tests := []struct {
		pkg   string
		links bool
	}{
		{"runtime/tool", false},
		{"runtime/service", false},
		{"runtime/service/oteltrace", true},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			t.Parallel()
			got := banned(deps(t, module+"/"+tt.pkg), otel)
			if tt.links {
				assert.NotEmpty(t, got, "%s links no OpenTelemetry package", tt.pkg)
			} else {
				assert.Empty(t, got, "%s links OpenTelemetry", tt.pkg)
			}
		})
	}
}

// databaseDrivers are what the durable stores link: a program using the
// memory store must link none of them.
var databaseDrivers = []string{"database/sql", "modernc.org/", "github.com/jackc/"}

// TestServiceLinksNoDatabaseDriver: the call service with its memory store
// links no database driver, nor database/sql; the durable stores, each in
// a subpackage, link theirs, and only theirs.
func TestServiceLinksNoDatabaseDriver(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"runtime/tool", "runtime/service"} {
		assert.Empty(t, banned(deps(t, module+"/"+p), databaseDrivers), "%s links a database driver", p)
	}
	sqlite := deps(t, module+"/runtime/service/sqlitestore")
	assert.Contains(t, sqlite, "modernc.org/sqlite")
	assert.Empty(t, banned(sqlite, []string{"github.com/jackc/"}), "the SQLite store links no PostgreSQL driver")
	pg := deps(t, module+"/runtime/service/pgstore")
	assert.Contains(t, pg, "github.com/jackc/pgx/v5/stdlib")
	assert.Empty(t, banned(pg, []string{"modernc.org/"}), "the PostgreSQL store links no SQLite")
	assert.Empty(t, banned(deps(t, module+"/runtime/service/sqlstore"), []string{"modernc.org/", "github.com/jackc/"}), "the shared SQL store links no driver")
}

// TestRegistryWithoutEncodingJSON: a registry generated from tools that use
// no encoding/json (the nojson golden case) links no encoding/json at all.
func TestRegistryWithoutEncodingJSON(t *testing.T) {
	t.Parallel()
	want := module + "/cmd/toolgen/internal/gen/testdata/cases/nojson/want"
	all := deps(t, want, want+"/providers")
	require.Contains(t, all, module+"/runtime/tool", "the fixture is a generated registry")
	assert.NotContains(t, all, "encoding/json")
	assert.Empty(t, banned(all, generatorDeps))
}

// TestBannedMatchesWhatItShould keeps the matcher honest.
func TestBannedMatchesWhatItShould(t *testing.T) {
	t.Parallel()
	got := banned([]string{"go/ast", "go/astx", "go/types", "golang.org/x/tools/go/packages", "golang.org/x/toolsy", "go.yaml.in/yaml/v4", "encoding/json", "github.com/invopop/jsonschema"}, generatorDeps)
	assert.Equal(t, []string{"go/ast", "go/types", "golang.org/x/tools/go/packages", "go.yaml.in/yaml/v4", "github.com/invopop/jsonschema"}, got)
}

// TestTopLevel: the top level holds the design card's entries, bench/ (its
// own module), LICENSE, CHANGELOG.md and dot files only; the generator
// lives under cmd/toolgen/internal.
func TestTopLevel(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("git", "ls-files")
	cmd.Dir = "../../../.."
	out, err := cmd.Output()
	if err != nil {
		t.Skip("not a git checkout")
	}
	allowed := []string{"go.mod", "go.sum", "cmd", "runtime", "tools", "generated", "examples", "Makefile", "README.md", "bench", "LICENSE", "CHANGELOG.md"}
	for _, f := range strings.Fields(string(out)) {
		top, _, _ := strings.Cut(f, "/")
		if strings.HasPrefix(top, ".") {
			continue
		}
		assert.Contains(t, allowed, top, "%s is not an entry of the layout", f)
	}
}
