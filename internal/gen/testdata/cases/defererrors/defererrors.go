// Package defererrors holds every mistake with //tool:defer and
// //tool:groupdoc.
//
//tool:groupdoc defererrors
//tool:groupdoc bad/name Slashes are not allowed.
//tool:groupdoc archive Old notes, kept for reference.
//tool:groupdoc archiv Misspelled: no tool is in this group.
//tool:name misplaced
package defererrors

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

// Undescribed is deferred but its group, the package's, has no description.
//
//tool:name undescribed
//tool:defer
type Undescribed struct{}

// Call runs it.
func (Undescribed) Call(ctx context.Context, in In) (string, error) { return "", nil }

// WithArg gives //tool:defer an argument.
//
//tool:name with_arg
//tool:group archive
//tool:defer yes
type WithArg struct{}

// Call runs it.
func (WithArg) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Twice repeats //tool:defer.
//
//tool:name twice
//tool:group archive
//tool:defer
//tool:defer
type Twice struct{}

// Call runs it.
func (Twice) Call(ctx context.Context, in In) (string, error) { return "", nil }

// InType describes a group in a type's doc comment.
//
//tool:name in_type
//tool:group archive
//tool:groupdoc archive Not here.
type InType struct{}

// Call runs it.
func (InType) Call(ctx context.Context, in In) (string, error) { return "", nil }
