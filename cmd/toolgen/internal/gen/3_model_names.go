package gen

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// The Go names a tool takes in the generated package: its field of Tools
// (camel), and the schema constants named after it. The model refuses the
// tool names the generated registry cannot tell apart, which would rename
// a field of a set package's Tools when a tool is added elsewhere (a name
// at its
// //tool:name line, fieldNameProblem; two names across tools,
// checkFields, registry-wide, so that a tool keeps its field when it moves
// to another package); render names the fields (fieldNames, schemaConst).

// fieldNameProblem says why a valid tool name cannot name its field of
// its set package's Tools (its camel form, see camel), or "" when it can.
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
// with one camel form: they would need one field name, and
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

// schemaConst names the constant holding a schema, in the codec package
// of the tool, whose spec beside it holds it. No other name of a codec
// package starts with Schema.
func schemaConst(field, which string) string {
	return "Schema" + field + which
}

// fieldNames derives the Tools field of each tool from its name, in
// camel case. The model phase refuses two names with one field
// (checkFields), so a field is never numbered: adding a tool never
// renames another's. Meeting one here is a toolgen bug.
func fieldNames(tools []*toolModel) (map[*toolModel]string, []*problem.Error) {
	out := map[*toolModel]string{}
	used := map[string]*toolModel{}
	for _, t := range tools {
		name := camel(t.name)
		if o, dup := used[name]; dup {
			return nil, []*problem.Error{{Pos: t.namePos, Other: o.namePos, Msg: fmt.Sprintf("tool names %q and %q both become the Go field %s (a toolgen bug: please report it)", t.name, o.name, name)}}
		}
		used[name] = t
		out[t] = name
	}
	return out, nil
}

// camel turns notes_search or notes-search into NotesSearch.
func camel(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r == '_' || r == '-' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
