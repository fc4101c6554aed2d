//go:build !race

package tool_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The race detector allocates on its own, so this runs only without it.
func TestCallAllocations(t *testing.T) {
	s := newBenchStatic(t)
	ctx := context.Background()
	args := []byte(`{"query":"go generics"}`)
	// Warm the pool so that the codecs' buffers have grown.
	_, err := s.Call(ctx, "notes_search", args)
	require.NoError(t, err)
	var content string
	allocs := testing.AllocsPerRun(100, func() {
		res, err := s.Call(ctx, "notes_search", args)
		if err != nil {
			panic(err)
		}
		content = string(res.Content[:1])
	})
	assert.Equal(t, "{", content)
	assert.LessOrEqual(t, allocs, 1.0, "the success path allocates only the copy of the output")
}

// TestAppendCallAllocations checks that AppendCall into a reused buffer
// allocates nothing for the output: not even the copy Call makes.
func TestAppendCallAllocations(t *testing.T) {
	s := newBenchStatic(t)
	ctx := context.Background()
	args := []byte(`{"query":"go generics"}`)
	res, err := s.AppendCall(ctx, nil, "notes_search", args)
	require.NoError(t, err)
	buf := res.Content
	allocs := testing.AllocsPerRun(100, func() {
		res, err := s.AppendCall(ctx, buf[:0], "notes_search", args)
		if err != nil {
			panic(err)
		}
		buf = res.Content
	})
	assert.Equal(t, byte('{'), buf[0])
	assert.Zero(t, allocs, "the output is encoded into the caller's buffer")
}
