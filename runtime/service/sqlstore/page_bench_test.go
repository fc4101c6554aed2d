package sqlstore_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
)

// pageRecords is how many records BenchmarkRecordPage loads.
const pageRecords = 1_000_000

// pageT0 is the time of the first record BenchmarkRecordPage loads; the
// n-th is n milliseconds later.
var pageT0 = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// loadRecords writes n records into st's table in one statement the
// database runs itself (a recursive CTE on SQLite, generate_series on
// PostgreSQL), with its indexes in place: record n (from 1) is at
// pageT0 + n ms, of principal p(n%100), conversation c(n%10000), tool
// t(n%50) and one of four events.
func loadRecords(b *testing.B, st *sqlstore.Store, n int) {
	const cols = `(time_ns, principal, conversation, turn, call_id, agent, tool, kind, event, outcome, code, duration_ns, error, args,
		args_digest, proposal, result, structured, keyed)`
	vals := `SELECT ` + strconv.FormatInt(pageT0.UnixNano(), 10) + ` + n * 1000000, 'p' || (n % 100), 'c' || (n % 10000), '', '',
		'agent', 't' || (n % 50), 'read', CASE n % 4 WHEN 0 THEN 'call' WHEN 1 THEN 'refusal' WHEN 2 THEN 'proposal' ELSE 'offer' END,
		'ok', '', 1000, '', {args}, '', '', NULL, {false}, {false}`
	var query string
	if st.Dialect().Name() == "postgres" {
		query = "INSERT INTO toolgen_records " + cols + " " +
			strings.NewReplacer("{args}", `'{"text":"hello"}'::bytea`, "{false}", "false").Replace(vals) +
			" FROM generate_series(1::bigint, " + strconv.Itoa(n) + ") AS g(n)"
	} else {
		query = "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < " + strconv.Itoa(n) + ") " +
			"INSERT INTO toolgen_records " + cols + " " +
			strings.NewReplacer("{args}", `CAST('{"text":"hello"}' AS BLOB)`, "{false}", "0").Replace(vals) + " FROM g"
	}
	start := time.Now()
	_, err := st.DB().ExecContext(context.Background(), query)
	require.NoError(b, err)
	if st.Dialect().Name() == "postgres" {
		_, err = st.DB().ExecContext(context.Background(), "ANALYZE toolgen_records")
	} else {
		_, err = st.DB().ExecContext(context.Background(), "ANALYZE")
	}
	require.NoError(b, err)
	b.Logf("%s: %d records loaded in %v", st.Dialect().Name(), n, time.Since(start).Round(time.Millisecond))
}

// BenchmarkRecordPage is one page of the console's record, 50 records
// newest first (Query.Newest), over 1,000,000 records, on SQLite (WAL)
// and PostgreSQL on loopback: with no filter, and filtered by principal
// (what a person who is not an operator reads), conversation, tool,
// event, a span of time, and a page deep in the record (its keyset
// cursor halfway back). The records are loaded once, before the timing.
func BenchmarkRecordPage(b *testing.B) {
	ctx := context.Background()
	mid := service.Position{Time: pageT0.Add(pageRecords / 2 * time.Millisecond), ID: pageRecords / 2}
	queries := []struct {
		name string
		q    service.Query
	}{
		{"all", service.Query{}},
		{"principal", service.Query{Principal: "p7"}},
		{"conversation", service.Query{Conversation: "c1234"}},
		{"tool", service.Query{Tool: "t3"}},
		{"event", service.Query{Event: service.EventOffer}},
		{"principal-event", service.Query{Principal: "p7", Event: service.EventOffer}},
		{"principal-time", service.Query{Principal: "p7", Since: pageT0.Add(100 * time.Second), Until: pageT0.Add(200 * time.Second)}},
		{"deep-page", service.Query{Before: mid}},
		{"principal-deep-page", service.Query{Principal: "p7", Before: mid}},
	}
	for _, s := range []struct {
		name string
		open func(b *testing.B) *sqlstore.Store
	}{
		{"sqlite", func(b *testing.B) *sqlstore.Store {
			st, err := sqlitestore.Open(ctx, filepath.Join(b.TempDir(), "calls.db"), nil)
			require.NoError(b, err)
			return st
		}},
		{"postgres", func(b *testing.B) *sqlstore.Store {
			st, err := pgstore.Open(ctx, pg.Need(b).NewSchema(b), nil)
			require.NoError(b, err)
			return st
		}},
	} {
		b.Run(s.name, func(b *testing.B) {
			st := s.open(b)
			defer st.Close()
			loadRecords(b, st, pageRecords)
			for _, c := range queries {
				b.Run(c.name, func(b *testing.B) {
					q := c.q
					q.Newest, q.Limit = true, 50
					for b.Loop() {
						recs, err := st.Records(ctx, q)
						if err != nil {
							b.Fatal(err)
						}
						if len(recs) != 50 {
							b.Fatalf("%d records, want 50", len(recs))
						}
					}
				})
			}
		})
	}
}
