package run

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"testing"

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
