// Package storetest checks that a service.Store keeps the contract the
// call service relies on: call-ID deduplication, a claim that one of any
// number of concurrent confirmations wins, expiry decided at claim time,
// the Close rules, Settle, the Records and Proposals queries (filters,
// limits, order), Purge, one digest key for all (Key), and any bytes in
// every text field a caller reaches (NUL, invalid UTF-8) read back as
// they were written. Every store runs it: the memory store in
// runtime/service, SQLite in runtime/service/sqlitestore, PostgreSQL in
// runtime/service/pgstore.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) service.Store {
//			st, err := mystore.Open(ctx, t.TempDir()+"/db")
//			require.NoError(t, err)
//			t.Cleanup(func() { st.Close() })
//			return st
//		})
//	}
//
// RunShared goes further for durable stores: several instances (stores
// opened on one database) and processes, which a test binary re-executes
// as itself (Child) and kills with SIGKILL at chosen moments.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// t0 is the suite's clock: a time with nanoseconds, which a store must
// keep.
var t0 = time.Date(2026, 12, 2, 10, 0, 0, 123456789, time.UTC)

// Run checks the store open returns (a new, empty one on each call)
// against the contract of service.Store.
func Run(t *testing.T, open func(t *testing.T) service.Store) {
	for _, c := range []struct {
		name string
		test func(*testing.T, service.Store)
	}{
		{"StartFinishAppendRoundTrip", testRoundTrip},
		{"CallIDDeduplicates", testCallID},
		{"ConcurrentStartsOfOneCallID", testConcurrentStarts},
		{"ProposeAndRead", testPropose},
		{"Claim", testClaim},
		{"ClaimExpiry", testClaimExpiry},
		{"ConcurrentClaimsOneWins", testConcurrentClaims},
		{"Settle", testSettle},
		{"Close", testClose},
		{"Records", testRecords},
		{"RecordsDefaultLimit", testDefaultLimit},
		{"Proposals", testProposals},
		{"Purge", testPurge},
		{"AnyBytes", testAnyBytes},
		{"Key", testKey},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each on a store of its own
			c.test(t, open(t))
		})
	}
}

// all returns every record of st.
func all(t *testing.T, st service.Store) []service.Record {
	t.Helper()
	recs, err := st.Records(context.Background(), service.Query{Limit: 1 << 20})
	require.NoError(t, err)
	return recs
}

// equalRecord asserts that got is want, times compared as instants.
func equalRecord(t *testing.T, want, got service.Record, msg string) {
	t.Helper()
	assert.True(t, want.Time.Equal(got.Time), "%s: time %v, want %v", msg, got.Time, want.Time)
	want.Time, got.Time = time.Time{}, time.Time{}
	normBytes(&want.Args, &got.Args)
	normBytes(&want.Result, &got.Result)
	assert.Equal(t, want, got, msg)
}

// normBytes makes nil and empty alike: a store may keep either.
func normBytes(a, b *[]byte) {
	if len(*a) == 0 && len(*b) == 0 {
		*a, *b = nil, nil
	}
}

// equalProposal asserts that got is want, times compared as instants.
func equalProposal(t *testing.T, want, got service.Proposal, msg string) {
	t.Helper()
	for _, p := range [][2]time.Time{{want.Created, got.Created}, {want.Expires, got.Expires}, {want.Decided, got.Decided}} {
		assert.True(t, p[0].Equal(p[1]), "%s: time %v, want %v", msg, p[1], p[0])
	}
	want.Created, want.Expires, want.Decided = time.Time{}, time.Time{}, time.Time{}
	got.Created, got.Expires, got.Decided = time.Time{}, time.Time{}, time.Time{}
	normBytes(&want.Args, &got.Args)
	assert.Equal(t, want, got, msg)
}

// call returns the record of a call about to run.
func call(principal, conv, callID string, at time.Time) *service.Record {
	return &service.Record{Time: at, Principal: principal, Conversation: conv, Turn: "t1", CallID: callID, Agent: "helper",
		Tool: "act", Kind: tool.KindAction, Event: service.EventCall, Outcome: service.OutcomeStarted, Args: []byte(`{"x":1}`)}
}

