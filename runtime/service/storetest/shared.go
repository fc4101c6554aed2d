package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
// finished; and the rate limit and the turn's cap hold under calls made
// at once. The tools count their own runs in a file. The package's
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

func testLimiter(t *testing.T, b Backend) {
	if b.Limiter == nil {
		t.Skip("no durable limiter")
	}
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	const burst = 3
	st1, st2 := instance(t, b, dsn), instance(t, b, dsn)
	one := serve(t, st1, b.Limiter(st1, "calls", 1.0/3600, burst), runs)
	two := serve(t, st2, b.Limiter(st2, "calls", 1.0/3600, burst), runs)
	ok := 0
	for i := range 2 * burst {
		svc := []*service.Service{one, two}[i%2]
		_, err := svc.Call(as(""), "echo", nil)
		if err == nil {
			ok++
		} else {
			assert.Equal(t, tool.CodeRefused, tool.CodeOf(err))
			assert.Contains(t, err.Error(), "too many tool calls")
		}
	}
	assert.Equal(t, burst, ok, "one bucket for both instances")

	// A restart: a new instance finds the bucket empty.
	st3 := instance(t, b, dsn)
	three := serve(t, st3, b.Limiter(st3, "calls", 1.0/3600, burst), runs)
	_, err := three.Call(as(""), "echo", nil)
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "the limit survives a restart")

	// Another name, another bucket; another principal, another bucket.
	other := serve(t, st3, b.Limiter(st3, "other", 1.0/3600, burst), runs)
	_, err = other.Call(as(""), "echo", nil)
	assert.NoError(t, err)
	bob := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "bob"}})
	_, err = three.Call(bob, "echo", nil)
	assert.NoError(t, err)
}

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

// testHostileBytes: whatever bytes a caller sends (NUL, invalid UTF-8) in
// a tool's name, a principal, a conversation or a call ID, and whatever a
// tool's message quotes, the call leaves its record, read back as it was
// sent; a failure quoting NUL finishes its run, and a retry of its call
// ID is answered with that failure.
func testHostileBytes(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	svc := serve(t, st, nil, runs)

	for _, name := range []string{"act\x00", "notes_delete\x00", "act\xff", "\x00", "\xc3", strings.Repeat("\xff", 200)} {
		_, err := svc.Call(as(""), name, []byte(`{}`))
		require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err), "%q", name)
		recs, err := st.Records(ctx, service.Query{Tool: name[:min(len(name), 128)]})
		require.NoError(t, err)
		if assert.Len(t, recs, 1, "%q: a refusal row", name) {
			assert.Equal(t, service.EventRefusal, recs[0].Event)
			assert.Equal(t, tool.CodeUnknownTool, recs[0].Code)
		}
	}

	who := tool.Principal{ID: "al\x00ice\xff"}
	hostile := tool.WithInvocation(ctx, &tool.Invocation{Principal: who, Conversation: "c\x00\x1b00", Turn: "t\xfe", CallID: "toolu_\x00\xff"})
	res, err := svc.Call(hostile, "act", []byte(`{"text":"\u0000 boom","fail":true}`))
	require.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.Contains(t, res.Text(), "cannot act on \x00 boom")
	recs, err := st.Records(ctx, service.Query{Principal: who.ID, Conversation: "c\x00\x1b00", CallID: "toolu_\x00\xff"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, service.OutcomeFailed, recs[0].Outcome, "the failure quoting NUL finished its run")
	assert.Equal(t, res.Text(), recs[0].Error, "the message as the model read it")
	assert.Equal(t, "t\xfe", recs[0].Turn)

	// A retry, here and on another instance, is answered with the
	// failure, not outcome_unknown, and runs nothing.
	other := serve(t, instance(t, b, dsn), nil, runs)
	for _, s := range []*service.Service{svc, other} {
		again, err := s.Call(hostile, "act", []byte(`{"text":"\u0000 boom","fail":true}`))
		assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
		assert.Equal(t, res.Text(), again.Text())
	}
	assert.Len(t, runLines(t, runs), 1)

	// A proposal of such a principal is confirmed by it.
	proposer := tool.WithInvocation(ctx, &tool.Invocation{Principal: who, Conversation: "c\x00\x1b00", CallID: "toolu_\x00p"})
	res, err = svc.Call(proposer, "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	conf, err := other.Confirm(ctx, proposalID(t, res), who)
	require.NoError(t, err)
	assert.Equal(t, "deleted 7 for "+who.ID, conf.Result.Text())
}

// testTampered: a proposal whose arguments or expiry were changed in the
// database is refused at confirmation, and runs nothing.
func testTampered(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	db, ok := st.(interface{ DB() *sql.DB })
	if !ok {
		t.Skip("not a SQL store")
	}
	svc := serve(t, st, nil, runs)
	propose := func(id int) string {
		res, err := svc.Call(as(""), "notes_delete", []byte(`{"id":`+strconv.Itoa(id)+`}`))
		require.NoError(t, err)
		return proposalID(t, res)
	}
	p7, p8, p9 := propose(7), propose(8), propose(9)
	for _, c := range []struct{ name, id, update string }{
		{"arguments", p7, "UPDATE toolgen_proposals SET args = (SELECT args FROM toolgen_proposals WHERE id = '" + p8 + "') WHERE id = '" + p7 + "'"},
		{"expiry", p9, "UPDATE toolgen_proposals SET expires_ns = expires_ns + 86400000000000 WHERE id = '" + p9 + "'"},
	} {
		_, err := db.DB().ExecContext(ctx, c.update)
		require.NoError(t, err, c.name)
		_, err = serve(t, instance(t, b, dsn), nil, runs).Confirm(ctx, c.id, alice)
		assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "%s changed: refused", c.name)
		assert.ErrorContains(t, err, "does not match its digest", c.name)
	}
	assert.Empty(t, runLines(t, runs), "nothing ran")
	_, err := svc.Confirm(ctx, p8, alice)
	require.NoError(t, err, "the untouched one runs")
	assert.Equal(t, []string{"notes_delete 8"}, runLines(t, runs))
}

