// Package provider projects tool specs onto the tool definitions that model
// providers' APIs take: OpenAI (Chat Completions function tools and
// Responses function tools), Anthropic (Messages tools) and Gemini
// (function declarations). Each projection is pure and deterministic: it
// reads a *tool.Spec (name, description, input schema bytes), edits the
// schema as an ordered JSON tree (jsontree.Node, never a Go map) and returns
// the definition as exact compact bytes, so that a prompt cache keyed on
// the tools prefix keeps hitting across processes and releases.
//
//	defs, err := providers.NewDefinitions(reg) // the generated package's precomputed definitions
//	if err != nil {
//		return err
//	}
//	// Per request: the tools offered to its caller (reg.Offer, or the call service's), as the definitions' bytes
//	offer, err := defs.Subset(caller.Offer(ctx))
//	if err != nil {
//		return err
//	}
//	body := offer.Anthropic() // or OpenAIChat, OpenAIResponses, Gemini: the request's "tools" array
//	// With an SDK: anthropictools.Tools(offer), openaitools.ChatTools(offer),
//	// openaitools.ResponsesTools(offer), geminitools.Tools(offer); each
//	// tool call the model asks for runs through the caller, with the
//	// model's tool-call ID as the call ID: anthropictools.Call(ctx, caller, use).
//
// toolgen calls the projection functions (OpenAIChat, OpenAIResponses,
// Anthropic, Gemini) at generation time to list the results in tools.json;
// at run time NewDefinitions computes every definition of a registry once
// and serves each provider's whole tools array as precomputed bytes. When
// the tools offered differ per caller (tool.Caller's Offer),
// Definitions.Subset joins the arrays of one offer from the same bytes
// (the definitions themselves when every tool is offered). A generated
// providers package's NewDefinitions starts from the definitions toolgen
// precomputed, so start-up projects nothing; this package's NewDefinitions
// projects them at start-up, for a registry without a generated providers
// package (one you wrap or filter). Both give the same bytes. Tools that
// are not the registry's (a palette's bound tools and meta-tools, dynamic
// tools) are projected once per version by a Cache, and
// Definitions.SubsetWith takes them from it.
//
// The subpackages openaitools, anthropictools and geminitools hand those
// bytes to the official Go SDKs without re-marshalling them through Go
// maps, and run the model's calls through a tool.Caller (the registry or
// the call service) with the model's tool-call ID in the context as the
// call ID (tool.WithCallID), so that the call service runs a repeated call
// once. This package imports none of the SDKs; examples/agent is a
// complete agent loop on the Anthropic SDK.
//
// # OpenAI
//
// A definition is
//
//	{"type":"function","function":{"name":N,"description":D,"parameters":P,"strict":S}}  // Chat Completions
//	{"type":"function","name":N,"description":D,"parameters":P,"strict":S}                // Responses
//
// with "strict" always written (the Responses API defaults it to true).
// Strict mode constrains sampling to the schema, but only accepts a subset
// of JSON Schema. The projection rewrites the input schema into that subset
// when it can, and then sets "strict":true:
//
//   - every object lists all its properties in "required"; a property that
//     was optional becomes nullable ("type":["string","null"] for a scalar,
//     {"anyOf":[S,{"type":"null"}]} otherwise, null added to an "enum"), and
//     toolgen's decoders treat null on an optional property as absent, so
//     the arguments decode into the same Go values;
//   - every object has "additionalProperties":false;
//   - a "$ref" with sibling keywords is replaced by the definition it names,
//     merged with the siblings (strict mode refuses siblings next to $ref);
//     a bare "$ref" stays, so recursive types still work, and a recursive
//     reference met again inside its own merge is kept bare, its siblings
//     listed in Projection.Dropped;
//   - invopop's nullable form {"oneOf":[S,{"type":"null"}]} becomes anyOf,
//     and so does a oneOf of schemas that each fix a distinct value with
//     const (a palette's request_tools catalog): exactly one can match;
//   - only the keywords strict mode documents are kept: type, properties,
//     required, additionalProperties, items, enum, const, anyOf, $ref,
//     $defs, description, title, pattern, format (date-time, time, date,
//     duration, email, hostname, ipv4, ipv6, uuid), minimum, maximum,
//     exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems.
//     Other annotations and assertions (default, examples, minLength,
//     maxLength, uniqueItems, contentEncoding, other formats...) are left
//     out and listed in Projection.Dropped: the generated decoder still
//     enforces every one of them, so a call that breaks one gets the usual
//     correctable error.
//
// A schema that cannot be written in the subset keeps its input schema, as
// is, with "strict":false and Projection.Reason saying why: a map (an
// object whose additionalProperties is a schema), a value that accepts any
// JSON (no type), a type union other than T-or-null, oneOf, allOf, not,
// conditionals, tuples, pattern properties, a schema over strict mode's
// size limits (5000 properties, 10 levels of nested objects, 1000 enum
// values, 120,000 characters of names and enum values, 15,000 characters
// for an enum of more than 250 values), or references that multiply past
// 20,000 schemas once merged.
//
// # Anthropic
//
// A definition is {"name":N,"description":D,"input_schema":S} with the
// input schema exactly as toolgen published it: the Messages API takes
// JSON Schema draft 2020-12 as is, as long as the root is an object schema
// without anyOf, oneOf or allOf at the top level.
//
// # Gemini
//
// A definition is a function declaration with its members in byte order,
// as the Go SDK (google.golang.org/genai) writes them:
//
//	{"description":D,"name":N,"parameters":P}            // the OpenAPI subset
//	{"description":D,"name":N,"parametersJsonSchema":P}  // the fallback
//	{"description":D,"name":N}                           // no arguments
//
// Gemini offers two fields. "parameters" takes the OpenAPI 3.0 Schema
// subset: one upper-case type ("STRING", "OBJECT"...), "nullable" instead
// of type unions, string-only enums, no $ref, $defs or
// additionalProperties. "parametersJsonSchema" takes JSON Schema but is
// newer, and not every model and endpoint honours it. So the projection
// uses "parameters" whenever the input schema translates into the subset
// without changing its structure, because every Gemini model and both
// backends (the Gemini API and Vertex AI) accept it: $refs are inlined,
// T-or-null becomes T with "nullable":true, "examples" gives "example",
// "propertyOrdering" records the declared order of the properties (the
// SDK sends properties as a map, so in byte order), and keywords outside
// the subset (additionalProperties:false, uniqueItems, exclusiveMinimum,
// multipleOf, contentEncoding, formats other than date-time, enum, int32,
// int64, float and double...) are left out and listed in
// Projection.Dropped; the decoder still enforces them.
//
// The fallback rule: the projection uses "parametersJsonSchema" — the input
// schema with "propertyOrdering" added to each schema with two properties
// or more, and its references alone — and says why in Projection.Reason
// when the structure cannot be written in the subset: a recursive type (inlining would never end), a
// map, a value that accepts any JSON, a type union other than T-or-null,
// an enum or const of non-strings, oneOf (but a oneOf of distinct consts,
// which becomes anyOf), allOf, not, conditionals, tuples,
// pattern properties, or references that multiply past 20,000 schemas once
// inlined.
//
// References alone: Gemini's JSON Schema subset allows beside "$ref" only
// keywords that start with "$" (the reference of
// GenerationConfig.responseJsonSchema, https://ai.google.dev/api/generate-content#generationconfig:
// "If $ref is set on a sub-schema, no other properties, except for than
// those starting as a $, may be set"), and invopop writes a field of a
// named type as {"$ref":"#/$defs/Color","description":"Label color."}. So
// in the fallback such a reference is replaced by the definition it names
// merged with its siblings (theirs win; when both have a description,
// the reference's and then the definition's, as two paragraphs), as
// "parameters" inlines every reference. A recursive reference, or one
// that does not resolve, is wrapped instead, and so is every one when
// inlining them would grow the schema past 20,000 schemas:
// {"anyOf":[{"$ref":R}],"description":D}, a single alternative, beside
// which every keyword is allowed (an "anyOf"
// already beside the reference is left out and listed in
// Projection.Dropped). A definition that only inlined references named is
// removed; the others stay.
//
// A tool without arguments — an input schema with no properties and
// "additionalProperties":false, beside annotations such as a description —
// is declared with neither member (Projection.Form is FormNone): both are
// optional, and Gemini has refused "parameters" holding an object without
// properties. An object schema open to any property is not such a tool.
//
// In every form members are sorted byte-wise at every level and numbers are
// written as float64 values in encoding/json's format: the SDK turns every
// request into a map[string]any before sending it, so these are exactly
// the bytes it sends, and they stay stable.
//
// # Native tool search
//
// Anthropic's Messages API and OpenAI's Responses API can load tools
// lazily: a deferred tool's definition reaches the model only once it
// searched for it with the provider's tool search tool. A tool is deferred
// by //tool:defer (tool.Spec.Defer); Compute then adds its definitions
// with "defer_loading":true (Deferred), which toolgen precomputes as the
// others. NewSearch joins a Definitions' arrays in that form (Search): for
// Anthropic every tool, the deferred ones flagged, then the tool search
// tool (SearchBM25 or SearchRegex); for OpenAI the tools that are not
// deferred, then one namespace per group of deferred tools,
//
//	{"type":"namespace","name":GROUP,"description":D,"tools":[{"type":"function",...,"defer_loading":true},...]}
//
// described by the group's //tool:groupdoc (tool.Spec.GroupDescription,
// which a namespace requires), then {"type":"tool_search"}. A function of
// a namespace keeps the registry's name; the model calls it by namespace
// and name, which Search.ResponsesName maps back. The plain arrays of a
// Definitions never change. Gemini has no native tool search (NativeSearch): a
// palette falls back there to a request_tools tool of its own.
//
// # Names
//
// Every provider checks the tool's name: OpenAI and Anthropic take
// ^[a-zA-Z0-9_-]{1,64}$, Gemini ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$. A name
// outside the pattern, or an input schema that is not a JSON object schema,
// is an *Error: no definition can be sent at all.
package provider
