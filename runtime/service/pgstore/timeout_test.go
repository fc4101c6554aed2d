package pgstore_test

import (
	"context"
	"database/sql"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// TestStatementTimeoutFailsClosed: the store's connections run with a
// statement_timeout of 300 ms, and another connection holds a lock on the
// records table, so that the store's writes wait and are cancelled by
// the server mid-write. A call whose start times out is refused, does
// not run and leaves no record; a call whose end times out (the lock
// taken while it ran) gives its caller the answer, and its record stays
// started: a repeat is outcome_unknown, and nothing runs twice; a
// confirmation whose record times out inside the claim's transaction is
// refused, the claim rolled back with it: the proposal stays pending,
// and is confirmed, once, when the lock is gone.
func TestStatementTimeoutFailsClosed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pg.Need(t).NewSchema(t)
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	q := u.Query()
	q.Set("statement_timeout", "300") // a run-time parameter pgx sends: ms
	u.RawQuery = q.Encode()
	st := open(t, u.String())
	locker, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { locker.Close() })
	var lock *sql.Tx
	take := func() {
		t.Helper()
		tx, err := locker.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.Exec(`LOCK TABLE toolgen_records IN ACCESS EXCLUSIVE MODE`)
		require.NoError(t, err)
		lock = tx
	}
	drop := func() {
		t.Helper()
		require.NoError(t, lock.Rollback())
	}

	g := newGated(t)
	svc, err := service.New(g.reg, &service.Options{Store: st, AwaitRunning: -1})
	require.NoError(t, err)
	alice := tool.Principal{ID: "alice"}
	as := func(callID string) context.Context {
		return tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c1", CallID: callID})
	}
	// run makes a call, letting the tool end once after is done.
	run := func(callID string, after func()) (tool.Result, error) {
		type answer struct {
			res tool.Result
			err error
		}
		done := make(chan answer, 1)
		go func() {
			res, err := svc.Call(as(callID), "act", nil)
			done <- answer{res, err}
		}()
		select {
		case <-g.running:
			after()
			g.release <- struct{}{}
		case a := <-done:
			return a.res, a.err
		}
		a := <-done
		return a.res, a.err
	}

	// The start times out: refused, not run, no record.
	take()
	_, err = run("toolu_1", func() {})
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "refused")
	assert.ErrorContains(t, err, "nothing was run")
	var pe *pgconn.PgError
	if assert.ErrorAs(t, err, &pe, "the server's error is the cause") {
		assert.Equal(t, "57014", pe.Code, "query_canceled: the statement timed out")
	}
	drop()
	assert.Zero(t, g.runs.Load(), "not run")
	recs, err := st.Records(ctx, service.Query{CallID: "toolu_1"})
	require.NoError(t, err)
	assert.Empty(t, recs, "no record")

	// The end times out: the answer reaches the caller, the record stays
	// started, a repeat is outcome_unknown.
	res, err := run("toolu_2", take)
	require.NoError(t, err, "the tool ran: its answer reaches the caller")
	assert.Equal(t, "act done", res.Text())
	drop()
	recs, err = st.Records(ctx, service.Query{CallID: "toolu_2"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, service.OutcomeStarted, recs[0].Outcome, "the start, whole; no end")
	_, err = run("toolu_2", func() {})
	assert.Equal(t, tool.CodeOutcomeUnknown, tool.CodeOf(err))
	assert.EqualValues(t, 1, g.runs.Load(), "nothing ran twice")

	// A confirmation: its record times out inside the claim's transaction.
	p, err := svc.Propose(as(""), "notes_delete", nil)
	require.NoError(t, err)
	take()
	_, err = svc.Confirm(ctx, p.ID, alice)
	assert.Error(t, err, "the confirmation is refused")
	drop()
	assert.EqualValues(t, 1, g.runs.Load(), "the confirmed tool did not run")
	got, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, service.StatePending, got.State, "the claim was rolled back with its record")
	done := make(chan error, 1)
	go func() {
		_, err := svc.Confirm(ctx, p.ID, alice)
		done <- err
	}()
	<-g.running
	g.release <- struct{}{}
	require.NoError(t, <-done)
	got, err = st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, service.StateDone, got.State)
	assert.EqualValues(t, 2, g.runs.Load(), "the proposal ran once")
}
