// want package:`\) tools shared other}$`

// Package crossa declares tools that crossb, which imports it, declares
// again. The duplicate is reported in crossb only: crossa cannot know.
package crossa

import "context"

// Shared is a tool crossb declares again.
//
//tool:name shared
type Shared struct{}

// Call runs it.
func (Shared) Call(ctx context.Context) (string, error) { return "", nil }

// Other is a tool of its own.
//
//tool:name other
type Other struct{}

// Call runs it.
func (Other) Call(ctx context.Context) (string, error) { return "", nil }
