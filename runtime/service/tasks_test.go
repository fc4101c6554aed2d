package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// TestTaskToolChoice: propose tools and tools whose timeout reaches the
// threshold run as tasks, when offered and called with arguments they
// accept; clock_wait (70s) is one by default.
func TestTaskToolChoice(t *testing.T) {
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Now())))
	require.NoError(t, err)
	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete"}}
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: ana})
	svc, err := service.New(reg, nil)
	require.NoError(t, err)
	wait := []byte(`{"seconds":1}`)
	assert.True(t, svc.TaskTool(ctx, "clock_wait", wait), "a 70s timeout")
	assert.False(t, svc.TaskTool(ctx, "clock_wait", []byte(`{"seconds":"x"}`)), "arguments the tool refuses")
	assert.False(t, svc.TaskTool(ctx, "clock_now", nil))
	assert.False(t, svc.TaskTool(ctx, "no_such_tool", nil))
	assert.True(t, svc.TaskTool(ctx, "notes_delete", []byte(`{"id":"n1"}`)), "a propose tool")
	reader := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "ben", Permissions: []string{"notes.read"}}})
	assert.False(t, svc.TaskTool(reader, "notes_delete", []byte(`{"id":"n1"}`)), "not offered to ben")
	assert.False(t, svc.TaskTool(context.Background(), "clock_wait", wait), "no principal: nothing is offered")
	only, err := service.New(reg, &service.Options{Tasks: service.TaskOptions{Threshold: -1}})
	require.NoError(t, err)
	assert.False(t, only.TaskTool(ctx, "clock_wait", wait), "a negative threshold: propose tools only")
	assert.True(t, only.TaskTool(ctx, "notes_delete", []byte(`{"id":"n1"}`)))
}

// TestTaskOptionsChecked: a lease that two ticks would not renew in time
// is refused, as are negative durations.
func TestTaskOptionsChecked(t *testing.T) {
	_, reg := newFixture(t)
	for _, o := range []service.TaskOptions{{Tick: time.Second, Lease: 2 * time.Second}, {TTL: -1}, {Tick: -1}} {
		_, err := service.New(reg, &service.Options{Tasks: o})
		assert.Error(t, err, "%+v", o)
	}
}

// TestStartTaskRefusals: no task for a tool that is not a task tool, for
// a caller without a principal, or for a proposal the service refuses.
func TestStartTaskRefusals(t *testing.T) {
	svc, f, st, _ := newService(t, nil)
	_, err := svc.StartTask(as(alice, ""), "echo", []byte(`{}`))
	assert.ErrorIs(t, err, service.ErrNotTask)
	_, err = svc.StartTask(context.Background(), "notes_delete", []byte(`{"id":1}`))
	assert.ErrorIs(t, err, service.ErrNotTask, "no principal: nothing is offered")
	_, err = svc.StartTask(as(bob, ""), "notes_delete", []byte(`{"id":1}`))
	assert.ErrorIs(t, err, service.ErrNotTask, "not offered to bob")
	assert.False(t, svc.TaskTool(as(bob, ""), "notes_delete", []byte(`{"id":1}`)))
	assert.Zero(t, f.runs[tNotesDelete].Load())
	ps, err := st.Proposals(context.Background(), service.ProposalQuery{})
	require.NoError(t, err)
	assert.Empty(t, ps)
}

// TestTaskTTLAndPurge: a task is answered for its TTL, then as unknown,
// and Purge deletes it.
func TestTaskTTLAndPurge(t *testing.T) {
	svc, _, st, c := newService(t, &service.Options{Tasks: service.TaskOptions{TTL: time.Hour}})
	tk, err := svc.StartTask(as(alice, ""), "notes_delete", []byte(`{"id":1}`))
	require.NoError(t, err)
	assert.Equal(t, service.TaskInputRequired, tk.Status)
	assert.Equal(t, tk.Proposal, tk.ID, "a propose tool's task has its proposal's ID")
	_, err = svc.Task(context.Background(), tk.ID, alice)
	require.NoError(t, err)
	_, err = svc.Task(context.Background(), tk.ID, bob)
	assert.ErrorIs(t, err, service.ErrTaskNotFound, "another principal's")
	c.add(time.Hour + time.Second)
	_, err = svc.Task(context.Background(), tk.ID, alice)
	assert.ErrorIs(t, err, service.ErrTaskNotFound, "expired")
	_, err = svc.Purge(context.Background(), 24*time.Hour)
	require.NoError(t, err)
	_, err = st.Task(context.Background(), tk.ID)
	assert.ErrorIs(t, err, service.ErrTaskNotFound, "purged")
}

// TestTaskCancelWaiting: cancelling a task that waits for a person
// rejects its proposal: it never runs, and the task reads cancelled.
func TestTaskCancelWaiting(t *testing.T) {
	svc, f, _, _ := newService(t, nil)
	tk, err := svc.StartTask(as(alice, ""), "notes_delete", []byte(`{"id":1}`))
	require.NoError(t, err)
	require.NoError(t, svc.CancelTask(context.Background(), tk.ID, alice))
	got, err := svc.Task(context.Background(), tk.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, service.TaskCancelled, got.Status)
	_, err = svc.Confirm(context.Background(), tk.Proposal, alice)
	assert.Equal(t, tool.CodeProposalRejected, tool.CodeOf(err))
	assert.Zero(t, f.runs[tNotesDelete].Load())
	assert.ErrorIs(t, svc.CancelTask(context.Background(), tk.ID, alice), service.ErrTaskFinished)
	assert.ErrorIs(t, svc.DecideTask(context.Background(), tk.ID, alice, true), service.ErrTaskNotWaiting)
}

// TestProposeTaskExpires: a propose tool's task whose proposal expires
// unconfirmed completes (nothing ran); accepting it then is refused.
func TestProposeTaskExpires(t *testing.T) {
	svc, f, _, c := newService(t, &service.Options{ProposalTTL: time.Minute})
	tk, err := svc.StartTask(as(alice, ""), "notes_delete", []byte(`{"id":1}`))
	require.NoError(t, err)
	c.add(time.Minute + time.Second)
	got, err := svc.Task(context.Background(), tk.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, service.TaskCompleted, got.Status)
	assert.Equal(t, "expired: nothing ran", got.Message)
	assert.ErrorIs(t, svc.DecideTask(context.Background(), tk.ID, alice, true), service.ErrTaskNotWaiting)
	assert.Zero(t, f.runs[tNotesDelete].Load())
}

// TestProposeTaskConfirmedElsewhereLost: a propose tool's task whose
// proposal was confirmed outside the task and never settled (the process
// running it died) reads failed once the run is no longer awaited.
func TestProposeTaskConfirmedElsewhereLost(t *testing.T) {
	svc, f, st, c := newService(t, &service.Options{AwaitRunning: time.Minute})
	tk, err := svc.StartTask(as(alice, ""), "notes_delete", []byte(`{"id":1}`))
	require.NoError(t, err)
	// What a process that claimed it and died left.
	rec := &service.Record{Time: c.now(), Principal: "alice", Tool: "notes_delete", Kind: tool.KindPropose,
		Event: service.EventConfirmation, Outcome: service.OutcomeStarted, Proposal: tk.Proposal}
	_, err = st.Claim(context.Background(), tk.Proposal, rec)
	require.NoError(t, err)
	got, err := svc.Task(context.Background(), tk.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, service.TaskWorking, got.Status, "its run is awaited")
	c.add(time.Minute + time.Second)
	got, err = svc.Task(context.Background(), tk.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, service.TaskFailed, got.Status)
	assert.Zero(t, f.runs[tNotesDelete].Load())
}
