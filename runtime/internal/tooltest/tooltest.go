// Package tooltest builds registries for the runtime's own tests from a
// hand-written dispatch by tool name, standing in for the switch on a
// tool's index that a generated package holds. No program links it.
package tooltest

import (
	"context"
	"errors"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Dispatch is a dispatch by name: a switch on name that decodes the
// arguments from in and, in toolimpl.ModeCall, runs the tool and encodes
// its output to out, as a generated toolimpl.Dispatch does for an index.
type Dispatch func(ctx context.Context, name string, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error)

// NewRegistry returns the registry serving specs through dispatch. The
// specs must be as toolimpl.NewRegistry requires of its table: sorted by
// name, unique non-empty names, valid kinds.
func NewRegistry(specs []tool.Spec, dispatch Dispatch, opts ...tool.Option) (tool.Registry, error) {
	if dispatch == nil {
		return nil, errors.New("new test registry: nil dispatch")
	}
	byIndex := func(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		return dispatch(ctx, specs[i].Name, mode, in, out)
	}
	return toolimpl.NewRegistry(Table(specs), nil, byIndex, nil, opts...)
}

// Table is the table of pointers to specs that toolimpl.NewRegistry
// takes: a generated package's points to variables of its codec packages.
func Table(specs []tool.Spec) []*tool.Spec {
	table := make([]*tool.Spec, len(specs))
	for i := range specs {
		table[i] = &specs[i]
	}
	return table
}
