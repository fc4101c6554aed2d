package generated

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPatternsLinkNoRegexp checks that a codec package whose tools have
// schema patterns (the notes tools') checks them without package regexp:
// a program that serves the tools does not pay regexp's initialisation
// and tables at start-up for them. The tools' own package may use regexp
// (notes does): what the codec package imports besides it must not.
func TestPatternsLinkNoRegexp(t *testing.T) {
	const pkg = "github.com/toolgen-go/toolgen/generated/internal/notescodec"
	src, err := os.ReadFile("internal/notescodec/codec_gen.go")
	require.NoError(t, err)
	require.Contains(t, string(src), "toolimpl.Pattern = ", "notescodec declares no pattern: the test checks nothing")
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, pkg).CombinedOutput()
	require.NoError(t, err, "%s", out)
	var imports []string
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, "github.com/toolgen-go/toolgen/tools/") {
			imports = append(imports, p)
		}
	}
	require.Contains(t, imports, "github.com/toolgen-go/toolgen/runtime/toolimpl")
	out, err = exec.Command("go", append([]string{"list", "-deps"}, imports...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	for _, p := range []string{"regexp", "regexp/syntax"} {
		assert.NotContains(t, deps, p, "the imports of %s link %s", pkg, p)
	}
}
