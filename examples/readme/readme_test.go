package readme

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The functions are compiled, never run; referring to them here keeps
// linters from calling them unused.
var _ = []any{writingATool}

var region = regexp.MustCompile(`(?s)\n[ \t]*// README:begin (\S+)\n(.*?)\n[ \t]*// README:end\n`)

// TestSnippetsInREADME: every region of snippets.go appears in a ```go
// block of README.md, word for word.
func TestSnippetsInREADME(t *testing.T) {
	src, err := os.ReadFile("snippets.go")
	require.NoError(t, err)
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	matches := region.FindAllStringSubmatch(string(src), -1)
	require.Len(t, matches, 1, "the regions of snippets.go")
	for _, m := range matches {
		name, body := m[1], dedent(m[2])
		assert.Contains(t, string(readme), "```go\n"+body+"\n```", "README.md lacks snippet %s, or it differs; copy it from examples/readme/snippets.go:\n%s", name, body)
	}
}

// dedent removes one tab from the start of every line.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "\n")
}
