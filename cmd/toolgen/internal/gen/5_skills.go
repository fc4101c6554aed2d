package gen

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gocode"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"go.yaml.in/yaml/v3"
)

// This file is the skills phase: it finds the skill folders beside the
// tools packages, splits each SKILL.md into its YAML front matter and its
// Markdown body, and parses the front matter (5_skills_check.go checks it
// against the Agent Skills format). YAML is read here, at generate time
// only: the generated package holds the checked values as Go constants,
// and the runtime links no YAML library.

// Where skills live and what they are called.
const (
	skillsDir  = "skills"   // beside a tools package's Go files
	skillFile  = "SKILL.md" // in each skill's folder
	fenceLine  = "---"      // opens and closes the front matter
	skillsHelp = "a SKILL.md starts with a line ---, then the YAML front matter (name, description, ...), then a line ---, then the instructions in Markdown"
)

// skillModel is one skill, checked: what the generated table holds.
type skillModel struct {
	name                                string
	description, license, compatibility string      // white space at the ends dropped
	metadata                            [][2]string // sorted by key
	allowedTools                        []string    // as listed, each once
	body                                string      // the Markdown, blank lines at the ends dropped

	source  string         // SKILL.md relative to the module root, with slashes
	namePos token.Position // of the name's value
}

// skillDoc is a SKILL.md split and parsed: its path, its lines (for
// positions), the front matter's root mapping and the body.
type skillDoc struct {
	path   string   // absolute
	folder string   // the skill folder's name
	lines  []string // the file's lines, CRLF as LF, without the BOM
	root   *yaml.Node
	body   string
}

// loadSkills is the skills phase: every skill folder beside the tools
// packages, parsed and checked, sorted by name. tools are the tool names
// declared, which allowed-tools may name. A skill name given twice is
// refused at both places, as a tool name is.
func loadSkills(l *loaded, tools []string, opts *Options) ([]*skillModel, []*problem.Error) {
	paths, errs := findSkills(l)
	var skills []*skillModel
	for _, p := range paths {
		doc, es := readSkill(p)
		errs = append(errs, es...)
		if doc == nil {
			continue
		}
		s, es := checkSkill(doc, tools)
		errs = append(errs, es...)
		if s != nil {
			s.source = sourcePath(l, opts, p)
			skills = append(skills, s)
		}
	}
	errs = append(errs, checkSkillNames(skills)...)
	slices.SortStableFunc(skills, func(a, b *skillModel) int { return strings.Compare(a.name, b.name) })
	return skills, errs
}

// declaredNames are the tool names of decls, sorted, each once: those a
// skill's allowed-tools may name, whether or not the tool passed its own
// checks (its problems are reported there, not again in every skill).
func declaredNames(decls []declared) []string {
	var names []string
	for _, d := range decls {
		if d.name != "" {
			names = append(names, d.name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// findSkills returns, sorted, the SKILL.md of every skill folder: each
// folder skills/NAME beside the Go files of a package the patterns match
// (the tools packages, and packages of theirs without tools). A folder
// there without SKILL.md is not a skill, unless it holds the file under
// another case (skill.md), which is refused: toolgen would skip it.
func findSkills(l *loaded) ([]string, []*problem.Error) {
	var dirs []string
	for _, p := range l.pkgs {
		if files := append(slices.Clone(p.GoFiles), p.CompiledGoFiles...); len(files) > 0 {
			dirs = append(dirs, filepath.Join(filepath.Dir(files[0]), skillsDir))
		}
	}
	slices.Sort(dirs)
	var paths []string
	var errs []*problem.Error
	for _, dir := range slices.Compact(dirs) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // no skills folder (or not one we can read: not a skill)
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				if strings.EqualFold(e.Name(), skillFile) {
					errs = append(errs, problem.Errorf(token.Position{Filename: p, Line: 1, Column: 1}, "%s is not in a skill folder: a skill is a folder %s/NAME holding its %s; move it to %s/NAME/%s, NAME being the skill's name", e.Name(), skillsDir, skillFile, skillsDir, skillFile))
				}
				continue
			}
			found, other := skillFileIn(p)
			switch {
			case found:
				paths = append(paths, filepath.Join(p, skillFile))
			case other != "":
				errs = append(errs, problem.Errorf(token.Position{Filename: filepath.Join(p, other), Line: 1, Column: 1}, "the skill file is named %s: name it %s, or toolgen skips the skill", other, skillFile))
			}
		}
	}
	return paths, errs
}

// skillFileIn reports whether dir holds SKILL.md, and else the name of a
// file that is SKILL.md in another case.
func skillFileIn(dir string) (found bool, other string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, ""
	}
	for _, e := range entries {
		switch {
		case e.Name() == skillFile:
			return true, ""
		case strings.EqualFold(e.Name(), skillFile) && other == "":
			other = e.Name()
		}
	}
	return false, other
}

