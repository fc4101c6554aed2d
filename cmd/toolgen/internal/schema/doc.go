// Package schema derives the JSON Schemas toolgen publishes for tool inputs
// and outputs, at generation time.
//
// Tool authors describe their types with the tag grammar and hooks of
// github.com/invopop/jsonschema (`jsonschema:"minLength=1,enum=a,enum=b"`,
// JSONSchema(), JSONSchemaExtend(*jsonschema.Schema), JSONSchemaAlias()...).
// invopop works by reflection, so toolgen cannot run it on the types it
// reads from source: during `go generate` it writes, builds and runs a
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
