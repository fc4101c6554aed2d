package sqlstore

import (
	"strconv"
	"strings"
)

// Dialect is what differs between the databases a Store runs on: the
// placeholders, the schema's column types, the statement that serialises
// two instances migrating at once, and the names of two scalar functions.
// The queries themselves are shared. SQLite and Postgres are the two
// dialects; their fields are unexported so that a Store's SQL is always
// one this package wrote and tested.
type Dialect struct {
	name string
	// dollar: placeholders are $1, $2, ... (PostgreSQL), else ?.
	dollar bool
	// lock is run first in the migration transaction, before the
	// migrations table is even created: it makes a second instance wait
	// for the first. Empty when beginning the transaction already does
	// (SQLite's BEGIN IMMEDIATE).
	lock string
	// least and greatest are the scalar min and max of two values.
	least, greatest string
	// migrations are the schema's steps, in order.
	migrations []Migration
}

// Name returns the dialect's name: "sqlite" or "postgres".
func (d *Dialect) Name() string { return d.name }

// Migration is one step of a dialect's schema: applied once, in order of
// Version, inside the transaction that records it in the
// toolgen_migrations table.
type Migration struct {
	// Version numbers the step, from 1 up, without gaps.
	Version int
	// Name says what the step does.
	Name string
	// Statements are run one by one.
	Statements []string
}

// Migrations returns the dialect's schema steps, oldest first.
func (d *Dialect) Migrations() []Migration {
	out := make([]Migration, len(d.migrations))
	for i, m := range d.migrations {
		out[i] = Migration{Version: m.Version, Name: m.Name, Statements: append([]string(nil), m.Statements...)}
	}
	return out
}

