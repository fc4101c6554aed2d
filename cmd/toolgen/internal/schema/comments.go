package schema

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/token"
	"strings"
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

// ReflowComments is the comment-map step, the one documented difference
// between the descriptions toolgen publishes and invopop's AddGoComments:
// it replaces every description in comments (as AddComments records them)
// by its Reflow. A type's synopsis is one line already; a field's whole
// doc comment keeps its paragraphs, lists and code blocks but loses the
// line breaks gofmt's line length put inside its sentences.
func ReflowComments(comments map[string]string) {
	for k, v := range comments {
		comments[k] = Reflow(v)
	}
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
