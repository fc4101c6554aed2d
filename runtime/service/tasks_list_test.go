package service_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// taskIDs returns the IDs and statuses of ts.
func taskIDs(ts []*service.Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID+" "+t.Status.String())
	}
	return out
}

func TestTasksOfAPrincipal(t *testing.T) {
	// block (a 30ms timeout) runs as a task; it waits until released.
	s, f, _, c := newService(t, &service.Options{Tasks: service.TaskOptions{Threshold: 10 * time.Millisecond, Tick: 5 * time.Millisecond, Lease: time.Hour}})
	running, err := s.StartTask(as(alice, "call-1"), "block", []byte(`{}`))
	require.NoError(t, err)
	c.add(time.Second)
	waiting, err := s.StartTask(as(alice, "call-2"), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	_, err = s.StartTask(as(bob, "call-3"), "block", []byte(`{}`))
	require.NoError(t, err)

	got, err := s.Tasks(as(alice, ""), alice)
	require.NoError(t, err)
	assert.Equal(t, []string{waiting.ID + " input_required", running.ID + " working"}, taskIDs(got), "alice's, newest first")
	got, err = s.Tasks(as(bob, ""), bob)
	require.NoError(t, err)
	assert.Len(t, got, 1, "bob's only")
	got, err = s.Tasks(as(alice, ""), tool.Principal{})
	require.NoError(t, err)
	assert.Empty(t, got, "nobody has no tasks")

	// The proposal confirmed elsewhere (the console's Confirm): its task
	// ended, and is no longer listed.
	_, err = s.Confirm(as(alice, ""), waiting.Proposal, alice)
	require.NoError(t, err)
	got, err = s.Tasks(as(alice, ""), alice)
	require.NoError(t, err)
	assert.Equal(t, []string{running.ID + " working"}, taskIDs(got))

	// The running one ends.
	close(f.release)
	require.Eventually(t, func() bool {
		got, err := s.Tasks(as(alice, ""), alice)
		return err == nil && len(got) == 0
	}, 10*time.Second, 5*time.Millisecond, "a task that ended leaves the list")
}
