package storetest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// RunShared checks what a durable store adds to the contract, with the
// call service on top: several instances (stores opened on one database)
// share proposals, call IDs and rate limits; a proposal runs at most once
// across instances and processes; a process killed with SIGKILL loses
// nothing (a proposal survives it, a run it started is never run again);
// instances that migrate the schema at once both succeed; any bytes in a
// call (NUL, invalid UTF-8 in a tool's name, a principal, a message) leave
// its record, and IDs too long to index are refused and recorded cut; a
// call ID names one call on every instance; a proposal changed in the
// database is refused; a caller gone (cancelled) still leaves its record
// finished; the rate limit and the turn's cap hold under calls made at
// once; a task whose process is killed mid-run is failed once its lease
// passes, its outcome unknown, never run again; and a console session
// made on one instance is known, and ended, on all. The tools count their
// own runs in a file. The package's
// TestMain must call Child with b.
func RunShared(t *testing.T, b Backend) {
	t.Run("ProposeOnOneConfirmOnAnother", func(t *testing.T) { t.Parallel(); testAcross(t, b) })
	t.Run("CallIDAcrossInstances", func(t *testing.T) { t.Parallel(); testCallIDAcross(t, b) })
	t.Run("ConcurrentConfirmsOnTwoInstances", func(t *testing.T) { t.Parallel(); testConfirmsOnTwo(t, b) })
	t.Run("LimiterSharedAndDurable", func(t *testing.T) { t.Parallel(); testLimiter(t, b) })
	t.Run("KilledBetweenProposeAndConfirm", func(t *testing.T) { t.Parallel(); testKilledBeforeConfirm(t, b) })
	t.Run("KilledMidConfirmedRun", func(t *testing.T) { t.Parallel(); testKilledMidRun(t, b) })
	t.Run("KilledMidCallWithCallID", func(t *testing.T) { t.Parallel(); testKilledMidCall(t, b) })
	t.Run("ConfirmsOverTwoProcesses", func(t *testing.T) { t.Parallel(); testConfirmsOverTwoProcesses(t, b) })
	t.Run("MigrationsAtOnce", func(t *testing.T) { t.Parallel(); testMigrationsAtOnce(t, b) })
	t.Run("HostileBytesRecorded", func(t *testing.T) { t.Parallel(); testHostileBytes(t, b) })
	t.Run("TamperedProposalRefused", func(t *testing.T) { t.Parallel(); testTampered(t, b) })
	t.Run("CallerGoneRecorded", func(t *testing.T) { t.Parallel(); testCallerGone(t, b) })
	t.Run("LimitsUnderLoad", func(t *testing.T) { t.Parallel(); testLimitsUnderLoad(t, b) })
	t.Run("LongIDsRecorded", func(t *testing.T) { t.Parallel(); testLongIDs(t, b) })
	t.Run("KilledMidTask", func(t *testing.T) { t.Parallel(); testKilledMidTask(t, b) })
	t.Run("KeyRowDeletedFailsClosed", func(t *testing.T) { t.Parallel(); testKeyRowDeleted(t, b) })
	t.Run("SessionsAcrossInstances", func(t *testing.T) { t.Parallel(); testSessionsAcross(t, b) })
}

// instance opens an instance of dsn, closed when t ends.
func instance(t *testing.T, b Backend, dsn string) service.Store {
	t.Helper()
	st, err := b.Open(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, b.CloseStore(st)) })
	return st
}

// serve returns a service over st whose tools count their runs in runs.
func serve(t *testing.T, st service.Store, lim service.Limiter, runs string) *service.Service {
	t.Helper()
	svc, err := newService(st, lim, runs)
	require.NoError(t, err)
	return svc
}

// proposalID reads the proposal ID of a propose call's result.
func proposalID(t *testing.T, res tool.Result) string {
	t.Helper()
	var out struct{ Proposal string }
	require.NoError(t, json.Unmarshal(res.Content, &out))
	require.NotEmpty(t, out.Proposal)
	return out.Proposal
}

func testAcross(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	one := serve(t, instance(t, b, dsn), nil, runs)
	two := serve(t, instance(t, b, dsn), nil, runs)

	res, err := one.Call(as(""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	id := proposalID(t, res)
	p, err := two.Proposal(context.Background(), id, alice)
	require.NoError(t, err, "the other instance sees it")
	assert.Equal(t, service.StatePending, p.State)

	conf, err := two.Confirm(context.Background(), id, alice)
	require.NoError(t, err)
	assert.Equal(t, "deleted 7 for alice", conf.Result.Text())

	conf, err = one.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeAlreadyConfirmed, tool.CodeOf(err), "confirmed again on the first: not run again")
	require.NotNil(t, conf)
	assert.Equal(t, "deleted 7 for alice", conf.Result.Text(), "with the recorded outcome")
	assert.Equal(t, []string{"notes_delete 7"}, runLines(t, runs), "one run, counted by the tool")

	// A rejection on one is final on the other.
	res, err = one.Call(as(""), "notes_delete", []byte(`{"id":8}`))
	require.NoError(t, err)
	id = proposalID(t, res)
	require.NoError(t, one.Reject(context.Background(), id, alice))
	_, err = two.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeProposalRejected, tool.CodeOf(err))
	assert.Len(t, runLines(t, runs), 1)
}

