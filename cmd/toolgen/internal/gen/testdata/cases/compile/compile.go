// Package compile does not compile.
package compile

import "context"

// Broken uses an undefined type.
//
//tool:name broken
type Broken struct{}

// Call runs it.
func (Broken) Call(ctx context.Context, in Missing) (string, error) { return "", nil }
