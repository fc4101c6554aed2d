package tool

import "context"

// readOnlyKey is the context key of the read-only marker. It is
// unexported, and the only value ever stored under it is true: code
// outside this package cannot store another value under it, so no layer
// that derives a context from a marked one can unmark it.
type readOnlyKey struct{}

// WithReadOnly returns ctx marked read-only: the call service refuses,
// as an unknown tool, every call and confirmation made with it (or with
// any context derived from it) of a tool that is not //tool:readonly, and
// offers none. A read-only palette (runtime/palette) marks the calls it
// passes on.
//
// The mark is a latch. There is no way to remove it: a context's values
// are inherited by every context derived from it, and only this package
// can store a value under its key, always true. Replacing the Invocation
// (WithInvocation, WithCallID) keeps it. The service reads it first, from
// the context it is handed, before any hook (an Observer, a Policy) or the
// tool sees the call, and a tool gets its context only after the check: a
// tool or a host hook cannot clear it for the call being checked.
func WithReadOnly(ctx context.Context) context.Context {
	if IsReadOnly(ctx) {
		return ctx
	}
	return context.WithValue(ctx, readOnlyKey{}, true)
}

// IsReadOnly reports whether ctx is marked read-only (WithReadOnly).
func IsReadOnly(ctx context.Context) bool {
	v, _ := ctx.Value(readOnlyKey{}).(bool)
	return v
}
