package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// propose calls notes_delete as alice and returns the proposal's ID.
func propose(t *testing.T, s *service.Service, callID string) string {
	t.Helper()
	res, err := s.Call(as(alice, callID), "notes_delete", []byte(`{ "id" : 7 }`))
	require.NoError(t, err)
	var out struct {
		Status, Proposal, Tool, Summary, Expires string
	}
	require.NoError(t, json.Unmarshal(res.Content, &out))
	assert.Equal(t, "proposed", out.Status)
	assert.Equal(t, "notes_delete", out.Tool)
	assert.Equal(t, "Delete this note? (notes_delete)", out.Summary)
	return out.Proposal
}

func TestProposeStoresAndConfirmRunsOnce(t *testing.T) {
	s, f, st, c := newService(t, nil)
	id := propose(t, s, "")
	assert.Zero(t, f.runs[tNotesDelete].Load(), "a proposal runs nothing")
	p, err := st.Proposal(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, service.StatePending, p.State)
	assert.Equal(t, `{"id":7}`, string(p.Args), "canonical arguments")
	assert.Len(t, p.Digest, 64, "a keyed digest, hex")
	assert.Equal(t, "alice", p.Principal)
	assert.Equal(t, "c1", p.Conversation)
	assert.Equal(t, c.now().Add(service.DefaultProposalTTL), p.Expires)
	assert.Len(t, id, len("prop_")+26, "128 random bits")

	c.add(time.Minute)
	conf, err := s.Confirm(context.Background(), id, alice)
	require.NoError(t, err)
	assert.Equal(t, "deleted 7 for alice", conf.Result.Text())
	assert.False(t, conf.Repeat)
	assert.Equal(t, service.StateDone, conf.Proposal.State)
	assert.EqualValues(t, 1, f.runs[tNotesDelete].Load())

	// Confirmed again: refused with the recorded outcome, not run.
	conf, err = s.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeAlreadyConfirmed, codeOf(err))
	require.NotNil(t, conf)
	assert.True(t, conf.Repeat)
	assert.Equal(t, "deleted 7 for alice", conf.Result.Text())
	assert.EqualValues(t, 1, f.runs[tNotesDelete].Load())

	recs := records(t, st)
	require.Len(t, recs, 3)
	assert.Equal(t, service.EventProposal, recs[0].Event)
	assert.Equal(t, service.OutcomeOK, recs[0].Outcome)
	assert.Equal(t, id, recs[0].Proposal)
	assert.Equal(t, service.EventConfirmation, recs[1].Event)
	assert.Equal(t, service.OutcomeOK, recs[1].Outcome)
	assert.Equal(t, "alice", recs[1].Principal)
	assert.Equal(t, `{"id":7}`, string(recs[1].Args))
	assert.Equal(t, service.EventRefusal, recs[2].Event)
	assert.Equal(t, tool.CodeAlreadyConfirmed, recs[2].Code)
}

func TestConfirmRunsWithTheConfirmingPrincipal(t *testing.T) {
	s, _, _, _ := newService(t, &service.Options{Policy: &service.Rules{ConfirmPermission: "confirm.any"}})
	id := propose(t, s, "")
	conf, err := s.Confirm(context.Background(), id, admin)
	require.NoError(t, err)
	assert.Equal(t, "deleted 7 for admin", conf.Result.Text())
}

