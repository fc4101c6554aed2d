package gen

import (
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/editdist"
)

// directivePrefix starts every toolgen directive. Like //go: directives it
// has no space after the slashes, so gofmt keeps it out of the prose and
// CommentGroup.Text drops it from the description.
const directivePrefix = "//tool:"

// namePattern is the intersection of what MCP, OpenAI, Anthropic and Gemini
// accept as a tool name.
var namePattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)

// knownDirectives is the whole grammar; anything else is an error.
var knownDirectives = []string{
	"name", "readonly", "kind", "title", "verb", "group", "weight",
	"destructive", "idempotent", "openworld", "timeout", "permission", "meta",
}

// kinds are the values //tool:kind accepts, in the order tool.Kind numbers them.
var kinds = []string{"read", "display", "propose", "action"}

// directives is what one type's doc comment declares.
type directives struct {
	pos token.Position // of the first directive, for problems about the set

	name        string
	namePos     token.Position
	readOnly    bool
	kind        string
	kindPos     token.Position
	title, verb string
	group       string
	weight      int
	destructive bool
	idempotent  bool
	openWorld   bool
	timeout     time.Duration
	permissions []string
	meta        [][2]string
}

// hasDirectives reports whether a comment group holds any //tool: line.
func hasDirectives(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, directivePrefix) {
			return true
		}
	}
	return false
}

// parseDirectives reads the //tool: lines of a doc comment. It reads the raw
// comment list: gofmt moves directives to the end of a comment and
// CommentGroup.Text drops them. Every problem is reported; the returned
// directives hold what could be understood.
func parseDirectives(fset *token.FileSet, doc *ast.CommentGroup) (directives, []*Error) {
	var d directives
	var errs []*Error
	seen := map[string]token.Position{}
	for _, c := range doc.List {
		if !strings.HasPrefix(c.Text, directivePrefix) {
			continue
		}
		pos := fset.Position(c.Slash)
		if d.pos.Filename == "" {
			d.pos = pos
		}
		line := strings.TrimPrefix(c.Text, directivePrefix)
		key, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		bad := func(format string, args ...any) {
			errs = append(errs, errorf(pos, "//tool:"+key+": "+format, args...))
		}
		noArg := func() bool {
			if arg != "" {
				bad("takes no argument")
				return false
			}
			return true
		}
		needArg := func(what string) bool {
			if arg == "" {
				bad("missing %s", what)
				return false
			}
			return true
		}
		if !isKnownDirective(key) {
			e := errorf(pos, "unknown directive //tool:%s", key)
			if s := closest(key, knownDirectives); s != "" {
				e.Msg += "; did you mean //tool:" + s + "?"
				start := c.Slash + token.Pos(len(directivePrefix))
				e.Fix = &Edit{Pos: start, End: start + token.Pos(len(key)), New: s, Title: "Replace //tool:" + key + " with //tool:" + s}
			}
			errs = append(errs, e)
			continue
		}
		if key != "permission" && key != "meta" {
			if prev, dup := seen[key]; dup {
				errs = append(errs, &Error{Pos: pos, Msg: "//tool:" + key + " repeated", Other: prev})
				continue
			}
			seen[key] = pos
		}
		switch key {
		case "name":
			if needArg("tool name") {
				if !namePattern.MatchString(arg) {
					bad("invalid tool name %q: a name is 1 to 64 letters, digits, '_' or '-', not starting with a digit or '-'", arg)
				} else if p := fieldNameProblem(arg); p != "" {
					bad("%s", p)
				}
				d.name, d.namePos = arg, pos
			}
		case "readonly":
			d.readOnly = noArg()
		case "destructive":
			d.destructive = noArg()
		case "idempotent":
			d.idempotent = noArg()
		case "openworld":
			d.openWorld = noArg()
		case "kind":
			if needArg("kind (read, display, propose or action)") {
				if !isKind(arg) {
					bad("unknown kind %q; want read, display, propose or action", arg)
				} else {
					d.kind, d.kindPos = arg, pos
				}
			}
		case "title":
			if needArg("title") {
				d.title = arg
			}
		case "verb":
			if needArg("verb") {
				d.verb = arg
			}
		case "group":
			if needArg("group name") {
				if !namePattern.MatchString(arg) {
					bad("invalid group name %q: use letters, digits, '_' or '-'", arg)
				}
				d.group = arg
			}
		case "weight":
			if needArg("integer weight") {
				n, err := strconv.Atoi(arg)
				if err != nil {
					bad("weight %q is not an integer", arg)
				}
				d.weight = n
			}
		case "timeout":
			if needArg("duration, such as 30s") {
				t, err := time.ParseDuration(arg)
				switch {
				case err != nil:
					bad("invalid duration %q (time.ParseDuration syntax, such as 500ms or 2m)", arg)
				case t <= 0:
					bad("timeout must be positive")
				default:
					d.timeout = t
				}
			}
		case "permission":
			if needArg("permission name") {
				if strings.ContainsAny(arg, " \t") {
					bad("a permission is one word; write one //tool:permission line each")
				}
				d.permissions = append(d.permissions, arg)
			}
		case "meta":
			if needArg("KEY VALUE") {
				k, v, _ := strings.Cut(arg, " ")
				d.meta = append(d.meta, [2]string{k, strings.TrimSpace(v)})
			}
		}
	}
	if d.name == "" && d.pos.Filename != "" && !hasSpacedName(doc) {
		errs = append(errs, errorf(d.pos, "missing //tool:name: every tool needs a name"))
	}
	switch {
	case d.readOnly && (d.kind == "propose" || d.kind == "action"):
		errs = append(errs, errorf(d.kindPos, "//tool:kind %s conflicts with //tool:readonly: %s tools change things", d.kind, d.kind))
	case d.readOnly && d.destructive:
		errs = append(errs, errorf(seen["destructive"], "//tool:destructive conflicts with //tool:readonly"))
	}
	if d.kind == "" {
		d.kind = "action"
		if d.readOnly {
			d.kind = "read"
		}
	}
	if d.kind == "read" {
		if d.destructive && !d.readOnly {
			errs = append(errs, errorf(seen["destructive"], "//tool:destructive conflicts with //tool:kind read"))
		}
		d.readOnly = true // read implies readonly
	}
	return d, errs
}

func isKnownDirective(key string) bool {
	for _, k := range knownDirectives {
		if k == key {
			return true
		}
	}
	return false
}

func isKind(s string) bool {
	for _, k := range kinds {
		if k == s {
			return true
		}
	}
	return false
}

// closest returns the candidate nearest to s by edit distance, or "" when
// none is near enough to be a plausible typo.
func closest(s string, candidates []string) string {
	best, bestDist := "", max(1, len(s)/2)+1
	for _, c := range candidates {
		if d := editdist.Distance(s, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
