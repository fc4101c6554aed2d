package registry_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// benchDispatch decodes {"query": string} without allocating and writes
// {"query": ...} back, as a generated dispatch for a small tool would.
func benchDispatch(_ context.Context, name string, mode registry.Mode, in *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
	if name != "notes_search" {
		return 0, tool.Errorf("no tool %s", name)
	}
	var query []byte
	if in.Object("object") {
		for {
			key, ok := in.Key()
			if !ok {
				break
			}
			if string(key) != "query" {
				in.Unknown(key)
				continue
			}
			in.Push("query")
			query, _ = in.StringBytes("string")
			in.Pop()
		}
	}
	in.End()
	if err := in.Err(); err != nil {
		return 0, toolimpl.InvalidArguments(err)
	}
	if mode == registry.ModeCheck {
		return 0, nil
	}
	out.ObjectStart()
	out.Key("query")
	out.StringBytes(query)
	out.ObjectEnd()
	return registry.OutputStructured, nil
}

// newBenchStatic returns a registry of a few tools served by benchDispatch.
func newBenchStatic(tb testing.TB) *registry.Static {
	tb.Helper()
	s, err := newStatic([]tool.Spec{
		{Name: "notes_delete", Kind: tool.KindPropose},
		{Name: "notes_list", Kind: tool.KindRead},
		{Name: "notes_search", Kind: tool.KindRead},
		{Name: "web_fetch", Kind: tool.KindRead},
	}, benchDispatch)
	require.NoError(tb, err)
	return s
}

// BenchmarkCall measures the success path of Call; its only allocation
// should be the copy of the output (see TestCallAllocations).
func BenchmarkCall(b *testing.B) {
	s := newBenchStatic(b)
	ctx := context.Background()
	args := []byte(`{"query":"go generics"}`)
	b.ReportAllocs()
	for b.Loop() {
		res, err := s.Call(ctx, "notes_search", args)
		if err != nil || len(res.Content) == 0 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkCallParallel measures Call from many goroutines sharing the pool.
func BenchmarkCallParallel(b *testing.B) {
	s := newBenchStatic(b)
	ctx := context.Background()
	args := []byte(`{"query":"go generics"}`)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Call(ctx, "notes_search", args); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkUnknownTool measures the suggestion path.
func BenchmarkUnknownTool(b *testing.B) {
	s := newBenchStatic(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Call(ctx, "notes_serch", nil); err == nil {
			b.Fatal("no error")
		}
	}
}

// BenchmarkNew builds a registry of 10,000 tools from its table, as a
// generated New does at start-up: the check of the table (names sorted and
// distinct, kinds valid) is most of it.
func BenchmarkNew(b *testing.B) {
	specs := make([]tool.Spec, 10000)
	for i := range specs {
		specs[i] = tool.Spec{Name: fmt.Sprintf("p%03d_t%03d", i/50, i%50), Kind: tool.KindRead}
	}
	table := tooltest.Table(specs)
	dispatch := func(context.Context, int, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		return registry.OutputText, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := registry.New(table, nil, dispatch, nil); err != nil {
			b.Fatal(err)
		}
	}
}
