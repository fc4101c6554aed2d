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
	migrations: migrations(columnTypes{
		rowID: "INTEGER PRIMARY KEY AUTOINCREMENT", integer: "INTEGER", blob: "BLOB", boolean: "INTEGER",
		real: "REAL", table: " STRICT", esc: "char(27)",
	}),
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
	migrations: migrations(columnTypes{
		rowID: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", integer: "BIGINT", blob: "BYTEA", boolean: "BOOLEAN",
		real: "DOUBLE PRECISION", esc: "chr(27)",
	}),
}

// columnTypes are a dialect's words for the schema's kinds of column.
type columnTypes struct {
	rowID   string // a primary key the database assigns, increasing
	integer string // 64 bits
	blob    string
	boolean string
	real    string // a float64
	table   string // after a CREATE TABLE's closing parenthesis
	esc     string // the one-character text ESC
}

// migrations returns the schema's steps in a dialect's words: the
// statements are written once, with {id}, {int}, {blob}, {bool}, {real},
// {table} and {esc} for them. A released step never changes (databases
// have applied it): a change to the schema is a new step, appended.
func migrations(t columnTypes) []Migration {
	r := strings.NewReplacer("{id}", t.rowID, "{int}", t.integer, "{blob}", t.blob, "{bool}", t.boolean, "{real}", t.real,
		"{table}", t.table, "{esc}", t.esc)
	steps := []Migration{{
		Version:    1,
		Name:       "records, proposals and rate buckets",
		Statements: firstTables(),
	}, {
		Version: 2,
		Name:    "text in its stored form, argument digests of call IDs, the digest key",
		Statements: []string{
			`ALTER TABLE toolgen_records ADD COLUMN args_digest TEXT NOT NULL DEFAULT ''`,
			`CREATE TABLE toolgen_keys (
	name TEXT NOT NULL PRIMARY KEY,
	secret {blob} NOT NULL
){table}`,
			// Rows written before hold text as it came: an ESC in them
			// becomes its escape, so that it reads back as itself.
			escapeESC("toolgen_records", "principal", "conversation", "turn", "call_id", "agent", "tool", "error", "proposal"),
			escapeESC("toolgen_proposals", "id", "principal", "conversation", "turn", "call_id", "tool", "digest", "summary", "decided_by"),
			escapeESC("toolgen_rate_buckets", "name", "principal"),
		},
	}, {
		Version:    3,
		Name:       "tasks",
		Statements: append(taskTables(), tasksOfPrincipalIndex),
	}, {
		Version:    4,
		Name:       "newest-first pages of the record: indexes on time and id, alone and after each filter's column",
		Statements: pageIndexes(),
	}, {
		Version:    5,
		Name:       "the console's sessions",
		Statements: sessionTable(),
	}}
	for i := range steps {
		for j, stmt := range steps[i].Statements {
			steps[i].Statements[j] = r.Replace(stmt)
		}
	}
	return steps
}

// firstTables is the first migration step's statements: the records, the
// proposals and the rate buckets, with their indexes.
func firstTables() []string {
	return []string{
		`CREATE TABLE toolgen_records (
	id {id},
	time_ns {int} NOT NULL,
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
	duration_ns {int} NOT NULL,
	error TEXT NOT NULL,
	args {blob},
	proposal TEXT NOT NULL,
	result {blob},
	structured {bool} NOT NULL,
	keyed {bool} NOT NULL
){table}`,
		recordsCallIndex,
		`CREATE INDEX toolgen_records_time ON toolgen_records (time_ns)`,
		`CREATE INDEX toolgen_records_principal ON toolgen_records (principal, id)`,
		`CREATE INDEX toolgen_records_conversation ON toolgen_records (conversation, id)`,
		`CREATE INDEX toolgen_records_tool ON toolgen_records (tool, id)`,
		`CREATE INDEX toolgen_records_call_id ON toolgen_records (call_id, id) WHERE call_id <> ''`,
		`CREATE INDEX toolgen_records_proposal ON toolgen_records (proposal, id) WHERE proposal <> ''`,
		`CREATE TABLE toolgen_proposals (
	seq {id},
	id TEXT NOT NULL UNIQUE,
	principal TEXT NOT NULL,
	conversation TEXT NOT NULL,
	turn TEXT NOT NULL,
	call_id TEXT NOT NULL,
	tool TEXT NOT NULL,
	args {blob},
	digest TEXT NOT NULL,
	summary TEXT NOT NULL,
	created_ns {int} NOT NULL,
	expires_ns {int} NOT NULL,
	state TEXT NOT NULL,
	decided_by TEXT NOT NULL,
	decided_ns {int} NOT NULL
){table}`,
		`CREATE INDEX toolgen_proposals_state ON toolgen_proposals (state, seq)`,
		`CREATE INDEX toolgen_proposals_principal ON toolgen_proposals (principal, seq)`,
		`CREATE INDEX toolgen_proposals_conversation ON toolgen_proposals (conversation, seq)`,
		`CREATE INDEX toolgen_proposals_expires ON toolgen_proposals (expires_ns)`,
		`CREATE TABLE toolgen_rate_buckets (
	name TEXT NOT NULL,
	principal TEXT NOT NULL,
	tokens {real} NOT NULL,
	updated_ns {int} NOT NULL,
	PRIMARY KEY (name, principal)
){table}`,
	}
}

// escapeESC is the UPDATE that writes the ESC characters of the columns
// of table as their escape ({esc}1b), in the rows that hold one.
func escapeESC(table string, columns ...string) string {
	set := make([]string, len(columns))
	where := make([]string, len(columns))
	for i, c := range columns {
		set[i] = c + " = replace(" + c + ", {esc}, {esc} || '1b')"
		where[i] = c + " LIKE '%' || {esc} || '%'"
	}
	return "UPDATE " + table + " SET " + strings.Join(set, ", ") + " WHERE " + strings.Join(where, " OR ")
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
