package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// newTask returns a working task held by instance "a".
func newTask(id string, at time.Time) *service.Task {
	return &service.Task{
		ID: id, Principal: "alice", Conversation: "c1", CallID: "call-1", Tool: "slow", Status: service.TaskWorking,
		Message: "started", Created: at, Updated: at, Expires: at.Add(time.Hour), PollInterval: 1500 * time.Millisecond,
		Instance: "a", Lease: at.Add(10 * time.Second),
	}
}

// equalTask asserts that got is want, times compared as instants.
func equalTask(t *testing.T, want, got service.Task, msg string) {
	t.Helper()
	for _, p := range [][2]time.Time{{want.Created, got.Created}, {want.Updated, got.Updated}, {want.Expires, got.Expires}, {want.Lease, got.Lease}} {
		assert.True(t, p[0].Equal(p[1]), "%s: time %v, want %v", msg, p[1], p[0])
	}
	want.Created, want.Updated, want.Expires, want.Lease = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	got.Created, got.Updated, got.Expires, got.Lease = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	normBytes(&want.Result, &got.Result)
	assert.Equal(t, want, got, msg)
}

func testTaskRoundTrip(t *testing.T, st service.Store) {
	ctx := context.Background()
	_, err := st.Task(ctx, "missing")
	assert.ErrorIs(t, err, service.ErrTaskNotFound)

	tk := newTask("task-1", t0)
	tk.Message = "nul\x00 and \x1b and \xff"
	require.NoError(t, st.CreateTask(ctx, tk))
	assert.EqualValues(t, 1, tk.Version)
	got, err := st.Task(ctx, "task-1")
	require.NoError(t, err)
	equalTask(t, *tk, *got, "created")

	again := newTask("task-1", t0)
	again.Principal = "mallory"
	assert.ErrorIs(t, st.CreateTask(ctx, again), service.ErrTaskExists)
	got, err = st.Task(ctx, "task-1")
	require.NoError(t, err)
	assert.Equal(t, "alice", got.Principal, "a second create writes nothing")

	// Every field survives an update, result bytes of any kind included.
	got.Status, got.Result, got.Structured, got.IsError = service.TaskCompleted, []byte("{\"x\":\"\x00\xff\"}"), true, true
	got.Error, got.Instance, got.Lease, got.CancelRequested = "why", "", time.Time{}, true
	got.Updated, got.Proposal = t0.Add(time.Second), "p-1"
	require.NoError(t, st.UpdateTask(ctx, got))
	assert.EqualValues(t, 2, got.Version)
	back, err := st.Task(ctx, "task-1")
	require.NoError(t, err)
	equalTask(t, *got, *back, "updated")

	// A read is a copy: changing it changes nothing stored.
	back.Result[0] = 'X'
	again2, err := st.Task(ctx, "task-1")
	require.NoError(t, err)
	assert.Equal(t, byte('{'), again2.Result[0])
}

func testTaskUpdateVersion(t *testing.T, st service.Store) {
	ctx := context.Background()
	tk := newTask("task-v", t0)
	require.NoError(t, st.CreateTask(ctx, tk))
	stale := *tk
	tk.Message = "first"
	require.NoError(t, st.UpdateTask(ctx, tk))
	stale.Message = "second"
	assert.ErrorIs(t, st.UpdateTask(ctx, &stale), service.ErrTaskChanged)
	assert.EqualValues(t, 1, stale.Version, "a refused update leaves the version as read")
	got, err := st.Task(ctx, "task-v")
	require.NoError(t, err)
	assert.Equal(t, "first", got.Message)

	missing := newTask("task-none", t0)
	missing.Version = 1
	assert.ErrorIs(t, st.UpdateTask(ctx, missing), service.ErrTaskNotFound)
}

func testConcurrentTaskUpdates(t *testing.T, st service.Store) {
	ctx := context.Background()
	tk := newTask("task-c", t0)
	require.NoError(t, st.CreateTask(ctx, tk))
	const n = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := *tk
			mine.Instance = string(rune('a' + i))
			err := st.UpdateTask(ctx, &mine)
			if err == nil {
				mu.Lock()
				won++
				mu.Unlock()
				return
			}
			assert.True(t, errors.Is(err, service.ErrTaskChanged), "a losing update: %v", err)
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, won, "of concurrent updates of one version, one wins")
	got, err := st.Task(ctx, "task-c")
	require.NoError(t, err)
	assert.EqualValues(t, 2, got.Version)
}

func testPurgeTasks(t *testing.T, st service.Store) {
	ctx := context.Background()
	old, fresh := newTask("task-old", t0), newTask("task-new", t0)
	old.Expires, fresh.Expires = t0.Add(time.Minute), t0.Add(time.Hour)
	require.NoError(t, st.CreateTask(ctx, old))
	require.NoError(t, st.CreateTask(ctx, fresh))
	n, err := st.PurgeTasks(ctx, t0.Add(30*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	_, err = st.Task(ctx, "task-old")
	assert.ErrorIs(t, err, service.ErrTaskNotFound)
	_, err = st.Task(ctx, "task-new")
	assert.NoError(t, err)
}
