package provider_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// every returns the specs of the tools of defs whose position keep accepts, in
// the definitions' order: an offer.
func every(defs *provider.Definitions, keep func(i int) bool) []*tool.Spec {
	var offer []*tool.Spec
	for i, tl := range defs.Tools() {
		if keep(i) {
			offer = append(offer, tl.Spec)
		}
	}
	return offer
}

// joined returns the four arrays the Definitions of tools must serve, written out
// here from each tool's definitions.
func joined(tools []provider.Tool) (chat, responses, anthropic, gemini string) {
	join := func(def func(provider.Tool) []byte) string {
		var b bytes.Buffer
		b.WriteByte('[')
		for i, tl := range tools {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(def(tl))
		}
		b.WriteByte(']')
		return b.String()
	}
	chat = join(func(tl provider.Tool) []byte { return tl.OpenAIChat.JSON })
	responses = join(func(tl provider.Tool) []byte { return tl.OpenAIResponses.JSON })
	anthropic = join(func(tl provider.Tool) []byte { return tl.Anthropic.JSON })
	gemini = "[]"
	if len(tools) > 0 {
		gemini = `[{"functionDeclarations":` + join(func(tl provider.Tool) []byte { return tl.Gemini.JSON }) + `}]`
	}
	return
}

func TestSubset(t *testing.T) {
	t.Parallel()
	reg := sampleRegistry(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		keep func(i int) bool
	}{
		{"odd positions", func(i int) bool { return i%2 == 1 }},
		{"all but the first", func(i int) bool { return i > 0 }},
		{"all but the last", func(i int) bool { return i < defs.Len()-1 }},
		{"one", func(i int) bool { return i == 3 }},
		{"none", func(int) bool { return false }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			offer := every(defs, tc.keep)
			sub, err := defs.Subset(offer)
			require.NoError(t, err)
			require.Equal(t, len(offer), sub.Len())
			for i, tl := range sub.Tools() {
				assert.Same(t, offer[i], tl.Spec, "in the offer's order")
				own, ok := defs.Lookup(tl.Spec.Name)
				require.True(t, ok)
				for _, p := range []struct{ got, want provider.Projection }{
					{tl.OpenAIChat, own.OpenAIChat}, {tl.OpenAIResponses, own.OpenAIResponses},
					{tl.Anthropic, own.Anthropic}, {tl.Gemini, own.Gemini},
				} {
					assert.Equal(t, p.want, p.got, "the definitions' own definition")
					require.NotEmpty(t, p.got.JSON)
					assert.Same(t, &p.want.JSON[0], &p.got.JSON[0], "the definitions' bytes themselves, not a copy")
				}
				got, ok := sub.Lookup(tl.Spec.Name)
				require.True(t, ok)
				assert.Same(t, &sub.Tools()[i], got)
			}
			chat, responses, anthropic, gemini := joined(sub.Tools())
			assert.Equal(t, chat, string(sub.OpenAIChat()))
			assert.Equal(t, responses, string(sub.OpenAIResponses()))
			assert.Equal(t, anthropic, string(sub.Anthropic()))
			assert.Equal(t, gemini, string(sub.Gemini()))

			// Each definition in the arrays is byte-identical to the definitions',
			// in the offer's order.
			for _, arr := range []struct {
				all  []byte
				defs func(provider.Tool) []byte
			}{
				{sub.OpenAIChat(), func(tl provider.Tool) []byte { return tl.OpenAIChat.JSON }},
				{sub.Anthropic(), func(tl provider.Tool) []byte { return tl.Anthropic.JSON }},
			} {
				at := 0
				for _, tl := range sub.Tools() {
					own, _ := defs.Lookup(tl.Spec.Name)
					i := bytes.Index(arr.all[at:], arr.defs(*own))
					require.GreaterOrEqual(t, i, 0, tl.Spec.Name)
					at += i + len(arr.defs(*own))
				}
			}

			// The same offer again gives the same bytes.
			again, err := defs.Subset(every(defs, tc.keep))
			require.NoError(t, err)
			assert.Equal(t, sub.Anthropic(), again.Anthropic())
			assert.Equal(t, sub.Gemini(), again.Gemini())

			// The arrays are capped: appending to one never writes into
			// another.
			before := string(sub.OpenAIResponses())
			_ = append(sub.OpenAIChat(), "XXXXXXXX"...)
			assert.Equal(t, before, string(sub.OpenAIResponses()))
		})
	}
}

