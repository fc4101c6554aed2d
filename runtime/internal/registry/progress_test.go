package registry_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// reports is a tool.ProgressListener that keeps what it hears.
type reports struct {
	mu  sync.Mutex
	got []tool.ProgressReport
}

func (r *reports) Progress(_ context.Context, p tool.ProgressReport) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, p)
}

func (r *reports) list() []tool.ProgressReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tool.ProgressReport(nil), r.got...)
}

// progressTools are the tools of the registry the progress tests call:
// quiet never reports; count reports 1..n; chatty reports from four
// goroutines until its context is done; honest waits for its context
// and returns its error; finisher completes its work once cancelled;
// stubborn ignores its context until released; stubborn_timeout too,
// with a timeout.
type progressTools struct {
	n       int
	started chan struct{} // receives once per run of honest, finisher and the stubborn tools
	release chan struct{} // closed to let the stubborn tools return
	stopped atomic.Int32  // runs of honest that saw their context done
}

func (p *progressTools) specs() []tool.Spec {
	return []tool.Spec{
		{Name: "chatty", Kind: tool.KindRead},
		{Name: "count", Kind: tool.KindRead},
		{Name: "finisher", Kind: tool.KindAction},
		{Name: "honest", Kind: tool.KindAction},
		{Name: "quiet", Kind: tool.KindRead},
		{Name: "stubborn", Kind: tool.KindAction},
		{Name: "stubborn_timeout", Kind: tool.KindAction, Timeout: 150 * time.Millisecond},
	}
}

// errStopped is what honest returns when its context is done.
var errStopped = errors.New("stopped")

func (p *progressTools) dispatch(ctx context.Context, name string, mode registry.Mode, in *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
	in.Skip()
	in.End()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode == registry.ModeCheck {
		return 0, err
	}
	switch name {
	case "count":
		for i := 1; i <= p.n; i++ {
			tool.Progress(ctx, float64(i), float64(p.n), "")
		}
	case "honest":
		p.started <- struct{}{}
		tool.Progress(ctx, 1, 2, "half way")
		<-ctx.Done()
		p.stopped.Add(1)
		return 0, fmt.Errorf("honest: %w: %w", errStopped, ctx.Err())
	case "chatty":
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := 0; ctx.Err() == nil; i++ {
					tool.Progress(ctx, float64(i), 0, fmt.Sprint(g))
				}
			})
		}
		wg.Wait()
		return 0, ctx.Err()
	case "finisher":
		p.started <- struct{}{}
		<-ctx.Done()
	case "stubborn", "stubborn_timeout":
		p.started <- struct{}{}
		<-p.release
	}
	out.RawText("done")
	return registry.OutputText, nil
}

func newProgressStatic(tb testing.TB, p *progressTools) *registry.Static {
	tb.Helper()
	s, err := newStatic(p.specs(), p.dispatch, tool.WithMaxAbandoned(100))
	require.NoError(tb, err)
	return s
}

func TestProgressThroughACall(t *testing.T) {
	t.Parallel()
	p := &progressTools{n: 5}
	s := newProgressStatic(t, p)
	var r reports
	res, err := s.Call(tool.WithProgress(t.Context(), &r), "count", nil)
	require.NoError(t, err)
	assert.Equal(t, "done", res.Text())
	assert.Equal(t, []tool.ProgressReport{{Done: 1, Total: 5}, {Done: 2, Total: 5}, {Done: 3, Total: 5}, {Done: 4, Total: 5}, {Done: 5, Total: 5}}, r.list(), "every report, in order")
}

