package schema_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/comments"
)

const commentsPkg = "github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/comments"

func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".go" {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	require.NotEmpty(t, files)
	return files
}

// AddComments gives exactly what invopop's AddGoComments gives for the
// same directory.
func TestAddCommentsMatchesAddGoComments(t *testing.T) {
	t.Parallel()
	var r jsonschema.Reflector
	require.NoError(t, r.AddGoComments("github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema", "testdata/comments"))
	want := r.CommentMap
	require.NotEmpty(t, want)

	fset := token.NewFileSet()
	got := map[string]string{}
	require.NoError(t, schema.AddComments(got, fset, commentsPkg, parseDir(t, fset, "testdata/comments")))
	assert.Equal(t, want, got)
}

func TestAddComments(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	files := parseDir(t, fset, "testdata/comments")
	before := make([]string, len(files))
	for i, f := range files {
		before[i] = f.Name.Name + "/" + f.Doc.Text()
	}
	got := map[string]string{"unrelated": "kept"}
	require.NoError(t, schema.AddComments(got, fset, commentsPkg, files))

	tests := []struct {
		key  string
		want string
		ok   bool
	}{
		{"unrelated", "kept", true},
		{".Store", "Store keeps Note values in memory.", true},
		{".Store.Notes", "Notes are the stored notes,\nin creation order.\n\nA second paragraph.", true},
		{".Store.Limit", "Limit caps the number of notes.", true},
		{".Store.A", "A, B share this comment.", true},
		{".Store.B", "A, B share this comment.", true},
		{".Store.hidden", "", false},
		{".Store.Nested", "Nested is an anonymous struct; its fields are recorded under Store.", true},
		{".Store.Inner", "Inner is inside an anonymous struct.", true},
		{".Note", "Note is one note.", true},
		{".Note.Title", "Title is the title.", true},
		{".Grouped", "The declaration's comment describes the first type without its own.", true},
		{".Later", "", true},
		{".Undocumented", "", true},
		{".Undocumented.Field", "", false},
		{".unexported", "", false},
		{".unexported.Field", "", false},
		{".Old", "", true},
		{".Second", "Second is declared in a second file.", true},
		{".Second.Block", "Block is a block comment.", true},
	}
	for _, tt := range tests {
		key := tt.key
		if key[0] == '.' {
			key = commentsPkg + key
		}
		v, ok := got[key]
		assert.Equal(t, tt.ok, ok, key)
		assert.Equal(t, tt.want, v, key)
	}

	for i, f := range files {
		assert.Equal(t, before[i], f.Name.Name+"/"+f.Doc.Text(), "files are not modified")
	}
}

func TestAddCommentsGroupsByPackageName(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	src := map[string]string{
		"x.go":      "package x\n\n// T is from x.\ntype T struct{}\n",
		"x_test.go": "package x_test\n\n// U is from x_test.\ntype U struct{}\n",
	}
	var files []*ast.File
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range src {
			if !yield(k) {
				return
			}
		}
	}) {
		f, err := parser.ParseFile(fset, name, src[name], parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	got := map[string]string{}
	require.NoError(t, schema.AddComments(got, fset, "example.com/x", files))
	assert.Equal(t, map[string]string{"example.com/x.T": "T is from x.", "example.com/x.U": "U is from x_test."}, got)
}

func TestCommentText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"Query is what to look for.\n", "Query is what to look for."},
		{"  padded \n\n", "padded"},
		{"Two lines\nkept as is.\n\nAnd a paragraph.\n", "Two lines\nkept as is.\n\nAnd a paragraph."},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, schema.CommentText(tt.in), "%q", tt.in)
	}
}

// The comments reach the published schema as descriptions.
func TestReflectWithComments(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	cm := map[string]string{}
	require.NoError(t, schema.AddComments(cm, fset, commentsPkg, parseDir(t, fset, "testdata/comments")))
	out, err := schema.Reflect(reflect.TypeFor[comments.Note](), cm)
	require.NoError(t, err)
	assert.Equal(t, `{"properties":{"Title":{"type":"string","description":"Title is the title."}},"additionalProperties":false,"type":"object","required":["Title"],"description":"Note is one note."}`, string(out))
}

