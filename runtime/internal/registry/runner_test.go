package registry_test

import (
	"bytes"
	"context"
	"runtime"
	"strings"
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

// runFixture serves tools that misbehave in the ways the Runner is for.
type runFixture struct {
	runs    atomic.Int32  // runs started
	ended   atomic.Int32  // runs of "stuck" that ended
	release chan struct{} // closed to let "stuck" return
	huge    string        // what "huge" returns
}

func (f *runFixture) specs() []tool.Spec {
	return []tool.Spec{
		{Name: "action", Kind: tool.KindAction},
		{Name: "exit", Kind: tool.KindAction},
		{Name: "huge", Kind: tool.KindRead},
		{Name: "many", Kind: tool.KindRead},
		{Name: "stuck", Kind: tool.KindAction, Timeout: 20 * time.Millisecond},
		{Name: "stuck_no_timeout", Kind: tool.KindAction},
	}
}

func (f *runFixture) dispatch(ctx context.Context, name string, mode registry.Mode, in *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
	in.Skip()
	in.End()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode == registry.ModeCheck {
		return 0, err
	}
	f.runs.Add(1)
	switch name {
	case "action":
		out.RawText("done")
	case "exit":
		runtime.Goexit()
	case "huge":
		out.ObjectStart()
		out.Key("text")
		out.String(f.huge)
		out.ObjectEnd()
		return registry.OutputJSON, nil
	case "many":
		chunk := strings.Repeat("y", 64)
		for range 1 << 20 { // 64 MiB in small writes
			out.RawText(chunk)
		}
	case "stuck", "stuck_no_timeout":
		<-f.release // ignores ctx
		// Writes well past whatever capacity a caller's buffer has.
		out.RawText(strings.Repeat("z", 4096))
		f.ended.Add(1)
	}
	return registry.OutputText, nil
}

func newRunFixture(t *testing.T, opts ...tool.Option) (*runFixture, *registry.Static) {
	t.Helper()
	f := &runFixture{release: make(chan struct{})}
	s, err := newStatic(f.specs(), f.dispatch, opts...)
	require.NoError(t, err)
	return f, s
}

func TestRunnerGoexit(t *testing.T) {
	t.Parallel()
	f, s := newRunFixture(t)
	res, err := s.Call(t.Context(), "exit", nil)
	te := requireFailure(t, res, err)
	assert.Equal(t, tool.CodeFailed, te.Code)
	assert.Equal(t, "the tool failed", te.Message)
	assert.Contains(t, te.Cause.Error(), "runtime.Goexit")
	res, err = s.AppendCall(t.Context(), []byte("x:"), "exit", nil)
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.True(t, res.IsError)
	assert.Equal(t, "x:the tool failed", res.Text())
	assert.Equal(t, int32(2), f.runs.Load())

	// With a context that can never be done and no timeout, nothing could
	// abandon the run: it runs on the caller's goroutine, and a Goexit
	// ends that goroutine, as documented.
	returned := make(chan bool)
	go func() {
		ok := false
		defer func() { returned <- ok }()
		_, _ = s.Call(context.Background(), "exit", nil)
		ok = true
	}()
	assert.False(t, <-returned, "Goexit ends the caller's goroutine on the inline path")
	assert.Equal(t, int32(3), f.runs.Load())

	res, err = s.Call(t.Context(), "action", nil)
	require.NoError(t, err)
	assert.Equal(t, "done", res.Text(), "the registry goes on serving")
}

func TestRunnerContextDoneBeforeTheRun(t *testing.T) {
	t.Parallel()
	f, s := newRunFixture(t)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	expired, cancel2 := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, tt := range []struct {
		ctx     context.Context
		code    tool.Code
		message string
		is      error
	}{
		{cancelled, tool.CodeCancelled, "the call was cancelled; nothing was run", context.Canceled},
		{expired, tool.CodeTimeout, "the call's deadline had passed; nothing was run", context.DeadlineExceeded},
	} {
		res, err := s.Call(tt.ctx, "action", nil)
		te := requireFailure(t, res, err)
		assert.Equal(t, tt.code, te.Code)
		assert.Equal(t, "action", te.Tool)
		assert.Equal(t, tt.message, te.Message)
		assert.ErrorIs(t, err, tt.is)
		err = s.Check(tt.ctx, "action", nil)
		assert.Equal(t, tt.code, tool.CodeOf(err))
	}
	assert.Zero(t, f.runs.Load(), "an action does not run after the caller gave up")
}

// TestRunnerAbandons: a tool that ignores its context is answered at its
// timeout (or the caller's cancellation); its run goes on, writing into
// neither the caller's buffer nor codecs another call uses, and past the
// cap its tool is refused until abandoned runs end.
func TestRunnerAbandons(t *testing.T) {
	t.Parallel()
	f, s := newRunFixture(t, tool.WithMaxAbandoned(2))

	// At the timeout, through AppendCall: the buffer's spare capacity is
	// watched.
	dst := make([]byte, 2, 1<<16)
	copy(dst, "a:")
	start := time.Now()
	res, err := s.AppendCall(context.Background(), dst, "stuck", nil)
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.True(t, res.IsError)
	assert.Less(t, time.Since(start), 5*time.Second, "answered at the timeout")
	assert.Equal(t, tool.CodeTimeout, te.Code)
	assert.Equal(t, "the tool timed out after 20ms", te.Message)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, tool.ErrAbandoned)
	assert.Equal(t, "a:the tool timed out after 20ms", res.Text())
	snapshot := bytes.Clone(dst[:cap(dst)])

	// At the caller's cancellation, with no timeout of the tool's own.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	res, err = s.Call(ctx, "stuck_no_timeout", nil)
	cancel()
	te = requireFailure(t, res, err)
	assert.Equal(t, tool.CodeTimeout, te.Code)
	assert.Equal(t, "the call's deadline passed before the tool ended", te.Message)
	ctx, cancel = context.WithCancel(t.Context())
	time.AfterFunc(2*time.Millisecond, cancel)
	res, err = s.Call(ctx, "stuck", nil)
	te = requireFailure(t, res, err)
	if te.Code != tool.CodeBusy { // the cap is per tool: stuck has one abandoned run
		assert.Equal(t, tool.CodeCancelled, te.Code)
		assert.Equal(t, "the call was cancelled before the tool ended", te.Message)
	}

	// stuck has two abandoned runs: the cap.
	res, err = s.Call(t.Context(), "stuck", nil)
	te = requireFailure(t, res, err)
	assert.Equal(t, tool.CodeBusy, te.Code)
	assert.Contains(t, te.Message, "tool stuck is busy")
	runs := f.runs.Load()
	assert.Equal(t, int32(3), runs, "a refused call runs nothing")
	assert.NotErrorIs(t, err, tool.ErrAbandoned)

	// A call that would run inline (no timeout, a context that is never
	// done) is refused as well, before it runs (it would never end):
	// stuck_no_timeout gets its second abandoned run first.
	ctx, cancel = context.WithTimeout(t.Context(), 20*time.Millisecond)
	_, err = s.Call(ctx, "stuck_no_timeout", nil)
	cancel()
	assert.Equal(t, tool.CodeTimeout, tool.CodeOf(err))
	res, err = s.AppendCall(context.Background(), []byte("b:"), "stuck_no_timeout", nil)
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeBusy, te.Code)
	assert.True(t, res.IsError)
	assert.Equal(t, "b:"+te.Message, res.Text())
	assert.Equal(t, runs+1, f.runs.Load(), "a refused call runs nothing")

	res, err = s.Call(t.Context(), "action", nil)
	require.NoError(t, err, "other tools are served")
	assert.Equal(t, "done", res.Text())

	// Meanwhile other calls use pooled codecs (the race detector sees any
	// sharing with the abandoned runs' codecs).
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				res, err := s.Call(t.Context(), "action", nil)
				if assert.NoError(t, err) {
					assert.Equal(t, "done", res.Text())
				}
			}
		})
	}
	close(f.release)
	wg.Wait()
	require.Eventually(t, func() bool { return f.ended.Load() == 4 }, 5*time.Second, time.Millisecond)
	assert.Equal(t, snapshot, dst[:cap(dst)], "an abandoned run never writes into the caller's buffer")

	// Once the abandoned runs end, stuck is served again.
	require.Eventually(t, func() bool {
		_, err := s.Call(t.Context(), "stuck", nil)
		return tool.CodeOf(err) != tool.CodeBusy
	}, 5*time.Second, time.Millisecond)
}

// TestOutputCapStopsEncoding: a tool whose output is far over the cap is
// answered without the runtime copying that output: what a call allocates
// stays near the cap.
func TestOutputCapStopsEncoding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 64 MiB")
	}
	f, s := newRunFixture(t, tool.WithMaxOutputBytes(1<<10))
	f.huge = strings.Repeat("x", 64<<20)
	for _, name := range []string{"huge", "many"} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := s.Call(context.Background(), name, nil)
		runtime.ReadMemStats(&after)
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodeOutputTooLarge, te.Code, name)
		assert.Equal(t, "the tool's output exceeds 1024 bytes", te.Message, name)
		// Far below the 64 MiB of output (and the 128 MiB or more that
		// encoding it would take): the cap, the codecs, the run.
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), name)
	}
}

func TestNewRefusesNegativeMaxAbandoned(t *testing.T) {
	t.Parallel()
	_, err := newStatic(nil, func(context.Context, string, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		return 0, nil
	}, tool.WithMaxAbandoned(-1))
	require.Error(t, err)
}
