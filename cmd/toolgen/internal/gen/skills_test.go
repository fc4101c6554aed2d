package gen

import (
	"bytes"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSkillDuplicateThroughGoGenerate runs the skilldup case's go:generate
// line as a user would: two folders declare one skill name, and the build
// of the registry fails naming both.
func TestSkillDuplicateThroughGoGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go generate")
	}
	cmd := exec.Command("go", "generate", ".")
	cmd.Dir = "testdata/cases/skilldup/a"
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "go generate must fail on a duplicate skill name")
	assert.Contains(t, string(out), `skills/shared-skill/SKILL.md:2:7: duplicate skill name "shared-skill" (other declaration at ../b/skills/shared-skill/SKILL.md:3:7)`)
	assert.Contains(t, string(out), `b/skills/shared-skill/SKILL.md:3:7: duplicate skill name "shared-skill" (other declaration at skills/shared-skill/SKILL.md:2:7)`)
	_, statErr := os.Stat("testdata/cases/skilldup/want/registry_gen.go")
	assert.True(t, os.IsNotExist(statErr), "nothing is written when there are problems")
}

// TestTextLit: the Go expression textLit writes is the string it was
// given, whatever it holds.
func TestTextLit(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "plain\n", "`", "``` go\ncode\n```\n", "a `b` c", "ends with `",
		"tab\tand\nlines\n", "carriage\rreturn", "bom\ufeffinside", "nul\x00", "é and 日本",
	} {
		f := jen.NewFile("p")
		f.Const().Id("x").Op("=").Add(textLit(s))
		var buf bytes.Buffer
		require.NoError(t, f.Render(&buf), "%q", s)
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "x.go", buf.Bytes(), 0)
		require.NoError(t, err, "%q:\n%s", s, buf.String())
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
		_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info)
		require.NoError(t, err)
		for id, obj := range info.Defs {
			if id.Name == "x" {
				assert.Equal(t, s, constant.StringVal(obj.(*types.Const).Val()), "%q:\n%s", s, buf.String())
			}
		}
	}
}

func TestSkillNameFor(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Bad_Name":       "bad-name",
		"-lead":          "lead",
		"a--b":           "a-b",
		"Notes Review!":  "notes-review",
		"___":            "",
		"already-valid1": "already-valid1",
	} {
		assert.Equal(t, want, skillNameFor(in), in)
	}
}
