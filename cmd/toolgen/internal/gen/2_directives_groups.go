package gen

import (
	"go/token"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// Group descriptions. A group (//tool:group, default the package name) is
// described by one line in the doc comment of the package clause of any
// tools package, usually doc.go:
//
//	// Package notes keeps the user's notes.
//	//
//	//tool:groupdoc notes The user's notes: search, read, write, share and delete them.
//	package notes
//
// A package doc comment is where the text about a set of tools already
// lives, and a group is not tied to one type: any of its tools could carry
// it, so none does. go doc hides the line, as it hides every directive.
// The description is the rest of the line; OpenAI shows it as the
// description of the namespace that holds the group's deferred tools, so a
// deferred tool (//tool:defer) whose group has none is refused.

// groupDocKey and keepNamesKey are the directives a package doc comment
// takes.
const (
	groupDocKey  = "groupdoc"
	keepNamesKey = "keepnames"
)

// Kept names. The descriptions toolgen publishes drop the Go identifier a
// doc comment starts with ("BookTool books a table." is published as
// "Books a table.": schema.DropName has the rule). A package whose doc
// comment holds //tool:keepnames publishes its descriptions with the
// identifier kept: its tools', its types' and its fields'. It is a
// package's choice, not a type's, because field and result types carry no
// directives, and a package's doc comments are written in one voice.

// keepsNames returns the import paths of the loaded packages whose doc
// comment holds //tool:keepnames (findGroupDocs checks the line).
func keepsNames(l *loaded) map[string]bool {
	keep := map[string]bool{}
	for _, p := range l.pkgs {
		for _, f := range p.Syntax {
			if f.Doc == nil {
				continue
			}
			for _, c := range f.Doc.List {
				key, _, _ := strings.Cut(strings.TrimPrefix(c.Text, directivePrefix), " ")
				if strings.HasPrefix(c.Text, directivePrefix) && key == keepNamesKey {
					keep[p.PkgPath] = true
				}
			}
		}
	}
	return keep
}

// groupDoc is one //tool:groupdoc line.
type groupDoc struct {
	group, text string
	pos         token.Position
}

// findGroupDocs reads the //tool: lines of every package doc comment of
// the loaded packages: each must be a well-formed //tool:groupdoc or a
// bare //tool:keepnames (keepsNames reads those).
func findGroupDocs(l *loaded) ([]groupDoc, []*problem.Error) {
	var out []groupDoc
	var errs []*problem.Error
	for _, p := range l.pkgs {
		for _, f := range p.Syntax {
			if f.Doc == nil {
				continue
			}
			for _, c := range f.Doc.List {
				if !strings.HasPrefix(c.Text, directivePrefix) {
					continue
				}
				pos := l.fset.Position(c.Slash)
				key, arg, _ := strings.Cut(strings.TrimPrefix(c.Text, directivePrefix), " ")
				if key == keepNamesKey {
					if strings.TrimSpace(arg) != "" {
						errs = append(errs, problem.Errorf(pos, "//tool:%s: takes no argument", keepNamesKey))
					}
					continue
				}
				if key != groupDocKey {
					errs = append(errs, problem.Errorf(pos, "//tool:%s does not belong in a package doc comment: only //tool:%s GROUP DESCRIPTION and //tool:%s do; put the directives of a tool in its type's doc comment", key, groupDocKey, keepNamesKey))
					continue
				}
				group, text, _ := strings.Cut(strings.TrimSpace(arg), " ")
				text = strings.TrimSpace(text)
				switch {
				case group == "":
					errs = append(errs, problem.Errorf(pos, "//tool:%s: missing group name and description: write //tool:%s GROUP DESCRIPTION", groupDocKey, groupDocKey))
				case !namePattern.MatchString(group):
					errs = append(errs, problem.Errorf(pos, "//tool:%s: invalid group name %s: use letters, digits, '_' or '-'", groupDocKey, problem.Quote(group)))
				case text == "":
					errs = append(errs, problem.Errorf(pos, "//tool:%s %s: missing description: write what the group's tools are for after its name", groupDocKey, group))
				default:
					out = append(out, groupDoc{group: group, text: text, pos: pos})
				}
			}
		}
	}
	return out, errs
}

// describeGroups gives each tool its group's description and refuses a
// group described twice, a description of a group no tool is in, and a
// deferred tool whose group has no description. It needs every tools
// package of a run, so go vet's analyzer, which sees one package, does not
// run it.
func describeGroups(tools []*toolModel, docs []groupDoc) []*problem.Error {
	var errs []*problem.Error
	byGroup := map[string]groupDoc{}
	for _, d := range docs {
		if prev, dup := byGroup[d.group]; dup {
			errs = append(errs, &problem.Error{Pos: d.pos, Msg: "group " + d.group + " described twice", Other: prev.pos})
			continue
		}
		byGroup[d.group] = d
	}
	var groups []string
	for _, t := range tools {
		if !slices.Contains(groups, t.group) {
			groups = append(groups, t.group)
		}
	}
	for _, d := range docs {
		if !slices.Contains(groups, d.group) {
			e := problem.Errorf(d.pos, "//tool:%s: no tool is in group %s", groupDocKey, d.group)
			if s := problem.Closest(d.group, groups); s != "" {
				e.Msg += "; did you mean " + s + "?"
			}
			errs = append(errs, e)
		}
	}
	for _, t := range tools {
		d, ok := byGroup[t.group]
		if ok {
			t.groupDesc = d.text
			continue
		}
		if t.deferred {
			errs = append(errs, problem.Errorf(t.pos, "tool %s is deferred (//tool:defer) but its group %s has no description, which OpenAI requires of the namespace that holds it: write //tool:%s %s DESCRIPTION in the doc comment of a package clause (doc.go)", t.name, t.group, groupDocKey, t.group))
		}
	}
	return errs
}
