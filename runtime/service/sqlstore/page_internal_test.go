package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the driver sqlitestore uses

	"github.com/toolgen-go/toolgen/runtime/service"
)

// TestPagesReadOneIndex asks SQLite how it runs the newest-first pages a
// record page makes: each reads its rows off one index, in order (no
// scan of the table, no sort of what it read), so that a page costs the
// same over a million records as over a thousand.
func TestPagesReadOneIndex(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "plan.db"))
	require.NoError(t, err)
	defer db.Close()
	_, err = Migrate(ctx, db, SQLite)
	require.NoError(t, err)

	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	cur := service.Position{Time: at, ID: 42}
	for _, q := range []service.Query{
		{},
		{Before: cur},
		{Principal: "alice"},
		{Principal: "alice", Before: cur},
		{Conversation: "c1", Before: cur},
		{Tool: "echo", Before: cur},
		{Event: service.EventRefusal, Before: cur},
		{Since: at.Add(-time.Hour), Until: at, Before: cur},
		{Principal: "alice", Since: at.Add(-time.Hour), Until: at},
	} {
		q.Newest, q.Limit = true, 51
		query, args := recordsQuery(&q)
		rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
		require.NoError(t, err)
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
			plan = append(plan, detail)
		}
		require.NoError(t, rows.Err())
		rows.Close()
		all := strings.Join(plan, "; ")
		assert.Contains(t, all, "USING INDEX toolgen_records_", "%+v: %s", q, all)
		assert.NotContains(t, all, "TEMP B-TREE", "%+v: no sort: %s", q, all)
		assert.Len(t, plan, 1, "%+v: %s", q, all)
	}
}
