//go:build !race

package tool_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The race detector allocates on its own, so these run only without it.

// TestProgressAllocations: a report allocates nothing, heard or not.
func TestProgressAllocations(t *testing.T) {
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{CallID: "c"})
	assert.Zero(t, testing.AllocsPerRun(1000, func() { tool.Progress(ctx, 1, 2, "step") }), "nobody listening")
	heard := 0
	lctx := tool.WithProgress(ctx, tool.ProgressFunc(func(context.Context, tool.ProgressReport) { heard++ }))
	assert.Zero(t, testing.AllocsPerRun(1000, func() { tool.Progress(lctx, 1, 2, "step") }), "a listener that keeps nothing")
	assert.Positive(t, heard)
}
