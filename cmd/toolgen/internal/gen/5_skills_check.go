package gen

import (
	"fmt"
	"go/token"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"go.yaml.in/yaml/v3"
)

// This file checks a skill's front matter against the Agent Skills format
// (agentskills.io/specification): the keys it allows, the name's grammar
// and its folder, the lengths, metadata as a map of strings to strings,
// and allowed-tools naming tools of this registry. Each problem is
// reported at the key or value that causes it.

// Limits of the format, in characters.
const (
	maxSkillName          = 64
	maxSkillDescription   = 1024
	maxSkillCompatibility = 500
)

// skillKeys are the front matter keys the format allows.
var skillKeys = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// checkSkill checks the front matter of doc and returns the skill, or nil
// when the front matter is not a mapping. tools are the registry's tool
// names, which allowed-tools may name.
func checkSkill(doc *skillDoc, tools []string) (*skillModel, []*problem.Error) {
	root := resolve(doc.root)
	if root == nil || (root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null") {
		return nil, []*problem.Error{problem.Errorf(doc.start(), "the front matter is empty: it needs name and description (%s)", skillsHelp)}
	}
	if root.Kind != yaml.MappingNode {
		return nil, []*problem.Error{problem.Errorf(doc.pos(root), "the front matter must be a YAML mapping of keys (%s), not %s", strings.Join(skillKeys, ", "), yamlKind(root))}
	}
	s := &skillModel{body: doc.body}
	var errs []*problem.Error
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolve(root.Content[i+1])
		key := k.Value
		if first, dup := seen[key]; dup {
			errs = append(errs, problem.Errorf(doc.pos(k), "key %s is given twice (first at line %d)", key, doc.pos(first).Line))
			continue
		}
		seen[key] = k
		errs = append(errs, s.setKey(doc, key, k, v, tools)...)
	}
	if seen["name"] == nil {
		errs = append(errs, problem.Errorf(doc.start(), "the front matter has no name: add name: %s, the folder's name", doc.folder))
	}
	if seen["description"] == nil {
		errs = append(errs, problem.Errorf(doc.start(), "the front matter has no description: say what the skill does and when to use it"))
	}
	return s, errs
}

// setKey checks the value v of key (whose node is k) and records it in s.
func (s *skillModel) setKey(doc *skillDoc, key string, k, v *yaml.Node, tools []string) []*problem.Error {
	at := doc.pos(v)
	switch key {
	case "name":
		name, err := stringValue(doc, "name", v)
		if err != nil {
			return []*problem.Error{err}
		}
		s.name, s.namePos = name, at
		return checkSkillName(doc, name, v)
	case "description", "license", "compatibility":
		text, err := stringValue(doc, key, v)
		if err != nil {
			return []*problem.Error{err}
		}
		text = strings.TrimSpace(text)
		switch key {
		case "description":
			s.description = text
		case "license":
			s.license = text
		default:
			s.compatibility = text
		}
		return checkLength(doc, key, text, v)
	case "metadata":
		md, errs := metadataValue(doc, v)
		s.metadata = md
		return errs
	case "allowed-tools":
		names, errs := allowedTools(doc, v, tools)
		s.allowedTools = names
		return errs
	}
	e := problem.Errorf(doc.pos(k), "unknown front matter key %s: the Agent Skills format allows %s", problem.Quote(key), strings.Join(skillKeys, ", "))
	if c := problem.Closest(key, skillKeys); c != "" {
		e.Msg += "; did you mean " + c + "?"
	}
	return []*problem.Error{e}
}

