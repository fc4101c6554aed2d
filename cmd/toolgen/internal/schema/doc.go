// Package schema derives the JSON Schemas toolgen publishes for tool inputs
// and outputs, at generation time.
//
// Tool authors describe their types with the tag grammar and hooks of
// github.com/invopop/jsonschema (`jsonschema:"minLength=1,enum=a,enum=b"`,
// JSONSchema(), JSONSchemaExtend(*jsonschema.Schema), JSONSchemaAlias()...).
// invopop works by reflection, so toolgen cannot run it on the types it
// reads from source: during `go generate`, for the types the static path
// (below) does not derive, it writes, builds and runs a
// small bootstrap program that imports the tools packages and calls
// ReflectRaw for each tool's input and output type; toolgen post-processes
// what it writes. The program lives in the user's module and cannot import
// this internal package, so reflector.go, which holds Reflector and
// ReflectRaw and imports nothing but the standard library and invopop, is
// copied into it as source (BootstrapSource).
//
// The parity promise: a published schema is equal to what invopop writes
// under the settings of Reflector plus exactly the steps of PostProcess
// (root inlined, collision-free definition names, true schemas written as
// {}, no "$schema"), nothing else. Reflect is the two together. Three
// documented differences: one bounds maps, two concern descriptions, what
// the model reads:
//
//   - the map-bounds step, MapBounds, toolgen's extension of the tag
//     grammar: `jsonschema:"minProperties=N,maxProperties=M"` on a map
//     field publishes the two keywords, as numbers (invopop v0.14 reads no
//     object keyword from the tag). It works on invopop's Schema beside
//     the Go type, so ReflectRaw, which the bootstrap program runs,
//     applies it before encoding;
//   - the comment-map step, ReflowComments then DropNames: the CommentMap
//     invopop gets is AddGoComments' with every description reflowed
//     (Reflow), so a doc comment's paragraphs are single lines, not the
//     source's lines, and stripped of the Go identifier it starts with
//     (DropName): "Now is the result of clock_now." is published as "The
//     result of clock_now.", "Note holds a note." as "Holds a note.". The
//     identifier goes when the next word is "is" or "are" (dropped too) or
//     a verb in the third person (lower-case, ending in "s" but not "ss");
//     anything else ("Body text in Markdown.") is kept. A package whose doc
//     comment holds //tool:keepnames keeps its descriptions' identifiers:
//     toolgen skips DropNames for its entries;
//   - the input step, InputRoot, for tool inputs only: the root's
//     description is dropped when it is the input type's own doc comment
//     (a hook's description is kept). ReflectInput is Reflect plus it.
//
// The parity test (parity_test.go, with the toolgen tag) applies exactly these, and
// checks that the map-bounds step adds nothing but those two keywords.
//
// # The static path
//
// Most types need no hook, and for them invopop's result follows from the
// type's structure and tags alone. Static derives it from go/types
// instead (static.go, statictags.go, staticbounds.go, staticencode.go),
// without the bootstrap program: StaticRaw follows invopop v0.14's
// reflection step by step (definitions and their qualified names,
// required and omitempty, embedded and inline structs, pointers, maps
// with string or integer keys, slices, arrays, []byte, interfaces,
// time.Time, url.URL, net.IP and json.RawMessage, every tag keyword,
// jsonschema_extras, descriptions from the CommentMap), then MapBounds'
// walk, and encodes the result as json.Marshal writes invopop's Schema;
// PostProcess and InputRoot then run as on the program's output. The
// promise is byte equality with ReflectRaw, checked by package gen's
// TestStaticParity on every exported type of every corpus whose program
// builds and runs (the golden cases, tools/, bench/tools, this package's
// fixtures, testdata/static holding every construct, and the synthetic
// catalogs, nested and flat), and TestStaticFallsBack shows each
// construct below refused.
//
// The fallback rule: a type goes through the bootstrap program when
// anything in its graph (the type, its fields' types, its embedded
// types) could make invopop's result differ, and StaticRaw returns a
// *NotStaticError saying what:
//
//   - a field or method named like a hook invopop calls (JSONSchema,
//     JSONSchemaExtend, JSONSchemaAlias, JSONSchemaProperty,
//     GetFieldDocString) or protobuf's EnumDescriptor, on the type or its
//     pointer, declared or promoted;
//   - a named type of a package Static.Allowed refuses: toolgen allows the
//     tools packages it loaded from source with no file whose build
//     constraint names the toolgen tag (the program, built with the tag,
//     would compile what go/types did not see, such as hooks), and the
//     standard library; any other package's hooks may hide in such a
//     file;
//   - a generic instance or a type declared in a function (invopop names
//     both differently), a kind invopop panics on (channels, functions,
//     complex numbers, uintptr, unsafe.Pointer), a struct that embeds
//     itself (invopop recurses forever);
//   - a tag invopop panics on (type=array with array keywords on a field
//     that is not a slice) or that json.Marshal refuses (a number such as
//     +5 that strconv parses and JSON does not, an extra repeating a
//     keyword).
//
// A type on the static path runs no code of the user's: the tools
// packages' init functions run only when the program does. Package gen
// decides per type and sends the rest, and their cache, through the
// program as before.
//
// Schemas are handled as jsontree.Node values, an ordered JSON tree
// (package runtime/jsontree): parsing, compacting and indenting keep the
// order of object members (struct field order for properties), never going
// through a Go map, so the bytes toolgen embeds and the tools.json
// reviewers read are deterministic.
//
// Descriptions come from Go doc comments through invopop's CommentMap;
// AddComments builds it from parsed files exactly as invopop's
// AddGoComments would from a directory, and ReflowComments and DropNames
// rewrite it for the model.
//
// Reflecting a type runs its hooks, and importing a tools package runs its
// init functions: both happen on the machine that runs `go generate`.
package schema
