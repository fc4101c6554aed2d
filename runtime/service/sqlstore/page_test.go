package sqlstore_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
func loadRecords(b testing.TB, st *sqlstore.Store, n int) {
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

// TestPagesReadOneIndexPostgres asks PostgreSQL, over 100,000 records it
// has statistics of, how it runs the newest-first pages a record page
// makes: each is a range of one of the indexes migration 4 made, read
// backwards without a sort (or, for a range of a few rows, sorted), never
// a scan of the table, so that a page costs what its rows cost whatever
// the size of the table (BenchmarkRecordPage measures it at 1,000,000).
func TestPagesReadOneIndexPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 records")
	}
	ctx := context.Background()
	st, err := pgstore.Open(ctx, pg.Need(t).NewSchema(t), nil)
	require.NoError(t, err)
	defer st.Close()
	loadRecords(t, st, 100_000)
	mid := service.Position{Time: pageT0.Add(50 * time.Second), ID: 50_000}
	for _, q := range []service.Query{
		{},
		{Principal: "p7"},
		{Conversation: "c1234", Before: mid},
		{Tool: "t3", Before: mid},
		{Event: service.EventRefusal},
		{Principal: "p7", Since: pageT0.Add(10 * time.Second), Until: pageT0.Add(20 * time.Second)},
		{Before: mid},
	} {
		q.Newest, q.Limit = true, 51
		query, args := sqlstore.RecordsQuery(&q)
		rows, err := st.DB().QueryContext(ctx, "EXPLAIN "+pgPlaceholders(query), args...)
		require.NoError(t, err)
		var plan []string
		for rows.Next() {
			var line string
			require.NoError(t, rows.Scan(&line))
			plan = append(plan, line)
		}
		require.NoError(t, rows.Err())
		rows.Close()
		all := strings.Join(plan, "\n")
		// An index scan read backwards in the page's order; or, where the
		// filter's range of its index holds a handful of rows (a
		// conversation's), those rows found by that index and sorted.
		ordered := strings.Contains(all, "Index Scan Backward using toolgen_records_") && !strings.Contains(all, "Sort")
		few := regexp.MustCompile(`Index Scan on toolgen_records_\w+_time  \(cost=[0-9.]+ rows=([0-9]{1,3}) `).MatchString(all)
		assert.True(t, ordered || few, "%+v:\n%s", q, all)
		assert.NotContains(t, all, "Seq Scan", "%+v:\n%s", q, all)
	}
}

// pgPlaceholders writes query's ? placeholders as $1, $2, ...
func pgPlaceholders(query string) string {
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
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