func TestBadConfirmations(t *testing.T) {
	s, f, st, c := newService(t, &service.Options{Policy: &service.Rules{ConfirmPermission: "confirm.any", OthersOnly: false}})
	unknownMsg := func(id string) string { return "no proposal " + id + " is open to you" }

	t.Run("forged", func(t *testing.T) {
		_, err := s.Confirm(context.Background(), "prop_AAAAAAAAAAAAAAAAAAAAAAAAAA", alice)
		assert.Equal(t, tool.CodeUnknownProposal, codeOf(err))
		assert.Equal(t, unknownMsg("prop_AAAAAAAAAAAAAAAAAAAAAAAAAA"), err.Error())
		_, err = s.Confirm(context.Background(), `x"; DROP <b>`, alice)
		assert.Equal(t, "no such proposal", err.Error(), "an ID that is no identifier is not repeated")
		for _, id := range []string{"delete_everything", "prop_aaaaaaaaaaaaaaaaaaaaaaaaaa", "prop_AAAAAAAAAAAAAAAAAAAAAAAAAAA"} {
			_, err = s.Confirm(context.Background(), id, alice)
			assert.Equal(t, "no such proposal", err.Error(), "an identifier that is no proposal ID is not repeated: %s", id)
			_, err = s.ViewProposal(context.Background(), id, alice)
			assert.Equal(t, "no such proposal", err.Error(), "nor by ViewProposal: %s", id)
		}
		assert.Equal(t, service.EventRefusal, last(t, st).Event)
	})
	t.Run("foreign", func(t *testing.T) {
		id := propose(t, s, "")
		_, err := s.Confirm(context.Background(), id, bob)
		assert.Equal(t, tool.CodeUnknownProposal, codeOf(err))
		assert.Equal(t, unknownMsg(id), err.Error(), "the same answer as an unknown ID")
		r := last(t, st)
		assert.Equal(t, service.EventRefusal, r.Event)
		assert.Equal(t, "bob", r.Principal)
		err = s.Reject(context.Background(), id, bob)
		assert.Equal(t, unknownMsg(id), err.Error())
		_, err = s.Proposal(context.Background(), id, bob)
		assert.Equal(t, unknownMsg(id), err.Error())
	})
	t.Run("expired", func(t *testing.T) {
		id := propose(t, s, "")
		c.add(service.DefaultProposalTTL)
		_, err := s.Confirm(context.Background(), id, alice)
		assert.Equal(t, tool.CodeProposalExpired, codeOf(err))
		recs := records(t, st)
		assert.Equal(t, service.EventExpiry, recs[len(recs)-2].Event, "the expiry is recorded once, then the refusal")
		assert.Equal(t, service.EventRefusal, recs[len(recs)-1].Event)
		_, err = s.Confirm(context.Background(), id, alice)
		assert.Equal(t, tool.CodeProposalExpired, codeOf(err))
		p, _ := st.Proposal(context.Background(), id)
		assert.Equal(t, service.StateExpired, p.State)
	})
	t.Run("rejected (cancelled)", func(t *testing.T) {
		id := propose(t, s, "")
		require.NoError(t, s.Reject(context.Background(), id, alice))
		assert.Equal(t, service.EventRejection, last(t, st).Event)
		_, err := s.Confirm(context.Background(), id, alice)
		assert.Equal(t, tool.CodeProposalRejected, codeOf(err))
		err = s.Reject(context.Background(), id, alice)
		assert.Equal(t, tool.CodeProposalRejected, codeOf(err), "closed for good")
	})
	t.Run("reused", func(t *testing.T) {
		id := propose(t, s, "")
		_, err := s.Confirm(context.Background(), id, admin)
		require.NoError(t, err)
		_, err = s.Confirm(context.Background(), id, alice)
		assert.Equal(t, tool.CodeAlreadyConfirmed, codeOf(err))
		err = s.Reject(context.Background(), id, alice)
		assert.Equal(t, tool.CodeAlreadyConfirmed, codeOf(err), "a proposal that ran cannot be rejected")
	})
	t.Run("permission lost since the proposal", func(t *testing.T) {
		id := propose(t, s, "")
		_, err := s.Confirm(context.Background(), id, tool.Principal{ID: "alice"})
		assert.Equal(t, tool.CodeUnknownTool, codeOf(err), "permissions are checked at run time")
		p, _ := st.Proposal(context.Background(), id)
		assert.Equal(t, service.StatePending, p.State)
	})
	before := f.runs[tNotesDelete].Load()
	for _, c := range []struct {
		name   string
		tamper func(p *service.Proposal)
	}{
		{"arguments changed in the store", func(p *service.Proposal) { p.Args = []byte(`{"id":8}`) }},
		{"arguments changed, the digest made again as anyone can", func(p *service.Proposal) {
			p.Args = []byte(`{"id":8}`)
			p.Digest = unkeyedDigest(p)
		}},
		{"expiry extended", func(p *service.Proposal) { p.Expires = p.Expires.Add(24 * time.Hour) }},
		{"summary changed", func(p *service.Proposal) { p.Summary = "Read this note? (notes_delete)" }},
		{"made for another conversation", func(p *service.Proposal) { p.Conversation = "c9" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			tampered := &tamperStore{MemoryStore: service.NewMemoryStore(), tamper: c.tamper}
			s2, f2, _, _ := newService(t, &service.Options{Store: tampered})
			id := propose(t, s2, "")
			tampered.on.Store(true)
			_, err := s2.Confirm(context.Background(), id, alice)
			assert.Equal(t, tool.CodeRefused, codeOf(err))
			assert.Contains(t, err.Error(), "does not match its digest")
			assert.Zero(t, f2.runs[tNotesDelete].Load())
			r := last(t, tampered)
			assert.Equal(t, service.EventConfirmation, r.Event)
			assert.Equal(t, service.OutcomeRefused, r.Outcome)
			assert.Contains(t, r.Error, "the proposal is unchanged")
			p, err := tampered.Proposal(context.Background(), id)
			require.NoError(t, err)
			assert.Equal(t, service.StatePending, p.State, "the claim is released: a refusal changes no proposal")
			_, err = s2.Confirm(context.Background(), id, alice)
			assert.Equal(t, tool.CodeRefused, codeOf(err), "refused again while it does not match")
			assert.Zero(t, f2.runs[tNotesDelete].Load())
			tampered.on.Store(false)
			_, err = s2.Confirm(context.Background(), id, alice)
			require.NoError(t, err, "the proposal as stored was never changed: it runs")
			assert.EqualValues(t, 1, f2.runs[tNotesDelete].Load())
		})
	}
	assert.Equal(t, before, f.runs[tNotesDelete].Load())
}

