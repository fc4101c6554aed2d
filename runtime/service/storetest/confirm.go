package storetest

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The contract of a confirmation that does not run (Release), of keys
// (a kept key gone, keys that differ, a rotation) and of confirmations
// cancelled at any moment, with the call service on top of the store.

// testRelease: Release gives a claimed proposal back its pending state,
// its decision cleared, and finishes the claim's record; a later Claim
// may run it. A proposal that is not running is left as it is.
func testRelease(t *testing.T, st service.Store) {
	ctx := context.Background()
	p := newProposal("prop_r", "alice", "c1", t0)
	mustPropose(t, st, p)
	rec := confirmation(p, "bob", t0.Add(time.Minute))
	_, err := st.Claim(ctx, p.ID, rec)
	require.NoError(t, err)
	rec.Outcome, rec.Code, rec.Error, rec.Duration = service.OutcomeRefused, tool.CodeCancelled, "the call was cancelled; nothing was run", time.Millisecond
	require.NoError(t, st.Release(ctx, p.ID, rec))
	got, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	equalProposal(t, *p, *got, "released: as it was proposed")
	assert.Equal(t, service.StatePending, got.State)
	assert.Empty(t, got.DecidedBy)
	assert.True(t, got.Decided.IsZero())
	recs, err := st.Records(ctx, service.Query{Proposal: p.ID})
	require.NoError(t, err)
	require.Len(t, recs, 2, "the proposal and the claim")
	equalRecord(t, *rec, recs[1], "the claim's record, finished: nothing was run")

	again := confirmation(p, "carol", t0.Add(2*time.Minute))
	claimed, err := st.Claim(ctx, p.ID, again)
	require.NoError(t, err, "a released proposal may be claimed again")
	assert.Equal(t, service.StateRunning, claimed.State)
	assert.Equal(t, "carol", claimed.DecidedBy)
	again.Outcome = service.OutcomeOK
	require.NoError(t, st.Settle(ctx, p.ID, service.StateDone, again))
	late := confirmation(p, "dave", t0.Add(3*time.Minute))
	require.NoError(t, st.Append(ctx, late))
	late.Outcome = service.OutcomeRefused
	require.NoError(t, st.Release(ctx, p.ID, late))
	got, err = st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, service.StateDone, got.State, "a proposal that is not running is left as it is")
	assert.Equal(t, "carol", got.DecidedBy)
}

// testKeyLost: a store that keeps no key but holds a pending proposal
// (its key was deleted) makes none: Key fails with ErrKeyLost, keeps
// nothing and changes no proposal. Once no proposal is open, it keeps a
// new key.
func testKeyLost(t *testing.T, st service.Store) {
	ctx := context.Background()
	p := newProposal("prop_k", "alice", "c1", t0)
	mustPropose(t, st, p)
	fresh := bytes.Repeat([]byte{7}, service.MinKeyLen)
	for range 2 {
		key, err := st.Key(ctx, fresh)
		require.ErrorIs(t, err, service.ErrKeyLost)
		assert.Nil(t, key)
	}
	got, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	equalProposal(t, *p, *got, "the proposal is not destroyed")
	rec := confirmation(p, "alice", t0.Add(time.Minute))
	rec.Event, rec.Outcome = service.EventRejection, service.OutcomeOK
	_, err = st.Retire(ctx, p.ID, service.StateRejected, rec)
	require.NoError(t, err)
	key, err := st.Key(ctx, fresh)
	require.NoError(t, err, "no open proposal: a new key")
	assert.Equal(t, fresh, key)
}

// keyed returns a service over st whose tools count their runs in runs,
// with key as its Options.Key and old as its Options.OldKeys.
func keyed(t *testing.T, st service.Store, runs string, key []byte, old ...[]byte) *service.Service {
	t.Helper()
	reg, err := newRegistry(runs)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{Store: st, Key: key, OldKeys: old})
	require.NoError(t, err)
	return svc
}

// proposeNote proposes deleting note id through svc and returns the
// proposal's ID.
func proposeNote(t *testing.T, svc *service.Service, id int) string {
	t.Helper()
	res, err := svc.Call(as(""), "notes_delete", []byte(`{"id":`+strconv.Itoa(id)+`}`))
	require.NoError(t, err)
	return proposalID(t, res)
}

// lastOf returns the last record of the proposal id.
func lastOf(t *testing.T, st service.Store, id string) service.Record {
	t.Helper()
	recs, err := st.Records(context.Background(), service.Query{Proposal: id})
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	return recs[len(recs)-1]
}

// stateOf returns the state of the proposal id.
func stateOf(t *testing.T, st service.Store, id string) service.State {
	t.Helper()
	p, err := st.Proposal(context.Background(), id)
	require.NoError(t, err)
	return p.State
}

