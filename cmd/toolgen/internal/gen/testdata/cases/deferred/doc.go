// Package deferred is a golden case: tools the providers load through
// their tool search, grouped and described.
//
//tool:groupdoc deferred Tools of the golden case: look things up and archive them.
package deferred

import "context"

// In is an input.
type In struct {
	// What to look up.
	Query string `json:"query" jsonschema:"minLength=1"`
}

// Lookup looks things up; it is loaded at once.
//
//tool:name lookup
//tool:readonly
type Lookup struct{}

// Call runs it.
func (Lookup) Call(ctx context.Context, in In) (string, error) { return in.Query, nil }

// Archive archives things; providers load it through their tool search.
//
//tool:name archive
//tool:defer
type Archive struct{}

// Call runs it.
func (Archive) Call(ctx context.Context, in In) (string, error) { return in.Query, nil }
