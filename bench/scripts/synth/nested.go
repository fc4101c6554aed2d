package main

import (
	"fmt"
	"text/template"
)

// The nested catalog (-nested): the tools a user of toolgen or of the MCP
// SDK writes when their arguments have some structure, and the same types
// registered with the SDK.
//
// The two programs compile the same types from one template, each in its
// own packages, because the two libraries read the jsonschema tag in
// incompatible ways: invopop (toolgen) reads keywords
// (`jsonschema:"minimum=1,maximum=100"`), and toolgen refuses any element
// invopop would drop, such as free text; the SDK's inference
// (google/jsonschema-go) takes the whole tag as the property's description
// and refuses a tag that begins with "WORD=", so mcp.AddTool panics on
// invopop's grammar. The tool packages (tools/pNN) carry invopop's
// keywords; their copies beside the SDK registrations (sdk/pNN/tools.go,
// rendered with SDK set) carry the descriptions. Same shapes, same
// number of types and fields on both sides.

// sdkVersion is the MCP Go SDK the SDK program builds with: the version
// the toolgen repository's go.mod requires (its go.sum, which the module
// copies, has its hashes).
const sdkVersion = "v1.8.0"

// nestedCallArgs returns arguments that tool n of the nested catalog
// accepts (BenchmarkCall calls the last tool).
func nestedCallArgs(n int) string {
	scope, filters := variant(n)
	args := `{"query":"paper clips","limit":5,"tags":["a","b"]`
	if scope {
		args += `,"scope":{"project":"office-supplies","owners":["ada"]}`
	}
	if filters {
		args += `,"filters":[{"field":"status","op":"eq","value":"open"},{"field":"label","op":"contains","value":"urgent"}]`
	}
	return args + "}"
}

// bq is a backquote, for struct tags inside the templates' raw strings.
const bq = "`"

// nestedToolsTemplate is one package of the nested catalog. Each tool has
// the five constrained scalar fields of the flat catalog; then, by its
// variant, a required nested struct (Scope: a constrained string with a
// pattern, a bool, a slice of strings), a slice of structs (Filters: two
// enums and a bounded string) or both; a tool that nests returns a slice
// of records (a struct with a time.Time and a slice of strings).
var nestedToolsTemplate = template.Must(template.New("nested").Parse(fmt.Sprintf(`// Package {{.Pkg}} is synthetic tool package {{.Index}}, whose arguments
// nest.
package {{.Pkg}}

import (
	"context"
	"time"
)
{{range .Tools}}
// Looks up records of kind {{$.Pkg}}-{{.N}} matching a query, newest first,
// and returns {{if .Nested}}them{{else}}their IDs{{end}} and how many matched.
{{- if .Scope}}
// It looks within one project.
{{- end}}
{{- if .Filters}}
// It keeps only the records that pass every filter.
{{- end}}
//
//tool:name {{$.Pkg}}_t{{.Num}}
//tool:readonly
//tool:title Tool {{.N}} of {{$.Pkg}}
type T{{.Num}} struct{}

// In{{.Num}} holds the arguments of {{$.Pkg}}_t{{.Num}}.
type In{{.Num}} struct {
	// Words to look for.
	Query string %[1]sjson:"query" jsonschema:"{{if $.SDK}}words to look for{{else}}minLength=1,maxLength=200{{end}}"%[1]s
	// How many records to return.
	Limit int %[1]sjson:"limit,omitempty" jsonschema:"{{if $.SDK}}how many records to return{{else}}minimum=1,maximum=100{{end}}"%[1]s
	// Order of the results.
	Sort string %[1]sjson:"sort,omitempty" jsonschema:"{{if $.SDK}}order of the results{{else}}enum=newest,enum=oldest{{end}}"%[1]s
	// Only records carrying these tags.
	Tags []string %[1]sjson:"tags,omitempty" jsonschema:"{{if $.SDK}}only records carrying these tags{{else}}maxItems=10,uniqueItems=true{{end}}"%[1]s
	// Only records changed since then.
	Since *time.Time %[1]sjson:"since,omitempty"%[1]s
{{- if .Scope}}
	// Where to look.
	Scope Scope{{.Num}} %[1]sjson:"scope"%[1]s
{{- end}}
{{- if .Filters}}
	// Conditions every record must meet.
	Filters []Filter{{.Num}} %[1]sjson:"filters,omitempty" jsonschema:"{{if $.SDK}}conditions every record must meet{{else}}maxItems=20{{end}}"%[1]s
{{- end}}
}
{{if .Scope}}
// Scope{{.Num}} is where {{$.Pkg}}_t{{.Num}} looks.
type Scope{{.Num}} struct {
	// The project's slug.
	Project string %[1]sjson:"project" jsonschema:"{{if $.SDK}}the project slug{{else}}minLength=1,maxLength=64,pattern=^[a-z][a-z0-9-]*${{end}}"%[1]s
	// Whether archived records count.
	Archived bool %[1]sjson:"archived,omitempty"%[1]s
	// Only records owned by these users.
	Owners []string %[1]sjson:"owners,omitempty" jsonschema:"{{if $.SDK}}only records owned by these users{{else}}maxItems=5{{end}}"%[1]s
}
{{end}}{{if .Filters}}
// Filter{{.Num}} is one condition of {{$.Pkg}}_t{{.Num}}.
type Filter{{.Num}} struct {
	// The field to test.
	Field string %[1]sjson:"field" jsonschema:"{{if $.SDK}}the field to test{{else}}enum=owner,enum=status,enum=label{{end}}"%[1]s
	// How to compare.
	Op string %[1]sjson:"op" jsonschema:"{{if $.SDK}}how to compare{{else}}enum=eq,enum=ne,enum=contains{{end}}"%[1]s
	// The value to compare with.
	Value string %[1]sjson:"value" jsonschema:"{{if $.SDK}}the value to compare with{{else}}maxLength=100{{end}}"%[1]s
}
{{end}}{{if .Nested}}
// Out{{.Num}} is the result of {{$.Pkg}}_t{{.Num}}.
type Out{{.Num}} struct {
	// The matching records, newest first.
	Records []Record{{.Num}} %[1]sjson:"records"%[1]s
	// How many records match in all.
	Total int %[1]sjson:"total"%[1]s
}

// Record{{.Num}} is one record {{$.Pkg}}_t{{.Num}} found.
type Record{{.Num}} struct {
	// The record's ID.
	ID string %[1]sjson:"id"%[1]s
	// Its title.
	Title string %[1]sjson:"title"%[1]s
	// When it last changed.
	Updated time.Time %[1]sjson:"updated"%[1]s
	// Its labels.
	Labels []string %[1]sjson:"labels,omitempty"%[1]s
}

// Call answers with no records.
func (T{{.Num}}) Call(ctx context.Context, in In{{.Num}}) (Out{{.Num}}, error) {
	return Out{{.Num}}{Records: []Record{{.Num}}{}}, nil
}
{{else}}
// Out{{.Num}} is the result of {{$.Pkg}}_t{{.Num}}.
type Out{{.Num}} struct {
	// The matching records' IDs.
	IDs []string %[1]sjson:"ids"%[1]s
	// How many records match in all.
	Total int %[1]sjson:"total"%[1]s
}

// Call answers with no records.
func (T{{.Num}}) Call(ctx context.Context, in In{{.Num}}) (Out{{.Num}}, error) {
	return Out{{.Num}}{IDs: []string{}}, nil
}
{{end}}{{end}}`, bq)))

