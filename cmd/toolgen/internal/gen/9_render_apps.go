package gen

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// specMeta is the Meta of t's Spec: its //tool:meta pairs, then, for a
// tool with an app or a visibility, the reserved pairs runtime/mcpserver
// reads (2_directives_ui.go): the tool's _meta.ui, the app resource's
// _meta.ui, and the app's HTML, a constant of the codec package that
// holds the spec (appConst). A tool without them has the Meta it always had.
func specMeta(t *toolModel, field string) []jen.Code {
	var ms []jen.Code
	pair := func(k string, v jen.Code) {
		ms = append(ms, jen.Values(jen.Id("Key").Op(":").Lit(k), jen.Id("Value").Op(":").Add(v)))
	}
	for _, m := range t.meta {
		pair(m[0], jen.Lit(m[1]))
	}
	if v := t.ui.uiToolMeta(); v != "" {
		pair(metaUI, jen.Lit(v))
	}
	if t.ui.file != "" {
		pair(metaUIResource, jen.Lit(t.ui.uiResourceMeta()))
		pair(metaUIHTML, jen.Id(appConst(field)))
	}
	return ms
}

// appConst is the name of the constant holding the HTML of the app of the
// tool whose Tools field is field, in its codec package: exported so that
// it never meets a name the codec planner gives (no other name of a codec
// package starts with App).
func appConst(field string) string { return "App" + field }

// renderApps writes the constant of the app of each of tools that has
// one, into the codec package whose specs point to them: its HTML file's
// bytes, read and checked at generate time. A string constant is laid out
// by the compiler: an app costs a program nothing until it is served.
func renderApps(f *jen.File, tools []*toolModel, fields map[*toolModel]string) {
	var apps []*toolModel
	for _, t := range tools {
		if t.ui.file != "" {
			apps = append(apps, t)
		}
	}
	if len(apps) == 0 {
		return
	}
	f.Comment("The apps of the tools that have one (//tool:ui): each HTML file as toolgen")
	f.Comment("read and checked it, served by runtime/mcpserver through resources/read.")
	f.Const().DefsFunc(func(d *jen.Group) {
		for _, t := range apps {
			d.Commentf("%s is the app of %s, %s (sha256 %s).", appConst(fields[t]), t.name, t.ui.file, t.ui.sum)
			d.Id(appConst(fields[t])).Op("=").Lit(t.ui.html)
		}
	})
	f.Line()
}

// manifestUI is the "ui" member of a tool's tools.json entry: the tool's
// _meta.ui as MCP lists it but resourceUri, which the server derives
// (ui://SERVER/TOOL), and for an app its file, size, SHA-256 and the
// resource's _meta.ui; nil for a tool with neither an app nor a
// visibility. Provider definitions never carry it: _meta.ui is MCP's.
func manifestUI(u *uiDirectives) *jsontree.Node {
	if u.file == "" && u.visibility == nil {
		return nil
	}
	o := &jsontree.Node{Kind: jsonlex.Object}
	add := func(k string, v *jsontree.Node) { o.Members = append(o.Members, jsontree.Member{Key: k, Value: v}) }
	if u.visibility != nil {
		vs := &jsontree.Node{Kind: jsonlex.Array}
		for _, v := range u.visibility {
			vs.Items = append(vs.Items, str(v))
		}
		add("visibility", vs)
	}
	if u.file == "" {
		return o
	}
	add("file", str(u.file))
	add("bytes", &jsontree.Node{Kind: jsonlex.Number, Text: strconv.Itoa(len(u.html))})
	add("sha256", str(u.sum))
	res, err := jsontree.Parse([]byte(u.uiResourceMeta()))
	if err == nil && len(res.Members) > 0 {
		add("resource", res)
	}
	return o
}

// freshApps writes TestToolgenFreshApps into the freshness test when a
// tool has an app: each app's file, by its path from the output
// directory, must still hash to the sum of the bytes embedded
// (fresh.CheckApp), else the registry serves an app older than its file.
func freshApps(b *bytes.Buffer, m *model, opts *Options) {
	var apps []*toolModel
	for _, t := range m.tools {
		if t.ui.file != "" {
			apps = append(apps, t)
		}
	}
	if len(apps) == 0 {
		return
	}
	b.WriteString(`
// TestToolgenFreshApps fails when the HTML file of a tool's app
// (//tool:ui) changed since toolgen embedded it: run go generate.
func TestToolgenFreshApps(t *testing.T) {
`)
	for _, t := range apps {
		path := filepath.Join(filepath.Dir(t.ui.filePos.Filename), t.ui.file)
		if rel, err := filepath.Rel(opts.outDir(), path); err == nil {
			path = rel
		}
		fmt.Fprintf(b, "\tfresh.CheckApp(t, %q, %q, %q)\n", t.name, filepath.ToSlash(path), t.ui.sum)
	}
	b.WriteString("}\n")
}
