package storetest

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func testKilledBeforeConfirm(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	// A process proposes, and is killed before anyone confirms.
	p := startChild(t, b, "propose", dsn, runs, envArgs+`={"id":7}`)
	id := p.expect("proposal ")
	p.kill()
	assert.Empty(t, runLines(t, runs), "a proposal runs nothing")
	st := instance(t, b, dsn)
	row, err := st.Proposal(context.Background(), id)
	require.NoError(t, err, "the proposal survived")
	assert.Equal(t, service.StatePending, row.State)

	// After the restart (a new process) the proposal is there, and runs
	// once.
	c := startChild(t, b, "confirm", dsn, runs, envArg+"="+id)
	c.expect("ready")
	c.send("go")
	assert.Equal(t, map[string]int{"ok": 1}, c.counts())
	c.wait()
	assert.Equal(t, []string{"notes_delete 7"}, runLines(t, runs))

	row, err = st.Proposal(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, service.StateDone, row.State)

	// And never again.
	svc := serve(t, st, nil, runs)
	_, err = svc.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeAlreadyConfirmed, tool.CodeOf(err))
	assert.Len(t, runLines(t, runs), 1)
}

func testKilledMidRun(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	svc := serve(t, st, nil, runs)
	res, err := svc.Call(as(""), "notes_delete", []byte(`{"id":7,"block":true}`))
	require.NoError(t, err)
	id := proposalID(t, res)

	// A process confirms it and is killed while the tool runs.
	c := startChild(t, b, "confirm", dsn, runs, envArg+"="+id)
	c.expect("ready")
	c.send("go")
	c.expect("running")
	c.kill()
	require.Equal(t, []string{"notes_delete 7"}, runLines(t, runs), "it started")

	// Its outcome is unknown: never run again, and confirming is refused
	// with that reason, on any instance.
	for range 2 {
		_, err = svc.Confirm(context.Background(), id, alice)
		assert.Equal(t, tool.CodeOutcomeUnknown, tool.CodeOf(err))
		assert.Contains(t, err.Error(), "not run again")
	}
	assert.Len(t, runLines(t, runs), 1, "never re-run")
	p, err := st.Proposal(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, service.StateRunning, p.State, "as the killed process left it")
	recs, err := st.Records(context.Background(), service.Query{Proposal: id})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(recs), 2)
	assert.Equal(t, service.EventConfirmation, recs[1].Event)
	assert.Equal(t, service.OutcomeStarted, recs[1].Outcome, "the run's start was recorded before it ran, and never its end")
}

func testKilledMidCall(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	c := startChild(t, b, "call", dsn, runs, envArg+"=toolu_k", envArgs+`={"text":"x","block":true}`)
	c.expect("running")
	c.kill()
	require.Equal(t, []string{"act toolu_k x"}, runLines(t, runs))

	svc := serve(t, instance(t, b, dsn), nil, runs)
	_, err := svc.Call(as("toolu_k"), "act", []byte(`{"text":"x","block":true}`))
	assert.Equal(t, tool.CodeOutcomeUnknown, tool.CodeOf(err), "a retry of the call ID is not run again")
	assert.Len(t, runLines(t, runs), 1)
}

func testConfirmsOverTwoProcesses(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	svc := serve(t, instance(t, b, dsn), nil, runs)
	res, err := svc.Call(as(""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	id := proposalID(t, res)

	// Two processes, 500 confirmations each, released together.
	per := b.Confirms
	if per <= 0 {
		per = 500
	}
	n := envN + "=" + strconv.Itoa(per)
	kids := []*child{
		startChild(t, b, "confirm", dsn, runs, envArg+"="+id, n),
		startChild(t, b, "confirm", dsn, runs, envArg+"="+id, n),
	}
	for _, k := range kids {
		k.expect("ready")
	}
	start := time.Now()
	for _, k := range kids {
		k.send("go")
	}
	total := map[string]int{}
	for _, k := range kids {
		for code, n := range k.counts() {
			total[code] += n
		}
		k.wait()
	}
	t.Logf("%s: %d confirmations over two processes in %s: %v", b.Name, 2*per, time.Since(start).Round(time.Millisecond), total)
	assert.Equal(t, []string{"notes_delete 7"}, runLines(t, runs), "exactly one run, counted by the tool")
	assert.Equal(t, 1, total["ok"], "one confirmation ran it")
	assert.Equal(t, 2*per-1, total["already_confirmed"]+total["outcome_unknown"], "the others ran nothing and say why: %v", total)

	recs, err := svc.Records(context.Background(), service.Query{Proposal: id, Limit: 2 * per * 2})
	require.NoError(t, err)
	var confirmations, refusals int
	for _, r := range recs {
		switch r.Event {
		case service.EventConfirmation:
			confirmations++
			assert.Equal(t, service.OutcomeOK, r.Outcome)
		case service.EventRefusal:
			refusals++
		}
	}
	assert.Equal(t, 1, confirmations, "one confirmation row")
	assert.Equal(t, 2*per-1, refusals, "and a refusal row for each other")
}
