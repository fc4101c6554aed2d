package gen

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"golang.org/x/tools/go/packages"
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
	"zerovalue", "defer", "ui", "uicsp", "uipermission", "uiborder", "visibility",
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
	zeroValue   bool         // the type's zero value is a ready tool: New accepts it unset
	deferred    bool         // //tool:defer: providers load the tool through their tool search
	ui          uiDirectives // //tool:ui and the app directives (2_directives_ui.go)
}

// declared is a type declaration whose doc comment holds //tool: lines,
// with the lines parsed.
type declared struct {
	pkg  *packages.Package
	spec *ast.TypeSpec
	doc  *ast.CommentGroup
	directives
}

// findDirectives is the directives phase: it finds every type declaration
// of the loaded packages whose doc comment holds //tool: lines, parses the
// lines, and refuses //tool: lines anywhere else.
func findDirectives(l *loaded) ([]declared, []*problem.Error) {
	var out []declared
	var errs []*problem.Error
	for _, p := range l.pkgs {
		for _, f := range p.Syntax {
			// The package doc comment's //tool: lines are read by
			// findGroupDocs (2_directives_groups.go).
			docs := map[*ast.CommentGroup]bool{f.Doc: true}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, spec := range gd.Specs {
					ts := spec.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					errs = append(errs, spacedDirectives(l.fset, doc)...)
					if !hasDirectives(doc) {
						continue
					}
					docs[doc] = true
					d, es := parseDirectives(l.fset, doc)
					errs = append(errs, es...)
					errs = append(errs, readApp(l.reads, filepath.Dir(l.fset.Position(doc.Pos()).Filename), &d)...)
					out = append(out, declared{pkg: p, spec: ts, doc: doc, directives: d})
				}
			}
			errs = append(errs, strayDirectives(l.fset, f, docs)...)
		}
	}
	return out, errs
}

// strayDirectives reports //tool: lines outside the doc comment of a type
// declaration or of the package (docs holds those).
func strayDirectives(fset *token.FileSet, f *ast.File, docs map[*ast.CommentGroup]bool) []*problem.Error {
	var errs []*problem.Error
	for _, cg := range f.Comments {
		if docs[cg] || !hasDirectives(cg) {
			continue
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, directivePrefix) {
				errs = append(errs, problem.Errorf(fset.Position(c.Slash), "//tool: directives belong in the doc comment of a type declaration"))
				break
			}
		}
	}
	return errs
}

// toolDescription is a tool's description: its type's doc comment without
// the directive lines (CommentGroup.Text drops them), reflowed as go/doc
// renders it with no line width (schema.Reflow): paragraphs and list items
// on one line each, blank lines between paragraphs, code blocks as
// written. The source's line breaks inside sentences would reach the model
// as "\n" in every listing. The type's name, which a Go doc comment
// starts with, is dropped (schema.DropName: "BookTool books a table."
// becomes "Books a table.") unless keepName: the model knows the tool by
// its tool name.
func toolDescription(doc *ast.CommentGroup, typeName string, keepName bool) string {
	text := schema.Reflow(doc.Text())
	if keepName {
		return text
	}
	return schema.DropName(text, typeName)
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
func parseDirectives(fset *token.FileSet, doc *ast.CommentGroup) (directives, []*problem.Error) {
	var d directives
	var errs []*problem.Error
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
		ln := &directiveLine{key: key, arg: arg, pos: pos}
		if key == groupDocKey || key == keepNamesKey {
			errs = append(errs, problem.Errorf(pos, "//tool:%s belongs in a package doc comment (the comment above the package clause, as in doc.go), not in a type's", key))
			continue
		}
		if !isKnownDirective(key) {
			e := problem.Errorf(pos, "unknown directive //tool:%s", key)
			if s := problem.Closest(key, knownDirectives); s != "" {
				e.Msg += "; did you mean //tool:" + s + "?"
				start := c.Slash + token.Pos(len(directivePrefix))
				e.Fix = &problem.Edit{Pos: start, End: start + token.Pos(len(key)), New: s, Title: "Replace //tool:" + key + " with //tool:" + s}
			}
			errs = append(errs, e)
			continue
		}
		if key != "permission" && key != "meta" && key != "uicsp" && key != "uipermission" {
			if prev, dup := seen[key]; dup {
				errs = append(errs, &problem.Error{Pos: pos, Msg: "//tool:" + key + " repeated", Other: prev})
				continue
			}
			seen[key] = pos
		}
		if !d.applyUI(ln) {
			d.apply(ln)
		}
		errs = append(errs, ln.errs...)
	}
	errs = append(errs, d.finish(seen, hasSpacedName(doc))...)
	return d, append(errs, d.finishUI()...)
}