// checkSkillName checks the name's grammar and that it is its folder's.
func checkSkillName(doc *skillDoc, name string, v *yaml.Node) []*problem.Error {
	at := doc.pos(v)
	if name == "" {
		return []*problem.Error{problem.Errorf(at, "name is empty: name the skill %s, as its folder", problem.Quote(doc.folder))}
	}
	var errs []*problem.Error
	if n := utf8.RuneCountInString(name); n > maxSkillName {
		errs = append(errs, problem.Errorf(at, "name %s is %d characters long; a skill's name has at most %d", problem.Quote(name), n, maxSkillName))
	}
	var bad []string
	for _, r := range name {
		if !isSkillNameRune(r) && !slices.Contains(bad, fmt.Sprintf("%q", r)) {
			bad = append(bad, fmt.Sprintf("%q", r))
		}
	}
	if len(bad) > 0 {
		msg := fmt.Sprintf("name %s has %s: a skill's name is lower-case letters (a-z), digits and hyphens", problem.Quote(name), strings.Join(bad, ", "))
		if alt := skillNameFor(name); alt != "" && alt != name {
			msg += "; did you mean " + alt + "?"
		}
		errs = append(errs, problem.Errorf(at, "%s", msg))
	}
	switch {
	case strings.HasPrefix(name, "-"):
		errs = append(errs, problem.Errorf(at, "name %s starts with a hyphen: a skill's name starts with a letter or digit", problem.Quote(name)))
	case strings.HasSuffix(name, "-"):
		errs = append(errs, problem.Errorf(at, "name %s ends with a hyphen: a skill's name ends with a letter or digit", problem.Quote(name)))
	}
	if strings.Contains(name, "--") {
		errs = append(errs, problem.Errorf(at, "name %s has two hyphens in a row: separate words with one", problem.Quote(name)))
	}
	if name != doc.folder {
		errs = append(errs, problem.Errorf(at, "name %s is not the name of the skill's folder, %s: a skill's name and its folder's are the same; rename one", problem.Quote(name), problem.Quote(doc.folder)))
	}
	return errs
}

func isSkillNameRune(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' }

// skillNameFor is name made valid: lower case, any other character a
// hyphen, hyphens neither doubled nor at the ends; "" when nothing is left.
func skillNameFor(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if !isSkillNameRune(r) {
			r = '-'
		}
		if r == '-' && (b.Len() == 0 || strings.HasSuffix(b.String(), "-")) {
			continue
		}
		b.WriteRune(r)
	}
	alt := strings.TrimSuffix(b.String(), "-")
	if utf8.RuneCountInString(alt) > maxSkillName {
		return ""
	}
	return alt
}

// checkLength checks the length of description, license or compatibility.
func checkLength(doc *skillDoc, key, text string, v *yaml.Node) []*problem.Error {
	at := doc.pos(v)
	limit := map[string]int{"description": maxSkillDescription, "compatibility": maxSkillCompatibility}[key]
	n := utf8.RuneCountInString(text)
	switch {
	case n == 0 && key == "description":
		return []*problem.Error{problem.Errorf(at, "description is empty: say what the skill does and when to use it")}
	case n == 0:
		return []*problem.Error{problem.Errorf(at, "%s is empty: give it a value, or leave the key out", key)}
	case limit > 0 && n > limit:
		return []*problem.Error{problem.Errorf(at, "%s is %d characters long; the Agent Skills format allows at most %d", key, n, limit)}
	}
	return nil
}

// metadataValue checks that v maps strings to strings, and returns its
// pairs sorted by key. A null value is no metadata.
func metadataValue(doc *skillDoc, v *yaml.Node) ([][2]string, []*problem.Error) {
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, []*problem.Error{problem.Errorf(doc.pos(v), "metadata must be a mapping of strings to strings, not %s", yamlKind(v))}
	}
	var pairs [][2]string
	var errs []*problem.Error
	first := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := resolve(v.Content[i]), resolve(v.Content[i+1])
		key, err := stringValue(doc, "a metadata key", k)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if line, dup := first[key]; dup {
			errs = append(errs, problem.Errorf(doc.pos(k), "metadata key %s is given twice (first at line %d)", problem.Quote(key), line))
			continue
		}
		first[key] = doc.pos(k).Line
		value, err := stringValue(doc, "metadata value "+problem.Quote(key), val)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		pairs = append(pairs, [2]string{key, value})
	}
	slices.SortFunc(pairs, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return pairs, errs
}

