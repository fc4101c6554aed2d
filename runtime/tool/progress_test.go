package tool_test

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// reports is a ProgressListener that keeps what it hears.
type reports struct {
	mu  sync.Mutex
	got []tool.ProgressReport
	ids []string // the call ID of each report's context
}

func (r *reports) Progress(ctx context.Context, p tool.ProgressReport) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, p)
	id := ""
	if inv, ok := tool.InvocationFrom(ctx); ok {
		id = inv.CallID
	}
	r.ids = append(r.ids, id)
}

func (r *reports) list() []tool.ProgressReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tool.ProgressReport(nil), r.got...)
}

func TestProgressWithoutListener(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	assert.False(t, tool.ProgressWanted(ctx))
	assert.Nil(t, tool.ProgressListenerFrom(ctx))
	tool.Progress(ctx, 1, 2, "nobody listens") // nothing to check but that it returns
}

func TestProgressReachesTheListener(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		done, total  float64
		want         tool.ProgressReport
		dropped      bool
		message      string
		wantsMessage string
	}{
		{name: "known total", done: 3, total: 10, message: "3 of 10", want: tool.ProgressReport{Done: 3, Total: 10, Message: "3 of 10"}},
		{name: "unknown total", done: 7, total: 0, want: tool.ProgressReport{Done: 7}},
		{name: "negative total is unknown", done: 1, total: -5, want: tool.ProgressReport{Done: 1}},
		{name: "NaN total is unknown", done: 1, total: math.NaN(), want: tool.ProgressReport{Done: 1}},
		{name: "infinite total is unknown", done: 1, total: math.Inf(1), want: tool.ProgressReport{Done: 1}},
		{name: "NaN done is dropped", done: math.NaN(), total: 1, dropped: true},
		{name: "infinite done is dropped", done: math.Inf(-1), total: 1, dropped: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var r reports
			ctx := tool.WithCallID(tool.WithProgress(t.Context(), &r), "call-7")
			require.True(t, tool.ProgressWanted(ctx))
			tool.Progress(ctx, tt.done, tt.total, tt.message)
			if tt.dropped {
				assert.Empty(t, r.list())
				return
			}
			assert.Equal(t, []tool.ProgressReport{tt.want}, r.list())
			assert.Equal(t, []string{"call-7"}, r.ids, "the listener gets the reporting call's context")
		})
	}
}

func TestWithProgressReplacesAndSilences(t *testing.T) {
	t.Parallel()
	var outer, inner reports
	ctx := tool.WithProgress(t.Context(), &outer)
	assert.Same(t, &outer, tool.ProgressListenerFrom(ctx))

	// An inner listener replaces the outer one; one that forwards reaches
	// both.
	forward := tool.ProgressFunc(func(ctx context.Context, p tool.ProgressReport) {
		inner.Progress(ctx, p)
		outer.Progress(ctx, p)
	})
	tool.Progress(tool.WithProgress(ctx, &inner), 1, 0, "")
	tool.Progress(tool.WithProgress(ctx, forward), 2, 0, "")
	assert.Equal(t, []tool.ProgressReport{{Done: 1}, {Done: 2}}, inner.list())
	assert.Equal(t, []tool.ProgressReport{{Done: 2}}, outer.list())

	// A nil listener silences the calls run with its context.
	silenced := tool.WithProgress(ctx, nil)
	assert.False(t, tool.ProgressWanted(silenced))
	tool.Progress(silenced, 3, 0, "")
	assert.Len(t, outer.list(), 1)
}

// BenchmarkProgress is the cost of one report, heard and not.
func BenchmarkProgress(b *testing.B) {
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{CallID: "c"})
	b.Run("no_listener", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			tool.Progress(ctx, float64(i), 0, "step")
		}
	})
	b.Run("listener", func(b *testing.B) {
		var n int
		lctx := tool.WithProgress(ctx, tool.ProgressFunc(func(context.Context, tool.ProgressReport) { n++ }))
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			tool.Progress(lctx, float64(i), 0, "step")
		}
	})
}
