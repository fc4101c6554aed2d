package servicemcp_test

import (
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/pgtest"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
)

// pg is this test binary's PostgreSQL server, started when a test first
// needs it.
var pg pgtest.Lazy

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// TestTwoInstancesOnPostgreSQL: two instances, each with its own
// connection to one PostgreSQL database, behind which a proposal made over
// MCP on one is confirmed on the other (by the host, then by the person
// through the input-required round trip), runs once, and is recorded once
// for both.
func TestTwoInstancesOnPostgreSQL(t *testing.T) {
	t.Parallel()
	dsn := pg.Need(t).NewSchema(t)
	open := func() *sqlstore.Store {
		st, err := pgstore.Open(t.Context(), dsn, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	t.Run("host", func(t *testing.T) {
		f := newFixture(t)
		one, two := newInstance(t, f, open(), false, nil), newInstance(t, f, open(), false, nil)
		cs := dialHTTP(t, serveHTTP(t, one, true), anaToken, latest, nil)
		res, err := cs.CallTool(t.Context(), deleteCall())
		require.NoError(t, err)
		o := outcomeOf(t, res)
		conf, err := two.svc.Confirm(t.Context(), o.Proposal, ana)
		require.NoError(t, err)
		assert.Equal(t, "deleted note 7 (run 1)", conf.Result.Text())
		_, err = one.svc.Confirm(t.Context(), o.Proposal, ana)
		require.Error(t, err, "confirmed on the other instance")
		assert.Equal(t, int64(1), f.runs[tDelete].Load())
	})
	t.Run("person", func(t *testing.T) {
		f := newFixture(t)
		one, two := newInstance(t, f, open(), true, nil), newInstance(t, f, open(), true, nil)
		csOne := dialHTTP(t, serveHTTP(t, one, true), anaToken, latest, clientOptions(&answer{}, true))
		csTwo := dialHTTP(t, serveHTTP(t, two, true), anaToken, latest, clientOptions(&answer{}, true))
		state := firstRound(t, csOne).RequestState
		o := outcomeOf(t, retry(t, csTwo, "notes_delete", state, "accept"))
		assert.Equal(t, "confirmed", o.Status)
		replay := retry(t, csOne, "notes_delete", state, "accept")
		assert.True(t, replay.IsError, "replayed on the first instance: refused")
		assert.Equal(t, int64(1), f.runs[tDelete].Load())
		got := rows(t, one.svc)
		require.GreaterOrEqual(t, len(got), 3)
		assert.Equal(t, []row{
			{"ana", "proposal", "notes_delete", "ok", ""},
			{"ana", "confirmation", "notes_delete", "ok", ""},
			{"ana", "refusal", "notes_delete", "refused", "already_confirmed"},
		}, got[len(got)-3:], "one record in the database, seen from either instance")
		assert.Equal(t, got, rows(t, two.svc))
	})
}

// TestHostileNamesRecordedOnPostgreSQL: a tools/call whose name holds
// NUL, or whose call ID and conversation hold text PostgreSQL's text type
// refuses as it came, is refused and leaves its refusal row: no client
// probes tools without a trace.
func TestHostileNamesRecordedOnPostgreSQL(t *testing.T) {
	t.Parallel()
	st, err := pgstore.Open(t.Context(), pg.Need(t).NewSchema(t), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	f := newFixture(t)
	in := newInstance(t, f, st, false, nil)
	// Before 2026-07-28: the name travels in the body alone (the latest
	// protocol's Mcp-Name header could not carry it).
	cs := dialHTTP(t, serveHTTP(t, in, false), anaToken, legacy, nil)
	for _, name := range []string{"notes_update\x00", "\x00", "notes_\x00update", "notes_update\x1b00"} {
		_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{"id": 1}})
		require.Error(t, err, "%q", name)
		assert.Contains(t, err.Error(), "unknown tool")
		recs, err := st.Records(t.Context(), service.Query{Tool: name})
		require.NoError(t, err)
		if assert.Len(t, recs, 1, "%q: its refusal row", name) {
			assert.Equal(t, service.EventRefusal, recs[0].Event)
			assert.Equal(t, "ana", recs[0].Principal)
		}
	}
	assert.Zero(t, f.runs[tUpdate].Load())
}