// TestCancelledToolStops: a tool that sees its context cancelled and
// returns ends its call as cancelled, its outcome known (no
// ErrAbandoned), with its own error as the cause.
func TestCancelledToolStops(t *testing.T) {
	t.Parallel()
	p := &progressTools{started: make(chan struct{}, 1)}
	s := newProgressStatic(t, p)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-p.started; cancel() }()
	res, err := s.Call(ctx, "honest", nil)
	te := requireFailure(t, res, err)
	assert.Equal(t, tool.CodeCancelled, te.Code)
	assert.Equal(t, "the call was cancelled; the tool stopped", te.Message)
	assert.ErrorIs(t, err, errStopped, "the tool's error is the cause")
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, tool.ErrAbandoned, "the tool returned: its outcome is known")
	assert.Equal(t, int32(1), p.stopped.Load())

	// A tool that completes its work once cancelled succeeds.
	ctx, cancel = context.WithCancel(t.Context())
	go func() { <-p.started; cancel() }()
	res, err = s.Call(ctx, "finisher", nil)
	require.NoError(t, err)
	assert.Equal(t, "done", res.Text())
}

// TestStubbornToolAbandonedAtItsDeadline: a tool that ignores its
// cancellation is abandoned at its deadline (its timeout here), its
// outcome unknown; without a deadline, CancelGrace after the
// cancellation.
func TestStubbornToolAbandonedAtItsDeadline(t *testing.T) {
	t.Parallel()
	p := &progressTools{started: make(chan struct{}, 1), release: make(chan struct{})}
	defer close(p.release)
	s := newProgressStatic(t, p)
	for _, tt := range []struct {
		name    string
		atLeast time.Duration
	}{
		{"stubborn_timeout", 150 * time.Millisecond},
		{"stubborn", tool.CancelGrace},
	} {
		ctx, cancel := context.WithCancel(t.Context())
		go func() { <-p.started; cancel() }()
		start := time.Now()
		res, err := s.Call(ctx, tt.name, nil)
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodeCancelled, te.Code, tt.name)
		assert.Equal(t, "the call was cancelled before the tool ended", te.Message, tt.name)
		assert.ErrorIs(t, err, tool.ErrAbandoned, "%s: its outcome is unknown", tt.name)
		assert.GreaterOrEqual(t, time.Since(start), tt.atLeast, "%s: waited for the tool until its deadline", tt.name)
	}
}

// TestProgressAndCancellationRace cancels calls of a tool whose
// goroutines report as fast as they can, for the race detector: every
// call ends as cancelled, its outcome known.
func TestProgressAndCancellationRace(t *testing.T) {
	t.Parallel()
	p := &progressTools{}
	s := newProgressStatic(t, p)
	for range 10 {
		ctx, cancel := context.WithCancel(t.Context())
		var heard atomic.Int64
		listener := tool.ProgressFunc(func(ctx context.Context, r tool.ProgressReport) {
			if heard.Add(1) == 100 {
				cancel()
			}
		})
		res, err := s.Call(tool.WithProgress(ctx, listener), "chatty", nil)
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodeCancelled, te.Code)
		assert.NotErrorIs(t, err, tool.ErrAbandoned)
		assert.GreaterOrEqual(t, heard.Load(), int64(100))
		cancel()
	}
}

// BenchmarkCallProgress compares, in one run, a call of a tool that never
// reports with and without a listener installed (the listener costs
// nothing to a tool that does not report), and the cost of a report.
func BenchmarkCallProgress(b *testing.B) {
	p := &progressTools{n: 1}
	s := newProgressStatic(b, p)
	listener := tool.ProgressFunc(func(context.Context, tool.ProgressReport) {})
	ctx, cancel := context.WithCancel(context.Background()) // a serving context: it can be done
	defer cancel()
	for _, bb := range []struct {
		name, tool string
		ctx        context.Context
	}{
		{"quiet/no_listener", "quiet", ctx},
		{"quiet/listener", "quiet", tool.WithProgress(ctx, listener)},
		{"reports_once/no_listener", "count", ctx},
		{"reports_once/listener", "count", tool.WithProgress(ctx, listener)},
	} {
		b.Run(bb.name, func(b *testing.B) {
			buf := make([]byte, 0, 64)
			b.ReportAllocs()
			for b.Loop() {
				res, err := s.AppendCall(bb.ctx, buf[:0], bb.tool, nil)
				if err != nil {
					b.Fatal(err)
				}
				buf = res.Content
			}
		})
	}
}
