package layout

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// imports returns the packages pkg imports (its non-test files).
func imports(t *testing.T, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, pkg)
	cmd.Dir = "../../../.."
	out, err := cmd.Output()
	require.NoError(t, err, "go list %s", pkg)
	return strings.Fields(string(out))
}

// TestGeneratedCodeImportsTheContract: generated code names the runtime
// through runtime/toolimpl, the contract for generated code only, and
// through the vocabulary it shows its users (runtime/tool; runtime/skill
// for its skills, runtime/provider in the providers subpackage), and
// nothing else of the runtime: not runtime/codec, no internal package.
// The codec packages under the registry's internal directory, which only
// the registry imports, name the contract and runtime/tool (their tools'
// specs); the set packages, which a program imports to fill their Tools,
// the contract only (the registry names no tool type); the providers'
// packages under providers/internal, which only the providers package
// imports, the contract and runtime/provider.
func TestGeneratedCodeImportsTheContract(t *testing.T) {
	t.Parallel()
	rt := module + "/runtime/"
	contract := module + "/cmd/toolgen/internal/gen/testdata/cases/contract/want"
	pkgs := map[string][]string{
		module + "/generated":           {rt + "tool", rt + "toolimpl", rt + "skill"},
		module + "/generated/providers": {rt + "tool", rt + "toolimpl", rt + "provider"},
		contract:                        {rt + "tool", rt + "toolimpl"},
	}
	codecs := append(list(t, "./generated/internal/..."), list(t, "./cmd/toolgen/internal/gen/testdata/cases/contract/want/internal/...")...)
	require.GreaterOrEqual(t, len(codecs), 4, "the codec packages of generated and of the contract case")
	for _, p := range codecs {
		pkgs[p] = []string{rt + "toolimpl", rt + "tool"}
	}
	sets := []string{module + "/generated/clocktools", module + "/generated/notestools", module + "/generated/weathertools", contract + "/contracttools"}
	for _, p := range sets {
		pkgs[p] = []string{rt + "toolimpl"}
	}
	// The registry imports no set package and no tools package.
	for _, p := range imports(t, module+"/generated") {
		assert.False(t, strings.HasSuffix(p, "tools") || strings.HasPrefix(p, module+"/tools/"), "the registry imports %s", p)
	}
	defs := append(list(t, "./generated/providers/internal/..."), list(t, "./cmd/toolgen/internal/gen/testdata/cases/contract/want/providers/internal/...")...)
	require.GreaterOrEqual(t, len(defs), 4, "the providers' packages of generated and of the contract case")
	for _, p := range defs {
		pkgs[p] = []string{rt + "toolimpl", rt + "provider"}
	}
	for pkg, allowed := range pkgs {
		var got []string
		for _, p := range imports(t, pkg) {
			if strings.HasPrefix(p, rt) {
				got = append(got, p)
			}
		}
		assert.Contains(t, got, rt+"toolimpl", "%s does not import the contract", pkg)
		assert.Subset(t, allowed, got, "%s imports more of the runtime than the contract and the vocabulary", pkg)
	}
}

// TestContractLinksNothingOfTheGenerator: the contract and the
// registry's implementation behind it link neither the generator's
// dependencies nor encoding/json, as runtime/tool does not.
func TestContractLinksNothingOfTheGenerator(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"runtime/toolimpl", "runtime/internal/registry", "runtime/internal/run", "runtime/internal/toolerr"} {
		got := banned(deps(t, module+"/"+p), append(append([]string(nil), generatorDeps...), "encoding/json"))
		assert.Empty(t, got, "%s links the generator's dependencies or encoding/json", p)
	}
}
