package gen

import (
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// This file prints the skills of the model: their table and Skills in
// registry_gen.go, and their entries in tools.json. A registry without
// skills gets neither, and its files are what they were before skills.

const skillPkg = "github.com/toolgen-go/toolgen/runtime/skill"

// skillsCode adds the skill table and Skills to registry_gen.go.
func skillsCode(reg *jen.File, skills []*skillModel) {
	reg.Comment("skillTable holds the skills compiled from the SKILL.md files beside the")
	reg.Comment("tools packages, sorted by name: their front matter, checked by toolgen,")
	reg.Comment("and their instructions. The compiler lays it out; nothing is read at")
	reg.Comment("start-up, and no YAML is parsed at run time.")
	reg.Var().Id("skillTable").Op("=").Index(jen.Lit(len(skills))).Qual(skillPkg, "Skill").ValuesFunc(func(v *jen.Group) {
		for _, s := range skills {
			v.Line().Add(skillBody(s))
		}
		v.Line()
	})
	reg.Line()
	reg.Add(doc(
		"Skills returns the skills of this registry, sorted by name: the set a",
		"skill.Patterns choose from. The set and its skills are shared and",
		"never modified.",
	).Func().Id("Skills").Params().Op("*").Qual(skillPkg, "Set").Block(
		jen.Return(jen.Qual(skillPkg, "NewTable").Call(jen.Id("skillTable").Op("[:]"))),
	))
}

// skillBody is the skill.Skill literal of s, fields in skill.Skill's order
// and empty ones left out.
func skillBody(s *skillModel) jen.Code {
	var kv []jen.Code
	add := func(key string, v jen.Code) { kv = append(kv, jen.Line().Id(key).Op(":").Add(v)) }
	add("Name", jen.Lit(s.name))
	add("Description", jen.Lit(s.description))
	if s.license != "" {
		add("License", jen.Lit(s.license))
	}
	if s.compatibility != "" {
		add("Compatibility", jen.Lit(s.compatibility))
	}
	if len(s.metadata) > 0 {
		var ms []jen.Code
		for _, m := range s.metadata {
			ms = append(ms, jen.Values(jen.Id("Key").Op(":").Lit(m[0]), jen.Id("Value").Op(":").Lit(m[1])))
		}
		add("Metadata", jen.Index().Qual(skillPkg, "Meta").Values(ms...))
	}
	if len(s.allowedTools) > 0 {
		var ts []jen.Code
		for _, t := range s.allowedTools {
			ts = append(ts, jen.Lit(t))
		}
		add("AllowedTools", jen.Index().String().Values(ts...))
	}
	add("Body", textLit(s.body))
	add("Source", jen.Lit(s.source))
	return jen.Values(append(kv, jen.Line())...)
}

// textLit is s as a Go string a reader can follow line by line: one raw
// string literal, its lines as they are, or, when s holds a backquote
// (which a raw literal cannot hold, and Markdown is full of) or a
// character a raw literal would change (a carriage return, other control
// characters, a byte order mark), one interpreted literal per line,
// joined with +.
func textLit(s string) jen.Code {
	raw := strings.IndexFunc(s, func(r rune) bool {
		return r == '`' || r == '\ufeff' || (unicode.IsControl(r) && r != '\n' && r != '\t')
	}) < 0
	if raw && s != "" {
		return jen.Op("`" + s + "`")
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= 1 {
		return jen.Lit(s)
	}
	code := jen.Lit(lines[0])
	for _, l := range lines[1:] {
		code = code.Op("+").Line().Lit(l)
	}
	return code
}

// skillEntries are the skills' entries of tools.json, after the tools'.
// Each starts with "skill" (a tool's starts with "name"): a reader of the
// manifest tells them apart by their first key.
func skillEntries(skills []*skillModel) []*jsontree.Node {
	var list []*jsontree.Node
	for _, s := range skills {
		o := &jsontree.Node{Kind: jsonlex.Object}
		add := func(k string, v *jsontree.Node) { o.Members = append(o.Members, jsontree.Member{Key: k, Value: v}) }
		add("skill", str(s.name))
		add("description", str(s.description))
		if s.license != "" {
			add("license", str(s.license))
		}
		if s.compatibility != "" {
			add("compatibility", str(s.compatibility))
		}
		if len(s.metadata) > 0 {
			ms := &jsontree.Node{Kind: jsonlex.Object}
			for _, kv := range s.metadata {
				ms.Members = append(ms.Members, jsontree.Member{Key: kv[0], Value: str(kv[1])})
			}
			add("metadata", ms)
		}
		if len(s.allowedTools) > 0 {
			ts := &jsontree.Node{Kind: jsonlex.Array}
			for _, t := range s.allowedTools {
				ts.Items = append(ts.Items, str(t))
			}
			add("allowedTools", ts)
		}
		add("source", str(s.source))
		add("body", str(s.body))
		list = append(list, o)
	}
	return list
}