func testRoundTrip(t *testing.T, st service.Store) {
	ctx := context.Background()
	rec := call("alice", "c1", "toolu_1", t0)
	prior, err := st.Start(ctx, rec)
	require.NoError(t, err)
	require.Nil(t, prior)
	require.NotZero(t, rec.ID, "Start sets the ID")
	started := *rec

	rec.Outcome, rec.Code, rec.Duration, rec.Error = service.OutcomeFailed, tool.CodeInvalidArguments, 1500*time.Microsecond+7, "bad x"
	rec.Result, rec.Structured = []byte(`{"error":"bad x"}`), true
	require.NoError(t, st.Finish(ctx, rec))

	ev := &service.Record{Time: t0.Add(time.Second), Principal: "bob", Tool: "nope", Event: service.EventRefusal,
		Outcome: service.OutcomeRefused, Code: tool.CodeUnknownTool, Error: "unknown tool", Proposal: "prop_x"}
	require.NoError(t, st.Append(ctx, ev))
	assert.Greater(t, ev.ID, rec.ID, "IDs increase")

	recs := all(t, st)
	require.Len(t, recs, 2)
	equalRecord(t, *rec, recs[0], "the finished call")
	equalRecord(t, *ev, recs[1], "the refusal")
	assert.Equal(t, started.Args, recs[0].Args, "Finish leaves the arguments")

	// Finish of an unknown ID changes nothing and is no error.
	require.NoError(t, st.Finish(ctx, &service.Record{ID: ev.ID + 100, Outcome: service.OutcomeOK}))
	assert.Len(t, all(t, st), 2)

	// A record of zero values and odd enum values comes back as written.
	odd := &service.Record{Event: service.Event(42), Outcome: service.Outcome(43), Kind: tool.Kind(44), Code: tool.Code(45)}
	require.NoError(t, st.Append(ctx, odd))
	recs = all(t, st)
	equalRecord(t, *odd, recs[2], "zero values")
	assert.True(t, recs[2].Time.IsZero())

	// An offer: no tool, no call ID, the names in its arguments.
	offer := &service.Record{Time: t0.Add(2 * time.Second), Principal: "alice", Conversation: "c1", Turn: "t2", Agent: "helper",
		Event: service.EventOffer, Outcome: service.OutcomeOK, Args: []byte(`{"tools":["act","echo"],"read_only":true}`)}
	require.NoError(t, st.Append(ctx, offer))
	recs = all(t, st)
	require.Len(t, recs, 4)
	equalRecord(t, *offer, recs[3], "the offer")
	assert.Equal(t, service.EventOffer, recs[3].Event)
}

