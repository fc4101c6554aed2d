package service

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type detachedKey struct{}

func TestRecordContextKeepsValuesNotCancellation(t *testing.T) {
	t.Parallel()
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), detachedKey{}, "span"))
	cancel(assert.AnError)
	w := detached(parent)
	assert.Equal(t, "span", w.Value(detachedKey{}))
	require.NoError(t, w.Err(), "the caller's cancellation does not reach a write")
	require.NoError(t, context.Cause(w))
	dl, ok := w.Deadline()
	assert.True(t, ok)
	assert.WithinDuration(t, time.Now().Add(recordTimeout), dl, time.Second)
	select {
	case <-w.Done():
		t.Fatal("done before its deadline or close")
	default:
	}
	assert.Equal(t, "span", w.Value(detachedKey{}), "values after Done started the timer")
	require.NoError(t, context.Cause(w))
	w.close()
	<-w.Done()
	assert.ErrorIs(t, w.Err(), context.Canceled)
	assert.ErrorIs(t, context.Cause(w), context.Canceled)
}

func TestRecordContextWithoutDone(t *testing.T) {
	t.Parallel()
	w := detached(context.Background())
	child, stop := context.WithCancel(w) // asks for Done: the child hears close
	defer stop()
	w.close()
	<-child.Done()
	assert.ErrorIs(t, child.Err(), context.Canceled)

	w.open(context.Background())
	require.NoError(t, w.Err(), "opened again for the next write")
	w.close()
	assert.ErrorIs(t, w.Err(), context.Canceled, "closed before any Done")
	<-w.Done()
}

func TestRecordContextDeadline(t *testing.T) {
	t.Parallel()
	w := &recordContext{}
	w.open(context.Background())
	assert.True(t, w.deadline.IsZero(), "the clock is read only when a store asks")
	w.deadline = time.Now().Add(-time.Millisecond) // as if recordTimeout had passed
	assert.ErrorIs(t, w.Err(), context.DeadlineExceeded, "without a timer")
	w.open(context.Background())
	w.deadline = time.Now().Add(20 * time.Millisecond)
	<-w.Done()
	assert.ErrorIs(t, w.Err(), context.DeadlineExceeded, "with the timer")
	w.close()
}

func TestRecordContextAllocations(t *testing.T) {
	var w recordContext
	ctx := context.Background()
	assert.Zero(t, testing.AllocsPerRun(20, func() {
		w.open(ctx)
		_ = w.Err()
		w.close()
	}), "a write that never waits costs no allocation")
}
