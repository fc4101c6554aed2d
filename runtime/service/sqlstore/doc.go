// Package sqlstore is the one implementation of the call service's
// durable stores: a service.Store, and a durable service.Limiter, over
// database/sql, parameterised by a Dialect (SQLite or Postgres). Programs
// open it through runtime/service/sqlitestore or runtime/service/pgstore,
// which link the driver; this package links none.
//
//	db, err := sql.Open("pgx", dsn) // any database/sql handle of the dialect
//	st, err := sqlstore.New(ctx, db, sqlstore.Postgres, nil)
//	svc, err := service.New(reg, &service.Options{Store: st, Limiter: st.NewLimiter("calls", 2, 20)})
//
// # Schema
//
// New creates and migrates the tables (Migrate): toolgen_records,
// toolgen_proposals, toolgen_rate_buckets, toolgen_keys (the digest key
// of service.Store.Key) and toolgen_migrations, which records the steps
// applied. Times are integer nanoseconds since the Unix epoch (UTC),
// durations nanoseconds, enums their names ("call", "ok", "pending"),
// arguments and results blobs (bytea), and text a caller controls its
// stored form: as it is when it is valid UTF-8 without NUL or ESC, else
// with NUL, ESC and invalid bytes escaped as ESC and two hex digits, so
// that PostgreSQL keeps what SQLite does and both read back the bytes
// written (see text.go).
//
// # Guarantees
//
// Every method that writes is one statement or one transaction, so a
// method that fails has written nothing. Claim is a conditional UPDATE
// (pending, and not expired at the claim's time) in the transaction that
// inserts the confirmation's record: of concurrent claims, in any number
// of processes, the database lets one match. A call ID is a unique index
// on (principal, conversation, call_id) over the call and proposal rows
// that hold it (the column keyed: the first such row of a key), which
// Start's and Propose's INSERT ... ON CONFLICT DO NOTHING meets. Nothing
// relies on a process's lock, and nothing needs a background sweeper:
// expiry is decided at claim time from the stored expiry; Purge deletes
// old rows when the program calls it.
package sqlstore
