package run

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestNewRunner(t *testing.T) {
	t.Parallel()
	_, err := New(-1, 0)
	require.Error(t, err)
	_, err = New(1, -1)
	require.Error(t, err)
	r, err := New(2, 0)
	require.NoError(t, err)
	assert.Zero(t, r.AbandonedRuns(1))
	for e, want := range map[Ended]string{Refused: "refused", Returned: "returned", Crashed: "crashed", Abandoned: "abandoned", 9: "Ended(9)"} {
		assert.Equal(t, want, e.String())
	}
}

// TestRunnerDirect runs a Job through a Runner without a registry: what a
// dynamic toolkit does.
func TestRunnerDirect(t *testing.T) {
	t.Parallel()
	r, err := New(1, 1)
	require.NoError(t, err)
	spec := &tool.Spec{Name: "j", Timeout: 10 * time.Millisecond}
	j := &job{release: make(chan struct{}), abandoned: make(chan bool, 1)}
	ended, err := r.Run(t.Context(), 0, spec.Name, spec.Timeout, j)
	assert.Equal(t, Abandoned, ended)
	assert.Equal(t, tool.CodeTimeout, tool.CodeOf(err))
	assert.Equal(t, 1, r.AbandonedRuns(0))
	ended, err = r.Run(t.Context(), 0, spec.Name, spec.Timeout, j)
	assert.Equal(t, Refused, ended)
	assert.Equal(t, tool.CodeBusy, tool.CodeOf(err))
	close(j.release)
	assert.True(t, <-j.abandoned, "Abandoned is called once the run ends, healthy")
	require.Eventually(t, func() bool { return r.AbandonedRuns(0) == 0 }, 5*time.Second, time.Millisecond)

	ended, err = r.Run(t.Context(), 0, spec.Name, spec.Timeout, panicJob{})
	assert.Equal(t, Crashed, ended)
	assert.Equal(t, tool.CodePanic, tool.CodeOf(err))
	ended, err = r.Run(t.Context(), 0, "j", 0, &job{release: j.release})
	assert.Equal(t, Returned, ended)
	assert.ErrorIs(t, err, errJob)
	assert.NotErrorIs(t, err, tool.ErrAbandoned)
}

var errJob = errors.New("job done")

type job struct {
	release   chan struct{}
	abandoned chan bool
}

func (j *job) Run(context.Context) error { <-j.release; return errJob }
func (j *job) Abandoned(healthy bool)    { j.abandoned <- healthy }

type panicJob struct{}

func (panicJob) Run(context.Context) error { panic("boom") }
func (panicJob) Abandoned(bool)            {}

// giveUpJob returns an error wrapping tool.ErrAbandoned as soon as its
// context is done, as a remote call does once it has sent its request.
type giveUpJob struct{ started chan struct{} }

func (j giveUpJob) Run(ctx context.Context) error {
	close(j.started)
	<-ctx.Done()
	return fmt.Errorf("remote: %w: %w", tool.ErrAbandoned, ctx.Err())
}
func (giveUpJob) Abandoned(bool) {}

// TestRunnerNamesAJobThatGaveUp: a job that returns ErrAbandoned when its
// context ends is reported as a cancellation or a timeout whether Run saw
// the context done first or the job's return first (both race; many
// tries make each order happen).
func TestRunnerNamesAJobThatGaveUp(t *testing.T) {
	t.Parallel()
	r, err := New(1, 1000)
	require.NoError(t, err)
	for range 200 {
		ctx, cancel := context.WithCancel(t.Context())
		j := giveUpJob{started: make(chan struct{})}
		go func() { <-j.started; cancel() }()
		_, err := r.Run(ctx, 0, "remote", 0, j)
		require.Equal(t, tool.CodeCancelled, tool.CodeOf(err))
		require.ErrorIs(t, err, tool.ErrAbandoned)
	}
	_, err = r.Run(t.Context(), 0, "remote", time.Millisecond, giveUpJob{started: make(chan struct{})})
	assert.Equal(t, tool.CodeTimeout, tool.CodeOf(err))
	assert.ErrorIs(t, err, tool.ErrAbandoned)
}
