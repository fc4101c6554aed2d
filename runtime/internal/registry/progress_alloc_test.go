//go:build !race

package registry_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The race detector allocates on its own, so this runs only without it.

// TestQuietCallAllocations: a call of a tool that never reports allocates
// as much with a listener installed as without.
func TestQuietCallAllocations(t *testing.T) {
	s := newProgressStatic(t, &progressTools{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lctx := tool.WithProgress(ctx, tool.ProgressFunc(func(context.Context, tool.ProgressReport) {}))
	buf := make([]byte, 0, 64)
	allocs := func(ctx context.Context) float64 {
		_, err := s.AppendCall(ctx, buf[:0], "quiet", nil) // warm the pools
		require.NoError(t, err)
		return testing.AllocsPerRun(200, func() {
			if _, err := s.AppendCall(ctx, buf[:0], "quiet", nil); err != nil {
				panic(err)
			}
		})
	}
	without := allocs(ctx)
	assert.Equal(t, without, allocs(lctx))
	assert.Zero(t, without)
}
