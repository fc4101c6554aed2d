// Package tools declares the tool of the registryuser case.
package tools

import "context"

// Greet says hello.
//
//tool:name greet
type Greet struct{}

// Call runs it.
func (Greet) Call(ctx context.Context) (string, error) { return "hello", nil }
