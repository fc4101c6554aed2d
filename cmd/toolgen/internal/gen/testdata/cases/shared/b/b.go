// Package b is a golden case: a tool whose input and output hold types of
// package shared only.
package b

import (
	"context"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/shared/shared"
)

// Input is what b_pages takes.
type Input struct {
	Page shared.Page `json:"page"`
}

// Pages lists the next pages.
//
//tool:name b_pages
type Pages struct{}

// Call returns the page after in.Page.
func (Pages) Call(ctx context.Context, in Input) (shared.Next, error) {
	next := in.Page
	next.Cursor += ">"
	return shared.Next{Page: next, More: true}, nil
}
