package tool_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestReadOnlyMarkIsALatch(t *testing.T) {
	ctx := context.Background()
	assert.False(t, tool.IsReadOnly(ctx))
	ctx = tool.WithReadOnly(ctx)
	assert.True(t, tool.IsReadOnly(ctx))
	assert.Equal(t, ctx, tool.WithReadOnly(ctx), "marking twice changes nothing")
	for name, derived := range map[string]context.Context{
		"new invocation": tool.WithInvocation(ctx, &tool.Invocation{Principal: tool.Principal{ID: "p"}}),
		"call ID":        tool.WithCallID(ctx, "c"),
		"without cancel": context.WithoutCancel(ctx),
		"a value":        context.WithValue(ctx, struct{}{}, false),
	} {
		assert.True(t, tool.IsReadOnly(derived), name)
	}
}