func testCallIDAcross(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	one := serve(t, instance(t, b, dsn), nil, runs)
	st2 := instance(t, b, dsn)
	two := serve(t, st2, nil, runs)

	first, err := one.Call(as("toolu_1"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err)
	again, err := two.Call(as("toolu_1"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err, "a retry on another instance")
	assert.Equal(t, first.Text(), again.Text(), "is answered with the recorded outcome")
	assert.Equal(t, []string{"act toolu_1 x"}, runLines(t, runs))
	recs, err := st2.Records(context.Background(), service.Query{CallID: "toolu_1"})
	require.NoError(t, err)
	require.Len(t, recs, 2)
	assert.Equal(t, service.EventCall, recs[0].Event)
	assert.Equal(t, service.EventReplay, recs[1].Event)

	// The call ID names that call on every instance: another tool, or
	// other arguments, are refused there and run nothing.
	_, err = two.Call(as("toolu_1"), "echo", []byte(`{"text":"x"}`))
	assert.Equal(t, tool.CodeCallIDReused, tool.CodeOf(err), "another tool")
	_, err = two.Call(as("toolu_1"), "act", []byte(`{"text":"y"}`))
	assert.Equal(t, tool.CodeCallIDReused, tool.CodeOf(err), "other arguments")
	assert.Equal(t, []string{"act toolu_1 x"}, runLines(t, runs))
	recs, err = st2.Records(context.Background(), service.Query{CallID: "toolu_1"})
	require.NoError(t, err)
	require.Len(t, recs, 4)
	assert.Equal(t, service.EventRefusal, recs[3].Event)
	assert.Equal(t, tool.CodeCallIDReused, recs[3].Code)

	// A proposal repeated with its call ID on another instance is one
	// proposal.
	res1, err := one.Call(as("toolu_2"), "notes_delete", []byte(`{"id":1}`))
	require.NoError(t, err)
	res2, err := two.Call(as("toolu_2"), "notes_delete", []byte(`{"id":1}`))
	require.NoError(t, err)
	assert.Equal(t, proposalID(t, res1), proposalID(t, res2))
}

func testConfirmsOnTwo(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	svcs := []*service.Service{serve(t, instance(t, b, dsn), nil, runs), serve(t, instance(t, b, dsn), nil, runs)}
	res, err := svcs[0].Call(as(""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	id := proposalID(t, res)
	const n = 50
	codes := make([]tool.Code, 2*n)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() {
			_, err := svcs[i%2].Confirm(context.Background(), id, alice)
			codes[i] = tool.CodeOf(err)
		})
	}
	wg.Wait()
	assert.Equal(t, []string{"notes_delete 7"}, runLines(t, runs), "exactly one run")
	count := map[tool.Code]int{}
	for _, c := range codes {
		count[c]++
	}
	assert.Equal(t, 1, count[0], "one confirmation ran it: %v", count)
	// The losers on the winner's instance wait for its run and read
	// already_confirmed; those on the other instance cannot tell a run in
	// progress from one that died, and read outcome_unknown until it
	// ends.
	assert.Equal(t, 2*n-1, count[tool.CodeAlreadyConfirmed]+count[tool.CodeOutcomeUnknown], "the others ran nothing: %v", count)
}

func testMigrationsAtOnce(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	kids := []*child{startChild(t, b, "open", dsn, runs), startChild(t, b, "open", dsn, runs)}
	for _, k := range kids {
		k.expect("ready")
	}
	for _, k := range kids {
		k.send("go")
	}
	for _, k := range kids {
		k.expect("opened")
		k.wait()
	}
	// And four instances of this process at once, on another database.
	dsn2 := b.NewDB(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			st, err := b.Open(context.Background(), dsn2)
			if assert.NoError(t, err) {
				assert.NoError(t, b.CloseStore(st))
			}
		})
	}
	wg.Wait()
	// The schema works.
	svc := serve(t, instance(t, b, dsn), nil, runs)
	_, err := svc.Call(as("toolu_m"), "act", nil)
	require.NoError(t, err)
}
