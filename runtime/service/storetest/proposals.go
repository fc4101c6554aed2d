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