// sdkDocTemplate documents the parent of the registration packages.
var sdkDocTemplate = template.Must(template.New("sdkdoc").Parse(`// Package sdk holds, for each tool package, a package that registers its
// tools with the MCP Go SDK.
package sdk
`))

// sdkRegisterTemplate registers one tool package's tools with the SDK's
// typed mcp.AddTool: the SDK infers both schemas from the types by
// reflection when the server starts. One registration package per tool
// package, as a user of the SDK would write it beside each package (here
// apart, so that the toolgen program does not link the SDK).
var sdkRegisterTemplate = template.Must(template.New("sdkregister").Parse(`// Package {{.Pkg}} registers the tools of example.com/synth/tools/{{.Pkg}},
// copied into tools.go with the SDK's tags, with the MCP Go SDK.
package {{.Pkg}}

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

)

// Register adds the package's tools to s with mcp.AddTool, which infers
// their input and output schemas from the types.
func Register(s *mcp.Server) {
{{- range .Tools}}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "{{$.Pkg}}_t{{.Num}}",
		Title:       "Tool {{.N}} of {{$.Pkg}}",
		Description: "Looks up records of kind {{$.Pkg}}-{{.N}} matching a query, newest first, and returns {{if .Nested}}them{{else}}their IDs{{end}} and how many matched.{{if .Scope}} It looks within one project.{{end}}{{if .Filters}} It keeps only the records that pass every filter.{{end}}",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in In{{.Num}}) (*mcp.CallToolResult, Out{{.Num}}, error) {
		out, err := T{{.Num}}{}.Call(ctx, in)
		return nil, out, err
	})
{{- end}}
}
`))

// sdkMainTemplate is the SDK's counterpart of cmd/list: it registers every
// tool, connects a client over in-memory transports, lists the tools and
// prints how many there are and the size of their input schemas.
var sdkMainTemplate = template.Must(template.New("sdkmain").Parse(`// Command sdk registers the synthetic tools with the MCP Go SDK, lists them
// through an in-memory client and prints how many it lists and the size of
// their input schemas.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
{{range .Pkgs}}
	"example.com/synth/sdk/{{.}}"
{{- end}}
)

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	srv := mcp.NewServer(&mcp.Implementation{Name: "synth", Version: "v0.0.0"}, nil)
{{- range .Pkgs}}
	{{.}}.Register(srv)
{{- end}}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "synth-client", Version: "v0.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	n, size := 0, 0
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return err
		}
		n, size = n+1, size+len(schema)
	}
	fmt.Println(n, size)
	return nil
}
`))
