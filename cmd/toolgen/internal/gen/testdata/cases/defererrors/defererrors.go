// Package defererrors holds the mistakes with //tool:defer and the
// package directives (//tool:groupdoc, //tool:keepnames) that one package
// shows.
//
//tool:groupdoc defererrors
//tool:groupdoc bad/name Slashes are not allowed.
//tool:groupdoc defererrors The golden case's tools.
//tool:name misplaced
//tool:keepnames always
package defererrors

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

// WithArg gives //tool:defer an argument.
//
//tool:name with_arg
//tool:defer yes
type WithArg struct{}

// Call runs it.
func (WithArg) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Twice repeats //tool:defer.
//
//tool:name twice
//tool:defer
//tool:defer
type Twice struct{}

// Call runs it.
func (Twice) Call(ctx context.Context, in In) (string, error) { return "", nil }

// InType describes a group in a type's doc comment.
//
//tool:name in_type
//tool:groupdoc defererrors Not here.
type InType struct{}

// Call runs it.
func (InType) Call(ctx context.Context, in In) (string, error) { return "", nil }

// KeepInType keeps names in a type's doc comment, which is the package's
// choice.
//
//tool:name keep_in_type
//tool:keepnames
type KeepInType struct{}

// Call runs it.
func (KeepInType) Call(ctx context.Context, in In) (string, error) { return "", nil }