func testCallID(t *testing.T, st service.Store) {
	ctx := context.Background()
	first := call("alice", "c1", "toolu_1", t0)
	_, err := st.Start(ctx, first)
	require.NoError(t, err)

	again := call("alice", "c1", "toolu_1", t0.Add(time.Second))
	prior, err := st.Start(ctx, again)
	require.NoError(t, err)
	require.NotNil(t, prior, "the same principal, conversation and call ID")
	assert.Equal(t, first.ID, prior.ID)
	assert.Equal(t, service.OutcomeStarted, prior.Outcome)
	assert.Zero(t, again.ID, "nothing written")
	assert.Len(t, all(t, st), 1)

	first.Outcome, first.Result = service.OutcomeOK, []byte("done")
	require.NoError(t, st.Finish(ctx, first))
	prior, err = st.Start(ctx, call("alice", "c1", "toolu_1", t0))
	require.NoError(t, err)
	require.NotNil(t, prior)
	assert.Equal(t, service.OutcomeOK, prior.Outcome, "the recorded outcome")
	assert.Equal(t, "done", string(prior.Result))

	for _, r := range []*service.Record{
		call("bob", "c1", "toolu_1", t0),   // another principal
		call("alice", "c2", "toolu_1", t0), // another conversation
		call("alice", "c1", "toolu_2", t0), // another call ID
		call("alice", "c1", "", t0),        // no call ID
		call("alice", "c1", "", t0),        // no call ID: no deduplication
	} {
		prior, err := st.Start(ctx, r)
		require.NoError(t, err)
		assert.Nil(t, prior, "%s/%s/%q is another call", r.Principal, r.Conversation, r.CallID)
	}

	// Events that take no key: a replay or a refusal with the call ID
	// does not make a later call of that ID a repeat.
	for _, ev := range []service.Event{service.EventReplay, service.EventRefusal, service.EventConfirmation} {
		r := call("carol", "c1", "toolu_3", t0)
		r.Event, r.Outcome = ev, service.OutcomeRefused
		require.NoError(t, st.Append(ctx, r))
	}
	prior, err = st.Start(ctx, call("carol", "c1", "toolu_3", t0))
	require.NoError(t, err)
	assert.Nil(t, prior, "only a call or a proposal holds a call ID")

	// A proposal shares the call's key.
	p := newProposal("prop_callid", "alice", "c1", t0)
	p.CallID = "toolu_1"
	prior, err = st.Propose(ctx, p, proposalRecord(p))
	require.NoError(t, err)
	require.NotNil(t, prior, "a proposal with the call ID of a call is a repeat")
	assert.Equal(t, first.ID, prior.ID)
	_, err = st.Proposal(ctx, p.ID)
	assert.ErrorIs(t, err, service.ErrNotFound, "nothing written")

	// An appended call or proposal whose key is taken is still written;
	// the key stays with the first row.
	dup := call("alice", "c1", "toolu_1", t0)
	dup.Event, dup.Outcome = service.EventProposal, service.OutcomeFailed
	require.NoError(t, st.Append(ctx, dup))
	assert.NotZero(t, dup.ID)
	prior, err = st.Start(ctx, call("alice", "c1", "toolu_1", t0))
	require.NoError(t, err)
	require.NotNil(t, prior)
	assert.Equal(t, first.ID, prior.ID, "the first row keeps the key")

	// An appended failed proposal with a fresh call ID takes it.
	failed := call("dave", "c1", "toolu_4", t0)
	failed.Event, failed.Outcome = service.EventProposal, service.OutcomeFailed
	require.NoError(t, st.Append(ctx, failed))
	prior, err = st.Start(ctx, call("dave", "c1", "toolu_4", t0))
	require.NoError(t, err)
	require.NotNil(t, prior)
	assert.Equal(t, failed.ID, prior.ID)
}