// cancelKey carries, in a call's context, the cancel function of that
// context, which cancelAtEnd calls once the tool has run.
type cancelKey struct{}

// cancelAtEnd is a store whose calls end with their caller gone: the
// call's context is cancelled as the end of its run is written (a client
// that hung up as the tool returned).
type cancelAtEnd struct{ service.Store }

func (c cancelAtEnd) Finish(ctx context.Context, rec *service.Record) error {
	cancelCaller(ctx)
	return c.Store.Finish(ctx, rec)
}

func (c cancelAtEnd) Settle(ctx context.Context, id string, state service.State, rec *service.Record) error {
	cancelCaller(ctx)
	return c.Store.Settle(ctx, id, state, rec)
}

// cancelCaller cancels the caller's context of ctx, if it carries one.
func cancelCaller(ctx context.Context) {
	if cancel, ok := ctx.Value(cancelKey{}).(context.CancelFunc); ok {
		cancel()
	}
}

// testCallerGone: a caller whose context is cancelled, before its call or
// as the tool returns, still leaves the call's record, finished: a
// refusal that ran nothing, or the run's outcome, which a repeat of its
// call ID (or a second confirmation) reads instead of outcome_unknown. A
// confirmation cancelled before it claims its proposal leaves it pending.
func testCallerGone(t *testing.T, b Backend) {
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	reg, err := newRegistry(runs)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{Store: cancelAtEnd{st}, AwaitRunning: -1})
	require.NoError(t, err)
	gone := func(callID string) context.Context {
		ctx, cancel := context.WithCancel(as(callID))
		return context.WithValue(ctx, cancelKey{}, cancel)
	}
	cancelled := func(callID string) context.Context {
		ctx, cancel := context.WithCancel(as(callID))
		cancel()
		return ctx
	}

	// Cancelled before the call: nothing runs, and the record says so.
	_, err = svc.Call(cancelled("toolu_before"), "act", []byte(`{"text":"x"}`))
	assert.Equal(t, tool.CodeCancelled, tool.CodeOf(err))
	recs, err := st.Records(context.Background(), service.Query{CallID: "toolu_before"})
	require.NoError(t, err)
	if assert.Len(t, recs, 1, "the call is recorded") {
		assert.Equal(t, service.OutcomeRefused, recs[0].Outcome)
	}
	assert.Empty(t, runLines(t, runs))

	// Gone as the tool returns: the run's end is recorded.
	res, err := svc.Call(gone("toolu_after"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err)
	again, err := svc.Call(as("toolu_after"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err, "the repeat reads the recorded outcome")
	assert.Equal(t, res.Text(), again.Text())
	assert.Equal(t, []string{"act toolu_after x"}, runLines(t, runs))

	// A confirmation cancelled before its claim leaves the proposal
	// pending and is recorded; one gone as the tool returns is settled.
	res, err = svc.Call(as(""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	id := proposalID(t, res)
	_, err = svc.Confirm(cancelled(""), id, alice)
	assert.Equal(t, tool.CodeCancelled, tool.CodeOf(err))
	p, err := st.Proposal(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, service.StatePending, p.State, "still pending")
	recs, err = st.Records(context.Background(), service.Query{Proposal: id})
	require.NoError(t, err)
	require.Len(t, recs, 2, "the proposal and the cancelled confirmation")
	assert.Equal(t, service.EventRefusal, recs[1].Event)
	conf, err := svc.Confirm(gone(""), id, alice)
	require.NoError(t, err)
	assert.Equal(t, "deleted 7 for alice", conf.Result.Text())
	p, err = st.Proposal(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, service.StateDone, p.State, "settled")
	_, err = svc.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeAlreadyConfirmed, tool.CodeOf(err), "not outcome_unknown")
	assert.Len(t, runLines(t, runs), 2)
}

// testLimitsUnderLoad: the durable rate limit holds for calls made at
// once on two instances, in parallel turns, and the cap on a turn's calls
// holds for a turn's calls made at once on two instances sharing its
// TurnState; every refused call is recorded and runs nothing.
func testLimitsUnderLoad(t *testing.T, b Backend) {
	if b.Limiter == nil {
		t.Skip("no durable limiter")
	}
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	const burst = 7
	st1, st2 := instance(t, b, dsn), instance(t, b, dsn)
	svcs := []*service.Service{
		serve(t, st1, b.Limiter(st1, "calls", 1.0/3600, burst), runs),
		serve(t, st2, b.Limiter(st2, "calls", 1.0/3600, burst), runs),
	}
	// Four turns of eight calls at once, two on each instance.
	var wg sync.WaitGroup
	outs := make([][]service.Response, 4)
	for i := range outs {
		wg.Go(func() {
			reqs := make([]service.Request, 8)
			for j := range reqs {
				reqs[j] = service.Request{CallID: "toolu_" + strconv.Itoa(i) + "_" + strconv.Itoa(j), Name: "act", Args: []byte(`{"text":"` + strconv.Itoa(i*8+j) + `"}`)}
			}
			outs[i] = svcs[i%2].RunTurn(as(""), reqs)
		})
	}
	wg.Wait()
	ok := 0
	for _, out := range outs {
		for _, r := range out {
			if r.Err == nil {
				ok++
				continue
			}
			assert.Equal(t, tool.CodeRefused, tool.CodeOf(r.Err))
			assert.Contains(t, r.Err.Error(), "too many tool calls")
		}
	}
	assert.Equal(t, burst, ok, "one bucket for both instances, whatever runs at once")
	assert.Len(t, runLines(t, runs), burst, "the refused calls ran nothing")
	recs, err := st1.Records(ctx, service.Query{Principal: "alice"})
	require.NoError(t, err)
	assert.Len(t, recs, 32, "each call recorded once")

	// The cap on a turn: one TurnState, its calls made at once through
	// two instances (in one process: a TurnState lives in one).
	dsn2, runs2 := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	reg1, err := newRegistry(runs2)
	require.NoError(t, err)
	const maxTurn = 5
	capped := make([]*service.Service, 2)
	for i := range capped {
		capped[i], err = service.New(reg1, &service.Options{Store: instance(t, b, dsn2), MaxCallsPerTurn: maxTurn, Parallel: 8})
		require.NoError(t, err)
	}
	turn := tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c1", Turn: "t1", State: new(tool.TurnState)})
	var ran atomic.Int64
	for i := range 2 {
		wg.Go(func() {
			reqs := make([]service.Request, 10)
			for j := range reqs {
				reqs[j] = service.Request{Name: "act", Args: []byte(`{"text":"t"}`)}
			}
			for _, r := range capped[i].RunTurn(turn, reqs) {
				if r.Err == nil {
					ran.Add(1)
				} else {
					assert.Contains(t, r.Err.Error(), "too many tool calls in this turn")
				}
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, maxTurn, ran.Load(), "the turn's cap, across both")
	assert.Len(t, runLines(t, runs2), maxTurn)
}

// testLongIDs: a principal ID, conversation or call ID longer than
// service.MaxIDLen (here 20 KB of random bytes, which no index compresses)
// is refused, runs nothing, and leaves its refusal row, the ID cut.
func testLongIDs(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	svc := serve(t, st, nil, runs)
	long := make([]byte, 20<<10)
	_, _ = rand.Read(long)
	for i, c := range []struct {
		name string
		inv  tool.Invocation
		tool string
		code tool.Code
	}{
		{"principal", tool.Invocation{Principal: tool.Principal{ID: string(long)}, Conversation: "c1"}, "act", tool.CodeRefused},
		{"conversation", tool.Invocation{Principal: alice, Conversation: string(long)}, "act", tool.CodeRefused},
		{"call ID", tool.Invocation{Principal: alice, Conversation: "c1", CallID: string(long)}, "act", tool.CodeRefused},
		{"call ID of a proposal", tool.Invocation{Principal: alice, Conversation: "c1", CallID: string(long)}, "notes_delete", tool.CodeRefused},
		{"call ID of an unknown tool", tool.Invocation{Principal: alice, Conversation: "c1", CallID: string(long)}, "nope", tool.CodeUnknownTool},
	} {
		_, err := svc.Call(tool.WithInvocation(ctx, &c.inv), c.tool, []byte(`{"id":1}`))
		assert.Equal(t, c.code, tool.CodeOf(err), c.name)
		if c.code == tool.CodeRefused {
			assert.ErrorContains(t, err, "longer than 256 bytes", c.name)
		}
		recs := all(t, st)
		if assert.Len(t, recs, i+1, "%s: a refusal row", c.name) {
			r := recs[i]
			assert.Equal(t, service.EventRefusal, r.Event, c.name)
			assert.Equal(t, c.tool, r.Tool, c.name)
			assert.Equal(t, c.inv.Principal.ID[:min(len(c.inv.Principal.ID), service.MaxIDLen)], r.Principal, "%s: cut", c.name)
			assert.Equal(t, c.inv.Conversation[:min(len(c.inv.Conversation), service.MaxIDLen)], r.Conversation, "%s: cut", c.name)
			assert.Equal(t, c.inv.CallID[:min(len(c.inv.CallID), service.MaxIDLen)], r.CallID, "%s: cut", c.name)
		}
	}
	res, err := svc.Call(as(""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	id := proposalID(t, res)
	_, err = svc.Confirm(ctx, id, tool.Principal{ID: string(long)})
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "a confirming principal too")
	recs, err := st.Records(ctx, service.Query{Proposal: id})
	require.NoError(t, err)
	assert.Len(t, recs, 2, "the proposal and the refusal")
	assert.Empty(t, runLines(t, runs), "nothing ran")
}