func TestSubsetOfEverything(t *testing.T) {
	t.Parallel()
	reg := sampleRegistry(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	sub, err := defs.Subset(reg.Tools())
	require.NoError(t, err)
	assert.Same(t, defs, sub, "the definitions themselves")
	signedIn := tool.WithInvocation(t.Context(), &tool.Invocation{Principal: tool.Principal{ID: "ana"}})
	sub, err = defs.Subset(reg.Offer(signedIn))
	require.NoError(t, err)
	assert.Same(t, defs, sub, "everything is offered to a signed-in caller")

	// The same specs in another slice: still the definitions themselves.
	sub, err = defs.Subset(append([]*tool.Spec(nil), reg.Tools()...))
	require.NoError(t, err)
	assert.Same(t, defs, sub)

	// Equal specs that are not the definitions': Definitions of their own, with the same
	// bytes.
	copies := make([]*tool.Spec, 0, defs.Len())
	for _, sp := range reg.Tools() {
		c := *sp
		copies = append(copies, &c)
	}
	sub, err = defs.Subset(copies)
	require.NoError(t, err)
	assert.NotSame(t, defs, sub)
	assert.Equal(t, defs.Anthropic(), sub.Anthropic())
	assert.Equal(t, defs.OpenAIChat(), sub.OpenAIChat())
	assert.Equal(t, defs.OpenAIResponses(), sub.OpenAIResponses())
	assert.Equal(t, defs.Gemini(), sub.Gemini())
}

// TestSubsetWithOffer checks Subset on what a Static offers when one of its
// tools declines.
func TestSubsetWithOffer(t *testing.T) {
	t.Parallel()
	table := []*tool.Spec{
		{Name: "a_tool", Kind: tool.KindRead, Description: "A.", InputSchema: []byte(`{"type":"object","properties":{"x":{"type":"string"}}}`)},
		{Name: "b_tool", Kind: tool.KindRead, Description: "B.", DecidesOffer: true, InputSchema: []byte(tool.NoInputSchema)},
		{Name: "c_tool", Kind: tool.KindRead, Description: "C.", InputSchema: []byte(tool.NoInputSchema)},
	}
	reg, err := toolimpl.NewRegistry(table, nil, func(context.Context, int, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return 0, nil
	}, func(context.Context, int) bool { return false })
	require.NoError(t, err)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	sub, err := defs.Subset(reg.Offer(t.Context()))
	require.NoError(t, err)
	require.Equal(t, 2, sub.Len())
	a, _ := defs.Lookup("a_tool")
	c, _ := defs.Lookup("c_tool")
	assert.Equal(t, "["+string(a.Anthropic.JSON)+","+string(c.Anthropic.JSON)+"]", string(sub.Anthropic()))
	assert.Equal(t, `[{"functionDeclarations":[`+string(a.Gemini.JSON)+","+string(c.Gemini.JSON)+`]}]`, string(sub.Gemini()))
	_, ok := sub.Lookup("b_tool")
	assert.False(t, ok)
}

func TestSubsetRefuses(t *testing.T) {
	t.Parallel()
	reg := sampleRegistry(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	specs := reg.Tools()
	stranger := &tool.Spec{Name: "notes_serch", Kind: tool.KindRead}
	last := &tool.Spec{Name: "zzz", Kind: tool.KindRead}
	changed := *specs[2]
	changed.Description += " Changed."
	schema := *specs[2]
	schema.InputSchema = []byte(`{"type":"object"}`)
	for _, tc := range []struct {
		name  string
		offer []*tool.Spec
		msg   string
	}{
		{"unknown tool", []*tool.Spec{specs[0], stranger}, "tool notes_serch of the offer is not in the definitions"},
		{"unknown tool past the end", []*tool.Spec{specs[0], last}, "tool zzz of the offer is not in the definitions"},
		{"unknown tool only", []*tool.Spec{last}, "tool zzz of the offer is not in the definitions"},
		{"not sorted", []*tool.Spec{specs[1], specs[0]}, "offer not sorted by name"},
		{"duplicate", []*tool.Spec{specs[1], specs[1]}, "offer not sorted by name"},
		{"nil spec", []*tool.Spec{specs[0], nil}, "tool 1 of the offer is nil"},
		{"other description", []*tool.Spec{&changed}, "differs from the definitions'"},
		{"other schema", []*tool.Spec{specs[0], &schema}, "differs from the definitions'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sub, err := defs.Subset(tc.offer)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
			assert.Nil(t, sub)
		})
	}

	// A whole offer holding one spec that is not the definitions'.
	whole := append([]*tool.Spec(nil), specs...)
	whole[5] = &changed
	whole[5].Name = specs[5].Name
	_, err = defs.Subset(whole)
	assert.ErrorContains(t, err, "differs from the definitions'")
}

// largeDefinitions returns the Definitions of n tools with schemas of a few properties, and
// the registry it was built from.
func largeDefinitions(tb testing.TB, n int) (*provider.Definitions, tool.Registry) {
	tb.Helper()
	specs := make([]tool.Spec, n)
	for i := range specs {
		name := fmt.Sprintf("tool_%04d", i)
		specs[i] = tool.Spec{
			Name:        name,
			Kind:        tool.KindRead,
			Description: "Does " + name + " for the model.",
			InputSchema: fmt.Appendf(nil, `{"type":"object","properties":{"query":{"type":"string","description":"What %s looks for."},"limit":{"type":"integer","minimum":1,"maximum":50}},"required":["query"],"additionalProperties":false}`, name),
		}
	}
	reg, err := tooltest.NewRegistry(specs, func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return 0, nil
	})
	require.NoError(tb, err)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(tb, err)
	return defs, reg
}

