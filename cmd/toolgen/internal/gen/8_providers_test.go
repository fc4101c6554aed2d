package gen

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeminiRefsAlone reads every Gemini declaration toolgen wrote: in
// the golden cases (testdata/cases/*/want/providers/internal), the sample
// registry (generated/providers/internal) and the benchmark's. Gemini's
// JSON Schema subset allows only keywords starting with "$" beside "$ref"
// (runtime/provider, refsAlone): none of them has another.
func TestGeminiRefsAlone(t *testing.T) {
	t.Parallel()
	var files []string
	for _, pattern := range []string{"testdata/cases/*/want/providers/internal/*/*_gen.go", "../../../../generated/providers/internal/*/*_gen.go", "../../../../bench/generated/providers/internal/*/*_gen.go"} {
		matched, err := filepath.Glob(pattern)
		require.NoError(t, err)
		require.NotEmpty(t, matched, pattern)
		files = append(files, matched...)
	}
	declarations := 0
	for _, path := range files {
		for _, decl := range geminiDeclarations(t, path) {
			declarations++
			var v any
			require.NoError(t, json.Unmarshal([]byte(decl), &v), path)
			for _, bad := range refSiblings(v, "") {
				assert.Fail(t, "a $ref with a sibling that does not start with $", "%s: %s", path, bad)
			}
		}
	}
	assert.Greater(t, declarations, len(files), "the files hold Gemini declarations")
}

// geminiDeclarations returns the JSON of every `Gemini: provider.Projection{JSON: []byte(...)}`
// of the generated file at path.
func geminiDeclarations(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
	require.NoError(t, err)
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if id, isID := ast.Unparen(keyOf(kv)).(*ast.Ident); !ok || !isID || id.Name != "Gemini" {
			return true
		}
		lit, ok := kv.Value.(*ast.CompositeLit)
		if !ok {
			return true
		}
		for _, e := range lit.Elts {
			field, ok := e.(*ast.KeyValueExpr)
			if id, isID := field.Key.(*ast.Ident); !ok || !isID || id.Name != "JSON" {
				continue
			}
			call, ok := field.Value.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				continue
			}
			if bl, ok := call.Args[0].(*ast.BasicLit); ok && bl.Kind == token.STRING {
				s, err := strconv.Unquote(bl.Value)
				require.NoError(t, err)
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// keyOf returns the key of kv, or nil.
func keyOf(kv *ast.KeyValueExpr) ast.Expr {
	if kv == nil {
		return nil
	}
	return kv.Key
}

// refSiblings returns, for every object of v (at ptr) holding "$ref", the
// pointers of its members whose names do not start with "$".
func refSiblings(v any, ptr string) []string {
	var bad []string
	switch x := v.(type) {
	case map[string]any:
		_, ref := x["$ref"]
		for k, m := range x {
			if ref && !strings.HasPrefix(k, "$") {
				bad = append(bad, ptr+"/"+k)
			}
			bad = append(bad, refSiblings(m, ptr+"/"+k)...)
		}
	case []any:
		for i, it := range x {
			bad = append(bad, refSiblings(it, ptr+"/"+strconv.Itoa(i))...)
		}
	}
	return bad
}