// testKeysDiffer: of two services with different keys on one store, the
// one that did not make a proposal refuses to confirm it, records the
// refusal and leaves it pending; the one that made it confirms it, once.
func testKeysDiffer(t *testing.T, st service.Store) {
	ctx := context.Background()
	runs := filepath.Join(t.TempDir(), "runs")
	k1, k2 := bytes.Repeat([]byte{1}, service.MinKeyLen), bytes.Repeat([]byte{2}, service.MinKeyLen)
	a, b := keyed(t, st, runs, k1), keyed(t, st, runs, k2)
	id := proposeNote(t, a, 7)
	for range 2 {
		_, err := b.Confirm(ctx, id, alice)
		assert.Equal(t, tool.CodeRefused, tool.CodeOf(err))
		assert.ErrorContains(t, err, "does not match its digest")
		assert.ErrorContains(t, err, "the proposal is unchanged")
		assert.Equal(t, service.StatePending, stateOf(t, st, id), "a refusal changes no proposal")
		r := lastOf(t, st, id)
		assert.Equal(t, service.EventRefusal, r.Event)
		assert.Equal(t, service.OutcomeRefused, r.Outcome)
		assert.Contains(t, r.Error, "nothing was run")
	}
	assert.Empty(t, runLines(t, runs), "nothing ran")
	conf, err := a.Confirm(ctx, id, alice)
	require.NoError(t, err, "the proposal's own service confirms it")
	assert.Equal(t, "deleted 7 for alice", conf.Result.Text())
	assert.Equal(t, []string{"notes_delete 7"}, runLines(t, runs))
	assert.Equal(t, service.StateDone, stateOf(t, st, id))
}

// testKeyRotation: a service restarted with a new key and the old one
// among its OldKeys confirms the proposals made under the old key (and
// repeats a call ID recorded under it); once the old key is dropped, a
// proposal made under it is refused and left pending.
func testKeyRotation(t *testing.T, st service.Store) {
	ctx := context.Background()
	runs := filepath.Join(t.TempDir(), "runs")
	k1, k2 := bytes.Repeat([]byte{1}, service.MinKeyLen), bytes.Repeat([]byte{2}, service.MinKeyLen)
	before := keyed(t, st, runs, k1)
	old1, old2 := proposeNote(t, before, 1), proposeNote(t, before, 2)
	_, err := before.Call(as("toolu_r"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err)

	rotated := keyed(t, st, runs, k2, k1)
	_, err = rotated.Confirm(ctx, old1, alice)
	require.NoError(t, err, "made under the old key: it verifies")
	fresh := proposeNote(t, rotated, 3)
	_, err = rotated.Call(as("toolu_r"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err, "a call ID recorded under the old key repeats")
	assert.Equal(t, []string{"act toolu_r x", "notes_delete 1"}, runLines(t, runs), "the repeat is answered from the record")

	after := keyed(t, st, runs, k2)
	_, err = after.Confirm(ctx, old2, alice)
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "the old key dropped: refused")
	assert.Equal(t, service.StatePending, stateOf(t, st, old2), "and left pending")
	_, err = after.Call(as("toolu_r"), "act", []byte(`{"text":"x"}`))
	assert.Equal(t, tool.CodeCallIDReused, tool.CodeOf(err), "the old key dropped: the digest no longer matches")
	_, err = after.Confirm(ctx, fresh, alice)
	require.NoError(t, err, "made under the new key")
	_, err = rotated.Confirm(ctx, old2, alice)
	require.NoError(t, err, "the refused one still confirms where its key is known")
	assert.Equal(t, []string{"act toolu_r x", "notes_delete 1", "notes_delete 3", "notes_delete 2"}, runLines(t, runs))
}

// cancelOnClaim is a store whose Claim cancels its caller's context once
// the proposal is claimed (a tab closed just as the person confirmed).
type cancelOnClaim struct{ service.Store }

func (c cancelOnClaim) Claim(ctx context.Context, id string, rec *service.Record) (*service.Proposal, error) {
	p, err := c.Store.Claim(ctx, id, rec)
	cancelCaller(ctx)
	return p, err
}

// slowClaims is a store whose Claim takes up to two milliseconds more,
// as a database's round trip does, so that a cancellation meets a
// claimed proposal on any store.
type slowClaims struct{ service.Store }

func (c slowClaims) Claim(ctx context.Context, id string, rec *service.Record) (*service.Proposal, error) {
	p, err := c.Store.Claim(ctx, id, rec)
	time.Sleep(rand.N(2 * time.Millisecond))
	return p, err
}

// testCancelledConfirms: a confirmation cancelled at any moment never
// spends its proposal without running it. Cancelled just after the
// claim, the proposal is pending again and the record says nothing was
// run; of 200 confirmations cancelled at random (0-12 ms, 4 at a time),
// each proposal is pending and never ran, or done and ran once; and every
// one left pending runs once when confirmed again.
func testCancelledConfirms(t *testing.T, st service.Store) {
	ctx := context.Background()
	runs := filepath.Join(t.TempDir(), "runs")
	reg, err := newRegistry(runs)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{Store: cancelOnClaim{slowClaims{st}}})
	require.NoError(t, err)

	checkCancelledAfterClaim(t, st, svc, runs)

	const n = 200
	ids := make([]string, n)
	for i := range ids {
		ids[i] = proposeNote(t, svc, i)
	}
	confirmCancelledAtRandom(svc, ids)
	pending, tally := checkCancelledStates(t, st, ids, runs)
	t.Logf("of %d confirmations cancelled at random: %v; %d claimed and released without a run", n, tally, countReleased(t, st, ids))
	for _, i := range pending {
		_, err := svc.Confirm(ctx, ids[i], alice)
		require.NoError(t, err, "proposal %d, left pending, runs when confirmed again", i)
	}
	ran := runCounts(t, runs)
	for i := range ids {
		if tally[service.StateUnknown] == 0 {
			assert.Equal(t, 1, ran[strconv.Itoa(i)], "proposal %d ran once in all", i)
		}
	}
}

