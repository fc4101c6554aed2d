// Command synth writes the synthetic module the catalog benchmarks use: a
// Go module of annotated tools (1,000 by default, across 20 packages), a
// program that builds their registry and lists it, an empty program to
// compare its start-up with, a program with an empty registry to measure
// the binary size per tool, and benchmarks of listing the catalog. The
// module is written to a directory of the caller's choosing (a temporary
// one in scripts/catalog.sh) and never committed.
//
// With -nested the tools' inputs and outputs nest (see nested.go): three
// tools in four have a nested struct, a slice of structs or both, and the
// module also holds cmd/sdk, which registers the same types with the
// official MCP Go SDK's typed mcp.AddTool and lists them, so that
// scripts/buildcost can build the two programs side by side.
//
// Usage:
//
//	go run ./scripts/synth -out DIR -repo PATH [-packages 20] [-tools 50] [-nested]
//
// PATH is the toolgen repository, which the module's go.mod replaces
// github.com/toolgen-go/toolgen with. Run toolgen in DIR afterwards:
//
//	go run github.com/toolgen-go/toolgen/cmd/toolgen -out generated ./tools/...
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"text/template"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
}

// config is what the flags say.
type config struct {
	out, repo        string
	packages, perPkg int
	nested           bool
}

func run(args []string) error {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	var c config
	fs.StringVar(&c.out, "out", "", "output `directory` (created; must be empty or absent)")
	fs.StringVar(&c.repo, "repo", "", "`path` of the toolgen repository")
	fs.IntVar(&c.packages, "packages", 20, "number of tool packages")
	fs.IntVar(&c.perPkg, "tools", 50, "tools per package")
	fs.BoolVar(&c.nested, "nested", false, "nested inputs and outputs, and an MCP SDK program registering the same types")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.out == "" || c.repo == "" {
		return errors.New("-out and -repo are required")
	}
	if c.packages < 1 || c.perPkg < 1 {
		return errors.New("-packages and -tools must be positive")
	}
	repo, err := filepath.Abs(c.repo)
	if err != nil {
		return err
	}
	c.repo = repo
	return write(c)
}

// pkgData is what a package's templates see.
type pkgData struct {
	Pkg   string
	Index int
	Tools []toolData
	SDK   bool // the nested catalog's copy for the SDK program (see nested.go)
}

// toolData is one tool of a package. Scope and Filters say which nested
// members a tool of the nested catalog has (see variant).
type toolData struct {
	N              int
	Num            string // N as three digits
	Scope, Filters bool
	Nested         bool // Scope || Filters: the output nests too
}

// variant gives tool n of the nested catalog its shape, in turn: flat, a
// nested struct, a slice of structs, both. Three tools in four nest.
func variant(n int) (scope, filters bool) {
	return n%4 == 1 || n%4 == 3, n%4 == 2 || n%4 == 3
}

// moduleData is what the module-wide templates see.
type moduleData struct {
	config
	Total    int
	Last     string // the name of the last tool, which BenchmarkCall calls
	CallArgs string // arguments the last tool accepts
	Pkgs     []string
}

