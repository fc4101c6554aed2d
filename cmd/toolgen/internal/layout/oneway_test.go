package layout

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mainPackages returns the main packages a pattern matches.
func mainPackages(t *testing.T, pattern string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, pattern)
	cmd.Dir = "../../../.."
	out, err := cmd.Output()
	require.NoError(t, err, "go list %s", pattern)
	return strings.Fields(string(out))
}

// TestProgramsCallThroughTheService pins the one way in: every example
// program that links a generated registry links the call service too (its
// calls run for a principal and are recorded), and the packages that serve
// tools (the MCP server, the provider adapters) link neither a registry
// nor the service: they call through tool.Caller, which both implement.
func TestProgramsCallThroughTheService(t *testing.T) {
	t.Parallel()
	programs := mainPackages(t, "./examples/...")
	require.NotEmpty(t, programs)
	linked := 0
	for _, p := range programs {
		d := deps(t, p)
		if !slices.Contains(d, module+"/generated") {
			continue
		}
		linked++
		assert.Contains(t, d, module+"/runtime/service", "%s links the generated registry but not the call service", p)
	}
	assert.GreaterOrEqual(t, linked, 3, "catalog, agent and mcpserver serve the sample registry")

	servers := append([]string{module + "/runtime/mcpserver"}, list(t, "./runtime/provider/...")...)
	for _, p := range servers {
		d := deps(t, p)
		assert.NotContains(t, d, module+"/generated", "%s must serve any Caller, not one registry", p)
		assert.NotContains(t, d, module+"/runtime/service", "%s must call through tool.Caller, not the service's own API", p)
	}

	// The service knows no MCP: runtime/servicemcp is the one package that
	// joins them (the Confirmer the MCP server asks to confirm proposals).
	for _, p := range list(t, "./runtime/service/...") {
		for _, d := range deps(t, p) {
			assert.False(t, strings.HasPrefix(d, "github.com/modelcontextprotocol/") || d == module+"/runtime/mcpserver",
				"%s links %s: the glue belongs in runtime/servicemcp", p, d)
		}
	}
	glue := deps(t, module+"/runtime/servicemcp")
	assert.Contains(t, glue, module+"/runtime/mcpserver")
	assert.Contains(t, glue, module+"/runtime/service")
	assert.NotContains(t, glue, module+"/generated")
}
