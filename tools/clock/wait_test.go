package clock

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// heard keeps the progress a listener hears.
type heard struct {
	mu  sync.Mutex
	got []tool.ProgressReport
	on  func(tool.ProgressReport)
}

func (h *heard) Progress(_ context.Context, p tool.ProgressReport) {
	h.mu.Lock()
	h.got = append(h.got, p)
	h.mu.Unlock()
	if h.on != nil {
		h.on(p)
	}
}

func TestWaitReportsItsProgress(t *testing.T) {
	t.Parallel()
	instant := time.Date(2025, time.March, 24, 9, 0, 0, 0, time.UTC)
	var h heard
	w := WaitTool{Clock: fixed(instant), Step: 10 * time.Millisecond}
	start := time.Now()
	out, err := w.Call(tool.WithProgress(t.Context(), &h), WaitInput{Seconds: 0.045})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 45*time.Millisecond, "it waited")
	assert.Equal(t, Waited{Seconds: 0.045, Until: instant}, out)
	assert.Equal(t, []tool.ProgressReport{
		{Done: 0.01, Total: 0.045, Message: "waited 0.0 s of 0.0 s"},
		{Done: 0.02, Total: 0.045, Message: "waited 0.0 s of 0.0 s"},
		{Done: 0.03, Total: 0.045, Message: "waited 0.0 s of 0.0 s"},
		{Done: 0.04, Total: 0.045, Message: "waited 0.0 s of 0.0 s"},
		{Done: 0.045, Total: 0.045, Message: "waited 0.0 s of 0.0 s"},
	}, h.got, "one report per step, the last at the end")

	// Nobody listening: the same wait.
	out, err = WaitTool{Clock: fixed(instant), Step: 10 * time.Millisecond}.Call(t.Context(), WaitInput{Seconds: 0.02})
	require.NoError(t, err)
	assert.Equal(t, 0.02, out.Seconds)
}

func TestWaitMessages(t *testing.T) {
	t.Parallel()
	var h heard
	_, err := WaitTool{Step: 100 * time.Millisecond}.Call(tool.WithProgress(t.Context(), &h), WaitInput{Seconds: 0.2})
	require.NoError(t, err)
	require.Len(t, h.got, 2)
	assert.Equal(t, tool.ProgressReport{Done: 0.2, Total: 0.2, Message: "waited 0.2 s of 0.2 s"}, h.got[1])
}

func TestWaitStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	h := heard{on: func(tool.ProgressReport) { cancel() }}
	_, err := WaitTool{Step: 10 * time.Millisecond}.Call(tool.WithProgress(ctx, &h), WaitInput{Seconds: 60})
	require.Error(t, err, "it stopped before its minute")
	assert.True(t, errors.Is(err, context.Canceled))
	assert.Len(t, h.got, 1, "nothing after the cancellation")
}
