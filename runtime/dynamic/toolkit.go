package dynamic

import (
	"context"
	"log/slog"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// DefaultGroup is the namespace of a toolkit whose Group is empty.
const DefaultGroup = "general"

// Env is the environment a toolkit is bound to when it is registered
// (Toolkit.Bind).
type Env struct {
	// Logger receives what goes wrong in the toolkit; never nil when
	// Bind is called (a discarding logger when the Source has none).
	Logger *slog.Logger
	// Getenv reads a credential or setting by name; never nil when Bind
	// is called (os.Getenv when the Source has none). A toolkit whose
	// credentials are missing reports itself unavailable (Available).
	Getenv func(key string) string
}

// Toolkit is a group of tools known only at run time, from one origin and
// registered at once: a remote MCP server's tools (runtime/mcpclient),
// workflows stored in a database. Its tools are offered as
// GROUP_LOCALNAME, where GROUP is its Group.
//
// Implementations are safe for concurrent use. A Source tells toolkits
// apart with ==: use a comparable type, a pointer typically.
type Toolkit interface {
	// Group is the toolkit's namespace: lower-case letters, digits and
	// hyphens, starting with a letter, at most 62 bytes (ValidGroup); ""
	// means DefaultGroup. It does not change.
	Group() string
	// Bind binds the toolkit to its environment. The Source calls it once,
	// when the toolkit is first registered; registering it again does
	// not bind it again. An error refuses the registration. A toolkit
	// whose registration was refused, or that was unregistered, is bound
	// again when it is registered again.
	Bind(ctx context.Context, env Env) error
	// Available reports whether the toolkit's tools can be offered now.
	// When it is false its whole bundle disappears: none of its tools is
	// listed or callable.
	Available(ctx context.Context) bool
	// Tools returns the toolkit's tools with their local names (without
	// the group prefix), in a stable order. It is called on every lookup
	// and listing, so it must be cheap: return the same slice and the same
	// Spec pointers while nothing changed, and a new slice when anything
	// did (the Source rebuilds its view of the toolkit only then). Specs
	// are not modified once returned. Input schemas are JSON Schema
	// documents (draft 2020-12 unless they say otherwise with $schema);
	// an empty one is tool.NoInputSchema.
	Tools(ctx context.Context) []*tool.Spec
	// Call runs the tool of that local name with arguments already
	// validated against its input schema. Failures are returned as a
	// generated tool returns them: a *tool.ModelError for a message the
	// model may read, a *tool.Error with CodeFailed or
	// CodeInvalidArguments, or any other error, which the model reads as
	// "the tool failed".
	Call(ctx context.Context, name string, args []byte) (tool.Result, error)
}