// readSkill reads a SKILL.md and splits it into its front matter, parsed,
// and its body. It returns nil and the problem when the file has no front
// matter, an unclosed one or one that is not YAML.
func readSkill(path string) (*skillDoc, []*problem.Error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []*problem.Error{problem.Errorf(token.Position{Filename: path}, "reading the skill: %v", err)}
	}
	if !utf8.Valid(data) {
		return nil, []*problem.Error{problem.Errorf(token.Position{Filename: path, Line: 1, Column: 1}, "%s is not UTF-8 text", skillFile)}
	}
	data = bytes.TrimPrefix(data, []byte(gocode.BOM))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	doc := &skillDoc{path: path, folder: filepath.Base(filepath.Dir(path)), lines: strings.Split(text, "\n")}
	start := token.Position{Filename: path, Line: 1, Column: 1}
	if !isFence(doc.lines[0]) {
		return nil, []*problem.Error{problem.Errorf(start, "%s has no front matter: %s", skillFile, skillsHelp)}
	}
	end := slices.IndexFunc(doc.lines[1:], isFence) + 1
	if end == 0 {
		return nil, []*problem.Error{problem.Errorf(start, "the front matter opened here is never closed: end it with a line --- before the instructions (%s)", skillsHelp)}
	}
	body := doc.lines[end+1:]
	for len(body) > 0 && strings.TrimSpace(body[0]) == "" {
		body = body[1:]
	}
	doc.body = strings.TrimRight(strings.Join(body, "\n"), " \t\n")
	if doc.body != "" {
		doc.body += "\n"
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(strings.Join(doc.lines[1:end], "\n")), &root); err != nil {
		return nil, []*problem.Error{yamlError(path, err)}
	}
	if len(root.Content) > 0 {
		doc.root = root.Content[0]
	}
	return doc, nil
}

// isFence reports whether line opens or closes the front matter.
func isFence(line string) bool { return strings.TrimRight(line, " \t") == fenceLine }

// yamlLine finds the line of the YAML library's syntax errors, which give
// a line and no column.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// parserProblems are the YAML parser's problems (go.yaml.in/yaml/v3's
// parserc.go), whose line the library counts from 0, where it counts the
// scanner's from 1. The parser's line is that of the construct left open:
// the "[" of an unclosed list.
var parserProblems = []string{
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"did not find expected '-' indicator", "did not find expected <document start>",
	"did not find expected key", "did not find expected node content",
	"found duplicate %TAG directive", "found duplicate %YAML directive",
	"found incompatible YAML document", "found undefined tag handle",
}

// yamlError is a syntax error of the front matter at its line of the file
// (the front matter starts on the second), column 1: the library gives no
// column. Without a line, it is the front matter's opening line.
func yamlError(path string, err error) *problem.Error {
	msg := err.Error()
	pos := token.Position{Filename: path, Line: 1, Column: 1}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
		if slices.Contains(parserProblems, msg) {
			n++
		}
		pos.Line = n + 1
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	return problem.Errorf(pos, "the front matter is not valid YAML: %s", msg)
}

// pos is the position in the file of a node of the front matter. The YAML
// library counts lines from the front matter's first (the file's second)
// and columns in characters; a position counts bytes.
func (d *skillDoc) pos(n *yaml.Node) token.Position {
	line := n.Line + 1
	col := n.Column
	if line-1 < len(d.lines) {
		text := d.lines[line-1]
		off := 0
		for i := 1; i < n.Column && off < len(text); i++ {
			_, size := utf8.DecodeRuneInString(text[off:])
			off += size
		}
		col = off + 1
	}
	return token.Position{Filename: d.path, Line: line, Column: col}
}

// start is the position of the front matter's opening line.
func (d *skillDoc) start() token.Position {
	return token.Position{Filename: d.path, Line: 1, Column: 1}
}

// sourcePath is path relative to the module's root (or, outside a module,
// to the directory toolgen ran in), with slashes: the same on every
// machine.
func sourcePath(l *loaded, opts *Options, path string) string {
	root := opts.Dir
	if l.module != nil && l.module.Dir != "" {
		root = l.module.Dir
	}
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(path)), skillFile))
}