// unkeyedDigest is a digest anyone can compute: a SHA-256 of the
// proposal's ID, principal, conversation, tool and arguments, as the
// service's digest was before it was keyed.
func unkeyedDigest(p *service.Proposal) string {
	h := sha256.New()
	for _, s := range []string{p.ID, p.Principal, p.Conversation, p.Tool} {
		h.Write([]byte(strconv.Itoa(len(s)) + ":" + s))
	}
	h.Write(p.Args)
	return hex.EncodeToString(h.Sum(nil))
}

// tamperStore changes a proposal as it is claimed, once on: a store
// someone wrote to behind the service's back.
type tamperStore struct {
	*service.MemoryStore
	tamper func(p *service.Proposal)
	on     atomic.Bool
}

func (s *tamperStore) Claim(ctx context.Context, id string, rec *service.Record) (*service.Proposal, error) {
	p, err := s.MemoryStore.Claim(ctx, id, rec)
	if err == nil && s.on.Load() {
		s.tamper(p)
	}
	return p, err
}

// TestDigestKey: the digests are keyed by Options.Key, or else by the
// key the store keeps, which every service sharing the store reads.
func TestDigestKey(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", service.MinKeyLen))
	t.Run("two services over one store agree", func(t *testing.T) {
		st := service.NewMemoryStore()
		one, f1, _, _ := newService(t, &service.Options{Store: st})
		two, f2, _, _ := newService(t, &service.Options{Store: st})
		id := propose(t, one, "")
		conf, err := two.Confirm(context.Background(), id, alice)
		require.NoError(t, err, "the other service checks the digest with the store's key")
		assert.Equal(t, "deleted 7 for alice", conf.Result.Text())
		assert.Zero(t, f1.runs[tNotesDelete].Load())
		assert.EqualValues(t, 1, f2.runs[tNotesDelete].Load())
		stored, err := st.Key(context.Background(), []byte(strings.Repeat("x", service.MinKeyLen)))
		require.NoError(t, err)
		assert.Len(t, stored, service.MinKeyLen, "made at random and kept")
		assert.NotEqual(t, strings.Repeat("x", service.MinKeyLen), string(stored))
	})
	t.Run("a key of the host's, the same on both", func(t *testing.T) {
		st := service.NewMemoryStore()
		one, _, _, _ := newService(t, &service.Options{Store: st, Key: key})
		two, f2, _, _ := newService(t, &service.Options{Store: st, Key: key})
		_, err := two.Confirm(context.Background(), propose(t, one, ""), alice)
		require.NoError(t, err)
		assert.EqualValues(t, 1, f2.runs[tNotesDelete].Load())
	})
	t.Run("another key refuses", func(t *testing.T) {
		st := service.NewMemoryStore()
		one, _, _, _ := newService(t, &service.Options{Store: st, Key: key})
		two, f2, _, _ := newService(t, &service.Options{Store: st})
		_, err := two.Confirm(context.Background(), propose(t, one, ""), alice)
		assert.Equal(t, tool.CodeRefused, codeOf(err))
		assert.Zero(t, f2.runs[tNotesDelete].Load())
	})
	t.Run("a short key is refused", func(t *testing.T) {
		_, reg := newFixture(t)
		_, err := service.New(reg, &service.Options{Key: key[:service.MinKeyLen-1]})
		assert.ErrorContains(t, err, "fewer than 32")
	})
	t.Run("a short old key is refused", func(t *testing.T) {
		_, reg := newFixture(t)
		_, err := service.New(reg, &service.Options{Key: key, OldKeys: [][]byte{key, key[:service.MinKeyLen-1]}})
		assert.ErrorContains(t, err, "OldKeys[1] has 31 bytes, fewer than 32")
	})
	t.Run("a store that lost its key under pending proposals", func(t *testing.T) {
		st := service.NewMemoryStore()
		one, _, _, _ := newService(t, &service.Options{Store: st, Key: key})
		id := propose(t, one, "")
		two, f2, _, _ := newService(t, &service.Options{Store: st})
		_, err := two.Confirm(context.Background(), id, alice)
		assert.Equal(t, tool.CodeRefused, codeOf(err))
		assert.ErrorIs(t, err, service.ErrKeyLost)
		assert.ErrorContains(t, err, "digest key is lost")
		_, err = two.Call(as(alice, ""), "notes_delete", []byte(`{"id":8}`))
		assert.ErrorIs(t, err, service.ErrKeyLost, "no proposal without the key")
		p, err := st.Proposal(context.Background(), id)
		require.NoError(t, err)
		assert.Equal(t, service.StatePending, p.State)
		assert.Zero(t, f2.runs[tNotesDelete].Load())
		_, err = one.Confirm(context.Background(), id, alice)
		require.NoError(t, err, "the service with the key confirms it")
	})
	t.Run("the store cannot keep the key", func(t *testing.T) {
		st := service.NewMemoryStore()
		st.FailWith(func(op string) error {
			if op == "key" {
				return errors.New("disk full")
			}
			return nil
		})
		s, f, _, _ := newService(t, &service.Options{Store: st})
		_, err := s.Call(as(alice, ""), "notes_delete", []byte(`{"id":7}`))
		assert.Equal(t, tool.CodeRefused, codeOf(err), "a proposal needs its digest")
		_, err = s.Call(as(alice, "toolu_1"), "act", nil)
		assert.Equal(t, tool.CodeRefused, codeOf(err), "a call ID needs its digest")
		_, err = s.Call(as(alice, ""), "act", nil)
		assert.NoError(t, err, "a call without one needs none")
		assert.EqualValues(t, 1, f.runs[tAct].Load())
		st.FailWith(nil)
		_, err = s.Call(as(alice, "toolu_1"), "act", nil)
		assert.NoError(t, err, "the key is asked for again")
	})
}

