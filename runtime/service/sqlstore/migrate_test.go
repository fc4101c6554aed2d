package sqlstore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
)

// TestMigrateKeepsTextOfEarlierRows: rows written under the first schema,
// whose text may hold ESC (the escape of the stored form) as it came,
// read back as they were written once the schema moves on.
func TestMigrateKeepsTextOfEarlierRows(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, driver string
		d            *sqlstore.Dialect
		dsn          func(t *testing.T) string
	}{
		{"sqlite", "sqlite", sqlstore.SQLite, func(t *testing.T) string { return "file:" + filepath.Join(t.TempDir(), "v1.db") }},
		{"postgres", "pgx", sqlstore.Postgres, func(t *testing.T) string { return pg.Need(t).NewSchema(t) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, err := sql.Open(c.driver, c.dsn(t))
			require.NoError(t, err)
			t.Cleanup(func() { db.Close() })
			// The database as the first release left it.
			_, err = db.ExecContext(ctx, `CREATE TABLE toolgen_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ns BIGINT NOT NULL)`)
			require.NoError(t, err)
			for _, stmt := range c.d.Migrations()[0].Statements {
				_, err := db.ExecContext(ctx, stmt)
				require.NoError(t, err)
			}
			const odd = "a\x1b1b\x1bzz\x1b" // ESC before what reads as an escape, before what does not, and last
			for _, stmt := range []string{
				`INSERT INTO toolgen_migrations (version, name, applied_ns) VALUES (1, 'v1', 0)`,
				`INSERT INTO toolgen_records (time_ns, principal, conversation, turn, call_id, agent, tool, kind, event, outcome, code, duration_ns, error, proposal, structured, keyed)
VALUES (1, '` + odd + `', 'c', '', 'toolu_1', '', 'act', 'action', 'call', 'ok', '', 0, '` + odd + `', '', false, true)`,
				`INSERT INTO toolgen_proposals (id, principal, conversation, turn, call_id, tool, digest, summary, created_ns, expires_ns, state, decided_by, decided_ns)
VALUES ('prop_1', '` + odd + `', 'c', '', '', 'notes_delete', 'd', '` + odd + `', 0, 1, 'pending', '', 0)`,
			} {
				_, err := db.ExecContext(ctx, stmt)
				require.NoError(t, err, stmt)
			}

			st, err := sqlstore.New(ctx, db, c.d, nil)
			require.NoError(t, err, "migrated")
			recs, err := st.Records(ctx, service.Query{Principal: odd})
			require.NoError(t, err)
			require.Len(t, recs, 1, "found by its principal")
			assert.Equal(t, odd, recs[0].Principal)
			assert.Equal(t, odd, recs[0].Error)
			assert.Empty(t, recs[0].ArgsDigest, "kept by no row before")
			p, err := st.Proposal(ctx, "prop_1")
			require.NoError(t, err)
			assert.Equal(t, odd, p.Principal)
			assert.Equal(t, odd, p.Summary)
			prior, err := st.Start(ctx, &service.Record{Principal: odd, Conversation: "c", CallID: "toolu_1", Event: service.EventCall})
			require.NoError(t, err)
			require.NotNil(t, prior, "its call ID still taken")
			assert.Equal(t, recs[0].ID, prior.ID)
		})
	}
}
