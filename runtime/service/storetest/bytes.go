package storetest

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// hostileTexts are texts a caller may send in any field: every byte from
// 0x00 to 0xFF, NUL alone and inside text, invalid UTF-8 (a lone
// continuation byte, a cut sequence, an encoded surrogate, an overlong
// form), the escape byte a store may use for its own stored form, alone
// and followed by what could read as an escape, and plain text.
func hostileTexts() []string {
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	return []string{
		string(every), "\x00", "a\x00b\x00", "\xff", "\x80abc", "é\xc3", "\xed\xa0\x80", "\xc0\xaf",
		"\x1b", "\x1b00", "\x1b1b", "\x1bzz", "\x1b\x00\xff", "\\x00", "%00", "\u2028\ufffd", "plain",
	}
}

// testAnyBytes writes each hostile text into every text field a caller
// can reach (principal, conversation, turn, call ID, agent, tool, the
// message, the arguments, the result, a proposal's ID, summary and
// decider) and reads back exactly what was written: by every filter, and
// as the prior record of its call ID.
func testAnyBytes(t *testing.T, st service.Store) {
	ctx := context.Background()
	for i, s := range hostileTexts() {
		msg := "text " + strconv.Itoa(i) + " " + strconv.Quote(s)
		rec := &service.Record{Time: t0.Add(time.Duration(i) * time.Second), Principal: s, Conversation: s, Turn: s, CallID: s, Agent: s,
			Tool: s, Kind: tool.KindAction, Event: service.EventCall, Outcome: service.OutcomeStarted, Args: []byte(s), ArgsDigest: s, Proposal: s}
		prior, err := st.Start(ctx, rec)
		require.NoError(t, err, msg)
		require.Nil(t, prior, msg)
		rec.Outcome, rec.Code, rec.Error, rec.Result = service.OutcomeFailed, tool.CodeFailed, "cannot act on "+s, []byte(s)
		require.NoError(t, st.Finish(ctx, rec), "%s: a message quoting it finishes the run", msg)

		for _, q := range []service.Query{{Principal: s}, {Conversation: s}, {CallID: s}, {Tool: s}, {Proposal: s},
			{Principal: s, Conversation: s, CallID: s, Tool: s, Proposal: s}} {
			recs, err := st.Records(ctx, q)
			require.NoError(t, err, msg)
			require.Len(t, recs, 1, "%s: selected by %+v", msg, q)
			equalRecord(t, *rec, recs[0], msg)
		}
		prior, err = st.Start(ctx, &service.Record{Time: t0, Principal: s, Conversation: s, CallID: s, Tool: "act", Event: service.EventCall, Outcome: service.OutcomeStarted})
		require.NoError(t, err, msg)
		require.NotNil(t, prior, "%s: its call ID is taken", msg)
		equalRecord(t, *rec, *prior, msg+": the prior record")

		refusal := &service.Record{Time: t0, Principal: s, Conversation: s, Turn: s, CallID: s, Agent: s, Tool: s, Event: service.EventRefusal,
			Outcome: service.OutcomeRefused, Code: tool.CodeUnknownTool, Error: "unknown tool " + s, Proposal: s}
		require.NoError(t, st.Append(ctx, refusal), "%s: a refusal is recorded", msg)
		recs, err := st.Records(ctx, service.Query{Principal: s})
		require.NoError(t, err, msg)
		require.Len(t, recs, 2, msg)
		equalRecord(t, *refusal, recs[1], msg+": the refusal")

		p := &service.Proposal{ID: "prop_" + s, Principal: s, Conversation: s, Turn: s, Tool: s, Args: []byte(s), Digest: s, Summary: s,
			Created: t0, Expires: t0.Add(time.Hour), State: service.StatePending}
		prec := proposalRecord(p)
		prior, err = st.Propose(ctx, p, prec)
		require.NoError(t, err, msg)
		require.Nil(t, prior, msg)
		got, err := st.Proposal(ctx, p.ID)
		require.NoError(t, err, msg)
		equalProposal(t, *p, *got, msg+": the proposal")
		ps, err := st.Proposals(ctx, service.ProposalQuery{Principal: s, Conversation: s})
		require.NoError(t, err, msg)
		require.Len(t, ps, 1, msg)
		equalProposal(t, *p, ps[0], msg+": listed")
		conf := confirmation(p, s, t0.Add(time.Minute))
		claimed, err := st.Claim(ctx, p.ID, conf)
		require.NoError(t, err, msg)
		assert.Equal(t, s, claimed.DecidedBy, msg)
		conf.Outcome, conf.Error = service.OutcomeOK, s
		require.NoError(t, st.Settle(ctx, p.ID, service.StateDone, conf), msg)
		recs, err = st.Records(ctx, service.Query{Proposal: p.ID})
		require.NoError(t, err, msg)
		require.Len(t, recs, 2, msg)
		equalRecord(t, *conf, recs[1], msg+": the confirmation")

		_, err = st.Proposal(ctx, "prop_nope"+s)
		assert.ErrorIs(t, err, service.ErrNotFound, "%s: an unknown ID is not found, not a failure", msg)
	}
}

// testKey: the store keeps the first key it is given, of any bytes, and
// gives it back to every later call, also to concurrent ones with keys of
// their own.
func testKey(t *testing.T, st service.Store) {
	ctx := context.Background()
	keys := make([][]byte, 20)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			fresh := make([]byte, 32)
			for j := range fresh {
				fresh[j] = byte(i*32 + j) // NUL, invalid UTF-8: any bytes
			}
			k, err := st.Key(ctx, fresh)
			if assert.NoError(t, err) {
				keys[i] = k
			}
		})
	}
	wg.Wait()
	require.Len(t, keys[0], 32)
	for _, k := range keys {
		assert.Equal(t, keys[0], k, "one key for all")
	}
	again, err := st.Key(ctx, []byte("another key of 32 bytes or more!"))
	require.NoError(t, err)
	assert.Equal(t, keys[0], again, "kept")
}
