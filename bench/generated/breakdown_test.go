package generated

// The breakdown of a call's time: the generated decoder and encoder alone,
// the generated dispatch (decode, call, encode) without the registry, the
// registry's Check and Call around it, and AppendCall through a
// tool.Handle. BenchmarkCall in ../compare measures the whole call against
// the other paths.

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/bench/generated/internal/toolscodec"
	"github.com/toolgen-go/toolgen/bench/generated/toolstools"
	"github.com/toolgen-go/toolgen/bench/tools"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// inSet is the index in its set of the tool named name: what the set's
// dispatch switches on.
func inSet(name string) int {
	for i, sp := range specs {
		if sp.Name == name {
			return int(index[i].Tool)
		}
	}
	panic("no tool " + name)
}

var (
	sinkSmall  tools.SmallInput
	sinkMedium tools.MediumInput
	sinkBytes  []byte
)

// TestBreakdownPieces checks that the pieces the benchmarks time do the
// whole job on the benchmark inputs.
func TestBreakdownPieces(t *testing.T) {
	t.Parallel()
	d := codec.NewDecoder()
	d.Reset(tools.MediumArgs, codec.Limits{})
	var in tools.MediumInput
	toolscodec.DecodeMediumInput(d, &in)
	d.End()
	require.NoError(t, d.Err())
	require.Len(t, in.Items, 3)
	e := codec.NewEncoder()
	out := tools.Medium(&in)
	toolscodec.EncodeMediumOutput(e, &out)
	require.NoError(t, e.Err())
	require.Contains(t, string(e.Bytes()), `"lines":3`)
	e.Reset()
	d.Reset(tools.SmallArgs, codec.Limits{})
	kind, err := toolstools.Tools{}.ToolSet().Dispatch(context.Background(), inSet("small"), toolimpl.ModeCall, d, e)
	require.NoError(t, err)
	require.Equal(t, toolimpl.OutputStructured, kind)
	require.JSONEq(t, `{"query":"paper clips","limit":5}`, string(e.Bytes()))
}

func BenchmarkBreakdown(b *testing.B) {
	ctx := context.Background()
	reg, err := New([]Tools{toolstools.Tools{}})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		index  int // in the set: what its dispatch switches on
		args   []byte
		decode func(d *codec.Decoder)
		encode func(e *codec.Encoder)
	}{
		{"small", inSet("small"), tools.SmallArgs,
			func(d *codec.Decoder) {
				var in tools.SmallInput
				toolscodec.DecodeSmallInput(d, &in)
				sinkSmall = in
			},
			func(e *codec.Encoder) {
				out := tools.SmallOutput{Query: "paper clips", Limit: 5}
				toolscodec.EncodeSmallOutput(e, &out)
			}},
		{"medium", inSet("medium"), tools.MediumArgs,
			func(d *codec.Decoder) {
				var in tools.MediumInput
				toolscodec.DecodeMediumInput(d, &in)
				sinkMedium = in
			},
			func(e *codec.Encoder) {
				out := tools.MediumOutput{ID: "o-42", Lines: 3, Total: 66.807, WithinBudget: true}
				toolscodec.EncodeMediumOutput(e, &out)
			}},
	} {
		b.Run(tc.name+"/decode", func(b *testing.B) {
			d := codec.NewDecoder()
			b.ReportAllocs()
			for b.Loop() {
				d.Reset(tc.args, codec.Limits{})
				tc.decode(d)
				d.End()
				if err := d.Err(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/encode", func(b *testing.B) {
			e := codec.NewEncoder()
			b.ReportAllocs()
			for b.Loop() {
				e.Reset()
				tc.encode(e)
			}
			sinkBytes = e.Bytes()
		})
		b.Run(tc.name+"/dispatch", func(b *testing.B) {
			d, e := codec.NewDecoder(), codec.NewEncoder()
			set := toolstools.Tools{}.ToolSet()
			b.ReportAllocs()
			for b.Loop() {
				d.Reset(tc.args, codec.Limits{})
				e.Reset()
				if _, err := set.Dispatch(ctx, tc.index, toolimpl.ModeCall, d, e); err != nil {
					b.Fatal(err)
				}
			}
			sinkBytes = e.Bytes()
		})
		b.Run(tc.name+"/check", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := reg.Check(ctx, tc.name, tc.args); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/call", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := reg.Call(ctx, tc.name, tc.args)
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes = res.Content
			}
		})
		b.Run(tc.name+"/appendcall", func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				res, err := reg.AppendCall(ctx, buf[:0], tc.name, tc.args)
				if err != nil {
					b.Fatal(err)
				}
				buf = res.Content
			}
			sinkBytes = buf
		})
		b.Run(tc.name+"/handle", func(b *testing.B) {
			h := tool.NewHandle(reg)
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				res, err := h.AppendCall(ctx, buf[:0], tc.name, tc.args)
				if err != nil {
					b.Fatal(err)
				}
				buf = res.Content
			}
			sinkBytes = buf
		})
	}
}
