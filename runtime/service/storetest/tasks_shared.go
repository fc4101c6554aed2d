package storetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// taskOptions are the tasks of the shared cases: a short lease, so that a
// killed process's task is found lost soon.
var taskOptions = service.TaskOptions{Tick: 20 * time.Millisecond, Lease: 500 * time.Millisecond}

// newTaskService returns a service over st running the fixture's tools,
// with taskOptions of instance.
func newTaskService(st service.Store, runs, instance string) (*service.Service, error) {
	reg, err := newRegistry(runs)
	if err != nil {
		return nil, err
	}
	o := taskOptions
	o.Instance = instance
	return service.New(reg, &service.Options{Store: st, Tasks: o})
}

// runTaskChild plays the "task" role: a propose tool's task with args,
// accepted, whose tool (blocking) runs until the process is killed.
func runTaskChild(st service.Store, runs, args string) error {
	svc, err := newTaskService(st, runs, "child")
	if err != nil {
		return err
	}
	t, err := svc.StartTask(as(""), "notes_delete", []byte(args))
	if err != nil {
		return err
	}
	say("task %s", t.ID)
	if err := svc.DecideTask(context.Background(), t.ID, alice, true); err != nil {
		return err
	}
	for { // until the process is killed
		time.Sleep(time.Hour)
	}
}

func testKilledMidTask(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	c := startChild(t, b, "task", dsn, runs, envArgs+`={"id":7,"block":true}`)
	id := c.expect("task ")
	c.expect("running")
	c.kill()
	require.Equal(t, []string{"notes_delete 7"}, runLines(t, runs), "it started")

	st := instance(t, b, dsn)
	svc, err := newTaskService(st, runs, "survivor")
	require.NoError(t, err)
	ctx := context.Background()
	var tk *service.Task
	deadline := time.Now().Add(childTimeout)
	for {
		tk, err = svc.Task(ctx, id, alice)
		require.NoError(t, err)
		if tk.Status != service.TaskWorking {
			break
		}
		require.True(t, time.Now().Before(deadline), "the task is still working past its lease")
		time.Sleep(20 * time.Millisecond)
	}
	assert.Equal(t, service.TaskFailed, tk.Status, "failed once its lease passed")
	assert.Empty(t, tk.Instance)
	recs, err := st.Records(ctx, service.Query{Proposal: id})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(recs), 2)
	assert.Equal(t, service.EventConfirmation, recs[1].Event)
	assert.Equal(t, service.OutcomeUnknown, recs[1].Outcome, "the record: outcome unknown")
	p, err := st.Proposal(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, service.StateUnknown, p.State)

	// Never run again: not by the task, not by a confirmation.
	assert.ErrorIs(t, svc.DecideTask(ctx, id, alice, true), service.ErrTaskNotWaiting)
	_, err = svc.Confirm(ctx, id, alice)
	assert.Equal(t, tool.CodeOutcomeUnknown, tool.CodeOf(err))
	assert.Len(t, runLines(t, runs), 1)
}