func TestConcurrentConfirmsRunOnce(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	id := propose(t, s, "")
	const n = 1000
	var wg sync.WaitGroup
	errs := make([]error, n)
	confs := make([]*service.Confirmation, n)
	for i := range n {
		wg.Go(func() { confs[i], errs[i] = s.Confirm(context.Background(), id, alice) })
	}
	wg.Wait()
	assert.EqualValues(t, 1, f.runs[tNotesDelete].Load(), "counted by the tool itself")
	ran := 0
	for i := range n {
		if errs[i] == nil {
			ran++
			continue
		}
		assert.Equal(t, tool.CodeAlreadyConfirmed, codeOf(errs[i]))
		require.NotNil(t, confs[i])
		assert.Equal(t, "deleted 7 for alice", confs[i].Result.Text(), "the recorded outcome")
	}
	assert.Equal(t, 1, ran)
	refusals := 0
	for _, r := range records(t, st) {
		if r.Event == service.EventRefusal && r.Code == tool.CodeAlreadyConfirmed {
			refusals++
		}
	}
	assert.Equal(t, n-1, refusals, "every confirmation leaves a row")
}

func TestProposeNamesAWriteTool(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	_, err := s.Propose(as(alice, ""), "act", nil)
	assert.Equal(t, tool.CodeNotProposal, codeOf(err))
	assert.Contains(t, err.Error(), "not a write tool")
	assert.Zero(t, f.runs[tAct].Load())
	assert.Equal(t, tool.CodeNotProposal, last(t, st).Code)

	p, err := s.Propose(as(alice, ""), "notes_delete", []byte(`{"id":3}`))
	require.NoError(t, err)
	assert.Equal(t, service.StatePending, p.State)

	_, err = s.Propose(as(alice, ""), "notes_delete", []byte(`{}`))
	assert.Equal(t, tool.CodeInvalidArguments, codeOf(err), "arguments are validated before anything is stored")
	assert.Equal(t, service.OutcomeFailed, last(t, st).Outcome)
	ps, err := s.Proposals(context.Background(), service.ProposalQuery{Principal: "alice"})
	require.NoError(t, err)
	assert.Len(t, ps, 1)
}