// TestSubsetAllocations checks that Subset allocates the same few blocks
// for 10 tools as for 1,000: nothing per tool.
func TestSubsetAllocations(t *testing.T) {
	// Not parallel: AllocsPerRun measures the whole process.
	defs, _ := largeDefinitions(t, 1001)
	allocs := map[int]float64{}
	for _, n := range []int{10, 1000} {
		offer := every(defs, func(i int) bool { return i < n })
		var sub *provider.Definitions
		allocs[n] = testing.AllocsPerRun(20, func() {
			var err error
			if sub, err = defs.Subset(offer); err != nil {
				panic(err)
			}
		})
		require.Equal(t, n, sub.Len())
	}
	assert.LessOrEqual(t, allocs[1000], 3.0, "the Definitions, its tools and one buffer")
	assert.Equal(t, allocs[10], allocs[1000], "nothing per tool")

	whole := every(defs, func(int) bool { return true })
	assert.Zero(t, testing.AllocsPerRun(20, func() {
		if sub, err := defs.Subset(whole); err != nil || sub != defs {
			panic(err)
		}
	}), "the whole offer gives the definitions themselves")
}

// BenchmarkSubset measures the Definitions of an offer of 1,000 tools out of
// 1,001 (one declined), the per-request cost of offers that differ per
// caller.
func BenchmarkSubset(b *testing.B) {
	defs, _ := largeDefinitions(b, 1001)
	offer := every(defs, func(i int) bool { return i != 500 })
	b.ReportAllocs()
	b.SetBytes(int64(len(defs.OpenAIChat()) + len(defs.OpenAIResponses()) + len(defs.Anthropic()) + len(defs.Gemini())))
	for b.Loop() {
		if _, err := defs.Subset(offer); err != nil {
			b.Fatal(err)
		}
	}
}
