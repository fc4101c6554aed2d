//go:build !race

package registry_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/tool"
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

// TestHandleAllocations checks that a Handle's AppendCall into a reused
// buffer and its Check allocate nothing, as the registry's do.
func TestHandleAllocations(t *testing.T) {
	h := newBenchStatic(t).NewHandle()
	ctx := context.Background()
	args := []byte(`{"query":"go generics"}`)
	res, err := h.AppendCall(ctx, nil, "notes_search", args)
	require.NoError(t, err)
	buf := res.Content
	allocs := testing.AllocsPerRun(100, func() {
		res, err := h.AppendCall(ctx, buf[:0], "notes_search", args)
		if err != nil {
			panic(err)
		}
		buf = res.Content
		if err := h.Check(ctx, "notes_search", args); err != nil {
			panic(err)
		}
	})
	assert.Equal(t, byte('{'), buf[0])
	assert.Zero(t, allocs)
}

// TestOfferAllocations checks that Offer returns Tools itself, without
// allocating, when no tool declines: with no Offered hook, and with one
// that asks every tool that decides and hears yes from all.
func TestOfferAllocations(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		noHook bool
	}{{"without hook", true}, {"every tool offered", false}} {
		t.Run(tc.name, func(t *testing.T) {
			table := []tool.Spec{
				{Name: "a", Kind: tool.KindRead, DecidesOffer: true},
				{Name: "b", Kind: tool.KindRead},
				{Name: "c", Kind: tool.KindRead, DecidesOffer: true},
			}
			var offered registry.Offered
			asked := 0
			if !tc.noHook {
				offered = func(context.Context, int) bool { asked++; return true }
			}
			s, err := registry.New(tooltest.Table(table), nil, func(context.Context, int, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
				return 0, nil
			}, offered)
			require.NoError(t, err)
			var got []*tool.Spec
			allocs := testing.AllocsPerRun(100, func() { got = s.Offer(ctx) })
			assert.Zero(t, allocs)
			assert.Same(t, &s.Tools()[0], &got[0], "Tools itself")
			if !tc.noHook {
				assert.Positive(t, asked)
			}
		})
	}
}
