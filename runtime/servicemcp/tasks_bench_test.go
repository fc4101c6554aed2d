package servicemcp_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// BenchmarkTaskCancel measures how long a cancellation asked on one
// instance takes to reach the tool's context on the other, which runs the
// task, both on one SQLite file or one PostgreSQL database, with the
// default Tick (250ms) and a shorter one: ms/cancel is that time, from
// CancelTask's call to the tool seeing its context done. The cancellation
// is asked right after a renewal (the tool starts with its task's first
// lease), so each is the worst case: one Tick plus a store round trip,
// the bound the package doc states.
func BenchmarkTaskCancel(b *testing.B) {
	for _, tick := range []time.Duration{service.DefaultTaskTick, 50 * time.Millisecond} {
		b.Run("sqlite/"+tick.String(), func(b *testing.B) {
			sa, sb := sqliteStores(b)
			benchTaskCancel(b, tick, sa, sb)
		})
		b.Run("postgres/"+tick.String(), func(b *testing.B) {
			dsn := pg.Need(b).NewSchema(b)
			var st [2]service.Store
			for i := range st {
				s, err := pgstore.Open(b.Context(), dsn, nil)
				require.NoError(b, err)
				b.Cleanup(func() { _ = s.Close() })
				st[i] = s
			}
			benchTaskCancel(b, tick, st[0], st[1])
		})
	}
}

func benchTaskCancel(b *testing.B, tick time.Duration, sa, sb service.Store) {
	var started, stopped atomic.Pointer[chan struct{}]
	dispatch := func(ctx context.Context, _ int, mode toolimpl.Mode, in *codec.Decoder, _ *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		in.End()
		if mode != toolimpl.ModeCall {
			return 0, nil
		}
		close(*started.Load())
		<-ctx.Done()
		close(*stopped.Load())
		return 0, ctx.Err()
	}
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{Name: "slow_job", Kind: tool.KindAction, Timeout: 2 * time.Minute}}, nil, dispatch, nil)
	require.NoError(b, err)
	a, err := service.New(reg, &service.Options{Store: sa, Tasks: service.TaskOptions{Instance: "A", Tick: tick}})
	require.NoError(b, err)
	other, err := service.New(reg, &service.Options{Store: sb, Tasks: service.TaskOptions{Instance: "B", Tick: tick}})
	require.NoError(b, err)
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: ana})
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		s, e := make(chan struct{}), make(chan struct{})
		started.Store(&s)
		stopped.Store(&e)
		tk, err := a.StartTask(ctx, "slow_job", []byte(`{}`))
		require.NoError(b, err)
		<-s
		t0 := time.Now()
		require.NoError(b, other.CancelTask(ctx, tk.ID, ana))
		<-e
		total += time.Since(t0)
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/cancel")
}
