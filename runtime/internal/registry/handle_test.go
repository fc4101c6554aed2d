package registry_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// handleCalls are calls of every outcome of the fixture's tools: success,
// every failure, inline and on a worker (Spec.Timeout).
var handleCalls = []struct{ tool, args string }{
	{"echo", `{"text":"hello"}`},
	{"notes_search", `{"text":"go"}`},
	{"notes_search", ``},
	{"big", `{"n":1024}`},
	{"big", `{"n":1025}`},
	{"ech", `{}`},
	{"", `{}`},
	{"echo", `{"text":1}`},
	{"echo", `{"text"`},
	{"echo", `{"text":"a","text":"b"}`},
	{"notes_delete", `{"id":1}`},
	{"notes_delete", `{}`},
	{"fail_model", `{"id":2}`},
	{"fail_plain", `{}`},
	{"inner_error", `{}`},
	{"bad_output", `{}`},
	{"nan", `{}`},
	{"boom", `{}`},
	{"boom_decode", `{}`},
	{"nil_map", `{}`},
	{"slow", `{}`},
	{"show", `{"text":"a chart"}`},
}

// TestHandleAgreesWithStatic runs every call through one Handle and
// through its Static, with a context that is never done (the handle's own
// codecs) and with one that can be (the pool's): the same results, the
// caller's bytes left alone, and the handle still sound after each.
func TestHandleAgreesWithStatic(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t, tool.WithMaxOutputBytes(1<<10))
	for _, ctx := range []context.Context{context.Background(), t.Context()} {
		h := tool.NewHandle(s)
		require.IsType(t, &registry.Handle{}, h)
		for round := range 2 {
			for _, c := range handleCalls {
				msg := c.tool + " " + c.args + " round " + strconv.Itoa(round)
				want, wantErr := s.Call(ctx, c.tool, []byte(c.args))
				got, err := h.Call(ctx, c.tool, []byte(c.args))
				assert.Equal(t, tool.CodeOf(wantErr), tool.CodeOf(err), msg)
				assert.Equal(t, want, got, msg)
				if err != nil {
					assert.Equal(t, wantErr.Error(), err.Error(), msg)
				}

				dst := make([]byte, 3, 64)
				copy(dst, "pre")
				got, err = h.AppendCall(ctx, dst, c.tool, []byte(c.args))
				assert.Equal(t, tool.CodeOf(wantErr), tool.CodeOf(err), msg)
				assert.Equal(t, "pre"+want.Text(), got.Text(), msg)
				assert.Equal(t, want.IsError, got.IsError, msg)
				assert.Equal(t, want.Structured, got.Structured, msg)
				assert.Equal(t, "pre", string(dst), "the caller's bytes are left alone")

				assert.Equal(t, tool.CodeOf(s.Check(ctx, c.tool, []byte(c.args))), tool.CodeOf(h.Check(ctx, c.tool, []byte(c.args))), msg)
			}
		}
	}
}

// TestHandleOwnsNoCallersMemory checks that a result of Call is the
// caller's, and that a buffer AppendCall wrote into is never written again
// by the handle's later calls.
func TestHandleOwnsNoCallersMemory(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t)
	h := s.NewHandle()
	ctx := context.Background()
	first, err := h.Call(ctx, "echo", []byte(`{"text":"first"}`))
	require.NoError(t, err)
	buf := make([]byte, 0, 64)
	appended, err := h.AppendCall(ctx, buf, "echo", []byte(`{"text":"appended"}`))
	require.NoError(t, err)
	for i := range 20 {
		_, err = h.Call(ctx, "echo", []byte(`{"text":"XXXXXXXXXXXXXXXXXXXX"}`))
		require.NoError(t, err)
		_, err = h.AppendCall(ctx, nil, "big", []byte(`{"n":`+strconv.Itoa(i)+`}`))
		require.NoError(t, err)
		_, err = h.Call(ctx, "boom", []byte(`{}`))
		require.Equal(t, tool.CodePanic, tool.CodeOf(err))
	}
	assert.Equal(t, "first", first.Text())
	assert.Equal(t, "appended", appended.Text())
	again, err := h.AppendCall(ctx, appended.Content[:0], "echo", []byte(`{"text":"again"}`))
	require.NoError(t, err)
	assert.Equal(t, "again", again.Text())
	assert.Same(t, &buf[:1][0], &again.Content[0], "the buffer's memory is reused")
}

