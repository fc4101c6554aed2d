// Package signature holds every Call mistake.
package signature

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

type lower struct {
	A string `json:"a"`
}

// NoCall has no Call method.
//
//tool:name no_call
type NoCall struct{}

// NoContext forgets the context.
//
//tool:name no_context
type NoContext struct{}

// Call runs it.
func (NoContext) Call(in In) (string, error) { return "", nil }

// PtrInput takes a pointer.
//
//tool:name ptr_input
type PtrInput struct{}

// Call runs it.
func (PtrInput) Call(ctx context.Context, in *In) (string, error) { return "", nil }

// Unexported takes an unexported input.
//
//tool:name unexported_input
type Unexported struct{}

// Call runs it.
func (Unexported) Call(ctx context.Context, in lower) (string, error) { return "", nil }

// NoError returns no error.
//
//tool:name no_error
type NoError struct{}

// Call runs it.
func (NoError) Call(ctx context.Context, in In) string { return "" }

// NotStruct takes a string.
//
//tool:name not_struct
type NotStruct struct{}

// Call runs it.
func (NotStruct) Call(ctx context.Context, in string) (string, error) { return "", nil }

// AnonOut returns an unnamed struct.
//
//tool:name anon_out
type AnonOut struct{}

// Call runs it.
func (AnonOut) Call(ctx context.Context, in In) (struct{ A int }, error) {
	return struct{ A int }{}, nil
}

// BadAvail has a wrong Available.
//
//tool:name bad_avail
type BadAvail struct{}

// Available is wrong.
func (BadAvail) Available() bool { return true }

// Call runs it.
func (BadAvail) Call(ctx context.Context, in In) (string, error) { return "", nil }
