// Package tools imports the package generated from it.
package tools

import (
	"context"

	_ "github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/cycle/want"
)

// Tool is fine otherwise.
//
//tool:name cyclic
type Tool struct{}

// Call runs it.
func (Tool) Call(ctx context.Context) (string, error) { return "", nil }
