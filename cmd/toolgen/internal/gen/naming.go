package gen

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// schemaConst names the constant holding a schema: unexported, since the
// specs are the API.
func schemaConst(field, which string) string {
	return strings.ToLower(field[:1]) + field[1:] + which + "Schema"
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
