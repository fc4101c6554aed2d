// Package dynamic serves tools that are not known at build time: a
// Toolkit is a group of run-time tools from one origin, registered at once
// (a remote MCP server's tools, workflows stored in a database), and a
// Source composes toolkits behind the generated registry for the call
// service (runtime/service, through tool.Source).
//
//	src, err := dynamic.New(reg.Tools(), &dynamic.Options{Logger: logger})
//	...
//	err = src.Register(ctx, workflows) // every turn, if you like: an upsert
//	// service.Options.Dynamic = src
//
// # Toolkits and names
//
// A toolkit's tools are named GROUP_LOCALNAME: GROUP is the toolkit's
// Group (lower-case letters, digits and hyphens, starting with a letter;
// "" means DefaultGroup, "general"), LOCALNAME the name the toolkit gives
// the tool, and the toolkit is called with LOCALNAME. A group holds no
// "_", so the group of a name is what precedes its first "_". A full name
// must be valid for every provider (ValidName:
// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$); a tool whose name is not, or that its
// toolkit lists twice, is left out of the listing and logged, never
// fatal. Names a toolkit sends appear in errors only once they are known
// to be valid names; logs quote them.
//
// Tools are read anew on every lookup and listing (Toolkit.Tools), so a
// toolkit's tools can change at any time. Reading them is cheap: the Source
// keeps, per toolkit, a view of the slice Tools last returned (sorted,
// validated, schemas compiled), rebuilt only when Tools returns another
// slice or other specs in it. While nothing changes, a listing allocates
// nothing beyond the growth of its destination and a lookup nothing at
// all. The Spec of a Dynamic is a copy of the toolkit's spec, with the
// full name and Group set to the group; it is the same pointer while the
// toolkit returns the same spec pointer with the same schema.
//
// # Registration and availability
//
// Register binds a toolkit to its environment (Toolkit.Bind: a logger,
// a way to read credentials) the first time it is registered, and adds it
// after the toolkits registered before it. Registering the same toolkit
// value again is an upsert: it keeps its place and its binding, and its
// tools are checked again. Unregister removes it. Both are idempotent,
// safe to run every turn, and safe to run concurrently with each other and
// with lookups, which take no lock.
//
// A toolkit is available or not as a whole (Toolkit.Available, asked on
// every lookup and listing): without its credentials its whole bundle
// disappears, none of its tools listed or callable.
//
// # Composition and collisions
//
// The generated registry comes first, then the toolkits in registration
// order. The Source never serves a name of the registry's (New takes the
// registry's tools): the call service serves those itself. Lookup asks
// the toolkits in order, and a name a toolkit does not serve, or serves
// while unavailable, goes on to the next.
//
// Register refuses a toolkit one of whose tools is named as a static tool
// or as a tool of another registered toolkit (of the same group: no
// other can produce the name), with an error naming both: "tool X of
// toolkit Y collides with the static tool X" or "tool X of toolkit Y
// collides with tool X of toolkit Z", where a toolkit is named by its
// group and Go type. Since tools are read anew on every lookup, a
// collision can also appear after registration; it is resolved the same
// way every time: a static tool is never shadowed (the toolkit's tool is
// left out), and between toolkits the one registered first serves the
// name and the other's tool is not served. Such collisions are logged
// when the toolkits' tools change, and registering the later toolkit
// again reports them as an error.
//
// # Validation: the one place for a JSON Schema validator
//
// Generated tools are checked by generated decoders, which enforce every
// keyword they publish. A dynamic tool's schema arrives at run time, so
// its arguments are checked here, with a JSON Schema validator
// (github.com/santhosh-tekuri/jsonschema/v6, draft 2020-12 unless the
// schema's $schema says otherwise, formats asserted, external references
// never loaded): this is the one place in the runtime where a schema is
// interpreted at run time, because it is the one place where no generated
// code can exist. Each version of a schema is compiled once, when the
// toolkit's view is built: a tool whose spec pointer and schema are
// unchanged keeps its compiled schema, and a schema of the same bytes
// (SHA-256) is not compiled again. A schema that does not compile leaves
// its tool out (logged); an empty one is tool.NoInputSchema.
//
// The arguments are read first by the codec's decoder, with the static
// path's limits (Options.Limits: size and depth) and its checks and
// messages for malformed JSON, duplicate members and a value that is not
// an object; empty arguments are {}. The validator's findings then go
// through the same model-safe form as the static path's
// (codec.ArgumentsError, tool.InvalidArguments): a *tool.Error with
// tool.CodeInvalidArguments whose Message lists, sorted, at most 20
// problems as a JSON Pointer and the constraint ("/limit: must be at
// most 50"), with the schema's own limits and enum values where short,
// and never a value the model sent. A member name that is not an
// identifier is written "<key>". The toolkit is not called with invalid
// arguments.
//
// # Calls
//
// A valid call runs through a runner per toolkit, as a static
// tool's does: a panic is tool.CodePanic, a tool.Error with a code
// reserved to the runtime is tool.CodeFailed, Spec.Timeout and the
// context bound the call, abandoned runs are capped, and any other error
// reaches the model as "the tool failed" (a tool.ModelError's Message,
// or a tool.Error with CodeFailed or CodeInvalidArguments, passes
// through). A toolkit that panics in Tools or Available is logged and
// counts as serving nothing.
//
// # Provider definitions
//
// The precomputed provider definitions (runtime/provider, generated/
// providers) cover static tools only. A dynamic tool's definitions are
// projected at run time by the same code, once per version, by a
// provider.Cache; provider.Definitions.SubsetWith builds one request's arrays
// from both.
package dynamic