// Reflow joins the lines of each paragraph and list item and keeps
// paragraph breaks, lists and code blocks as go/doc prints them.
func TestReflow(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"one line", "Tells the time.", "Tells the time."},
		{"wrapped sentence", "Tells the time and its\noffset from UTC.\n", "Tells the time and its offset from UTC."},
		{"paragraphs", "First line\nwraps.\n\nSecond\nparagraph.\n", "First line wraps.\n\nSecond paragraph."},
		{"list", "Gives:\n  - the heading,\n    as written;\n  - the depth.\n", "Gives:\n  - the heading, as written;\n  - the depth."},
		{"code", "For example\n\n\t# Intro\n\t## Scope\n\nhas one child.\n", "For example\n\n\t# Intro\n\t## Scope\n\nhas one child."},
		{"brackets", "Like [io.Reader], [Store]\nand a [2]int.", "Like io.Reader, [Store] and a [2]int."},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := schema.Reflow(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, schema.Reflow(got), "Reflow of Reflow's result is the same")
		})
	}
}

// ReflowComments reflows every entry of a comment map, types and fields.
func TestReflowComments(t *testing.T) {
	t.Parallel()
	m := map[string]string{
		"p.T":   "T is a type.",
		"p.T.F": "F is a field\nwhose comment wraps.\n\nIt has two paragraphs.",
	}
	schema.ReflowComments(m)
	assert.Equal(t, map[string]string{
		"p.T":   "T is a type.",
		"p.T.F": "F is a field whose comment wraps.\n\nIt has two paragraphs.",
	}, m)
}

// DropName drops a leading Go identifier that is the sentence's subject,
// with "is" or "are" after it, and keeps every other description: one
// case per branch of its rule.
func TestDropName(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, ident, want string }{
		{"verb", "BookTool books a table at a restaurant.", "BookTool", "Books a table at a restaurant."},
		{"is", "Now is the result of clock_now.", "Now", "The result of clock_now."},
		{"are", "Tags are the note's labels.", "Tags", "The note's labels."},
		{"is, capital kept", "Note is A4 paper.", "Note", "A4 paper."},
		{"has", "Store has every note.", "Store", "Has every note."},
		{"paragraphs kept", "Query names the words.\n\nEvery word must match.", "Query", "Names the words.\n\nEvery word must match."},
		{"non-ASCII first letter", "Place is ångström-precise.", "Place", "Ångström-precise."},
		{"other name", "Books a table.", "BookTool", "Books a table."},
		{"name inside a word", "Nowhere is safe.", "Now", "Nowhere is safe."},
		{"comma", "Title, one line.", "Title", "Title, one line."},
		{"possessive", "Note's title.", "Note", "Note's title."},
		{"noun after", "Body text in Markdown.", "Body", "Body text in Markdown."},
		{"preposition after", "Priority from 1 to 5.", "Priority", "Priority from 1 to 5."},
		{"ss is not a verb", "Address class of the host.", "Address", "Address class of the host."},
		{"capitalised next word", "Color Names the label.", "Color", "Color Names the label."},
		{"punctuated next word", "Tags tags, sorted.", "Tags", "Tags tags, sorted."},
		{"nothing left after is", "Now is", "Now", "Now is"},
		{"nothing left after is and spaces", "Now is  ", "Now", "Now is  "},
		{"name alone", "Now", "Now", "Now"},
		{"no name", "Now is the time.", "", "Now is the time."},
		{"empty", "", "Now", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, schema.DropName(tt.text, tt.ident))
		})
	}
}

// DropNames takes each entry's name from the last element of its key,
// for types and fields, whatever dots the import path holds.
func TestDropNames(t *testing.T) {
	t.Parallel()
	m := map[string]string{
		"example.com/p.v2.T":   "T is a type.",
		"example.com/p.v2.T.F": "F holds a field.",
		"example.com/p.v2.T.G": "F is another field's name.",
	}
	schema.DropNames(m)
	assert.Equal(t, map[string]string{
		"example.com/p.v2.T":   "A type.",
		"example.com/p.v2.T.F": "Holds a field.",
		"example.com/p.v2.T.G": "F is another field's name.",
	}, m)
}
