package schema

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AddComments records in comments the descriptions that invopop's
// (*jsonschema.Reflector).AddGoComments would record for the files of the
// package with import path pkgPath, without walking a directory: keys
// "importpath.Type" for an exported type's doc and "importpath.Type.Field"
// for an exported field's doc, the format Reflector's CommentMap takes.
//
// It reproduces AddGoComments exactly, quirks included:
//
//   - a type's description is the go/doc synopsis (the first sentence,
//     doc links such as [Store] resolved against the package, as
//     doc.NewFromFiles resolves them) of its doc comment, or of the
//     comment on its type declaration when the type has none of its own
//     (for a parenthesized group, only the first such type of the group
//     gets it);
//   - a field's description is its whole doc comment, else its line
//     comment, trimmed (see CommentText);
//   - fields of anonymous structs are recorded under the enclosing type.
//
// Files are grouped by package name, as AddGoComments groups a
// directory's files (foo and foo_test), and later files win on a repeated
// key. The files are not modified.
func AddComments(comments map[string]string, fset *token.FileSet, pkgPath string, files []*ast.File) error {
	var order []string
	byName := map[string][]*ast.File{}
	for _, f := range files {
		name := f.Name.Name
		if _, ok := byName[name]; !ok {
			order = append(order, name)
		}
		byName[name] = append(byName[name], f)
	}
	for _, name := range order {
		group := byName[name]
		docPkg, err := doc.NewFromFiles(fset, group, pkgPath, doc.AllDecls|doc.PreserveAST)
		if err != nil {
			return fmt.Errorf("schema: read the doc comments of %s: %w", pkgPath, err)
		}
		for _, f := range group {
			addFileComments(comments, docPkg, pkgPath, f)
		}
	}
	return nil
}

// addFileComments is invopop's collectFileComments (reflect_comments.go,
// v0.14.0) without the full-text option.
func addFileComments(comments map[string]string, docPkg *doc.Package, pkgPath string, f *ast.File) {
	declText := ""
	typ := ""
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.TypeSpec:
			typ = x.Name.String()
			if !ast.IsExported(typ) {
				typ = ""
				return true
			}
			txt := x.Doc.Text()
			if txt == "" && declText != "" {
				txt = declText
				declText = ""
			}
			comments[pkgPath+"."+typ] = strings.TrimSpace(docPkg.Synopsis(txt))
		case *ast.Field:
			txt := x.Doc.Text()
			if txt == "" {
				txt = x.Comment.Text()
			}
			if typ == "" || txt == "" {
				return true
			}
			for _, name := range x.Names {
				if ast.IsExported(name.String()) {
					comments[pkgPath+"."+typ+"."+name.String()] = CommentText(txt)
				}
			}
		case *ast.GenDecl:
			declText = x.Doc.Text()
		}
		return true
	})
}

// CommentText returns the description AddGoComments records for a struct
// field from the text of its comment as (*ast.CommentGroup).Text returns it
// (the doc comment, or the line comment when there is no doc comment): the
// text with leading and trailing white space removed, inner lines and
// paragraphs kept. A type's description is not the whole text but its
// synopsis, which depends on the package (doc links): use AddComments for
// types.
func CommentText(doc string) string {
	return strings.TrimSpace(doc)
}

// ReflowComments is the first half of the comment-map step: it replaces
// every description in comments (as AddComments records them) by its
// Reflow. A type's synopsis is one line already; a field's whole doc
// comment keeps its paragraphs, lists and code blocks but loses the line
// breaks gofmt's line length put inside its sentences.
func ReflowComments(comments map[string]string) {
	for k, v := range comments {
		comments[k] = Reflow(v)
	}
}

// DropNames is the second half of the comment-map step: it replaces every
// description in comments by its DropName, the name being the last
// element of its key (the type of "importpath.Type", the field of
// "importpath.Type.Field"). Apply it after ReflowComments, to the
// descriptions of every package that does not keep its names
// (//tool:keepnames).
func DropNames(comments map[string]string) {
	for k, v := range comments {
		comments[k] = DropName(v, k[strings.LastIndexByte(k, '.')+1:])
	}
}

// DropName returns a description without the Go identifier name it starts
// with, the Go convention for a doc comment ("BookTool books a table.")
// that a model reads as noise: it knows the tool by its tool name and a
// field by its JSON name, never by the Go one. The rule, in order:
//
//   - the description must start with name and a space, else it is kept
//     ("Title, one line." for Title);
//   - "name is ..." and "name are ..." lose both words: "Now is the result
//     of clock_now." becomes "The result of clock_now.";
//   - "name <verb> ..." loses the name, where the next word is a verb in
//     the third person: lower-case letters ending in "s" but not "ss".
//     "BookTool books a table." becomes "Books a table.";
//   - any other next word means name is part of the sentence's subject or
//     is a plain word, and the description is kept: "Body text in
//     Markdown." for Body, "Priority from 1 to 5." for Priority;
//   - a description that would be left empty ("Now is") is kept.
//
// What remains has its first letter capitalised.
func DropName(text, name string) string {
	rest, ok := strings.CutPrefix(text, name+" ")
	if name == "" || !ok {
		return text
	}
	word, after, _ := strings.Cut(rest, " ")
	switch {
	case word == "is" || word == "are":
		rest = after
	case !isVerb(word):
		return text
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" {
		return text
	}
	r, size := utf8.DecodeRuneInString(rest)
	return string(unicode.ToUpper(r)) + rest[size:]
}

// isVerb reports whether word looks like a verb in the third person
// singular: lower-case ASCII letters ending in "s" but not in "ss" (class,
// process), such as books, returns, has, does.
func isVerb(word string) bool {
	if !strings.HasSuffix(word, "s") || strings.HasSuffix(word, "ss") {
		return false
	}
	for _, c := range word {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// Reflow returns a doc comment's text (as (*ast.CommentGroup).Text
// returns it) as go/doc renders it in plain text, with no line width:
// each paragraph and list item is one line, paragraphs are separated by a
// blank line ("\n\n"), list items keep their "  - " or "  1. " and code
// blocks their lines, indented by a tab; leading and trailing white space
// is removed. Doc links are printed as their text ([io.Reader] becomes
// io.Reader) as go doc prints them; a bracketed name that is not a
// standard-library doc link stays as written, since no package is there to
// resolve it. Reflow of Reflow's result is the same text.
//
// Why: a comment's line breaks only follow the source's line length; sent
// to a model inside a sentence, each one is noise, and a token.
func Reflow(text string) string {
	var p comment.Parser
	pr := comment.Printer{TextWidth: -1}
	return strings.TrimSpace(string(pr.Text(p.Parse(text))))
}
