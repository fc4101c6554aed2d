package service_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// catalog returns a registry of n read tools in four groups, each needing
// one of two permissions.
func catalog(tb testing.TB, n int) tool.Registry {
	tb.Helper()
	specs := make([]*tool.Spec, n)
	for i := range specs {
		specs[i] = &tool.Spec{
			Name: fmt.Sprintf("tool_%05d", i), Kind: tool.KindRead,
			Group: fmt.Sprintf("g%d", i%4), Permissions: []string{fmt.Sprintf("p%d", i%2)},
		}
	}
	reg, err := toolimpl.NewRegistry(specs, nil, func(context.Context, int, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(tb, err)
	return reg
}

// BenchmarkOffer builds the offer of a 1,000-tool registry for one
// principal: the policy, the permissions and each tool's own say, per
// tool. AppendOffer reuses the caller's slice; Offer allocates only it.
func BenchmarkOffer(b *testing.B) {
	reg := catalog(b, 1000)
	s, err := service.New(reg, &service.Options{Policy: &service.Rules{Groups: []string{"g0", "g1", "g2"}}})
	require.NoError(b, err)
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "u", Permissions: []string{"p0"}}})
	b.Run("Offer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkSpecs = s.Offer(ctx)
		}
	})
	b.Run("AppendOffer", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]*tool.Spec, 0, 1000)
		for b.Loop() {
			buf = s.AppendOffer(ctx, buf[:0])
		}
		sinkSpecs = buf
	})
}

var sinkSpecs []*tool.Spec

func TestOfferAllocatesOnlyTheResult(t *testing.T) {
	reg := catalog(t, 1000)
	s, err := service.New(reg, &service.Options{Policy: &service.Rules{Groups: []string{"g0", "g1", "g2"}}})
	require.NoError(t, err)
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "u", Permissions: []string{"p0"}}})
	assert.Equal(t, 500, len(s.Offer(ctx)), "g0 and g2 need p0, which the principal holds; g1 and g3 need p1")
	assert.Equal(t, 1.0, testing.AllocsPerRun(20, func() { sinkSpecs = s.Offer(ctx) }))
	buf := make([]*tool.Spec, 0, 1000)
	assert.Zero(t, testing.AllocsPerRun(20, func() { buf = s.AppendOffer(ctx, buf[:0]) }))
}

// BenchmarkCallThroughService is a read call through the service (memory
// store, a principal, a call ID) beside the same call on the bare
// registry's AppendCall, and a call of a tool with a secret to replace in
// the record ("secret"); bench/compare measures the medium input.
func BenchmarkCallThroughService(b *testing.B) {
	_, reg := newFixture(b)
	s, err := service.New(reg, nil)
	require.NoError(b, err)
	ctx := as(alice, "")
	args := []byte(`{"text":"hello, world"}`)
	var buf []byte
	b.Run("bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := reg.AppendCall(ctx, buf[:0], "echo", args)
			if err != nil {
				b.Fatal(err)
			}
			buf = res.Content
		}
	})
	b.Run("service", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := s.AppendCall(ctx, buf[:0], "echo", args)
			if err != nil {
				b.Fatal(err)
			}
			buf = res.Content
		}
	})
	secret := []byte(`{"text":"hello, world","secret":"hunter2"}`)
	b.Run("secret", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := s.AppendCall(ctx, buf[:0], "login", secret)
			if err != nil {
				b.Fatal(err)
			}
			buf = res.Content
		}
	})
}

func TestMemoryStoreKeepsItsCap(t *testing.T) {
	st := service.NewMemoryStore()
	st.SetMaxRecords(10)
	ctx := context.Background()
	for i := range 25 {
		_, err := st.Start(ctx, &service.Record{CallID: fmt.Sprint(i), Principal: "p", Event: service.EventCall, Outcome: service.OutcomeStarted})
		require.NoError(t, err)
	}
	recs := records(t, st)
	assert.LessOrEqual(t, len(recs), 10)
	assert.Equal(t, "24", recs[len(recs)-1].CallID)
	prior, err := st.Start(ctx, &service.Record{CallID: "24", Principal: "p", Event: service.EventCall})
	require.NoError(t, err)
	assert.NotNil(t, prior, "a kept call is still deduplicated")
	prior, err = st.Start(ctx, &service.Record{CallID: "0", Principal: "p", Event: service.EventCall})
	require.NoError(t, err)
	assert.Nil(t, prior, "a dropped one is not")
}

// TestCallAllocatesAsTheBareCall: a call through the service on the
// memory store, without an Observer, allocates what the bare registry's
// call does and nothing more: its record is recycled, its arguments'
// form left to the store (which copies them into blocks it shares). Less
// than half an allocation more per call, on average: the race detector
// makes sync.Pool drop some of what it is given, a collection empties it,
// and a block is now and then made; a record made for each call would be
// one more.
func TestCallAllocatesAsTheBareCall(t *testing.T) {
	_, reg := newFixture(t)
	s, err := service.New(reg, nil)
	require.NoError(t, err)
	ctx := as(alice, "")
	args := []byte(`{"text":"hello, world"}`)
	buf := make([]byte, 0, 64)
	bare := allocsPerCall(func() {
		res, _ := reg.AppendCall(ctx, buf[:0], "echo", args)
		buf = res.Content
	})
	through := allocsPerCall(func() {
		res, _ := s.AppendCall(ctx, buf[:0], "echo", args)
		buf = res.Content
	})
	assert.Less(t, through-bare, 0.5, "allocations per call: %.2f through the service, %.2f bare", through, bare)
}

// allocsPerCall returns how many allocations f makes per call on average
// (testing.AllocsPerRun rounds it down to a whole number).
func allocsPerCall(f func()) float64 {
	const n = 1000
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / n
}
