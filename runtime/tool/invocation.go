package tool

import (
	"context"
	"slices"
	"sync"
)

// Principal is who a call runs for: a person or a service account, with
// the permissions it holds. A tool acts with its principal's rights, never
// more: it reads them with PrincipalFrom.
type Principal struct {
	// ID identifies the principal to the host (a user ID, an account
	// name); it is what records, proposals and rate limits are keyed by.
	ID string
	// Permissions are the permission names the principal holds; a tool's
	// //tool:permission names must all be among them.
	Permissions []string
}

// Has reports whether p holds the permission perm.
func (p Principal) Has(perm string) bool { return slices.Contains(p.Permissions, perm) }

// HasAll reports whether p holds every permission of perms.
func (p Principal) HasAll(perms []string) bool {
	for _, perm := range perms {
		if !p.Has(perm) {
			return false
		}
	}
	return true
}

// Model is the model an agent talks to, and the settings it calls it with.
type Model struct {
	// Provider names the model's API, such as "anthropic", "openai" or
	// "gemini".
	Provider string
	// Name is the model's name at that provider; empty means no model.
	Name string
	// Settings holds the call settings (temperature, max_tokens, ...) as
	// the host spells them.
	Settings map[string]string
}

// Agent is the agent whose model asked for a call.
type Agent struct {
	// Name identifies the agent (its palette, its role).
	Name string
	// Model is the model the agent runs on.
	Model Model
}

// Invocation is everything a call carries about who asked for it: the
// host puts one in the call's context (WithInvocation), the call service
// and the provider adapters complete it, and a tool reads it with
// InvocationFrom or the narrower accessors below. It is shared by the
// code that reads it: nobody may modify an Invocation once it is in a
// context (derive another with WithCallID or a copy).
type Invocation struct {
	// Principal is who the call runs for.
	Principal Principal
	// Conversation identifies the conversation, when the caller has one.
	Conversation string
	// Turn identifies the turn within the conversation, when the caller
	// has one.
	Turn string
	// CallID is the caller's ID of this call (a model's tool-call ID), when
	// it supplies one; with it, the call service runs a repeated call once.
	CallID string
	// Agent is the calling agent.
	Agent Agent
	// State is the turn's shared state (see Shared); nil when the caller
	// keeps none.
	State *TurnState
}

// invocationKey is the context key of the *Invocation.
type invocationKey struct{}

// WithInvocation returns ctx carrying inv, for the call service and the
// tools it runs. inv must not be modified afterwards.
func WithInvocation(ctx context.Context, inv *Invocation) context.Context {
	return context.WithValue(ctx, invocationKey{}, inv)
}

// InvocationFrom returns the Invocation ctx carries, if any.
func InvocationFrom(ctx context.Context) (*Invocation, bool) {
	inv, ok := ctx.Value(invocationKey{}).(*Invocation)
	return inv, ok && inv != nil
}

// PrincipalFrom returns the principal the call runs for, if ctx carries an
// Invocation.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	if inv, ok := InvocationFrom(ctx); ok {
		return inv.Principal, true
	}
	return Principal{}, false
}

// WithCallID returns ctx carrying a copy of its Invocation (or a new one)
// with CallID set: what the provider adapters do with the model's
// tool-call ID. An empty id returns ctx as it is.
func WithCallID(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	var inv Invocation
	if cur, ok := InvocationFrom(ctx); ok {
		if cur.CallID == id {
			return ctx
		}
		inv = *cur
	}
	inv.CallID = id
	return WithInvocation(ctx, &inv)
}

// ModelFor returns the model a tool that itself calls a model should use:
// own when it names a model (the tool declares its own), else the calling
// agent's model from ctx, else the zero Model.
func ModelFor(ctx context.Context, own Model) Model {
	if own.Name != "" {
		return own
	}
	if inv, ok := InvocationFrom(ctx); ok {
		return inv.Agent.Model
	}
	return Model{}
}

// TurnState is a slot the tool calls of one turn share, such as one
// presenter per turn. The host (or the call service) makes one per turn
// (the zero value, new(TurnState), is an empty state) and puts it in the
// turn's Invocation. It is safe for concurrent use.
type TurnState struct {
	mu   sync.Mutex
	vals map[any]any
}

// Shared returns the value the turn of ctx holds under key, making it with
// create on the first use in the turn; later calls of the turn, also
// concurrent ones, get the same value. create runs at most once per turn
// and key, under the turn's lock: it must not call Shared itself. key
// must be comparable; use an unexported type of the tool's package, as
// for context keys. Without a TurnState in ctx, or when key holds a value
// of another type, nothing is shared: Shared returns create() and false.
func Shared[T any](ctx context.Context, key any, create func() T) (v T, shared bool) {
	inv, ok := InvocationFrom(ctx)
	if !ok || inv.State == nil {
		return create(), false
	}
	st := inv.State
	st.mu.Lock()
	defer st.mu.Unlock()
	if cur, ok := st.vals[key]; ok {
		if b, ok := cur.(sharedValue[T]); ok {
			return b.v, true
		}
		// The key holds another type's value: a key shared by mistake.
		// Leave that value alone and share nothing.
		return create(), false
	}
	if st.vals == nil {
		st.vals = map[any]any{}
	}
	v = create()
	st.vals[key] = sharedValue[T]{v}
	return v, true
}

// sharedValue holds a value Shared keeps, typed by its T: stored as a
// bare T, a nil value of an interface type would be an untyped nil that
// no later call recognises, and create would run again. It also keeps an
// interface T and a concrete type that implements it apart.
type sharedValue[T any] struct{ v T }
