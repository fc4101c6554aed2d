// Command toolgen turns Go types annotated with //tool: directives into a
// static, compile-checked tool registry for LLM agents: the tools' specs,
// the exact schema bytes the models see, typed dispatch with
// reflection-free decoders that enforce every keyword they publish, and
// each provider's definitions, all computed at go generate time.
//
// A tool is an ordinary Go type with directives in its doc comment and a
// Call method:
//
//	// Finds the user's notes that contain every word of a query.
//	//
//	//tool:name notes_search
//	//tool:readonly
//	type SearchTool struct{ Store *Store }
//
//	func (t SearchTool) Call(ctx context.Context, in SearchInput) (SearchOutput, error)
//
// One go:generate line beside the tools writes the registry package:
//
//	//go:generate go tool toolgen -out ../generated ./...
//
// (with `go get -tool github.com/toolgen-go/toolgen/cmd/toolgen`, or
// `go run github.com/toolgen-go/toolgen/cmd/toolgen` without the tool
// directive), and a program fills the generated Tools struct of each
// tools package (in its set package, notestools for package notes) and
// calls a tool by name:
//
//	reg, err := generated.New([]generated.Tools{
//		notestools.Tools{
//			NotesSearch: notes.SearchTool{Store: store},
//			// ... every tool of package notes, with its dependencies
//		},
//		// ... the Tools of the other set packages
//	})
//	if err != nil {
//		return err
//	}
//	res, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go"}`))
//
// What a program does with the registry (the call service, MCP, the
// providers' APIs) is the runtime's: start at
// github.com/toolgen-go/toolgen/runtime/tool.
//
// Usage:
//
//	toolgen [-out dir] [-pkg name] [-tags list] [-check] [-v] [-timings] [-cpuprofile file] [-cache clean|trim] [-version] [packages]
//
// The flags:
//
//	-out dir      output directory of the generated package (default "generated")
//	-pkg name     output package name (default: the output directory's base name)
//	-tags list    comma-separated build tags for loading the packages
//	-check        write nothing; exit 1 when the generated files are stale or missing (for CI)
//	-v            print the files written
//	-timings      print each phase's wall time to standard error (see Cache and timings)
//	-cpuprofile f write a CPU profile of the run to f (go tool pprof reads it)
//	-cache op     clean: empty the cache; trim: trim it now; then exit
//	-version      print toolgen's module version (from the build information)
//
// toolgen loads the packages (default ".") with
// golang.org/x/tools/go/packages, refuses to generate while they do not
// compile (showing the compiler's errors), checks every declaration and
// reports every problem in one run, sorted, as path:line:col: message
// relative to the working directory (see Problems). It exits 0 on success,
// 1 when there are problems (or, with -check, when the generated files are
// stale or missing) and 2 on a usage error. Files are written only when their content
// changes.
//
// # Packages
//
// Patterns are relative to the directory go generate runs in, the package
// that holds the go:generate line. The output package is never read as
// input, and neither are the registry's users: a package that imports the
// output package (directly or through other packages) and declares no
// tools, such as the main that serves the registry, is skipped, so ./...
// from the module root works. A package that declares tools and imports
// the output package is refused: the registry imports it, so it cannot
// import the registry. Move the code that uses the registry out of it, or
// narrow the patterns (./tools/... rather than ./...) if its tools are not
// meant for this registry. A pattern that matches no package is an error
// that names it ("pattern ./nonexist/ matches no package: there is no such
// directory"); patterns that match packages without tools say "no tools
// found in ...".
//
// Commit what toolgen writes, and run toolgen -check with the same flags
// and patterns in CI: it is the complete check that the files are fresh.
// It names each file that is stale, missing or no longer generated (an
// output directory that does not exist, as when -out is not the
// go:generate line's, in one line).
// Two cheaper ones come with the generated package (see The generated
// package).
//
// # Directives
//
// Directives go in the type's doc comment, one per line, with no space
// after // (gofmt moves them to the end of the comment). The description
// the model reads is the rest of the doc comment (see Descriptions).
// Anything else under //tool: is an error, with a "did you mean" when it is
// close to a directive. A directive written with a space, "// tool:name
// todo_stats", is not one to Go; rather than let the tool disappear,
// toolgen refuses it and says to remove the space (go vet with toolgenvet
// offers the fix). The app directives (//tool:ui...) are under MCP Apps.
//
//   - //tool:name NAME: required; ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$, what MCP,
//     OpenAI, Anthropic and Gemini all accept.
//   - //tool:readonly: changes nothing outside the conversation; without it
//     a tool is treated as mutating.
//   - //tool:kind read|display|propose|action: how a call runs. Read and
//     display run at once; propose runs only when a person confirms it
//     (through the call service the call stores a proposal; the bare
//     registry's Call validates the arguments, runs nothing and returns
//     needs_confirmation); action runs at once and mutates. The default is
//     read when readonly, else action. read implies readonly; readonly with
//     propose or action is an error.
//   - //tool:title TEXT and //tool:verb TEXT: the display name, and the verb
//     a UI shows while the tool runs ("Searching notes").
//   - //tool:group NAME: the catalog rubric and selector namespace; the
//     package name by default.
//   - //tool:weight N: an integer priority hint for palettes.
//   - //tool:destructive, //tool:idempotent, //tool:openworld: the MCP
//     hints. All four (readOnly, destructive, idempotent, openWorld) are
//     published explicitly, and a missing directive means false: MCP
//     clients assume true for a missing destructive or open-world hint, so
//     toolgen never leaves them missing. destructive with readonly is an
//     error.
//   - //tool:timeout DURATION: the per-call deadline, in
//     time.ParseDuration syntax.
//   - //tool:permission NAME: repeatable; a permission the caller must hold,
//     carried in the spec for the call service.
//   - //tool:meta KEY VALUE: repeatable; carried through untouched. The
//     call service reads confirm-text as a proposal's summary (without
//     it, the summary is the first sentence of the tool's description).
//   - //tool:zerovalue: the type's zero value is a ready tool, so New
//     accepts its field unset.
//   - //tool:defer: providers with native tool search load the tool lazily
//     (tool.Spec.Defer). Its group needs a description: one
//     "//tool:groupdoc GROUP DESCRIPTION" line in the doc comment of a
//     package clause (doc.go) of any tools package; without one toolgen
//     refuses the tool and says where to write it.
//   - //tool:keepnames, in a package doc comment: the package's
//     descriptions keep the Go identifier they start with (see
//     Descriptions).
//
// Each tool name becomes a field of a generated Tools struct in camel
// case (todo_list is TodoList), so names must stay distinct once
// camel-cased: todo-list and todo_list, or todo_list and Todo_List, are
// refused at both declarations, in whichever packages they are, rather
// than numbered (a field TodoList2 would be renamed when a tool is added
// elsewhere). A name whose camel form is not a Go identifier (_, _9lives)
// is refused too.
//
// # Methods
//
// A tool type has one Call method, on a value or pointer receiver:
//
//	Call(ctx context.Context, in In) (Out, error)
//	Call(ctx context.Context) (Out, error) // no arguments: the input schema is an empty object
//
// In is an exported, non-generic named struct type in an importable
// package (package main is refused). Out decides the result: a struct or a
// pointer to one gets an output schema and structured output; a string is
// plain text; anything else is returned as its JSON text with no output
// schema. A pointer receiver makes the Tools field a pointer, which New
// refuses when nil; a value receiver makes it a value.
//
// A tool returns tool.Errorf(...) (a *tool.ModelError) for a message
// written for the model. Any other error reaches the model as "the tool
// failed" and is kept as the Cause of the *tool.Error for logs: it may hold
// paths, connection strings or secrets. For the same reason
// tool.Errorf("cannot read note %s: %w", id, err) keeps err as the cause
// (errors.Is and errors.As see it) but writes "[error withheld]" in its
// place in the message, unless err is itself a *tool.ModelError, whose
// message is used. Show an error's text on purpose with %v, or return a
// &tool.ModelError{Message: ..., Cause: err}.
//
// Three optional methods:
//
//   - Available() error says the tool is unusable (missing credentials,
//     say). New asks it once; an unavailable tool is neither listed nor
//     callable, and the generated Unavailable(tools) says why.
//   - Offered(ctx context.Context) bool decides, per call, whether the tool
//     is offered to the caller ctx carries (tool.PrincipalFrom,
//     tool.InvocationFrom). The call service asks it on each call, for that
//     call's caller; a registry's Offer(ctx) is its list for that caller
//     (Tools still lists every available tool, and Call does not ask). A
//     panic counts as declining. It is asked again and again: keep it
//     cheap. The spec gets DecidesOffer.
//   - LogArgs(in In) string, In exactly Call's input type, gives the form
//     of the arguments the call service's records keep instead of the
//     arguments (notes_update keeps "n3: title, body", never the body's
//     text). The service reaches it through a door of the registry only
//     the service has, which decodes and checks the arguments first and
//     runs nothing else. The spec gets LogsArgs. A tool whose Call takes no
//     input cannot have one.
//
// Offered and LogArgs follow Available's receiver rule (a pointer-receiver
// method on a tool whose Call has a value receiver is refused), and a
// method of any of these names with another signature is an error at the
// method, rather than a method silently ignored.
//
// The struct tag toolgen:"secret" on a field of the input, at any depth,
// marks a member the call service must not record. The spec's Secrets
// lists, sorted, the JSON Pointers of those members (RFC 6901) as the
// decoder reads them: renamed by json tags, embedded structs flattened,
// pointers transparent, and "*" for any element of a slice or array and
// any value of a map ("/passphrase", "/accounts/*/token"). The pointers are
// constants in the spec, and tools.json shows them. Refused: a toolgen tag
// with any other value; a secret field JSON never carries (json:"-",
// jsonschema:"-", unexported, shadowed by a shallower field of the same
// JSON name); the tag on an embedded struct (tag its fields); and a secret
// inside or below a recursive type, which would have no finite list of
// pointers (give the tool a LogArgs method instead). A secret field whose
// value is itself recursive is fine: it is replaced whole.
//
// # Schemas
//
// Schemas come from github.com/invopop/jsonschema itself, so its
// documented tag grammar (`jsonschema:"minLength=1,enum=a,enum=b"`,
// jsonschema_extras, nullable, title=, default=, example=...) and hooks
// (JSONSchema(), JSONSchemaExtend(*jsonschema.Schema), JSONSchemaAlias())
// apply. Field doc comments become property descriptions. Fields without
// omitempty are required.
//
// One extension: minProperties and maxProperties on a map field
// (`jsonschema:"maxProperties=32"`, non-negative integers). invopop reads
// no object keyword from the tag (and jsonschema_extras would publish the
// string "32", which toolgen refuses), so toolgen publishes them itself, as
// numbers; a hook may also set them, and a hook's value wins over the
// tag's. The decoders enforce them, so a map in the arguments is bounded by
// the schema, not only by the request size.
//
// invopop drops without a word what it does not understand in a
// jsonschema tag; toolgen does not. Every key of every jsonschema tag on
// the fields of input and output types (and of the structs they reach) is
// checked against invopop's grammar and the field's Go type before
// anything runs:
//
//   - an unknown key is refused, with a "did you mean" (minLenght is
//     minLength); so are const (not in invopop's tag grammar: use enum=),
//     required=true (write required) and a bare uniqueItems (write
//     uniqueItems=true: uniqueItems=false publishes true);
//   - a keyword that does not apply to the field's type: string keywords
//     (minLength, maxLength, pattern, format, readOnly, writeOnly) on
//     non-strings, numeric ones (minimum, maximum, exclusiveMinimum,
//     exclusiveMaximum, multipleOf) on non-numbers, minItems, maxItems and
//     uniqueItems on non-slices, minProperties and maxProperties on
//     non-maps. On a slice the string and numeric keywords apply to its
//     items, as invopop does; on a field of a named struct, slice or map
//     type no type-specific keyword applies (invopop refers to the type's
//     definition and drops them: use the unnamed type or a hook);
//   - a value invopop cannot parse or drops: enum=a or maximum=abc on a
//     number, minLength=-5, maximum=1e400, default=yes on a bool,
//     multipleOf=0, an integer enum with a fraction or out of the Go type's
//     range;
//   - bounds no argument could satisfy: minimum=10,maximum=1,
//     exclusiveMinimum=1,exclusiveMaximum=2 on an integer,
//     minLength=5,maxLength=2, minItems=5,maxItems=2, an enum value outside
//     the bounds or of the wrong length;
//   - a repeated key (invopop keeps the last), "-" anywhere but first, and a
//     tag on an embedded struct (its fields are inlined; the tag is
//     ignored).
//
// A type with a schema hook and a field with type=, oneof_type= or
// anyof_type= get the key check only: the hook or the author decides the
// type. What they publish and toolgen cannot enforce is refused later, on
// the reflected schema (see Decoders).
//
// invopop reflects, so for a type that needs it toolgen builds and runs a
// small bootstrap program at generation time that imports the tools
// packages: their init code and schema hooks run during go generate, and
// a hook that panics fails generation at the tool's declaration. Other
// types (no hook method in their graph, no toolgen-tagged file in their
// packages, all tools packages or the standard library) are derived from
// source, byte for byte what invopop writes, without the program (go doc
// ./cmd/toolgen/internal/schema, "The static path"). The program is built
// for this machine with the load's tags (-tags, else GOFLAGS') and the
// toolgen tag: put schema hooks in files that start with //go:build
// toolgen (as tools/notes/schema_hooks.go does), so that toolgen still
// runs them and the programs that serve the registry link neither the
// hooks nor invopop/jsonschema; tests of those hooks need the tag too (go
// test -tags toolgen). The module must require invopop/jsonschema, which
// go get -tool records.
//
// The settings, and the steps that fix invopop's sharp edges (the root
// inlined, additionalProperties false on every struct, definition names
// qualified only when two types share one, any published as {}), are
// internal/schema's; a test checks every sample schema against invopop
// under exactly those steps. Property order is field order: the bytes
// never pass through a Go map. The generated Go holds the exact compact
// bytes that are sent, and tools.json beside it shows them indented, so a
// change to what the model sees shows up in code review.
//
// # Descriptions
//
// Descriptions are sent with every request that lists the tools, so toolgen
// publishes what tells the model something and spends no tokens on the
// source's layout.
//
// Doc comments are reflowed. The tool's description (its doc comment
// without the directives) and every type and field description are
// rendered as go doc renders a comment, with no line width
// (go/doc/comment): each paragraph and list item is one line, a blank line
// between paragraphs becomes "\n\n", lists keep their "  - " items and code
// blocks their lines, doc links print as their text. The line breaks
// gofmt's line length puts inside a sentence never reach the model.
//
// The Go identifier a doc comment starts with is dropped: the model knows a
// tool by its tool name and a field by its JSON name, never by the Go one.
// The rule, for the tool's description (the tool type's name) and every
// type and field description (the type's or field's name), output-schema
// roots and $defs entries included:
//
//   - "X is ..." and "X are ..." lose both words: "Now is the result of
//     clock_now." is published as "The result of clock_now.";
//   - "X <verb> ..." loses X, where the next word is a verb in the third
//     person (lower-case letters ending in "s" but not "ss"): "BookTool
//     books a table at a restaurant." is published as "Books a table at a
//     restaurant.";
//   - anything else is kept as written: "Title, one line.", "Body text in
//     Markdown." (for a field Body), "Priority from 1 to 5.", and a
//     description that would be left empty;
//   - what remains starts with a capital letter.
//
// To keep the identifiers, write //tool:keepnames in the package's doc
// comment (the comment above the package clause, as in doc.go): every
// description of that package, its tools', types' and fields', is then
// published as written. For one field, a description tag
// (`jsonschema:"description=..."`) is published as written too.
//
// A tool input's own type comment is not its root description:
// "ListInput holds the arguments of todo_list." tells the model nothing
// the tool's description does not, so the input schema's root has no
// description by default. Fields and nested types keep theirs, and so does
// the input type's $defs entry when it refers to itself. To publish a root
// description, set one in a hook (hooks run after comments are applied; a
// description that differs from the doc comment is kept):
//
//	//go:build toolgen
//
//	func (ListInput) JSONSchemaExtend(s *jsonschema.Schema) {
//		s.Description = "Without a filter, every open item is listed."
//	}
//
// Output schemas keep their type's comment as the root description: they
// are not part of the provider declarations sent with every request (MCP
// lists them for clients that validate structured results), and a result
// type's comment says what the result is. A hook setting s.Description =
// "" removes it.
//
// # Decoders
//
// The decoder of each input type is derived from the final published
// schema (after tags and hooks), mapped back to the Go fields. It enforces
// required, additionalProperties: false, type, enum, const, minimum and
// maximum (and exclusive), multipleOf, minLength and maxLength (in
// characters), pattern (Go RE2 syntax, precompiled), format: date-time,
// items, minItems and maxItems, uniqueItems (arrays of strings, numbers or
// booleans), minProperties and maxProperties (maps) and nullable. Past
// maxItems or maxProperties the decoder skips the remaining elements or
// members instead of storing them, and reports the excess once. A keyword
// the decoder cannot enforce fails toolgen at the declaring field: toolgen
// never publishes a constraint it does not check (format: email, for one,
// is refused: check it in Call and return tool.Errorf).
//
// Also refused, with the reason: duplicate keys, invalid UTF-8 (raw or in
// \u escapes), integers with a fraction or exponent or out of range for
// the Go type, nesting deeper than 64 levels and arguments over 1 MiB
// (both configurable with tool.WithLimits), trailing data. Numbers are
// compared with minimum and maximum exactly, as written:
// 2.0000000000000001 is above a maximum of 2, and -1e-400 below a minimum
// of 0, although both round to the bound as a float64.
//
// Two differences from the published schema are deliberate:
//
//   - null on a property that is not required means absent: strict-mode
//     providers send null for every optional field they leave out. On a
//     required property it is refused unless the schema says nullable.
//   - a time.Time field refuses what the date-time format allows but a
//     time.Time cannot hold: a leap second (23:59:60). A lower-case t or z,
//     which RFC 3339 allows and encoding/json refuses, is accepted and read
//     as upper case.
//
// Outputs are encoded as the output schema requires: every property
// invopop marks required is present and of its declared type; a nil slice
// is [], a nil map {}; map keys are sorted; a nil pointer in a required,
// non-nullable field fails the call ("the tool failed", with the reason in
// the cause).
//
// # Go types
//
// Supported, in inputs and outputs:
//
//   - bool, string, every int and uint size, float32 and float64, and named
//     types of them;
//   - structs, named or anonymous; embedded structs and pointers to structs
//     promote their fields as encoding/json does;
//   - pointers (optional, nullable); slices, arrays, []byte (base64); maps
//     with string keys;
//   - time.Time (RFC 3339) and time.Duration (nanoseconds, as
//     encoding/json);
//   - any and json.RawMessage (any JSON value);
//   - types with UnmarshalJSON and MarshalJSON, or UnmarshalText and
//     MarshalText, called directly, without reflection.
//
// Refused, with a message saying why and what to do: channels, funcs,
// complex numbers, uintptr, unsafe.Pointer; a JSON name on two fields at
// the same depth, and shadowing that invopop publishes differently
// (below); embedded pointers to unexported structs, to structs that
// marshal themselves, or that embed themselves; pointers to pointers; maps
// with non-string keys, and map keys with text methods; interfaces with
// methods; generic types; json.Number and the ,string tag option; unexported
// named types the generated package cannot name.
//
// An embedded pointer (type In struct{ *Audit; ... }) is allocated on input
// when the first of its promoted fields is present (null included, as
// encoding/json does) and stays nil when none is; on output a nil Audit
// leaves its fields out, and fails the call when the output schema
// requires one of them. An embedded pointer with a JSON name
// (`json:"audit"`) is an ordinary property. A promoted field is shadowed by
// a shallower one of the same JSON name, as in encoding/json; since invopop
// publishes the schema of the field declared last, and requires the name
// when any of its fields is required, the shadowing field must be declared
// after the embedded struct and be required when the shadowed one is.
//
// An any field is decoded as plain JSON values; on output it must hold
// JSON-shaped values only (maps with string keys, slices, strings, numbers,
// booleans, nil), since anything else would need reflection.
//
// # Skills
//
// Beside its tools, a registry can carry skills: folders in the open Agent
// Skills format (https://agentskills.io/specification), a SKILL.md whose
// YAML front matter names and describes the skill and whose Markdown body
// holds its instructions. A skill is a folder skills/NAME/SKILL.md beside
// the Go files of a package the patterns match (a tools package, or a
// package of the patterns without tools), NAME being the skill's name, as
// in tools/notes/skills/note-taking. toolgen looks there and nowhere else.
// A folder under skills/ without a SKILL.md is left alone (shared
// references, say); one holding the file in another case (skill.md) is
// refused, as is a SKILL.md put directly in skills/. Only SKILL.md is
// compiled in; a skill's scripts, references and assets are not part of
// the registry.
//
// The content is written into the generated source as Go string constants
// rather than embedded, because //go:embed cannot reach files outside the
// generated package's folder; a changed SKILL.md therefore makes toolgen
// -check fail until go generate runs, as a changed tool does. The front
// matter is parsed at generate time only: the runtime reads no YAML.
//
// Every problem is reported in the same run as the tools', at the key or
// value that causes it:
//
//   - the file starts with a line "---", then YAML, then a line "---"; a
//     mapping, not a list; no key twice (YAML syntax errors are at their
//     line, column 1);
//   - keys are the format's: name, description, license, compatibility,
//     metadata and allowed-tools; any other is refused, with a "did you
//     mean" (allowed_tools);
//   - name: required; 1 to 64 characters of a-z, digits and hyphens, not
//     first or last, never two in a row; the name of its folder. A name in
//     two folders fails at both, as a tool name does;
//   - description: required; 1 to 1024 characters (white space at the ends
//     dropped);
//   - license: optional, not empty; compatibility: optional, 1 to 500
//     characters;
//   - metadata: optional, a map of strings to strings ("version: 1.0" is a
//     YAML number and is refused: quote it);
//   - allowed-tools: optional, names separated by spaces or a YAML list,
//     each a tool of this registry (with a "did you mean"), once: here the
//     agent that pre-approves tools is the registry, so an entry such as
//     Bash(git:*) is refused.
//
// Values are taken as YAML gives them, never converted: a string field that
// holds a number, a list or a map is refused and says what it holds.
// Choosing skills at run time is runtime/skill's.
//
// # The generated package
//
// toolgen writes, each file only when its content changes:
//
//   - registry_gen.go: the specs table, pointers to the specs the codec
//     packages below hold, sorted by name; the Tools interface, which the
//     set packages' Tools implement; the import paths of the set packages
//     and each tool's place in its set; New(tools []Tools, opts
//     ...tool.Option) (tool.Registry, error), which takes the Tools of
//     each set package once, in any order; and Unavailable(tools). It
//     names no tool type, so that its compile does not grow with them. It builds on
//     runtime/toolimpl, for generated code only, and a line const _ =
//     toolimpl.SupportPackageIsVersion9, in every generated file, makes a
//     skew between the generator and the runtime a compile error. With
//     skills, it also holds their table (skill.Skill values sorted by name,
//     a body one line per string literal, so a change reads as a diff of
//     its lines) and Skills() *skill.Set.
//   - tools_gen.go of each set package, one per Go package declaring
//     tools (notestools for package notes): its Tools struct (one field per
//     tool, named after it), ToolSet (for New only), offered, when a tool
//     has an Offered method, and the dispatch: once the registry's look-up
//     has found the tool, a switch on its index in the set (a jump table)
//     calling the tool's call function: the input's generated decoder, the
//     tool's Call and the output's generated encoder. No reflect and no
//     encoding/json on the call path.
//   - codec_gen.go of each codec package, one per Go package whose types
//     the tools read or write, under internal/ (notescodec for package
//     notes): the decoders and encoders of its types, each written once
//     and called from the others, and for each of its tools its schemas
//     (constants: the exact compact bytes), its tool.Spec (a variable the
//     compiler lays out) and its call function. The compiler builds these packages in parallel, each as
//     large as its Go package's share of the tools; only the registry and
//     its set packages may import them. toolgen removes a file it wrote and no longer writes (a
//     codec package whose tools are gone), and -check reports it.
//   - a_guard_gen.go of each codec package, and fresh_gen_test.go with a
//     fresh_<name>codec_gen_test.go per codec package: the checks below.
//   - tools.json: the manifest, sorted: name, kind, hints, description,
//     schemas, secrets, decidesOffer and logsArgs when set, and what each
//     provider gets, indented for review; then the skills, each an object
//     whose first key is "skill".
//   - providers/: every tool's definition for OpenAI, Anthropic and Gemini,
//     computed at generation time (runtime/provider), one package per tools
//     package (providers/internal/<name>codec, as its codec package) and
//     an index, so that no one compile holds every tool's definitions.
//
// New refuses a set package's Tools left out ("generated.New: no
// weathertools.Tools among the tools: pass one (...)") or given twice, and
// a tool left out of a Tools, naming the field, before anything runs: a
// nil pointer field ("generated.New: notestools.Tools.NotesDelete (tool
// notes_delete) is nil"), or a value field holding its type's zero value
// ("field NotesSearch of notestools.Tools (tool notes_search) is unset: fill it with a ready
// notes.SearchTool, or mark the type //tool:zerovalue if its zero value is
// ready"), compared as a whole when the type is comparable and field by
// field otherwise. A value field is not checked when its type is marked
// //tool:zerovalue, when it is a struct with no fields, when it has an
// Available method (New calls it, and it decides), or when its zero value
// cannot be told from outside its package (a struct that is not comparable
// and has unexported fields).
//
// Changing a tool's types without running go generate is loud twice over
// before toolgen -check runs in CI:
//
//   - go test ./... fails. fresh_gen_test.go (package registry_test, no
//     network, a few milliseconds) holds the description toolgen computed
//     from go/types of every tool's input and output type and compares it
//     with the one reflect gives of the types the test is compiled against
//     (runtime/fresh): "tool notes_search: its input type notes.SearchInput
//     changed since the registry was generated (field Colour added); run go
//     generate". It detects, in those types and every type they reach, an
//     exported or embedded field added, removed, renamed, moved or
//     retyped; a struct tag changed (the whole tag is compared); a named
//     type's underlying type changed; a MarshalJSON, UnmarshalJSON,
//     MarshalText or UnmarshalText method added or removed; a Call taking
//     or returning another type. It does not detect what reflection cannot
//     see: doc comments, //tool: directives, unexported fields, and schema
//     hooks in files built with the toolgen tag; toolgen -check does.
//   - A change that breaks the generated code fails in the guard first.
//     Each codec package's a_guard_gen.go sorts before its codec_gen.go
//     (the compiler reports errors in file order) and refers to the Call
//     method of each of its tools and every field its codecs read or
//     write, with its type. Renaming Limit gives, as the first error,
//     "regenerate.Limit undefined (type notes.SearchInput has no field or
//     method Limit)". A field of type json.RawMessage is checked by name.
//
// # Problems
//
// toolgen reports, every one in the same run: packages that do not
// compile; duplicate names (at both declarations) and names with one Go
// field; invalid names; unknown, malformed or conflicting directives, and
// directives written with a space; a missing or wrong Call, Available,
// Offered or LogArgs; unsupported types; jsonschema tags invopop would drop
// or that no argument could satisfy; schema keywords the decoders cannot
// enforce; a hook that panics; a tools package importing the generated
// package; patterns that match no tool; and skills that break the Agent
// Skills format. The golden cases of the generator
// (internal/gen/testdata/cases) show each one with its exact output.
//
// Most of them are also reported by go vet, without running toolgen,
// through cmd/toolgenvet; its analyzer's documentation
// (cmd/toolgen/analyzer) says what only toolgen can report.
package main
