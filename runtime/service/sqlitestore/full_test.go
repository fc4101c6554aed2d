package sqlitestore_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// fullPages is the size the test database may grow to, in pages: every
// connection to it (the store's and the filler's) is opened with
// PRAGMA max_page_count, so that a write past it fails with SQLITE_FULL,
// as a write to a full disk does.
const fullPages = 64

// sqliteFull is SQLITE_FULL, the low byte of its extended codes.
const sqliteFull = 13

// filler fills and empties the database beside the store: with rows of
// a table of its own, on a connection of its own, until no page is left,
// then with the store's own records until the last page of the records
// has no room either.
type filler struct {
	db *sql.DB
	st service.Store
}

// fill fills the database.
func (f filler) fill(t *testing.T) {
	t.Helper()
	_, err := f.db.Exec(`CREATE TABLE IF NOT EXISTS filler (b BLOB)`)
	require.NoError(t, err)
	for {
		_, err := f.db.Exec(`INSERT INTO filler VALUES (zeroblob(2000))`)
		if err != nil {
			requireFull(t, err)
			break
		}
	}
	for {
		err := f.st.Append(context.Background(), &service.Record{Time: time.Now(), Principal: "filler", Tool: "act",
			Event: service.EventRefusal, Outcome: service.OutcomeRefused, Code: tool.CodeRefused})
		if err != nil {
			requireFull(t, err)
			return
		}
	}
}

// requireFull fails t unless err is SQLITE_FULL.
func requireFull(t *testing.T, err error) {
	t.Helper()
	var e interface{ Code() int }
	require.True(t, errors.As(err, &e) && e.Code()&0xff == sqliteFull, "the database is full: %v", err)
}

// empty deletes the rows fill inserted: their pages are free again.
func (f filler) empty(t *testing.T) {
	t.Helper()
	_, err := f.db.Exec(`DELETE FROM filler`)
	require.NoError(t, err)
}

// TestFullDiskFailsClosed: the database cannot grow (SQLITE_FULL, as on a
// full disk). A call whose start cannot be written is refused and does
// not run, and leaves no record behind; a call whose start was written
// and whose end cannot be (the disk filled while it ran) gives its caller
// the tool's answer, and its record stays started: a repeat of its call
// ID is outcome_unknown, then and once there is room again, and the tool
// never runs twice.
func TestFullDiskFailsClosed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "calls.db")
	dsn := "file:" + (&url.URL{Path: file}).EscapedPath() + "?_pragma=max_page_count(64)"
	st, err := sqlitestore.Open(ctx, dsn, nil)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	fdb, err := sql.Open("sqlite", dsn+"&_pragma=busy_timeout(10000)")
	require.NoError(t, err)
	t.Cleanup(func() { fdb.Close() })
	f := filler{fdb, st}

	var runs atomic.Int64
	// The answer, long enough that its record's end needs a page of its
	// own: an end that fits in its start's page would be written.
	result := "acted " + strings.Repeat("x", 5000)
	var during atomic.Pointer[func()] // called as act runs
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{Name: "act", Kind: tool.KindAction}}, nil,
		func(_ context.Context, _ int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			in.Skip()
			in.End()
			if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
				return 0, err
			}
			runs.Add(1)
			if fn := during.Load(); fn != nil {
				(*fn)()
			}
			out.RawText(result)
			return toolimpl.OutputText, nil
		}, nil)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{Store: st, AwaitRunning: -1})
	require.NoError(t, err)
	as := func(callID string) context.Context {
		return tool.WithInvocation(ctx, &tool.Invocation{Principal: tool.Principal{ID: "alice"}, Conversation: "c1", CallID: callID})
	}
	res, err := svc.Call(as("toolu_1"), "act", nil)
	require.NoError(t, err)
	assert.Equal(t, result, res.Text())

	// Full before the call: refused, not run, nothing recorded.
	f.fill(t)
	for _, id := range []string{"toolu_2", ""} {
		_, err = svc.Call(as(id), "act", nil)
		assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "call ID %q: refused", id)
		assert.ErrorContains(t, err, "nothing was run")
	}
	assert.EqualValues(t, 1, runs.Load(), "nothing ran on a full disk")
	recs, err := st.Records(ctx, service.Query{CallID: "toolu_2"})
	require.NoError(t, err)
	assert.Empty(t, recs, "no record of the refused call")
	f.empty(t)
	res, err = svc.Call(as("toolu_2"), "act", nil)
	require.NoError(t, err, "with room again the call ID is a call like any other")
	assert.Equal(t, result, res.Text())
	assert.EqualValues(t, 2, runs.Load())

	// Full while it runs: its start is written, its end cannot be.
	fill := func() { f.fill(t) }
	during.Store(&fill)
	res, err = svc.Call(as("toolu_3"), "act", nil)
	during.Store(nil)
	require.NoError(t, err, "the tool ran: its answer reaches the caller")
	assert.Equal(t, result, res.Text())
	recs, err = st.Records(ctx, service.Query{CallID: "toolu_3"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, service.OutcomeStarted, recs[0].Outcome, "the start, whole; no end")
	_, err = svc.Call(as("toolu_3"), "act", nil)
	assert.Equal(t, tool.CodeOutcomeUnknown, tool.CodeOf(err), "a repeat on a full disk")
	f.empty(t)
	_, err = svc.Call(as("toolu_3"), "act", nil)
	assert.Equal(t, tool.CodeOutcomeUnknown, tool.CodeOf(err), "a repeat with room again")
	assert.EqualValues(t, 3, runs.Load(), "nothing ran twice")
}