// stringValue returns the string of a scalar node whose tag is !!str ("" for
// null), or the problem: what names the value, and what it is instead.
func stringValue(doc *skillDoc, what string, v *yaml.Node) (string, *problem.Error) {
	switch {
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str":
		return v.Value, nil
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null":
		return "", nil
	case v.Kind == yaml.ScalarNode:
		return "", problem.Errorf(doc.pos(v), "%s must be a string, not %s: quote it (%s)", what, yamlKind(v), strconvQuote(v.Value))
	}
	return "", problem.Errorf(doc.pos(v), "%s must be a string, not %s", what, yamlKind(v))
}

// yamlKind says what a node is, for messages: "a mapping", "the YAML
// float 1.0".
func yamlKind(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "the YAML " + strings.TrimPrefix(v.ShortTag(), "!!") + " " + v.Value
	}
	return "a YAML document"
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

// allowedTools checks allowed-tools, a space-separated string or a list
// of strings, each a tool of this registry (the format leaves the names
// to the agent; here the agent is this registry), named once.
func allowedTools(doc *skillDoc, v *yaml.Node, tools []string) ([]string, []*problem.Error) {
	type entry struct {
		name string
		node *yaml.Node
		col  int // the entry's byte column, or 0 for the node's
	}
	var entries []entry
	var errs []*problem.Error
	switch {
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null":
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str":
		base := wordsColumn(doc, v)
		for _, w := range fieldsAt(v.Value) {
			col := 0
			if base > 0 {
				col = base + w.off
			}
			entries = append(entries, entry{w.text, v, col})
		}
	case v.Kind == yaml.SequenceNode:
		for _, item := range v.Content {
			item = resolve(item)
			name, err := stringValue(doc, "an allowed-tools entry", item)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			entries = append(entries, entry{strings.TrimSpace(name), item, 0})
		}
	default:
		return nil, []*problem.Error{problem.Errorf(doc.pos(v), "allowed-tools must be tool names separated by spaces, or a list of tool names, not %s", yamlKind(v))}
	}
	var names []string
	for _, e := range entries {
		at := doc.pos(e.node)
		if e.col > 0 {
			at.Column = e.col
		}
		switch {
		case slices.Contains(names, e.name):
			errs = append(errs, problem.Errorf(at, "allowed-tools names %s twice", problem.Quote(e.name)))
		case !slices.Contains(tools, e.name):
			msg := fmt.Sprintf("allowed-tools names %s, which is not a tool of this registry: a skill pre-approves the registry's tools, by name", problem.Quote(e.name))
			if c := problem.Closest(e.name, tools); c != "" {
				msg += "; did you mean " + c + "?"
			}
			errs = append(errs, problem.Errorf(at, "%s", msg))
		default:
			names = append(names, e.name)
		}
	}
	return names, errs
}

// word is a word of a string and its byte offset.
type word struct {
	off  int
	text string
}

// fieldsAt returns the words of s, separated by white space, in order.
func fieldsAt(s string) []word {
	var out []word
	start := -1
	for i := 0; i <= len(s); i++ {
		space := i == len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\n'
		switch {
		case space && start >= 0:
			out = append(out, word{start, s[start:i]})
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	return out
}

// wordsColumn is the byte column where the string of v starts in its
// line when the value is written there as is (a plain or quoted scalar on
// one line, without escapes), so that each word has its own column; 0
// when it is not.
func wordsColumn(doc *skillDoc, v *yaml.Node) int {
	at := doc.pos(v)
	if at.Line-1 >= len(doc.lines) {
		return 0
	}
	col := at.Column
	if v.Style == yaml.DoubleQuotedStyle || v.Style == yaml.SingleQuotedStyle {
		col++
	} else if v.Style != 0 {
		return 0
	}
	line := doc.lines[at.Line-1]
	if col-1 > len(line) || !strings.HasPrefix(line[col-1:], v.Value) {
		return 0
	}
	return col
}

// checkSkillNames refuses a skill name given in two folders, at both
// names, as checkNames refuses a tool name declared twice.
func checkSkillNames(skills []*skillModel) []*problem.Error {
	return duplicateNames("skill", skills, func(s *skillModel) (string, token.Position) { return s.name, s.namePos })
}