// directiveLine is one //tool: line being read, and its problems.
type directiveLine struct {
	key, arg string
	pos      token.Position
	errs     []*problem.Error
}

// bad reports a problem with the line.
func (ln *directiveLine) bad(format string, args ...any) {
	ln.errs = append(ln.errs, problem.Errorf(ln.pos, "//tool:"+ln.key+": "+format, args...))
}

// noArg reports an argument given to a directive that takes none.
func (ln *directiveLine) noArg() bool {
	if ln.arg != "" {
		ln.bad("takes no argument")
		return false
	}
	return true
}

// needArg reports a missing argument, described by what.
func (ln *directiveLine) needArg(what string) bool {
	if ln.arg == "" {
		ln.bad("missing %s", what)
		return false
	}
	return true
}

// apply records one known directive.
func (d *directives) apply(ln *directiveLine) {
	switch ln.key {
	case "name":
		if ln.needArg("tool name") {
			if !namePattern.MatchString(ln.arg) {
				ln.bad("invalid tool name %q: a name is 1 to 64 letters, digits, '_' or '-', not starting with a digit or '-'", ln.arg)
			} else if p := fieldNameProblem(ln.arg); p != "" {
				ln.bad("%s", p)
			}
			d.name, d.namePos = ln.arg, ln.pos
		}
	case "readonly":
		d.readOnly = ln.noArg()
	case "destructive":
		d.destructive = ln.noArg()
	case "idempotent":
		d.idempotent = ln.noArg()
	case "openworld":
		d.openWorld = ln.noArg()
	case "zerovalue":
		d.zeroValue = ln.noArg()
	case "defer":
		d.deferred = ln.noArg()
	case "kind":
		if ln.needArg("kind (read, display, propose or action)") {
			if !isKind(ln.arg) {
				ln.bad("unknown kind %q; want read, display, propose or action", ln.arg)
			} else {
				d.kind, d.kindPos = ln.arg, ln.pos
			}
		}
	case "title":
		if ln.needArg("title") {
			d.title = ln.arg
		}
	case "verb":
		if ln.needArg("verb") {
			d.verb = ln.arg
		}
	case "group":
		if ln.needArg("group name") {
			if !namePattern.MatchString(ln.arg) {
				ln.bad("invalid group name %q: use letters, digits, '_' or '-'", ln.arg)
			}
			d.group = ln.arg
		}
	case "weight":
		if ln.needArg("integer weight") {
			n, err := strconv.Atoi(ln.arg)
			if err != nil {
				ln.bad("weight %q is not an integer", ln.arg)
			}
			d.weight = n
		}
	case "timeout":
		if ln.needArg("duration, such as 30s") {
			t, err := time.ParseDuration(ln.arg)
			switch {
			case err != nil:
				ln.bad("invalid duration %q (time.ParseDuration syntax, such as 500ms or 2m)", ln.arg)
			case t <= 0:
				ln.bad("timeout must be positive")
			default:
				d.timeout = t
			}
		}
	case "permission":
		if ln.needArg("permission name") {
			if strings.ContainsAny(ln.arg, " \t") {
				ln.bad("a permission is one word; write one //tool:permission line each")
			}
			d.permissions = append(d.permissions, ln.arg)
		}
	case "meta":
		if ln.needArg("KEY VALUE") {
			k, v, _ := strings.Cut(ln.arg, " ")
			d.meta = append(d.meta, [2]string{k, strings.TrimSpace(v)})
		}
	}
}

// finish checks the directives as a set (a name, no conflicting hints) and
// fills in the defaults. seen holds where each directive was written.
// spacedName says the doc comment has a "// tool:name" line, which
// spacedDirectives reports: "missing //tool:name" would only repeat it.
func (d *directives) finish(seen map[string]token.Position, spacedName bool) []*problem.Error {
	var errs []*problem.Error
	if d.name == "" && d.pos.Filename != "" && !spacedName {
		errs = append(errs, problem.Errorf(d.pos, "missing //tool:name: every tool needs a name"))
	}
	switch {
	case d.readOnly && (d.kind == "propose" || d.kind == "action"):
		errs = append(errs, problem.Errorf(d.kindPos, "//tool:kind %s conflicts with //tool:readonly: %s tools change things", d.kind, d.kind))
	case d.readOnly && d.destructive:
		errs = append(errs, problem.Errorf(seen["destructive"], "//tool:destructive conflicts with //tool:readonly"))
	}
	if d.kind == "" {
		d.kind = "action"
		if d.readOnly {
			d.kind = "read"
		}
	}
	if d.kind == "read" {
		if d.destructive && !d.readOnly {
			errs = append(errs, problem.Errorf(seen["destructive"], "//tool:destructive conflicts with //tool:kind read"))
		}
		d.readOnly = true // read implies readonly
	}
	return errs
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
