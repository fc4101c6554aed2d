package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// testTasksOfPrincipal checks Store.Tasks: a principal's tasks that have
// not ended, newest first, at most the limit; another principal's and
// ended ones are not listed, and a task that ends leaves the list.
func testTasksOfPrincipal(t *testing.T, st service.Store) {
	ctx := context.Background()
	ids := func(ts []*service.Task) []string {
		var out []string
		for _, tk := range ts {
			out = append(out, tk.ID)
		}
		return out
	}
	add := func(id, principal string, status service.TaskStatus, at time.Duration) *service.Task {
		tk := newTask(id, t0.Add(at))
		tk.Principal, tk.Status = principal, status
		require.NoError(t, st.CreateTask(ctx, tk))
		return tk
	}
	running := add("t-running", "alice", service.TaskWorking, 0)
	add("t-waiting", "alice", service.TaskInputRequired, time.Second)
	add("t-done", "alice", service.TaskCompleted, 2*time.Second)
	add("t-failed", "alice", service.TaskFailed, 3*time.Second)
	add("t-cancelled", "alice", service.TaskCancelled, 4*time.Second)
	add("t-bob", "bob", service.TaskWorking, 5*time.Second)

	got, err := st.Tasks(ctx, "alice", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"t-waiting", "t-running"}, ids(got), "alice's unfinished tasks, newest first")
	equalTask(t, *running, *got[1], "listed as stored")

	got, err = st.Tasks(ctx, "alice", 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"t-waiting"}, ids(got), "at most the limit")

	got, err = st.Tasks(ctx, "bob", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"t-bob"}, ids(got))

	got, err = st.Tasks(ctx, "nobody", 10)
	require.NoError(t, err)
	assert.Empty(t, got)

	running.Status = service.TaskCancelled
	require.NoError(t, st.UpdateTask(ctx, running))
	got, err = st.Tasks(ctx, "alice", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"t-waiting"}, ids(got), "a task that ended leaves the list")
}