// checkCancelledAfterClaim: a confirmation cancelled just after the
// claim (cancelOnClaim) leaves the proposal pending, its record refused
// and nothing run; a later confirmation runs it.
func checkCancelledAfterClaim(t *testing.T, st service.Store, svc *service.Service, runs string) {
	ctx := context.Background()
	id := proposeNote(t, svc, 1000)
	cctx, cancel := context.WithCancel(ctx)
	_, err := svc.Confirm(context.WithValue(cctx, cancelKey{}, cancel), id, alice)
	assert.Equal(t, tool.CodeCancelled, tool.CodeOf(err))
	assert.ErrorContains(t, err, "the proposal is still pending")
	assert.Equal(t, service.StatePending, stateOf(t, st, id), "cancelled after the claim, before the run: pending again")
	r := lastOf(t, st, id)
	assert.Equal(t, service.EventConfirmation, r.Event)
	assert.Equal(t, service.OutcomeRefused, r.Outcome, "the claim's record: nothing was run")
	assert.Empty(t, runLines(t, runs))
	_, err = svc.Confirm(ctx, id, alice)
	require.NoError(t, err, "a later confirmation runs it")
	assert.Equal(t, []string{"notes_delete 1000"}, runLines(t, runs))
}

// confirmCancelledAtRandom confirms each of ids, 4 at a time, each
// cancelled after a random 0-12 ms.
func confirmCancelledAtRandom(svc *service.Service, ids []string) {
	ctx := context.Background()
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for _, id := range ids {
		delay := rand.N(12*time.Millisecond + 1)
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			timer := time.AfterFunc(delay, cancel)
			defer timer.Stop()
			_, _ = svc.Confirm(cctx, id, alice)
		})
	}
	wg.Wait()
}

// runCounts returns how many times each note was deleted, by its number.
func runCounts(t *testing.T, runs string) map[string]int {
	t.Helper()
	ran := map[string]int{}
	for _, line := range runLines(t, runs) {
		ran[strings.TrimPrefix(line, "notes_delete ")]++
	}
	return ran
}

// checkCancelledStates checks that each of ids (note i's proposal at i)
// is pending and never ran, or done and ran once (or unknown, run at
// most once); it returns the indexes of the pending ones and how many
// proposals are in each state.
func checkCancelledStates(t *testing.T, st service.Store, ids []string, runs string) (pending []int, tally map[service.State]int) {
	ran := runCounts(t, runs)
	tally = map[service.State]int{}
	for i, id := range ids {
		state, k := stateOf(t, st, id), ran[strconv.Itoa(i)]
		tally[state]++
		switch state {
		case service.StatePending:
			assert.Zero(t, k, "proposal %d is pending: it never ran", i)
			pending = append(pending, i)
		case service.StateDone:
			assert.Equal(t, 1, k, "proposal %d is done: it ran once", i)
		case service.StateUnknown: // its run abandoned at CancelGrace on a slow machine
			assert.LessOrEqual(t, k, 1, "proposal %d", i)
		default:
			t.Errorf("proposal %d is %s after its confirmation returned", i, state)
		}
	}
	return pending, tally
}

// countReleased returns how many confirmations of ids claimed their
// proposal and released it without a run: the window in which a
// proposal used to be spent without a run.
func countReleased(t *testing.T, st service.Store, ids []string) int {
	t.Helper()
	released := 0
	for _, id := range ids {
		recs, err := st.Records(context.Background(), service.Query{Proposal: id})
		require.NoError(t, err)
		for _, r := range recs {
			if r.Event == service.EventConfirmation && r.Outcome == service.OutcomeRefused {
				released++
			}
		}
	}
	return released
}
