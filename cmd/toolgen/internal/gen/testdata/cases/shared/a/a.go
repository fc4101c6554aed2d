// Package a is a golden case: a tool whose input and output hold types of
// package shared, which b's tool takes too: their codecs are in shared's
// codec package, which a's and b's import.
package a

import (
	"context"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/shared/shared"
)

// Input is what a_list takes.
type Input struct {
	Query string      `json:"query"`
	Page  shared.Page `json:"page"`
}

// Output is what a_list returns.
type Output struct {
	Names []string    `json:"names"`
	Next  shared.Next `json:"next"`
}

// List lists items.
//
//tool:name a_list
type List struct{}

// Call lists Limit items named after the query.
func (List) Call(ctx context.Context, in Input) (Output, error) {
	out := Output{Names: []string{}, Next: shared.Next{Page: in.Page}}
	for range in.Page.Limit {
		out.Names = append(out.Names, in.Query)
	}
	out.Next.Page.Cursor += ">"
	return out, nil
}
