package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// migrationsTable records the schema steps applied to a database.
const migrationsTable = `CREATE TABLE IF NOT EXISTS toolgen_migrations (
	version INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	applied_ns BIGINT NOT NULL
)`

// ErrSchemaTooNew is returned when a database's schema is of a later
// version than this package knows: a newer release of toolgen migrated
// it. The store refuses it rather than guess what the new columns mean.
var ErrSchemaTooNew = errors.New("sqlstore: the database's schema is newer than this version of toolgen knows")

// Migrate brings db's schema up to date for the dialect and returns its
// version. Migrations only go up: each step the database lacks is applied
// in one transaction with its row in toolgen_migrations, and a database
// whose schema is newer than d's is refused (ErrSchemaTooNew). Instances
// that migrate at once are serialised (an advisory lock on PostgreSQL, a
// write transaction on SQLite): one applies the steps, the others find
// them applied. New calls it; call it yourself to migrate ahead of a
// deployment.
func Migrate(ctx context.Context, db *sql.DB, d *Dialect) (version int, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlstore: migrate: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if d.lock != "" {
		if _, err := tx.ExecContext(ctx, d.lock); err != nil {
			return 0, fmt.Errorf("sqlstore: migrate: take the migration lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, migrationsTable); err != nil {
		return 0, fmt.Errorf("sqlstore: migrate: create toolgen_migrations: %w", err)
	}
	var have int
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM toolgen_migrations").Scan(&have); err != nil {
		return 0, fmt.Errorf("sqlstore: migrate: read the schema version: %w", err)
	}
	if want := len(d.migrations); have > want {
		return have, fmt.Errorf("%w: version %d, and this one knows %d", ErrSchemaTooNew, have, want)
	}
	for _, m := range d.migrations[have:] {
		for _, stmt := range m.Statements {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return have, fmt.Errorf("sqlstore: migrate to version %d (%s): %w", m.Version, m.Name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, d.bind("INSERT INTO toolgen_migrations (version, name, applied_ns) VALUES (?, ?, ?)"),
			m.Version, m.Name, time.Now().UnixNano()); err != nil {
			return have, fmt.Errorf("sqlstore: migrate to version %d: record it: %w", m.Version, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return have, fmt.Errorf("sqlstore: migrate: commit: %w", err)
	}
	return len(d.migrations), nil
}
