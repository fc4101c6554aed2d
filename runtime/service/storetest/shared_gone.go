package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

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
