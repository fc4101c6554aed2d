package readme

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modulePath is the import path prefix a doc comment may name a file of
// this module by.
const modulePath = "github.com/toolgen-go/toolgen/"

// notPaths are words of doc comments that look like paths of this module
// and are not: MCP's method names.
var notPaths = []string{"tools/list", "tools/call"}

// TestLinks: every relative link of the repository's Markdown files
// (README.md, bench/README.md, ...) and every path a Go doc comment names
// points at something that exists, its #fragment at a heading.
func TestLinks(t *testing.T) {
	t.Parallel()
	problems, err := checkLinks("../..")
	require.NoError(t, err)
	assert.Empty(t, problems, "broken links; fix the link, or the file it points at")
}

// TestLinksFixture: the checker finds each broken link of a fixture
// tree, and nothing else.
func TestLinksFixture(t *testing.T) {
	t.Parallel()
	problems, err := checkLinks("testdata/links")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"README.md:5: no such file: docs/missing.md",
		"README.md:6: no heading #no-such-heading in README.md",
		"README.md:8: no heading #nowhere in docs/ok.md",
		"README.md:9: outside the repository: ../outside.md",
		"nested/doc.go:4: no such file: tools/absent.txt",
		"pkg/doc.go:13: no such file: pkg/thing.go",
		"pkg/doc.go:17: no such file: github.com/toolgen-go/toolgen/pkg/missing",
		"pkg/doc.go:4: no such file: pkg/absent.go",
		"pkg/doc.go:5: no such file: testdata/nothing-here",
		"pkg/doc.go:7: no such file: ../docs/gone.md",
		"pkg/example_test.go:3: no such file: pkg/absent-in-an-example.go",
	}, problems)
}

// checkLinks returns the broken links under root, each as
// "file:line: what", sorted: in every Markdown file, and in the doc
// comments of every Go file but tests (examples are documentation).
func checkLinks(root string) ([]string, error) {
	var problems []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (name == "testdata" || name == "node_modules" || name == "vendor" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		var found []string
		switch {
		case strings.HasSuffix(rel, ".md"):
			found, err = markdownLinks(root, rel)
		case strings.HasSuffix(rel, ".go") && (!strings.HasSuffix(rel, "_test.go") || strings.HasSuffix(rel, "example_test.go")):
			// The files go doc shows: a test's comments are not documentation.
			found, err = docPaths(root, rel)
		}
		problems = append(problems, found...)
		return err
	})
	slices.Sort(problems)
	return problems, err
}

var (
	fence      = regexp.MustCompile("^\\s*(```|~~~)")
	inlineCode = regexp.MustCompile("`[^`]*`")
	mdLink     = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// markdownLinks checks the relative links of the Markdown file rel:
// outside code, [text](target) and ![alt](target) must name a file or
// directory that exists, relative to the file, and a #fragment a heading
// of the file it names.
func markdownLinks(root, rel string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	var problems []string
	inFence := false
	for i, line := range strings.Split(string(data), "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
			if p := checkTarget(root, slashDir(rel), rel, m[1]); p != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: %s", rel, i+1, p))
			}
		}
	}
	return problems, nil
}

// slashDir is the slash-separated directory of a slash-separated path.
func slashDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// checkTarget checks a Markdown link's target, relative to dir (a
// directory of root), from the file from; it returns the problem, or "".
func checkTarget(root, dir, from, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, frag, _ := strings.Cut(target, "#")
	switch {
	case file == "":
		file = from
	case strings.HasPrefix(file, "/"):
		file = strings.TrimPrefix(file, "/")
	default:
		file = filepath.ToSlash(filepath.Join(dir, file))
	}
	if strings.HasPrefix(file, "../") || file == ".." {
		return "outside the repository: " + target
	}
	if _, err := os.Stat(filepath.Join(root, file)); err != nil {
		return "no such file: " + strings.TrimSuffix(target, "#"+frag)
	}
	if frag == "" || !strings.HasSuffix(file, ".md") {
		return ""
	}
	anchors, err := markdownAnchors(filepath.Join(root, file))
	if err != nil {
		return err.Error()
	}
	if !slices.Contains(anchors, frag) {
		return fmt.Sprintf("no heading #%s in %s", frag, file)
	}
	return ""
}

// markdownAnchors returns the anchors GitHub gives the headings of a
// Markdown file: lower case, punctuation dropped, spaces as hyphens, a
// repeated one numbered.
func markdownAnchors(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var anchors []string
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(string(data), "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		m := heading.FindStringSubmatch(line)
		if inFence || m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors = append(anchors, fmt.Sprintf("%s-%d", a, n))
		} else {
			anchors = append(anchors, a)
		}
		seen[a]++
	}
	return anchors, nil
}

