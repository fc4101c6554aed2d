package palette_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// synthetic returns a palette over a bare registry of n tools, in groups
// of ten ("g0", "g1", ...), holding the even groups, with a bound
// argument on the first tool, request_tools over every group and
// request_skill over two skills: every path of Offer.
func syntheticPalette(tb testing.TB, n int) *palette.Palette {
	tb.Helper()
	return syntheticPaletteOver(tb, n, func(reg tool.Registry) tool.Caller { return reg })
}

// syntheticPaletteOver is syntheticPalette over the caller over(reg)
// returns for its registry reg.
func syntheticPaletteOver(tb testing.TB, n int, over func(reg tool.Registry) tool.Caller) *palette.Palette {
	tb.Helper()
	specs := make([]*tool.Spec, n)
	for i := range specs {
		specs[i] = &tool.Spec{
			Name:        fmt.Sprintf("tool_%04d", i),
			Group:       fmt.Sprintf("g%d", i/10),
			Kind:        tool.KindRead,
			ReadOnly:    true,
			Description: fmt.Sprintf("Synthetic tool number %d.", i),
			InputSchema: []byte(`{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},"required":["q"],"additionalProperties":false}`),
		}
	}
	reg, err := toolimpl.NewRegistry(specs, nil, func(_ context.Context, _ int, _ toolimpl.Mode, in *codec.Decoder, _ *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(tb, err)
	var even []string
	for g := 0; g*10 < n; g += 2 {
		even = append(even, fmt.Sprintf("g%d", g))
	}
	p, err := palette.New(over(reg), reg.Tools(), palette.Groups(even...), &palette.Options{
		Bind:              map[string]json.RawMessage{"tool_0000": json.RawMessage(`{"n":3}`)},
		Requestable:       palette.All(),
		Skills:            skill.NewTable([]skill.Skill{{Name: "a", Description: "A."}, {Name: "b", Description: "B."}}),
		RequestableSkills: skill.Patterns{"*"},
	})
	require.NoError(tb, err)
	return p
}

// BenchmarkPaletteOffer builds a palette's definitions for 1,000 tools,
// as every turn does: half of them offered, the other half in
// request_tools' catalog.
func BenchmarkPaletteOffer(b *testing.B) {
	p := syntheticPalette(b, 1000)
	ctx := asAna()
	p.Offer(ctx) // the meta-tools' specs, built once
	b.ReportAllocs()
	for b.Loop() {
		if len(p.Offer(ctx)) != 502 {
			b.Fatal("wrong offer")
		}
	}
}

// BenchmarkPaletteOfferOverService is BenchmarkPaletteOffer over the call
// service: record=yes as a host has it, the service recording the offer
// (once for the turn, then only checking that it is recorded);
// record=no over the same service behind a Caller that does not record,
// for the cost of that check side by side.
func BenchmarkPaletteOfferOverService(b *testing.B) {
	for _, record := range []bool{false, true} {
		b.Run(map[bool]string{false: "record=no", true: "record=yes"}[record], func(b *testing.B) {
			var svc *service.Service
			p := syntheticPaletteOver(b, 1000, func(reg tool.Registry) tool.Caller {
				var err error
				svc, err = service.New(reg, nil)
				require.NoError(b, err)
				if !record {
					return plainCaller{svc}
				}
				return svc
			})
			ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: ana, Conversation: "c1", Turn: "t1"})
			p.Offer(ctx)
			b.ReportAllocs()
			for b.Loop() {
				if len(p.Offer(ctx)) != 502 {
					b.Fatal("wrong offer")
				}
			}
			b.StopTimer()
			recs, err := svc.Records(ctx, service.Query{})
			require.NoError(b, err)
			want := map[bool]int{false: 0, true: 1}[record]
			require.Len(b, recs, want, "one offer row for the turn")
		})
	}
}

// plainCaller hides every method of its Caller but Offer and Call.
type plainCaller struct{ c tool.Caller }

func (p plainCaller) Offer(ctx context.Context) []*tool.Spec { return p.c.Offer(ctx) }
func (p plainCaller) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	return p.c.Call(ctx, name, args)
}

// TestOfferAllocatesNothingPerTool pins Offer's allocations: the result
// slice only, for 20 tools as for 1,000, once the meta-tools' specs are
// built (they are rebuilt only when the catalog changes).
func TestOfferAllocatesNothingPerTool(t *testing.T) {
	ctx := asAna()
	for _, n := range []int{20, 1000} {
		p := syntheticPalette(t, n)
		offer := p.Offer(ctx)
		require.Len(t, offer, n/2+2)
		assert.Equal(t, "request_skill", offer[0].Name)
		assert.Equal(t, "request_tools", offer[1].Name)
		allocs := testing.AllocsPerRun(20, func() { p.Offer(ctx) })
		assert.Equal(t, 1.0, allocs, "%d tools", n)
	}
}
