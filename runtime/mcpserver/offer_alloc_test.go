//go:build !race

package mcpserver_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// twoSlices is a Caller whose Offer returns, in turn, two slices holding
// the same specs: a listing must be kept across them.
type twoSlices struct {
	tool.Registry
	a, b []*tool.Spec
	n    int
}

func (c *twoSlices) Offer(context.Context) []*tool.Spec {
	c.n++
	if c.n%2 == 0 {
		return c.a
	}
	return c.b
}

// TestListSameSpecsAllocations checks that recognising an offer of the
// same specs in another slice costs no allocation: tools/list of 1,000
// tools allocates as much as it does for a registry, whose Offer returns
// the same slice. (The race detector allocates on its own: not under
// -race.)
func TestListSameSpecsAllocations(t *testing.T) {
	reg := newStatic(t, newBenchTools()...)
	caller := &twoSlices{Registry: reg, a: slices.Clone(reg.Tools()), b: slices.Clone(reg.Tools())}
	ctx := context.Background()
	allocs := map[string]float64{}
	for name, c := range map[string]tool.Caller{"static": reg, "two slices": caller} {
		srv, err := mcpserver.New(c, nil)
		require.NoError(t, err)
		_, err = mcpserver.ListFirstPage(ctx, srv) // build the listing
		require.NoError(t, err)
		allocs[name] = testing.AllocsPerRun(50, func() {
			if _, err := mcpserver.ListFirstPage(ctx, srv); err != nil {
				panic(err)
			}
		})
	}
	assert.Equal(t, allocs["static"], allocs["two slices"], "no allocation to compare the specs")
	assert.LessOrEqual(t, allocs["two slices"], 1.0, "the result only")
	assert.Greater(t, caller.n, 50, "Offer was asked each time")
}