func testConcurrentStarts(t *testing.T, st service.Store) {
	ctx := context.Background()
	const n = 50
	var wg sync.WaitGroup
	var won atomic.Int64
	ids := make([]int64, n)
	for i := range n {
		wg.Go(func() {
			rec := call("alice", "c1", "toolu_race", t0)
			prior, err := st.Start(ctx, rec)
			if !assert.NoError(t, err) {
				return
			}
			if prior == nil {
				won.Add(1)
				ids[i] = rec.ID
			} else {
				ids[i] = prior.ID
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, won.Load(), "one Start writes the call")
	for _, id := range ids {
		assert.Equal(t, ids[0], id, "the others read its record")
	}
	assert.Len(t, all(t, st), 1)
}

// newProposal returns a pending proposal created at at, expiring an
// hour later.
func newProposal(id, principal, conv string, at time.Time) *service.Proposal {
	p := &service.Proposal{ID: id, Principal: principal, Conversation: conv, Turn: "t1", Tool: "notes_delete",
		Args: []byte(`{"id":7}`), Summary: "Delete this note? (notes_delete)", Created: at, Expires: at.Add(time.Hour),
		State: service.StatePending}
	p.Digest = "digest of " + id
	return p
}

// proposalRecord returns the record of p's proposal.
func proposalRecord(p *service.Proposal) *service.Record {
	return &service.Record{Time: p.Created, Principal: p.Principal, Conversation: p.Conversation, Turn: p.Turn, CallID: p.CallID,
		Tool: p.Tool, Kind: tool.KindPropose, Event: service.EventProposal, Outcome: service.OutcomeOK, Args: p.Args,
		Proposal: p.ID, Result: []byte(`{"status":"proposed"}`)}
}

// confirmation returns the record of who's confirmation of p at at.
func confirmation(p *service.Proposal, who string, at time.Time) *service.Record {
	return &service.Record{Time: at, Principal: who, Conversation: p.Conversation, Turn: p.Turn, CallID: p.CallID, Tool: p.Tool,
		Kind: tool.KindPropose, Event: service.EventConfirmation, Outcome: service.OutcomeStarted, Args: p.Args, Proposal: p.ID}
}

// mustPropose stores p.
func mustPropose(t *testing.T, st service.Store, p *service.Proposal) {
	t.Helper()
	prior, err := st.Propose(context.Background(), p, proposalRecord(p))
	require.NoError(t, err)
	require.Nil(t, prior)
}

func testPropose(t *testing.T, st service.Store) {
	ctx := context.Background()
	p := newProposal("prop_1", "alice", "c1", t0)
	p.CallID = "toolu_p"
	rec := proposalRecord(p)
	prior, err := st.Propose(ctx, p, rec)
	require.NoError(t, err)
	require.Nil(t, prior)
	assert.NotZero(t, rec.ID)

	got, err := st.Proposal(ctx, "prop_1")
	require.NoError(t, err)
	equalProposal(t, *p, *got, "the stored proposal")
	assert.Equal(t, service.StatePending, got.State)
	assert.True(t, got.Decided.IsZero())
	assert.Equal(t, p.Digest, got.Digest, "the digest as written")

	recs := all(t, st)
	require.Len(t, recs, 1)
	equalRecord(t, *rec, recs[0], "the proposal's record")

	// Repeated with its call ID: one proposal.
	p2 := newProposal("prop_2", "alice", "c1", t0)
	p2.CallID = "toolu_p"
	prior, err = st.Propose(ctx, p2, proposalRecord(p2))
	require.NoError(t, err)
	require.NotNil(t, prior)
	assert.Equal(t, "prop_1", prior.Proposal)
	_, err = st.Proposal(ctx, "prop_2")
	assert.ErrorIs(t, err, service.ErrNotFound)

	_, err = st.Proposal(ctx, "prop_nope")
	assert.ErrorIs(t, err, service.ErrNotFound)
	_, err = st.Proposal(ctx, "")
	assert.ErrorIs(t, err, service.ErrNotFound)
}

func testClaim(t *testing.T, st service.Store) {
	ctx := context.Background()
	p := newProposal("prop_c", "alice", "c1", t0)
	mustPropose(t, st, p)

	at := t0.Add(time.Minute)
	rec := confirmation(p, "admin", at)
	got, err := st.Claim(ctx, p.ID, rec)
	require.NoError(t, err)
	assert.NotZero(t, rec.ID, "Claim writes the confirmation")
	assert.Equal(t, service.StateRunning, got.State)
	assert.Equal(t, "admin", got.DecidedBy)
	assert.True(t, at.Equal(got.Decided))
	assert.Equal(t, p.Args, got.Args, "the proposed arguments")
	assert.Equal(t, p.Digest, got.Digest)

	stored, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	equalProposal(t, *got, *stored, "as stored")

	again := confirmation(p, "alice", at.Add(time.Second))
	got, err = st.Claim(ctx, p.ID, again)
	require.ErrorIs(t, err, service.ErrNotPending)
	require.NotNil(t, got, "the proposal as stored")
	assert.Equal(t, service.StateRunning, got.State)
	assert.Equal(t, "admin", got.DecidedBy, "the first claim's")
	assert.Zero(t, again.ID, "nothing written")

	_, err = st.Claim(ctx, "prop_nope", confirmation(p, "alice", at))
	assert.ErrorIs(t, err, service.ErrNotFound)

	recs := all(t, st)
	require.Len(t, recs, 2, "the proposal and one confirmation")
	equalRecord(t, *rec, recs[1], "the confirmation")
}

func testClaimExpiry(t *testing.T, st service.Store) {
	ctx := context.Background()
	p := newProposal("prop_e", "alice", "c1", t0)
	mustPropose(t, st, p)

	// At its expiry it is too late: expiry is decided from the stored
	// Expires and the claim's time.
	rec := confirmation(p, "alice", p.Expires)
	got, err := st.Claim(ctx, p.ID, rec)
	require.ErrorIs(t, err, service.ErrNotPending)
	assert.Equal(t, service.StatePending, got.State, "still pending: the service records the expiry")
	assert.Zero(t, rec.ID)

	// A nanosecond before, it is not.
	rec = confirmation(p, "alice", p.Expires.Add(-time.Nanosecond))
	got, err = st.Claim(ctx, p.ID, rec)
	require.NoError(t, err)
	assert.Equal(t, service.StateRunning, got.State)
}

func testConcurrentClaims(t *testing.T, st service.Store) {
	ctx := context.Background()
	p := newProposal("prop_race", "alice", "c1", t0)
	mustPropose(t, st, p)
	const n = 100
	var wg sync.WaitGroup
	var won, lost atomic.Int64
	for i := range n {
		wg.Go(func() {
			got, err := st.Claim(ctx, p.ID, confirmation(p, fmt.Sprint("p", i), t0.Add(time.Second)))
			switch {
			case err == nil:
				won.Add(1)
			case errors.Is(err, service.ErrNotPending):
				lost.Add(1)
				assert.Equal(t, service.StateRunning, got.State)
			default:
				t.Errorf("claim: %v", err)
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, won.Load(), "at most once: one claim wins")
	assert.EqualValues(t, n-1, lost.Load())
	confirmations := 0
	for _, r := range all(t, st) {
		if r.Event == service.EventConfirmation {
			confirmations++
		}
	}
	assert.Equal(t, 1, confirmations, "the losers wrote nothing")
}

func testSettle(t *testing.T, st service.Store) {
	ctx := context.Background()
	for _, state := range []service.State{service.StateDone, service.StateUnknown} {
		p := newProposal("prop_s_"+state.String(), "alice", "c1", t0)
		mustPropose(t, st, p)
		rec := confirmation(p, "alice", t0.Add(time.Second))
		_, err := st.Claim(ctx, p.ID, rec)
		require.NoError(t, err)
		rec.Outcome, rec.Duration, rec.Result = service.OutcomeOK, time.Millisecond, []byte("deleted 7")
		if state == service.StateUnknown {
			rec.Outcome, rec.Code, rec.Error = service.OutcomeUnknown, tool.CodeTimeout, "timed out"
		}
		require.NoError(t, st.Settle(ctx, p.ID, state, rec))
		got, err := st.Proposal(ctx, p.ID)
		require.NoError(t, err)
		assert.Equal(t, state, got.State)
		assert.Equal(t, "alice", got.DecidedBy, "Settle keeps the decision")
		recs, err := st.Records(ctx, service.Query{Proposal: p.ID})
		require.NoError(t, err)
		require.Len(t, recs, 2)
		equalRecord(t, *rec, recs[1], "the confirmation, finished")
	}

	// Settle moves a running proposal only.
	p := newProposal("prop_s_pending", "alice", "c1", t0)
	mustPropose(t, st, p)
	require.NoError(t, st.Settle(ctx, p.ID, service.StateDone, &service.Record{}))
	got, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, service.StatePending, got.State)
}

func testClose(t *testing.T, st service.Store) {
	ctx := context.Background()
	rejection := func(p *service.Proposal, at time.Time) *service.Record {
		r := confirmation(p, "alice", at)
		r.Event, r.Outcome = service.EventRejection, service.OutcomeOK
		return r
	}

	p := newProposal("prop_r", "alice", "c1", t0)
	mustPropose(t, st, p)
	rec := rejection(p, t0.Add(time.Minute))
	got, err := st.Retire(ctx, p.ID, service.StateRejected, rec)
	require.NoError(t, err)
	assert.Equal(t, service.StateRejected, got.State)
	assert.Equal(t, "alice", got.DecidedBy)
	assert.True(t, t0.Add(time.Minute).Equal(got.Decided))
	assert.NotZero(t, rec.ID)
	stored, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, service.StateRejected, stored.State)

	// Closed for good: no claim, no second close.
	again := rejection(p, t0.Add(2*time.Minute))
	got, err = st.Retire(ctx, p.ID, service.StateRejected, again)
	require.ErrorIs(t, err, service.ErrNotPending)
	assert.Equal(t, service.StateRejected, got.State)
	assert.Zero(t, again.ID)
	_, err = st.Claim(ctx, p.ID, confirmation(p, "alice", t0.Add(2*time.Minute)))
	assert.ErrorIs(t, err, service.ErrNotPending)

	// Past its expiry a proposal may be closed as expired, not rejected.
	q := newProposal("prop_x", "alice", "c1", t0)
	mustPropose(t, st, q)
	late := rejection(q, q.Expires)
	got, err = st.Retire(ctx, q.ID, service.StateRejected, late)
	require.ErrorIs(t, err, service.ErrNotPending)
	assert.Equal(t, service.StatePending, got.State)
	assert.Zero(t, late.ID)
	exp := rejection(q, q.Expires)
	exp.Event = service.EventExpiry
	got, err = st.Retire(ctx, q.ID, service.StateExpired, exp)
	require.NoError(t, err)
	assert.Equal(t, service.StateExpired, got.State)
	assert.NotZero(t, exp.ID)

	// Expired early is allowed (the service decides when).
	r := newProposal("prop_x2", "alice", "c1", t0)
	mustPropose(t, st, r)
	_, err = st.Retire(ctx, r.ID, service.StateExpired, rejection(r, t0))
	require.NoError(t, err)

	// A running one cannot be closed.
	c := newProposal("prop_run", "alice", "c1", t0)
	mustPropose(t, st, c)
	_, err = st.Claim(ctx, c.ID, confirmation(c, "alice", t0))
	require.NoError(t, err)
	got, err = st.Retire(ctx, c.ID, service.StateRejected, rejection(c, t0))
	require.ErrorIs(t, err, service.ErrNotPending)
	assert.Equal(t, service.StateRunning, got.State)

	_, err = st.Retire(ctx, "prop_nope", service.StateRejected, rejection(c, t0))
	assert.ErrorIs(t, err, service.ErrNotFound)
}

func testRecords(t *testing.T, st service.Store) {
	ctx := context.Background()
	type row struct{ principal, conv, callID, tool, proposal string }
	rows := []row{
		{"alice", "c1", "a", "act", ""},
		{"bob", "c1", "b", "echo", ""},
		{"alice", "c2", "c", "act", "prop_1"},
		{"alice", "c1", "", "echo", "prop_1"},
		{"carol", "c3", "d", "act", ""},
	}
	for i, r := range rows {
		rec := &service.Record{Time: t0.Add(time.Duration(i) * time.Second), Principal: r.principal, Conversation: r.conv, CallID: r.callID,
			Tool: r.tool, Proposal: r.proposal, Event: service.EventRefusal, Outcome: service.OutcomeRefused}
		require.NoError(t, st.Append(ctx, rec))
	}
	indexes := func(q service.Query) []int {
		recs, err := st.Records(ctx, q)
		require.NoError(t, err)
		var out []int
		for _, r := range recs {
			out = append(out, int(r.Time.Sub(t0)/time.Second))
		}
		return out
	}
	for _, c := range []struct {
		name string
		q    service.Query
		want []int
	}{
		{"all, oldest first", service.Query{}, []int{0, 1, 2, 3, 4}},
		{"principal", service.Query{Principal: "alice"}, []int{0, 2, 3}},
		{"conversation", service.Query{Conversation: "c1"}, []int{0, 1, 3}},
		{"call ID", service.Query{CallID: "c"}, []int{2}},
		{"tool", service.Query{Tool: "echo"}, []int{1, 3}},
		{"proposal", service.Query{Proposal: "prop_1"}, []int{2, 3}},
		{"since", service.Query{Since: t0.Add(2 * time.Second)}, []int{2, 3, 4}},
		{"until", service.Query{Until: t0.Add(2 * time.Second)}, []int{0, 1}},
		{"since and until", service.Query{Since: t0.Add(time.Second), Until: t0.Add(3 * time.Second)}, []int{1, 2}},
		{"since, to the nanosecond", service.Query{Since: t0.Add(time.Second + time.Nanosecond)}, []int{2, 3, 4}},
		{"limit", service.Query{Limit: 2}, []int{0, 1}},
		{"filters and limit", service.Query{Principal: "alice", Conversation: "c1", Limit: 1}, []int{0}},
		{"none", service.Query{Principal: "zed"}, nil},
	} {
		assert.Equal(t, c.want, indexes(c.q), c.name)
	}
}

func testDefaultLimit(t *testing.T, st service.Store) {
	ctx := context.Background()
	for i := range service.DefaultQueryLimit + 5 {
		require.NoError(t, st.Append(ctx, &service.Record{Time: t0, Principal: fmt.Sprint("p", i), Event: service.EventRefusal}))
	}
	recs, err := st.Records(ctx, service.Query{})
	require.NoError(t, err)
	require.Len(t, recs, service.DefaultQueryLimit)
	assert.Equal(t, "p0", recs[0].Principal, "the oldest")
	assert.Len(t, all(t, st), service.DefaultQueryLimit+5)
}

func testProposals(t *testing.T, st service.Store) {
	ctx := context.Background()
	// Created out of order: Proposals lists them in the order they were
	// stored.
	specs := []struct {
		id, principal, conv string
		at                  time.Duration
	}{
		{"prop_a", "alice", "c1", 3}, {"prop_b", "bob", "c1", 1}, {"prop_c", "alice", "c2", 2}, {"prop_d", "alice", "c1", 0},
	}
	for _, s := range specs {
		mustPropose(t, st, newProposal(s.id, s.principal, s.conv, t0.Add(s.at*time.Second)))
	}
	_, err := st.Retire(ctx, "prop_c", service.StateRejected, &service.Record{Time: t0, Principal: "alice", Event: service.EventRejection})
	require.NoError(t, err)
	ids := func(q service.ProposalQuery) []string {
		ps, err := st.Proposals(ctx, q)
		require.NoError(t, err)
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	assert.Equal(t, []string{"prop_a", "prop_b", "prop_c", "prop_d"}, ids(service.ProposalQuery{}))
	assert.Equal(t, []string{"prop_a", "prop_c", "prop_d"}, ids(service.ProposalQuery{Principal: "alice"}))
	assert.Equal(t, []string{"prop_a", "prop_b", "prop_d"}, ids(service.ProposalQuery{Conversation: "c1"}))
	assert.Equal(t, []string{"prop_a", "prop_b", "prop_d"}, ids(service.ProposalQuery{State: service.StatePending}))
	assert.Equal(t, []string{"prop_c"}, ids(service.ProposalQuery{State: service.StateRejected}))
	assert.Equal(t, []string{"prop_a", "prop_d"}, ids(service.ProposalQuery{Principal: "alice", State: service.StatePending}))
	assert.Equal(t, []string{"prop_a", "prop_b"}, ids(service.ProposalQuery{Limit: 2}))
	assert.Nil(t, ids(service.ProposalQuery{Principal: "zed"}))
}

func testPurge(t *testing.T, st service.Store) {
	ctx := context.Background()
	old := call("alice", "c1", "toolu_old", t0)
	_, err := st.Start(ctx, old)
	require.NoError(t, err)
	require.NoError(t, st.Append(ctx, &service.Record{Principal: "zero-time", Event: service.EventRefusal}))
	recent := call("alice", "c1", "toolu_new", t0.Add(2*time.Hour))
	_, err = st.Start(ctx, recent)
	require.NoError(t, err)

	gone := newProposal("prop_gone", "alice", "c1", t0.Add(-2*time.Hour)) // expired at t0 - 1h
	kept := newProposal("prop_kept", "alice", "c1", t0.Add(-30*time.Minute))
	mustPropose(t, st, gone)
	mustPropose(t, st, kept)
	_, err = st.Claim(ctx, gone.ID, confirmation(gone, "alice", gone.Created)) // whatever its state
	require.NoError(t, err)

	before := t0.Add(time.Hour)
	n, err := st.Purge(ctx, before)
	require.NoError(t, err)
	// Records before t0+1h: the old call, the zero-time refusal, both
	// proposals' records (t0-2h, t0-30m), the claim (t0-2h); proposals
	// that expired before it: prop_gone (t0-1h); prop_kept expires at
	// t0+30m: gone too.
	assert.Equal(t, 5+2, n, "rows deleted")
	recs := all(t, st)
	require.Len(t, recs, 1)
	assert.Equal(t, recent.ID, recs[0].ID)
	_, err = st.Proposal(ctx, gone.ID)
	assert.ErrorIs(t, err, service.ErrNotFound)

	// A purged call is no longer deduplicated.
	prior, err := st.Start(ctx, call("alice", "c1", "toolu_old", t0.Add(3*time.Hour)))
	require.NoError(t, err)
	assert.Nil(t, prior)
	prior, err = st.Start(ctx, call("alice", "c1", "toolu_new", t0.Add(3*time.Hour)))
	require.NoError(t, err)
	assert.NotNil(t, prior, "a kept one is")

	n, err = st.Purge(ctx, before)
	require.NoError(t, err)
	assert.Zero(t, n)
}