func TestAbandonedConfirmationIsOutcomeUnknown(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	res, err := s.Call(as(alice, ""), "slow_propose", nil)
	require.NoError(t, err)
	var out struct{ Proposal string }
	require.NoError(t, json.Unmarshal(res.Content, &out))
	_, err = s.Confirm(context.Background(), out.Proposal, alice)
	assert.Equal(t, tool.CodeTimeout, codeOf(err))
	assert.True(t, errors.Is(err, tool.ErrAbandoned))
	p, _ := st.Proposal(context.Background(), out.Proposal)
	assert.Equal(t, service.StateUnknown, p.State)
	assert.Equal(t, service.OutcomeUnknown, last(t, st).Outcome)

	_, err = s.Confirm(context.Background(), out.Proposal, alice)
	assert.Equal(t, tool.CodeOutcomeUnknown, codeOf(err), "never re-run")
	assert.EqualValues(t, 1, f.runs[tSlowPropose].Load())
}

func TestConfirmAfterACrashMidRunIsOutcomeUnknown(t *testing.T) {
	s, f, st, c := newService(t, &service.Options{AwaitRunning: 30 * time.Millisecond})
	id := propose(t, s, "")
	// Another process claimed it and died before settling.
	_, err := st.Claim(context.Background(), id, &service.Record{Time: c.now(), Principal: "alice", Event: service.EventConfirmation, Outcome: service.OutcomeStarted, Proposal: id})
	require.NoError(t, err)
	_, err = s.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeOutcomeUnknown, codeOf(err))
	assert.Contains(t, err.Error(), "not run again")
	assert.Zero(t, f.runs[tNotesDelete].Load())
}

func TestStoreFailureRunsNothingThatNeededTheRow(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	id := propose(t, s, "")
	boom := errors.New("disk full")
	st.FailWith(func(op string) error {
		if op == "claim" || op == "start" || op == "propose" {
			return boom
		}
		return nil
	})
	_, err := s.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Contains(t, err.Error(), "could not be recorded")
	_, err = s.Call(as(alice, ""), "act", nil)
	assert.Equal(t, tool.CodeRefused, codeOf(err), "fail closed by default")
	_, err = s.Call(as(alice, ""), "notes_delete", []byte(`{"id":1}`))
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Zero(t, f.runs[tNotesDelete].Load())
	assert.Zero(t, f.runs[tAct].Load())
	r := last(t, st)
	assert.Equal(t, service.EventRefusal, r.Event, "the refusal itself is recorded")

	st.FailWith(nil) // the store is back
	conf, err := s.Confirm(context.Background(), id, alice)
	require.NoError(t, err, "the proposal stayed pending")
	assert.Equal(t, "deleted 7 for alice", conf.Result.Text())

	// FailOpen lets the other kinds run; confirmations still fail closed.
	s2, f2, st2, _ := newService(t, &service.Options{FailOpen: true})
	id2 := propose(t, s2, "")
	st2.FailWith(func(string) error { return boom })
	_, err = s2.Call(as(alice, ""), "act", nil)
	require.NoError(t, err)
	assert.EqualValues(t, 1, f2.runs[tAct].Load())
	_, err = s2.Confirm(context.Background(), id2, alice)
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Zero(t, f2.runs[tNotesDelete].Load())
}

func TestExpireRecordsExpiries(t *testing.T) {
	s, _, st, c := newService(t, nil)
	propose(t, s, "")
	propose(t, s, "")
	n, err := s.Expire(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n)
	c.add(service.DefaultProposalTTL + time.Second)
	n, err = s.Expire(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, service.EventExpiry, last(t, st).Event)
	ps, _ := s.Proposals(context.Background(), service.ProposalQuery{State: service.StateExpired})
	assert.Len(t, ps, 2)
}

