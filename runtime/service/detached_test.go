package service

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type valueKey struct{}

// isDone reports whether ch is closed, without waiting.
func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestRecordContext checks that a record's write context is what
// context.WithTimeout(context.WithoutCancel(ctx), d) is: ctx's values,
// none of its cancellation, a deadline, and an end when stopped or past
// the deadline, whether Done was asked before or after.
func TestRecordContext(t *testing.T) {
	t.Parallel()
	caller, hangUp := context.WithCancelCause(context.WithValue(context.Background(), valueKey{}, "span"))
	hangUp(errors.New("client gone"))

	t.Run("detached", func(t *testing.T) {
		t.Parallel()
		before := time.Now()
		ctx, stop := detached(caller)
		defer stop()
		assert.Equal(t, "span", ctx.Value(valueKey{}))
		assert.NoError(t, ctx.Err(), "the caller's cancellation does not reach the write")
		assert.False(t, isDone(ctx.Done()))
		assert.NoError(t, context.Cause(ctx))
		dl, ok := ctx.Deadline()
		require.True(t, ok)
		assert.WithinRange(t, dl, before.Add(recordTimeout), time.Now().Add(recordTimeout))
		assert.Equal(t, "span", ctx.Value(valueKey{}), "values pass once Done was asked")
	})
	for _, asked := range []bool{false, true} {
		name := map[bool]string{false: "StopBeforeDone", true: "StopAfterDone"}[asked]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, stop := detached(caller)
			var done <-chan struct{}
			var child context.Context = context.Background()
			if asked {
				done = ctx.Done()
				var cancelChild context.CancelFunc
				child, cancelChild = context.WithCancel(ctx) // attached to the timed context
				defer cancelChild()
			}
			stop()
			assert.ErrorIs(t, ctx.Err(), context.Canceled)
			assert.ErrorIs(t, context.Cause(ctx), context.Canceled, "not the caller's cause")
			assert.True(t, isDone(ctx.Done()))
			if asked {
				assert.True(t, isDone(done))
			} else {
				var cancelChild context.CancelFunc
				child, cancelChild = context.WithCancel(ctx)
				defer cancelChild()
			}
			select {
			case <-child.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("a context derived from it is not cancelled with it")
			}
			stop() // again: nothing
		})
	}
	for _, asked := range []bool{false, true} {
		name := map[bool]string{false: "DeadlineBeforeDone", true: "DeadlineAfterDone"}[asked]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := newRecordContext(caller, 20*time.Millisecond)
			defer ctx.stop()
			if asked {
				select {
				case <-ctx.Done():
				case <-time.After(10 * time.Second):
					t.Fatal("not done at its deadline")
				}
			} else {
				_, _ = ctx.Deadline() // the timeout counts from the first look
				time.Sleep(30 * time.Millisecond)
				assert.ErrorIs(t, ctx.Err(), context.DeadlineExceeded)
				assert.True(t, isDone(ctx.Done()), "Err said it ended: Done is closed")
			}
			assert.ErrorIs(t, ctx.Err(), context.DeadlineExceeded)
		})
	}
}
