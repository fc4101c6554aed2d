package registry_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// TestNewSets: a table whose tools are dispatched by their sets calls each
// tool's set with its index there, with tools off or not, through Call,
// AppendCall, Check and a Handle; a tool placed in no set, or past its
// set's tools, fails its calls and nothing else; neither the index nor
// the table is read at start-up.
func TestNewSets(t *testing.T) {
	t.Parallel()
	table := []tool.Spec{
		{Name: "a", Kind: tool.KindRead},
		{Name: "b", Kind: tool.KindRead, Timeout: time.Minute}, // run by the runner
		{Name: "c", Kind: tool.KindRead},
		{Name: "d", Kind: tool.KindRead},
	}
	set := func(name string) registry.Dispatch {
		return func(_ context.Context, i int, mode registry.Mode, in *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
			in.Skip()
			in.End()
			if i > 1 {
				return 0, fmt.Errorf("no tool %d in this set", i)
			}
			if mode == registry.ModeCall {
				out.RawText(fmt.Sprintf("%s%d", name, i))
			}
			return registry.OutputText, nil
		}
	}
	sets := []registry.Dispatch{set("x"), set("y")}
	index := []registry.Index{{Set: 1, Tool: 0}, {Set: 0, Tool: 0}, {Set: 1, Tool: 1}, {Set: 0, Tool: 1}}
	ctx := context.Background()
	for _, off := range [][]bool{nil, {false, true}} {
		s, err := registry.NewSets(tooltest.Table(table), off, index, sets, nil)
		require.NoError(t, err)
		want := map[string]string{"a": "y0", "b": "x0", "c": "y1", "d": "x1"}
		if off != nil {
			delete(want, "b")
		}
		require.Len(t, s.Tools(), len(want))
		h := s.NewHandle()
		for name, text := range want {
			res, err := s.Call(ctx, name, []byte(`{}`))
			require.NoError(t, err, name)
			assert.Equal(t, text, string(res.Content), name)
			out, err := h.AppendCall(ctx, nil, name, []byte(`{}`))
			require.NoError(t, err, name)
			assert.Equal(t, text, string(out.Content), name)
			assert.NoError(t, s.Check(ctx, name, []byte(`{}`)), name)
		}
	}

	_, err := registry.NewSets(tooltest.Table(table), nil, index[:3], sets, nil)
	assert.EqualError(t, err, "new static tool registry: 3 tools placed in sets, 4 in the table")

	bad, err := registry.NewSets(tooltest.Table(table), nil, []registry.Index{{Set: 0}, {Set: 7}, {Set: 0, Tool: 5}, {Set: 1, Tool: 1}}, sets, nil)
	require.NoError(t, err, "the index is not read at start-up")
	for _, name := range []string{"b", "c"} {
		res, err := bad.Call(ctx, name, []byte(`{}`))
		require.Error(t, err, name)
		assert.True(t, res.IsError, name)
	}
	res, err := bad.Call(ctx, "d", []byte(`{}`))
	require.NoError(t, err)
	assert.Equal(t, "y1", string(res.Content))

	// Nor is the table read: New refuses a nil spec and names out of
	// order, NewSets takes the table as toolgen wrote it.
	unread := []*tool.Spec{nil, {Name: "b"}, {Name: "a"}, nil}
	_, err = registry.New(unread, nil, sets[0], nil)
	assert.EqualError(t, err, "new static tool registry: spec 0 is nil")
	s, err := registry.NewSets(unread, nil, index, sets, nil)
	require.NoError(t, err, "the table is not read at start-up")
	assert.Len(t, s.Tools(), 4)
}
