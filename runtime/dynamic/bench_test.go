package dynamic_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// benchArgs are valid arguments of notes_search.
var benchArgs = []byte(`{"query":"go","limit":5,"sort":"newest"}`)

// benchSetup returns the generated registry of the sample tools and a
// Source over it with three toolkits of three tools each; each toolkit's
// "search" takes notes_search's input schema and runs notes_search.
func benchSetup(b *testing.B) (tool.Registry, *dynamic.Source) {
	b.Helper()
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, time.March, 20, 12, 0, 0, 0, time.UTC))))
	require.NoError(b, err)
	search, ok := reg.Lookup("notes_search")
	require.True(b, ok)
	s, err := dynamic.New(reg.Tools(), nil)
	require.NoError(b, err)
	ctx := context.Background()
	for _, g := range []string{"crm", "wf", "zz"} {
		p := newFake(g, spec("a"), spec("b"), &tool.Spec{Name: "search", InputSchema: search.InputSchema})
		p.call = func(ctx context.Context, _ string, args []byte) (tool.Result, error) {
			// The same work as the static tool: decode, search, encode.
			return reg.Call(ctx, "notes_search", args)
		}
		require.NoError(b, s.Register(ctx, p))
	}
	return reg, s
}

// BenchmarkLookup compares finding a static tool in the generated
// registry with finding a dynamic tool of the third toolkit behind it
// (the registry is asked first, as the call service does).
func BenchmarkLookup(b *testing.B) {
	reg, s := benchSetup(b)
	ctx := context.Background()
	b.Run("path=static", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := reg.Lookup("notes_search"); !ok {
				b.Fatal("not found")
			}
		}
	})
	b.Run("path=dynamic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := reg.Lookup("zz_search"); ok {
				b.Fatal("found in the registry")
			}
			if _, ok := s.Lookup(ctx, "zz_search"); !ok {
				b.Fatal("not found")
			}
		}
	})
}

// BenchmarkAppendTools lists the nine tools of the three toolkits.
func BenchmarkAppendTools(b *testing.B) {
	_, s := benchSetup(b)
	ctx := context.Background()
	dst := make([]*tool.Spec, 0, 16)
	b.ReportAllocs()
	for b.Loop() {
		dst = s.AppendTools(ctx, dst[:0])
	}
}

// BenchmarkCheck compares validating the same arguments against the same
// schema: the generated decoder (static) and the compiled JSON Schema
// (dynamic).
func BenchmarkCheck(b *testing.B) {
	reg, s := benchSetup(b)
	ctx := context.Background()
	d, ok := s.Lookup(ctx, "zz_search")
	require.True(b, ok)
	b.Run("path=static", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := reg.Check(ctx, "notes_search", benchArgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("path=dynamic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := d.Check(ctx, benchArgs); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCall compares a call of notes_search (decoding, the search over
// the demo store, encoding) with a call of a dynamic tool of the same
// schema whose toolkit does the same work: the difference is the dynamic
// path's lookup, runtime validation and runner.
func BenchmarkCall(b *testing.B) {
	reg, s := benchSetup(b)
	ctx := context.Background()
	b.Run("path=static", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := reg.Call(ctx, "notes_search", benchArgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("path=dynamic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d, ok := s.Lookup(ctx, "zz_search")
			if !ok {
				b.Fatal("not found")
			}
			if _, err := d.Call(ctx, benchArgs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
