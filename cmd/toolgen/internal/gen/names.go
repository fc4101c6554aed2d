package gen

import (
	"go/ast"
	"go/token"
	"regexp"
	"unicode"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// This file holds two checks on what the author wrote that would otherwise
// pass without a word: a directive written with a space after //, which
// toolgen does not see (the tool disappears), and tool names that the
// generated registry cannot tell apart, which would rename a field of
// generated.Tools when a tool is added elsewhere.

// spacedDirective matches a directive written with space after the
// slashes: "// tool:name x". The key must be a directive's, so that prose
// such as "// tool: a hammer" is left alone.
var spacedDirective = regexp.MustCompile(`^//[ \t]+tool:([a-z]+)`)

// spacedDirectives reports each line of doc that would be a directive but
// for the space after //, with the fix that removes the space.
func spacedDirectives(fset *token.FileSet, doc *ast.CommentGroup) []*problem.Error {
	if doc == nil {
		return nil
	}
	var errs []*problem.Error
	for _, c := range doc.List {
		m := spacedDirective.FindStringSubmatchIndex(c.Text)
		if m == nil || !isKnownDirective(c.Text[m[2]:m[3]]) {
			continue
		}
		key := c.Text[m[2]:m[3]]
		spaceEnd := m[2] - len("tool:")
		e := problem.Errorf(fset.Position(c.Slash), "directive written as %q, which toolgen does not see: write //tool:%s with no space after // (gofmt then keeps directives at the end of the doc comment)", c.Text[:m[3]], key)
		e.Fix = &problem.Edit{Pos: c.Slash + 2, End: c.Slash + token.Pos(spaceEnd), Title: "Remove the space in // tool:" + key}
		errs = append(errs, e)
	}
	return errs
}

// hasSpacedName reports whether doc has a spaced //tool:name line, which
// spacedDirectives reports: "missing //tool:name" would say less.
func hasSpacedName(doc *ast.CommentGroup) bool {
	for _, c := range doc.List {
		if m := spacedDirective.FindStringSubmatch(c.Text); m != nil && m[1] == "name" {
			return true
		}
	}
	return false
}

// fieldNameProblem says why a valid tool name cannot name its field of
// generated.Tools (its camel form, see camel), or "" when it can.
func fieldNameProblem(name string) string {
	f := camel(name)
	switch {
	case f == "":
		return "tool name " + problem.Quote(name) + " has no letter or digit to name its field of the generated Tools struct: use a name with letters"
	case !unicode.IsLetter([]rune(f)[0]):
		return "tool name " + problem.Quote(name) + " becomes the Go field " + f + ", not an identifier: start the name with a letter"
	}
	return ""
}

// checkFields reports, at both declarations, two different tool names
// with one camel form: they would need one field of generated.Tools, and
// numbering the second would rename a field when a tool is added
// elsewhere. tools are in declaration order; equal names are checkNames's.
func checkFields(tools []*toolModel) []*problem.Error {
	var errs []*problem.Error
	first := map[string]*toolModel{}
	for _, t := range tools {
		if t.name == "" {
			continue
		}
		f := camel(t.name)
		o, dup := first[f]
		switch {
		case !dup:
			first[f] = t
		case o.name != t.name:
			errs = append(errs,
				&problem.Error{Pos: o.namePos, Msg: "tool names " + problem.Quote(o.name) + " and " + problem.Quote(t.name) + " both become the Go field " + f + " of Tools: rename one", Other: t.namePos},
				&problem.Error{Pos: t.namePos, Msg: "tool names " + problem.Quote(t.name) + " and " + problem.Quote(o.name) + " both become the Go field " + f + " of Tools: rename one", Other: o.namePos})
		}
	}
	return errs
}