func TestPolicyDecidesWhoConfirms(t *testing.T) {
	s, f, st, _ := newService(t, &service.Options{Policy: &service.Rules{ConfirmPermission: "confirm.any", OthersOnly: true}})
	id := propose(t, s, "")
	_, err := s.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeUnknownProposal, codeOf(err), "four eyes: the proposer may not confirm")
	assert.Equal(t, service.EventRefusal, last(t, st).Event)
	_, err = s.Confirm(context.Background(), id, bob)
	assert.Equal(t, tool.CodeUnknownProposal, codeOf(err), "bob holds no confirm permission")
	assert.Zero(t, f.runs[tNotesDelete].Load())
	conf, err := s.Confirm(context.Background(), id, admin)
	require.NoError(t, err)
	assert.Equal(t, "deleted 7 for admin", conf.Result.Text())

	// The zero Rules: the proposer only.
	s2, _, _, _ := newService(t, nil)
	id = propose(t, s2, "")
	_, err = s2.Confirm(context.Background(), id, admin)
	assert.Equal(t, tool.CodeUnknownProposal, codeOf(err))
	_, err = s2.Confirm(context.Background(), id, alice)
	require.NoError(t, err)
}

func TestProposalConformsToItsSchema(t *testing.T) {
	s, _, _, _ := newService(t, nil)
	res, err := s.Call(as(alice, ""), "notes_delete", []byte(`{"id":1}`))
	require.NoError(t, err)
	assert.True(t, res.Structured, "structured output, as MCP wants of a tool with an output schema")
	var schema any
	require.NoError(t, json.Unmarshal([]byte(tool.ProposalOutputSchema), &schema))
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("proposal.json", schema))
	sch, err := c.Compile("proposal.json")
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(res.Content, &v))
	assert.NoError(t, sch.Validate(v))
}

func TestConfirmWaitsForAnotherInstancesRun(t *testing.T) {
	s, f, st, c := newService(t, nil)
	id := propose(t, s, "")
	// Another instance sharing the store claimed it and is running it.
	claim := &service.Record{Time: c.now(), Principal: "alice", Event: service.EventConfirmation, Outcome: service.OutcomeStarted, Proposal: id}
	_, err := st.Claim(context.Background(), id, claim)
	require.NoError(t, err)
	go func() {
		time.Sleep(50 * time.Millisecond)
		claim.Outcome, claim.Result = service.OutcomeOK, []byte("deleted 7 over there")
		assert.NoError(t, st.Settle(context.Background(), id, service.StateDone, claim))
	}()
	conf, err := s.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeAlreadyConfirmed, codeOf(err), "not outcome_unknown while the other run is under way")
	require.NotNil(t, conf)
	assert.Equal(t, "deleted 7 over there", conf.Result.Text(), "its recorded outcome")
	assert.Zero(t, f.runs[tNotesDelete].Load())
}

// heldElsewhere is a store whose first Claim finds the proposal running,
// as when another instance has claimed it, while it is pending: that
// instance's claim was released, its run never started.
type heldElsewhere struct {
	*service.MemoryStore
	once atomic.Bool
}

func (h *heldElsewhere) Claim(ctx context.Context, id string, rec *service.Record) (*service.Proposal, error) {
	if h.once.CompareAndSwap(false, true) {
		p, err := h.MemoryStore.Proposal(ctx, id)
		if err != nil {
			return nil, err
		}
		p.State = service.StateRunning
		return p, service.ErrNotPending
	}
	return h.MemoryStore.Claim(ctx, id, rec)
}

// TestClaimReleasedElsewhere: a confirmation that meets another
// instance's claim, released without a run, says the proposal is pending
// again and runs nothing; confirmed again, it runs once.
func TestClaimReleasedElsewhere(t *testing.T) {
	t.Parallel()
	st := &heldElsewhere{MemoryStore: service.NewMemoryStore()}
	s, f, _, _ := newService(t, &service.Options{Store: st})
	id := propose(t, s, "")
	_, err := s.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.ErrorContains(t, err, "is pending again")
	assert.Zero(t, f.runs[tNotesDelete].Load())
	_, err = s.Confirm(context.Background(), id, alice)
	require.NoError(t, err)
	assert.EqualValues(t, 1, f.runs[tNotesDelete].Load())
}