// TestHandleAbandonedRunKeepsNothingOfIt checks that a run the handle
// abandons (a tool past its Spec.Timeout, which goes on writing its
// output) never writes into what the handle's later calls return.
func TestHandleAbandonedRunKeepsNothingOfIt(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t)
	h := tool.NewHandle(s)
	ctx := context.Background()
	res, err := h.AppendCall(ctx, make([]byte, 0, 64), "late", []byte(`{}`))
	assert.Equal(t, tool.CodeTimeout, tool.CodeOf(err))
	assert.True(t, res.IsError)
	var outs []tool.Result
	deadline := time.Now().Add(400 * time.Millisecond) // past the late run's end
	for i := 0; time.Now().Before(deadline); i++ {
		text := "call-" + strconv.Itoa(i)
		got, err := h.AppendCall(ctx, make([]byte, 0, 64), "echo", []byte(`{"text":"`+text+`"}`))
		require.NoError(t, err)
		require.Equal(t, text, got.Text())
		outs = append(outs, got)
		time.Sleep(5 * time.Millisecond)
	}
	for i, got := range outs {
		assert.Equal(t, "call-"+strconv.Itoa(i), got.Text(), "no result changed after it was returned")
	}
}

// passThrough is a tool.Registry that is not a Static.
type passThrough struct{ tool.Registry }

func TestNewHandleOfAnotherRegistry(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t)
	r := passThrough{s}
	assert.Equal(t, tool.Handle(r), tool.NewHandle(r), "a registry without handles of its own is its own handle")
	res, err := tool.NewHandle(r).Call(t.Context(), "echo", []byte(`{"text":"hi"}`))
	require.NoError(t, err)
	assert.Equal(t, "hi", res.Text())
}

func FuzzHandleCall(f *testing.F) {
	s := newBenchStatic(f)
	h := s.NewHandle()
	for _, seed := range []struct{ name, args string }{
		{"notes_search", `{"query":"go"}`},
		{"notes_search", `{"query":1,"x":[{}]}`},
		{"notes_delete", `{"query":"x"}`},
		{"notes_serch", ``},
		{"web_fetch", `{"query":"\ud800"}`},
	} {
		f.Add(seed.name, []byte(seed.args))
	}
	f.Fuzz(func(t *testing.T, name string, args []byte) {
		ctx := context.Background()
		want, wantErr := s.Call(ctx, name, args)
		got, err := h.Call(ctx, name, args)
		assert.Equal(t, want, got)
		assert.Equal(t, tool.CodeOf(wantErr), tool.CodeOf(err))
		assert.Equal(t, tool.CodeOf(s.Check(ctx, name, args)), tool.CodeOf(h.Check(ctx, name, args)))
	})
}

// BenchmarkHandleAppendCall measures AppendCall through a Handle into a
// reused buffer, beside BenchmarkCall's Static.
func BenchmarkHandleAppendCall(b *testing.B) {
	s := newBenchStatic(b)
	h := s.NewHandle()
	ctx := context.Background()
	args := []byte(`{"query":"go generics"}`)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		res, err := h.AppendCall(ctx, buf[:0], "notes_search", args)
		if err != nil {
			b.Fatal(res, err)
		}
		buf = res.Content
	}
}

// TestHandleReentrant: a tool that calls a tool through the Handle its
// own call runs on gets codecs other than the ones its call holds, so
// that both outputs come back whole, with the caller's buffer as given.
func TestHandleReentrant(t *testing.T) {
	t.Parallel()
	var h tool.Handle
	reg, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "inner", Kind: tool.KindRead},
		{Name: "outer", Kind: tool.KindRead},
	}, nil, func(ctx context.Context, i int, mode toolimpl.Mode, in *toolimpl.Decoder, out *toolimpl.Encoder) (toolimpl.Output, error) {
		text, _ := in.String("string")
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
			return 0, err
		}
		if i == 0 {
			out.String("inner " + text)
			return toolimpl.OutputJSON, nil
		}
		res, err := h.AppendCall(ctx, make([]byte, 0, 64), "inner", []byte(`"from `+text+`"`))
		if err != nil {
			return 0, err
		}
		out.String(text + " | " + res.Text())
		return toolimpl.OutputJSON, nil
	}, nil)
	require.NoError(t, err)
	h = tool.NewHandle(reg)
	for round := range 3 {
		buf := []byte("kept:")
		res, err := h.AppendCall(context.Background(), buf, "outer", []byte(`"a"`))
		require.NoError(t, err, "round %d", round)
		assert.Equal(t, `kept:"a | \"inner from a\""`, string(res.Content), "round %d", round)
		res, err = h.Call(context.Background(), "inner", []byte(`"b"`))
		require.NoError(t, err, "round %d", round)
		assert.Equal(t, `"inner b"`, res.Text(), "round %d", round)
	}
}
