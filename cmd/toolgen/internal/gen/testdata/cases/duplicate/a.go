// Package duplicate declares one tool name twice.
package duplicate

//go:generate go run github.com/toolgen-go/toolgen/cmd/toolgen -out want .

import "context"

// First is one tool.
//
//tool:name same_name
type First struct{}

// Call runs it.
func (First) Call(ctx context.Context) (string, error) { return "", nil }