// docPaths checks the paths the doc comments of the Go file rel name: a
// Markdown link in a comment, as in a Markdown file; and a word with a
// slash whose first element is a file or directory of the module's root
// or of the file's package (runtime/service, testdata/interop,
// github.com/toolgen-go/toolgen/runtime/tool), which must exist, relative
// to either. A word may end in a Go identifier (runtime/dynamic.Source),
// a pattern's /..., or hold a glob.
func docPaths(root, rel string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var docs []*ast.CommentGroup
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.File:
			docs = append(docs, n.Doc)
		case *ast.GenDecl:
			docs = append(docs, n.Doc)
		case *ast.FuncDecl:
			docs = append(docs, n.Doc)
		case *ast.TypeSpec:
			docs = append(docs, n.Doc)
		case *ast.ValueSpec:
			docs = append(docs, n.Doc)
		case *ast.Field:
			docs = append(docs, n.Doc)
		}
		return true
	})
	dir := slashDir(rel)
	mod := moduleRoot(root, dir)
	var problems []string
	for _, cg := range docs {
		if cg == nil {
			continue
		}
		for _, c := range cg.List {
			line := fset.Position(c.Slash).Line
			for i, text := range strings.Split(commentText(c.Text), "\n") {
				for _, p := range checkDocLine(root, mod, dir, rel, text) {
					problems = append(problems, fmt.Sprintf("%s:%d: %s", rel, line+i, p))
				}
			}
		}
	}
	return problems, nil
}

// commentText is a comment's text without its markers; a directive
// (//go:generate, //tool:name) is no text.
func commentText(c string) string {
	if strings.HasPrefix(c, "/*") {
		return strings.TrimSuffix(strings.TrimPrefix(c, "/*"), "*/")
	}
	c = strings.TrimPrefix(c, "//")
	if c != "" && c[0] != ' ' && c[0] != '\t' && strings.Contains(strings.Fields(c)[0], ":") {
		return "" // a directive
	}
	return c
}

// moduleRoot returns the directory of root that holds the go.mod of the
// package in dir (a directory of root): bench/ is a module of its own.
func moduleRoot(root, dir string) string {
	for d := dir; d != "."; d = slashDir(d) {
		if _, err := os.Stat(filepath.Join(root, d, "go.mod")); err == nil {
			return d
		}
	}
	return "."
}

// checkDocLine checks one line of a doc comment of the package in dir,
// in the module whose root is mod (directories of root).
func checkDocLine(root, mod, dir, from, text string) []string {
	var problems []string
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		if p := checkTarget(root, dir, from, m[1]); p != "" {
			problems = append(problems, p)
		}
	}
	text = mdLink.ReplaceAllString(text, "")
	for _, word := range strings.Fields(text) {
		for {
			w := strings.TrimSuffix(strings.TrimSuffix(strings.Trim(word, "`'\"()[]{},;:!?"), "."), "'s")
			if w == word {
				break
			}
			word = w
		}
		if p := checkDocWord(root, mod, dir, word); p != "" {
			problems = append(problems, p)
		}
	}
	return problems
}

var (
	// qualified is a trailing ".Name" of a Go identifier after a package
	// path.
	qualified = regexp.MustCompile(`\.[A-Z][A-Za-z0-9_]*$`)
	// placeholder is a word standing for any name in a path
	// (skills/NAME/SKILL.md, web/NAME.html).
	placeholder = regexp.MustCompile(`\b(NAME|GROUP|ID)\b`)
)

// checkDocWord checks a word of a doc comment that may be a path.
func checkDocWord(root, mod, dir, word string) string {
	name, imported := strings.CutPrefix(word, modulePath)
	if !strings.Contains(name, "/") || strings.Contains(name, "://") || slices.Contains(notPaths, name) ||
		strings.HasPrefix(name, "/") || strings.HasPrefix(name, ".") {
		return ""
	}
	name, _, _ = strings.Cut(name, "#")
	name = strings.TrimSuffix(name, "/...")
	name = placeholder.ReplaceAllString(name, "*")
	// An import path names a directory of the repository, whatever the
	// module of the comment; a path, one of its module's or its package's.
	bases := []string{root}
	if !imported {
		bases = nil
		first, _, _ := strings.Cut(name, "/")
		for _, base := range []string{filepath.Join(root, mod), filepath.Join(root, dir)} {
			if _, err := os.Stat(filepath.Join(base, first)); err == nil {
				bases = append(bases, base)
			}
		}
		if len(bases) == 0 {
			return "" // not a path of this module
		}
	}
	for {
		for _, base := range bases {
			if m, _ := filepath.Glob(filepath.Join(base, filepath.FromSlash(name))); len(m) > 0 {
				return ""
			}
		}
		trimmed := qualified.ReplaceAllString(name, "")
		if trimmed == name {
			return "no such file: " + word
		}
		name = trimmed
	}
}
