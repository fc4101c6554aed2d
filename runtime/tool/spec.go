package tool

import (
	"context"
	"time"
)

// The schemas the runtime publishes itself.
const (
	// NoInputSchema is the input schema of a tool that takes no
	// arguments: an object with no properties that refuses any member.
	// It is the one spelling of that schema: toolgen writes it for a tool
	// whose Call has no input, and runtime/mcpserver publishes it for a
	// Spec whose InputSchema is empty.
	NoInputSchema = `{"type":"object","properties":{},"additionalProperties":false}`

	// ProposalOutputSchema is the output schema of a propose tool's call
	// made through the call service (runtime/service): the proposal it
	// stored, not the tool's own output, which only a person's
	// confirmation produces. runtime/mcpserver publishes it as the
	// outputSchema of every propose tool, and the service returns the
	// proposal as structured output that conforms to it. When the MCP
	// server asks the person to confirm at once (mcpserver.ConfirmOptions),
	// the call answers with the person's decision in the same shape:
	// "confirmed", with the tool's output in result, or "rejected".
	ProposalOutputSchema = `{"type":"object","properties":{"status":{"type":"string","enum":["proposed","confirmed","rejected"],"description":"\"proposed\": nothing has run, a person must confirm it; \"confirmed\": a person confirmed it and the tool ran, its output is in result; \"rejected\": a person declined it, and it never runs."},"message":{"type":"string","description":"What happens next, for the model."},"tool":{"type":"string","description":"The tool that runs if a person confirms."},"summary":{"type":"string","description":"What confirming does, in a line, for the person."},"proposal":{"type":"string","description":"The proposal's ID, which the person confirms or rejects."},"expires":{"type":"string","format":"date-time","description":"When the proposal can no longer be confirmed."},"result":{"description":"The tool's output once a person confirmed and it ran: its structured output, or its text as a string."}},"required":["status","message","tool","summary","proposal","expires"],"additionalProperties":false}`
)

// Meta is one `//tool:meta KEY VALUE` pair, in declaration order.
type Meta struct {
	Key, Value string
}

// Spec describes one tool: everything its directives and types declare.
// Schemas are the exact compact bytes sent to models. A Spec handed out by a
// Registry is shared: callers must not modify it or the slices it holds.
type Spec struct {
	// Name is the name models call the tool by; unique in a registry.
	Name string
	// Title is a short human-readable title.
	Title string
	// Verb is the tool's verb, as its directive declares it.
	Verb string
	// Group names the group the tool is listed under.
	Group string
	// GroupDescription says what the tools of Group are for, as the
	// group's //tool:groupdoc line in a package doc comment writes it; ""
	// when the group is not described. OpenAI's Responses API shows it as
	// the description of the namespace that holds the group's deferred
	// tools (see Defer).
	GroupDescription string
	// Weight orders tools within a group for display.
	Weight int
	// Kind says how a call runs.
	Kind Kind
	// ReadOnly is the MCP readOnlyHint, published explicitly (absence means false).
	ReadOnly bool
	// Destructive is the MCP destructiveHint, published explicitly.
	Destructive bool
	// Idempotent is the MCP idempotentHint, published explicitly.
	Idempotent bool
	// OpenWorld is the MCP openWorldHint, published explicitly.
	OpenWorld bool
	// Timeout bounds one call; 0 means none.
	Timeout time.Duration
	// Permissions lists the permissions a caller needs.
	Permissions []string
	// Meta holds the tool's meta pairs in declaration order.
	Meta []Meta
	// Description is the text models read to decide when to call the tool.
	Description string
	// InputSchema is the JSON object schema of the arguments, compact.
	// runtime/mcpserver publishes NoInputSchema when it is empty.
	InputSchema []byte
	// OutputSchema is the JSON schema of the output, compact; nil when the
	// output is not a struct.
	OutputSchema []byte
	// Package is the import path of the package that declares the tool.
	Package string
	// Type is the name of the tool's type in Package.
	Type string
	// Secrets are the input members the tool marks secret (a field tagged
	// `toolgen:"secret"`), as JSON Pointers into the arguments where "*"
	// stands for any array element or map value, such as "/password" or
	// "/accounts/*/token". The call service replaces them in what it
	// records.
	Secrets []string
	// DecidesOffer is set when the tool's type has an Offered(ctx
	// context.Context) bool method, which decides per call whether the
	// tool is offered (see Registry.Offer).
	DecidesOffer bool
	// LogsArgs is set when the tool's type has a LogArgs(in In) string
	// method, which gives the form of its arguments that the call
	// service's records keep.
	LogsArgs bool
	// Defer is set by //tool:defer: the provider loads this tool lazily
	// through its tool search, so a request that offers native tool
	// search (runtime/provider's Search) sends the tool's definition
	// flagged "defer_loading" and, for OpenAI, inside the namespace of its
	// Group. Elsewhere (the plain arrays, MCP, Gemini) the tool is offered
	// as any other.
	Defer bool
}

// Result is what a call returns to the model.
type Result struct {
	// Content is plain text, or JSON text when Structured (then it
	// validates against the tool's OutputSchema). When IsError, it is an
	// error message meant for the model.
	Content []byte
	// Structured says Content is a JSON object matching OutputSchema.
	Structured bool
	// IsError says Content is an error message meant for the model.
	IsError bool
}

// Text returns Content as a string.
func (r Result) Text() string { return string(r.Content) }

// Registry is the set of tools a generated package's New returns: listed,
// looked up, checked and called by name, with no policy and no record
// (the call service, runtime/service, serves one for principals, and
// records). Its implementation is the runtime's own: the service serves
// only a Registry a generated package built. A Registry is safe for
// concurrent use and keeps per-call state in the call's context.
//
// A propose tool never runs from a Registry: Call and AppendCall validate
// its arguments, so that the model can correct them, and fail with
// CodeNeedsConfirmation; only a person's confirmation through the call
// service runs it.
type Registry interface {
	// Caller: Offer returns the tools less those whose own Offered method
	// declines (Spec.DecidesOffer); Call runs the named tool. On failure
	// Call returns a *Error and a Result with IsError set and Content
	// holding the error's Message, so the Result can be sent to the model
	// as is.
	Caller
	// Tools returns every tool sorted by name. The slice and the specs
	// are shared: callers must not modify them.
	Tools() []*Spec
	// Lookup returns the tool with the given name.
	Lookup(name string) (*Spec, bool)
	// AppendCall is Call with the Result's Content appended to dst: the
	// output is encoded straight into dst's spare capacity, so that a
	// caller that reuses one buffer, as AppendCall(ctx, buf[:0], ...),
	// pays for no allocation of the output once it has grown. The bytes
	// of dst before len(dst) are never changed.
	AppendCall(ctx context.Context, dst []byte, name string, args []byte) (Result, error)
	// Check validates the arguments of the named tool and runs nothing,
	// whatever its kind: nil or a *Error, as Call would report it.
	Check(ctx context.Context, name string, args []byte) error
}

// Caller is the one way in: what the MCP server, the provider adapters and
// an agent loop call tools through. The call service implements it (every
// call for a principal under a policy, and recorded), and so does the bare
// Registry, for programs that want no service.
type Caller interface {
	// Offer returns the tools offered to the caller ctx carries (see
	// Invocation), sorted by name. The slice and the specs are shared:
	// callers must not modify them.
	Offer(ctx context.Context) []*Spec
	// Call runs the named tool with JSON arguments for the caller ctx
	// carries, as Registry.Call does.
	Call(ctx context.Context, name string, args []byte) (Result, error)
}