// bind returns query, written with ? placeholders, in the dialect's form.
// The queries of this package hold no ? but their placeholders.
func (d *Dialect) bind(query string) string {
	if !d.dollar || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// SQLite is the dialect of SQLite 3.37 or later (STRICT tables,
// RETURNING, upserts). Migrations are serialised by the write
// transaction itself: the store's writer begins every transaction with
// BEGIN IMMEDIATE, which waits (busy_timeout) while another connection,
// in this process or another, writes.
var SQLite = &Dialect{
	name:     "sqlite",
	least:    "min",
	greatest: "max",
	migrations: []Migration{{
		Version: 1,
		Name:    "records, proposals and rate buckets",
		Statements: []string{
			`CREATE TABLE toolgen_records (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	time_ns INTEGER NOT NULL,
	principal TEXT NOT NULL,
	conversation TEXT NOT NULL,
	turn TEXT NOT NULL,
	call_id TEXT NOT NULL,
	agent TEXT NOT NULL,
	tool TEXT NOT NULL,
	kind TEXT NOT NULL,
	event TEXT NOT NULL,
	outcome TEXT NOT NULL,
	code TEXT NOT NULL,
	duration_ns INTEGER NOT NULL,
	error TEXT NOT NULL,
	args BLOB,
	proposal TEXT NOT NULL,
	result BLOB,
	structured INTEGER NOT NULL,
	keyed INTEGER NOT NULL
) STRICT`,
			recordsCallIndex,
			`CREATE INDEX toolgen_records_time ON toolgen_records (time_ns)`,
			`CREATE INDEX toolgen_records_principal ON toolgen_records (principal, id)`,
			`CREATE INDEX toolgen_records_conversation ON toolgen_records (conversation, id)`,
			`CREATE INDEX toolgen_records_tool ON toolgen_records (tool, id)`,
			`CREATE INDEX toolgen_records_call_id ON toolgen_records (call_id, id) WHERE call_id <> ''`,
			`CREATE INDEX toolgen_records_proposal ON toolgen_records (proposal, id) WHERE proposal <> ''`,
			`CREATE TABLE toolgen_proposals (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	principal TEXT NOT NULL,
	conversation TEXT NOT NULL,
	turn TEXT NOT NULL,
	call_id TEXT NOT NULL,
	tool TEXT NOT NULL,
	args BLOB,
	digest TEXT NOT NULL,
	summary TEXT NOT NULL,
	created_ns INTEGER NOT NULL,
	expires_ns INTEGER NOT NULL,
	state TEXT NOT NULL,
	decided_by TEXT NOT NULL,
	decided_ns INTEGER NOT NULL
) STRICT`,
			`CREATE INDEX toolgen_proposals_state ON toolgen_proposals (state, seq)`,
			`CREATE INDEX toolgen_proposals_principal ON toolgen_proposals (principal, seq)`,
			`CREATE INDEX toolgen_proposals_conversation ON toolgen_proposals (conversation, seq)`,
			`CREATE INDEX toolgen_proposals_expires ON toolgen_proposals (expires_ns)`,
			`CREATE TABLE toolgen_rate_buckets (
	name TEXT NOT NULL,
	principal TEXT NOT NULL,
	tokens REAL NOT NULL,
	updated_ns INTEGER NOT NULL,
	PRIMARY KEY (name, principal)
) STRICT`,
		},
	}},
}

// Postgres is the dialect of PostgreSQL 12 or later (identity columns).
// Migrations are serialised by a transaction-level advisory lock taken
// before anything else, so that instances starting at once apply each
// step once.
var Postgres = &Dialect{
	name:     "postgres",
	dollar:   true,
	lock:     "SELECT pg_advisory_xact_lock(" + migrationLockKey + ")",
	least:    "LEAST",
	greatest: "GREATEST",
	migrations: []Migration{{
		Version: 1,
		Name:    "records, proposals and rate buckets",
		Statements: []string{
			`CREATE TABLE toolgen_records (
	id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	time_ns BIGINT NOT NULL,
	principal TEXT NOT NULL,
	conversation TEXT NOT NULL,
	turn TEXT NOT NULL,
	call_id TEXT NOT NULL,
	agent TEXT NOT NULL,
	tool TEXT NOT NULL,
	kind TEXT NOT NULL,
	event TEXT NOT NULL,
	outcome TEXT NOT NULL,
	code TEXT NOT NULL,
	duration_ns BIGINT NOT NULL,
	error TEXT NOT NULL,
	args BYTEA,
	proposal TEXT NOT NULL,
	result BYTEA,
	structured BOOLEAN NOT NULL,
	keyed BOOLEAN NOT NULL
)`,
			recordsCallIndex,
			`CREATE INDEX toolgen_records_time ON toolgen_records (time_ns)`,
			`CREATE INDEX toolgen_records_principal ON toolgen_records (principal, id)`,
			`CREATE INDEX toolgen_records_conversation ON toolgen_records (conversation, id)`,
			`CREATE INDEX toolgen_records_tool ON toolgen_records (tool, id)`,
			`CREATE INDEX toolgen_records_call_id ON toolgen_records (call_id, id) WHERE call_id <> ''`,
			`CREATE INDEX toolgen_records_proposal ON toolgen_records (proposal, id) WHERE proposal <> ''`,
			`CREATE TABLE toolgen_proposals (
	seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id TEXT NOT NULL UNIQUE,
	principal TEXT NOT NULL,
	conversation TEXT NOT NULL,
	turn TEXT NOT NULL,
	call_id TEXT NOT NULL,
	tool TEXT NOT NULL,
	args BYTEA,
	digest TEXT NOT NULL,
	summary TEXT NOT NULL,
	created_ns BIGINT NOT NULL,
	expires_ns BIGINT NOT NULL,
	state TEXT NOT NULL,
	decided_by TEXT NOT NULL,
	decided_ns BIGINT NOT NULL
)`,
			`CREATE INDEX toolgen_proposals_state ON toolgen_proposals (state, seq)`,
			`CREATE INDEX toolgen_proposals_principal ON toolgen_proposals (principal, seq)`,
			`CREATE INDEX toolgen_proposals_conversation ON toolgen_proposals (conversation, seq)`,
			`CREATE INDEX toolgen_proposals_expires ON toolgen_proposals (expires_ns)`,
			`CREATE TABLE toolgen_rate_buckets (
	name TEXT NOT NULL,
	principal TEXT NOT NULL,
	tokens DOUBLE PRECISION NOT NULL,
	updated_ns BIGINT NOT NULL,
	PRIMARY KEY (name, principal)
)`,
		},
	}},
}

// migrationLockKey is the advisory lock PostgreSQL instances take to
// migrate: an arbitrary constant, the bytes of "toolgen1" as an int64.
const migrationLockKey = "8390047142196375089"

// recordsCallIndex makes a call ID run once: of the rows that hold the key
// of their principal, conversation and call ID (keyed: a call or a
// proposal with a call ID, the first one written), there is at most one.
// Start and Propose insert with ON CONFLICT DO NOTHING against it and read
// the row that holds the key when nothing was inserted.
const recordsCallIndex = `CREATE UNIQUE INDEX toolgen_records_call ON toolgen_records (principal, conversation, call_id) WHERE keyed`
