// Package tools is the sample tool domain of this repository: hand-written
// Go types that toolgen reads to generate a static registry of tools for
// LLM agents. It is meant to be read by people learning to write tools.
//
// The domain lives in three packages:
//
//   - [github.com/toolgen-go/toolgen/tools/notes]: an in-memory notes store
//     and the tools that search, read, render, outline, create, update, tag
//     and delete notes;
//   - [github.com/toolgen-go/toolgen/tools/clock]: the current time, the
//     time zones on offer, a comparison with a reference clock, and a wait
//     that reports its progress;
//   - [github.com/toolgen-go/toolgen/tools/weather]: a forecast tool that is
//     only offered when it has an API key (it returns canned data and never
//     reaches the network).
//
// # Writing a tool
//
// A tool is an ordinary exported Go type with one Call method:
//
//	Call(ctx context.Context, in In) (Out, error)
//	Call(ctx context.Context) (Out, error) // a tool without arguments
//
// In is an exported named struct type; its fields are the tool's arguments
// and their doc comments become the argument descriptions. Out is a struct
// or a pointer to a struct (structured output with an output schema), a
// string (plain text), or any other type (sent as JSON text).
//
// The type's doc comment, without its directive lines, is the description
// the model reads, word for word. So unlike most Go doc comments it does
// not start with the type's name: its first sentence says what the tool
// does, for the model. Directive lines at the end of the doc comment
// (where gofmt keeps them) configure the tool:
//
//	//tool:name notes_search          required, unique
//	//tool:readonly                   changes nothing outside the conversation
//	//tool:kind read|display|propose|action
//	//tool:title Search notes         display name
//	//tool:verb Searching notes       what a UI shows while the tool runs
//	//tool:group time                 catalog rubric (default: the package name)
//	//tool:weight 10                  integer priority hint
//	//tool:destructive                MCP hints
//	//tool:idempotent
//	//tool:openworld
//	//tool:timeout 5s                 per-call deadline
//	//tool:permission notes.write     repeatable
//	//tool:meta audit high            repeatable key and value, carried through
//	//tool:zerovalue                  the zero value is ready: New accepts it unset
//	//tool:defer                      providers with tool search load it lazily
//
// A deferred tool's group needs a description, written once in the doc
// comment of a package clause (see notes/doc.go):
//
//	//tool:groupdoc notes The user's notes: find, read, ...
//
// Argument schemas follow github.com/invopop/jsonschema: struct tags such as
// `jsonschema:"minLength=1,maxLength=200"` or `jsonschema:"enum=a,enum=b"`,
// and hooks such as JSONSchema() and JSONSchemaExtend(*jsonschema.Schema) on
// a type. Fields without omitempty are required.
//
// A tool that takes a while reports how far it has got with tool.Progress
// (a progress bar for the person, notifications/progress over MCP) and
// stops when its context is done: the call then ends as cancelled (see
// clock/wait.go).
//
// A tool's dependencies (a store, a clock, an API key) are fields of its
// type. A tool with an Available() error method reports itself unusable
// (for example without credentials) and is then neither listed nor
// callable. Errors written for the model (a note that does not exist, a
// query without words) are returned with tool.Errorf from
// [github.com/toolgen-go/toolgen/runtime/tool]; any other error reaches the
// model only as "the tool failed" and is kept for the logs.
package tools

// This module is toolgen's own, so its go:generate line builds toolgen
// from source. In a module of your own, with toolgen added by go get
// -tool (README.md, "Use toolgen in your module"), the line is
//
//	//go:generate go tool toolgen -out ../generated ./...

//go:generate go run ../cmd/toolgen -out ../generated ./...