// write writes every file of the module.
func write(c config) error {
	if entries, err := os.ReadDir(c.out); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", c.out)
	}
	sum, err := os.ReadFile(filepath.Join(c.repo, "go.sum"))
	if err != nil {
		return fmt.Errorf("read the repository's go.sum: %w", err)
	}
	mod := fmt.Appendf(nil, goMod, c.repo)
	if c.nested {
		// The SDK program imports the SDK itself: require it directly
		// (the version the repository's go.mod and go.sum pin).
		mod = append(mod, "\nrequire github.com/modelcontextprotocol/go-sdk "+sdkVersion+"\n"...)
	}
	files := map[string][]byte{
		"go.mod": mod,
		"go.sum": sum,
	}
	toolsTmpl := toolsTemplate
	if c.nested {
		toolsTmpl = nestedToolsTemplate
	}
	md := moduleData{
		config:   c,
		Total:    c.packages * c.perPkg,
		Last:     fmt.Sprintf("p%02d_t%03d", c.packages-1, c.perPkg-1),
		CallArgs: `{"query":"paper clips","limit":5,"tags":["a","b"]}`,
	}
	for p := range c.packages {
		d := pkgData{Pkg: fmt.Sprintf("p%02d", p), Index: p}
		for t := range c.perPkg {
			td := toolData{N: t, Num: fmt.Sprintf("%03d", t)}
			if c.nested {
				td.Scope, td.Filters = variant(t)
				td.Nested = td.Scope || td.Filters
			}
			d.Tools = append(d.Tools, td)
		}
		md.Pkgs = append(md.Pkgs, d.Pkg)
		src, err := render(toolsTmpl, d)
		if err != nil {
			return err
		}
		files[filepath.Join("tools", d.Pkg, "tools.go")] = src
		if c.nested {
			src, err := render(sdkRegisterTemplate, d)
			if err != nil {
				return err
			}
			files[filepath.Join("sdk", d.Pkg, "register.go")] = src
			sd := d
			sd.SDK = true
			if src, err = render(toolsTmpl, sd); err != nil {
				return err
			}
			files[filepath.Join("sdk", d.Pkg, "tools.go")] = src
		}
	}
	if c.nested {
		md.CallArgs = nestedCallArgs(c.perPkg - 1)
	}
	templates := map[string]*template.Template{
		"cmd/list/main.go":          listTemplate,
		"sets/sets.go":              setsTemplate,
		"cmd/empty/main.go":         emptyTemplate,
		"cmd/hello/main.go":         helloTemplate,
		"cmd/none/main.go":          noneTemplate,
		"generated/catalog_test.go": catalogTestTemplate,
		"tools/doc.go":              docTemplate,
	}
	if c.nested {
		templates["cmd/sdk/main.go"] = sdkMainTemplate
		templates["sdk/doc.go"] = sdkDocTemplate
	}
	for name, tmpl := range templates {
		src, err := render(tmpl, md)
		if err != nil {
			return err
		}
		files[name] = src
	}
	for name, data := range files {
		path := filepath.Join(c.out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// render executes tmpl with data and gofmts Go source.
func render(tmpl *template.Template, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := tmpl.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("template %s: %w", tmpl.Name(), err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("template %s: gofmt: %w\n%s", tmpl.Name(), err, b.Bytes())
	}
	return src, nil
}

const goMod = `module example.com/synth

go 1.26.0

require github.com/toolgen-go/toolgen v0.0.0

replace github.com/toolgen-go/toolgen => %s

tool github.com/toolgen-go/toolgen/cmd/toolgen
`

var docTemplate = template.Must(template.New("doc").Parse(`// Package tools holds the synthetic tool packages.
package tools
`))

// toolsTemplate is one package of tools: each tool has an input of five
// constrained fields and a structured output.
var toolsTemplate = template.Must(template.New("tools").Parse(`// Package {{.Pkg}} is synthetic tool package {{.Index}}.
package {{.Pkg}}

import (
	"context"
	"time"
)
{{range .Tools}}
// Looks up records of kind {{$.Pkg}}-{{.N}} matching a query, newest first,
// and returns their IDs and how many matched.
//
//tool:name {{$.Pkg}}_t{{.Num}}
//tool:readonly
//tool:title Tool {{.N}} of {{$.Pkg}}
type T{{.Num}} struct{}

// In{{.Num}} holds the arguments of {{$.Pkg}}_t{{.Num}}.
type In{{.Num}} struct {
	// Words to look for.
	Query string ` + "`" + `json:"query" jsonschema:"minLength=1,maxLength=200"` + "`" + `
	// How many records to return.
	Limit int ` + "`" + `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100"` + "`" + `
	// Order of the results.
	Sort string ` + "`" + `json:"sort,omitempty" jsonschema:"enum=newest,enum=oldest"` + "`" + `
	// Only records carrying these tags.
	Tags []string ` + "`" + `json:"tags,omitempty" jsonschema:"maxItems=10,uniqueItems=true"` + "`" + `
	// Only records changed since then.
	Since *time.Time ` + "`" + `json:"since,omitempty"` + "`" + `
}

// Out{{.Num}} is the result of {{$.Pkg}}_t{{.Num}}.
type Out{{.Num}} struct {
	// The matching records' IDs.
	IDs []string ` + "`" + `json:"ids"` + "`" + `
	// How many records match in all.
	Total int ` + "`" + `json:"total"` + "`" + `
}

// Call answers with no records.
func (T{{.Num}}) Call(ctx context.Context, in In{{.Num}}) (Out{{.Num}}, error) {
	return Out{{.Num}}{IDs: []string{}}, nil
}
{{end}}`))

// listTemplate builds the registry and lists it: the program whose start-up
// the catalog measurement compares with an empty program.
var listTemplate = template.Must(template.New("list").Parse(`// Command list builds the synthetic registry and prints how many tools it
// lists and the size of their input schemas.
package main

import (
	"fmt"
	"os"

	"example.com/synth/generated"
	"example.com/synth/sets"
)

func main() {
	reg, err := generated.New(sets.All())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	n := 0
	for _, sp := range reg.Tools() {
		n += len(sp.InputSchema)
	}
	fmt.Println(len(reg.Tools()), n)
}
`))

// setsTemplate lists the Tools of every set package of the registry: what
// the programs pass to New.
var setsTemplate = template.Must(template.New("sets").Parse(`// Package sets lists the Tools of every set package of the synthetic
// registry, every tool at its zero value.
package sets

import (
	"example.com/synth/generated"
{{range .Pkgs}}	"example.com/synth/generated/{{.}}tools"
{{end}})

// All returns the Tools of every set package.
func All() []generated.Tools {
	return []generated.Tools{
{{range .Pkgs}}		{{.}}tools.Tools{},
{{end}}	}
}
`))

// emptyTemplate is the empty Go program of the start-up comparison.
var emptyTemplate = template.Must(template.New("empty").Parse(`// Command empty does nothing: the start-up baseline.
package main

func main() {}
`))

// helloTemplate prints a line as list does, with fmt, and does nothing
// else: what printing alone costs at start-up.
var helloTemplate = template.Must(template.New("hello").Parse(`// Command hello prints a line as list does and nothing else: the start-up
// of a program that prints, without a registry.
package main

import "fmt"

func main() {
	fmt.Println(0, 0)
}
`))

// noneTemplate links the runtime with an empty registry and prints as list
// does: the size baseline for the binary size per tool.
var noneTemplate = template.Must(template.New("none").Parse(`// Command none builds an empty registry and prints as list does: the
// binary-size baseline.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

func main() {
	reg, err := toolimpl.NewRegistry(nil, nil, func(context.Context, int, toolimpl.Mode, *toolimpl.Decoder, *toolimpl.Encoder) (toolimpl.Output, error) {
		return 0, nil
	}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	n := 0
	for _, sp := range reg.Tools() {
		n += len(sp.InputSchema)
	}
	fmt.Println(len(reg.Tools()), n)
}
`))

// catalogTestTemplate benchmarks listing the catalog.
var catalogTestTemplate = template.Must(template.New("catalog").Parse(`package generated

import (
	"context"
	"encoding/json"
	"testing"

	"example.com/synth/generated/providers"
{{range .Pkgs}}	"example.com/synth/generated/{{.}}tools"
{{end}}	"github.com/toolgen-go/toolgen/runtime/tool"
)

// all is the Tools of every set package, every tool at its zero value.
func all() []Tools {
	return []Tools{
{{range .Pkgs}}		{{.}}tools.Tools{},
{{end}}	}
}

// listed is one tool as a tools/list answer carries it.
type listed struct {
	Name        string          ` + "`" + `json:"name"` + "`" + `
	Title       string          ` + "`" + `json:"title,omitempty"` + "`" + `
	Description string          ` + "`" + `json:"description"` + "`" + `
	InputSchema json.RawMessage ` + "`" + `json:"inputSchema"` + "`" + `
}

// list returns the catalog as a tools/list answer would carry it.
func list(specs []*tool.Spec) []listed {
	out := make([]listed, len(specs))
	for i, sp := range specs {
		out[i] = listed{Name: sp.Name, Title: sp.Title, Description: sp.Description, InputSchema: sp.InputSchema}
	}
	return out
}

func registry(b *testing.B) tool.Registry {
	b.Helper()
	reg, err := New(all())
	if err != nil {
		b.Fatal(err)
	}
	if n := len(reg.Tools()); n != {{.Total}} {
		b.Fatalf("%d tools, want {{.Total}}", n)
	}
	return reg
}

var (
	sinkSpecs []*tool.Spec
	sinkBytes []byte
)

// BenchmarkNew measures building the registry: what a program pays at
// start-up.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		reg, err := New(all())
		if err != nil {
			b.Fatal(err)
		}
		sinkSpecs = reg.Tools()
	}
}

// BenchmarkTools measures Static.Tools, the catalog as specs.
func BenchmarkTools(b *testing.B) {
	reg := registry(b)
	b.ReportAllocs()
	for b.Loop() {
		sinkSpecs = reg.Tools()
	}
}

// BenchmarkListMarshal measures encoding the tools list with encoding/json
// on every turn.
func BenchmarkListMarshal(b *testing.B) {
	reg := registry(b)
	b.ReportAllocs()
	for b.Loop() {
		data, err := json.Marshal(list(reg.Tools()))
		if err != nil {
			b.Fatal(err)
		}
		sinkBytes = data
	}
}

// BenchmarkListPrecomputed measures serving the tools list from bytes
// encoded once: a copy into a reused buffer.
func BenchmarkListPrecomputed(b *testing.B) {
	reg := registry(b)
	pre, err := json.Marshal(list(reg.Tools()))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, len(pre))
	b.SetBytes(int64(len(pre)))
	b.ReportAllocs()
	for b.Loop() {
		buf = append(buf[:0], pre...)
	}
	sinkBytes = buf
}

// BenchmarkProviderDefinitions measures building every tool's definitions
// for the providers' APIs from the bytes toolgen precomputed: what a
// program speaking to them pays at start-up.
func BenchmarkProviderDefinitions(b *testing.B) {
	reg := registry(b)
	b.ReportAllocs()
	for b.Loop() {
		defs, err := providers.NewDefinitions(reg)
		if err != nil {
			b.Fatal(err)
		}
		sinkBytes = defs.Anthropic()
	}
}

// BenchmarkCall measures one call through the 1,000-tool registry.
func BenchmarkCall(b *testing.B) {
	reg := registry(b)
	ctx := context.Background()
	args := []byte(` + "`" + `{{.CallArgs}}` + "`" + `)
	b.ReportAllocs()
	for b.Loop() {
		res, err := reg.Call(ctx, "{{.Last}}", args)
		if err != nil {
			b.Fatal(err)
		}
		sinkBytes = res.Content
	}
}
`))
