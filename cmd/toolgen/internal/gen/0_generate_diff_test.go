package gen

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAddedFieldDiff generates the basic case, adds one field to a struct
// in a copy of it, and generates again: the generated Go must change the
// way a hand-written change would. The registry does not change; in the
// codec package of the type, no line goes away but the schema constants
// (which hold the new property), and every run of added lines names the
// new field; in the providers package, only the file of the type's tools
// package changes. Temporaries numbered across a function, or bits
// numbered by position, would renumber the fields after it and fail this.
func TestAddedFieldDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bootstrap program three times")
	}
	src, err := os.ReadFile("testdata/cases/basic/basic.go")
	require.NoError(t, err)
	base := generateCopy(t, string(src))
	for _, c := range []struct {
		name  string
		after string // the line the field goes after
		field string
		stem  string // what every changed hunk names
	}{
		{"input slice", "\tLimit  int ", "\tMemo []string `json:\"memo,omitempty\" jsonschema:\"maxItems=3\"`", "memo"},
		{"item map", "\tCount uint8 ", "\tLabels map[string]int `json:\"labels,omitempty\"`", "labels"},
	} {
		t.Run(c.name, func(t *testing.T) {
			i := strings.Index(string(src), c.after)
			require.GreaterOrEqual(t, i, 0, "no line %q in basic.go", c.after)
			eol := i + strings.IndexByte(string(src[i:]), '\n') + 1
			changed := string(src[:eol]) + c.field + "\n" + string(src[eol:])
			next := generateCopy(t, changed)
			for _, name := range []string{codecFile, guardFile} {
				checkAddedField(t, name, base[name], next[name], c.stem)
			}
			assert.Equal(t, base[registryFile], next[registryFile], "a field changes the codec package of its type, not the registry")
			assert.Equal(t, base[providersFile], next[providersFile], "a field changes the providers file of its tools package, not the package's other files")
		})
	}
}

// generateCopy generates a copy of the basic case whose basic.go is src,
// and returns the generated files by base name. The copy lives in a
// module of its own (caseDir), whose path is the same in every copy, so
// that the import paths agree.
func generateCopy(t *testing.T, src string) map[string]string {
	t.Helper()
	dir, _ := caseDir(t, "addfield-")
	abs := filepath.Join(dir, "basic")
	writeCaseFile(t, abs, "basic.go", src)
	files, errs := Generate(context.Background(), Options{Dir: abs, Output: "want"})
	require.Empty(t, errs)
	out := map[string]string{}
	for _, f := range files {
		out[filepath.Base(f.Path)] = string(f.Data)
	}
	return out
}

// checkAddedField asserts that new differs from old only by added runs of
// lines each naming stem, besides the schema constants and one offset in
// the property table: the next decoder's, which is the changed one's plus
// its number of properties (the others are relative to it, and may only
// be realigned).
func checkAddedField(t *testing.T, name, old, new, stem string) {
	t.Helper()
	a, b := strings.Split(old, "\n"), strings.Split(new, "\n")
	isSchema := func(line string) bool { return schemaLine.MatchString(line) }
	offsets := map[string]int{} // each offset line, spaces collapsed: added minus removed
	defer func() {
		changed := 0
		for _, n := range offsets {
			changed += max(n, 0)
		}
		assert.LessOrEqual(t, changed, 1, "%s: more than one offset of the property table changed: %v", name, offsets)
	}()
	var hunk []string
	added := 0
	flush := func() {
		if len(hunk) == 0 {
			return
		}
		named := false
		for _, l := range hunk {
			named = named || strings.Contains(strings.ToLower(l), stem)
		}
		assert.True(t, named, "%s: added lines that do not name %s:\n%s", name, stem, strings.Join(hunk, "\n"))
		hunk = nil
	}
	for _, op := range lineDiff(a, b) {
		switch {
		case op.kind == '=':
			flush()
		case isSchema(op.line):
			added++
		case offsetLine.MatchString(op.line):
			key := strings.Join(strings.Fields(op.line), " ")
			if op.kind == '-' {
				offsets[key]--
			} else {
				offsets[key]++
			}
		case op.kind == '-':
			assert.Fail(t, name+": a line changed or went away", "%s", op.line)
		default:
			hunk = append(hunk, op.line)
			added++
		}
	}
	flush()
	assert.Positive(t, added, "%s: the new field changed nothing", name)
}

// schemaLine matches a line of the schema constants.
var schemaLine = regexp.MustCompile("^\tSchema[A-Za-z0-9]* +=  ?`")

// offsetLine matches a line of the property table's offsets past the
// first.
var offsetLine = regexp.MustCompile(`^\tprops[A-Za-z0-9]* += props[A-Za-z0-9]* \+ [0-9]+$`)

// diffOp is one line of a diff: '=' kept, '-' removed, '+' added.
type diffOp struct {
	kind byte
	line string
}

// lineDiff is a longest-common-subsequence diff of two line lists.
func lineDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{'=', a[i]})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{'+', b[j]})
			j++
		default:
			ops = append(ops, diffOp{'-', a[i]})
			i++
		}
	}
	return ops
}
