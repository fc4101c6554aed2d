package run

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goroutineJob records the goroutine it runs on.
type goroutineJob struct{ ids map[uint64]int }

func (j *goroutineJob) Run(context.Context) error {
	var b [64]byte
	s := b[:runtime.Stack(b[:], false)]
	s = bytes.TrimPrefix(s, []byte("goroutine "))
	id, err := strconv.ParseUint(string(s[:bytes.IndexByte(s, ' ')]), 10, 64)
	if err != nil {
		return err
	}
	j.ids[id]++
	return nil
}

func (*goroutineJob) Abandoned(bool) {}

// TestSequentialCallsShareAWorker: calls made one after the other, each
// with a context that can be done (so each goes to a worker), run on one
// worker goroutine: the worker that ran a call is handed the next one,
// however the scheduler orders its return and the caller's next call.
// Before the worker counted itself idle before handing the outcome back,
// the caller's next call could come before the worker waited for it, and
// started a goroutine (and a timer) of its own.
func TestSequentialCallsShareAWorker(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		t.Run("GOMAXPROCS="+strconv.Itoa(procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			r, err := New(1, 0)
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			j := &goroutineJob{ids: map[uint64]int{}}
			const calls = 5000
			for range calls {
				ended, err := r.Run(ctx, 0, "j", 0, j)
				require.NoError(t, err)
				require.Equal(t, Returned, ended)
			}
			assert.Len(t, j.ids, 1, "goroutines that ran %d calls in a row", calls)
		})
	}
}

// TestWorkerLeavesAfterIdle: a worker that waited workerIdle for a run
// takes itself off the count and ends; the next call starts another
// (a caller claiming a worker that has left would wait for ever).
func TestWorkerLeavesAfterIdle(t *testing.T) {
	t.Parallel()
	r, err := New(1, 0)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	j := &goroutineJob{ids: map[uint64]int{}}
	_, err = r.Run(ctx, 0, "j", 0, j)
	require.NoError(t, err)
	assert.EqualValues(t, 1, r.waiting.Load(), "the worker waits")
	require.Eventually(t, func() bool { return r.waiting.Load() == 0 }, workerIdle+5*time.Second, 10*time.Millisecond, "the worker left")
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(ctx, 0, "j", 0, j)
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("the call after the worker left never ran")
	}
	assert.Len(t, j.ids, 2, "a new worker ran it")
}
