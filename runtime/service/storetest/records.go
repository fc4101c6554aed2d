package storetest

import (
	"context"
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
