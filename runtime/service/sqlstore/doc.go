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
// Both stores pass the same contract, runtime/service/storetest, which the
// memory store runs too.
//
// # Schema
//
// New creates the tables (toolgen_records, toolgen_proposals,
// toolgen_rate_buckets, toolgen_keys: the digest key of service.Store.Key;
// toolgen_sessions: the console's sessions, keyed by the SHA-256 of their
// secret, which is never stored)
// and brings them up to date (Migrate): numbered steps, up only, each
// applied in a transaction with its row in toolgen_migrations. Instances
// that start at once take turns (pg_advisory_xact_lock on PostgreSQL,
// BEGIN IMMEDIATE on SQLite): one applies the steps, the others find them
// applied. A database migrated by a newer release is refused
// (ErrSchemaTooNew) rather than guessed at. Migrate(ctx, db, Postgres)
// migrates ahead of a deployment.
//
// The toolgen_keys row is a secret that every pending proposal depends
// on: back it up with the database, and never delete it. A store whose
// row is gone while proposals are pending or running makes no new key
// (service.ErrKeyLost): the services refuse what needs the key until the
// row is restored, or the key is given to them (service.Options.Key).
//
// Reading the tables: times are integer nanoseconds since the Unix epoch,
// UTC (time_ns, created_ns, expires_ns: exact in both databases;
// to_timestamp(time_ns / 1e9) in PostgreSQL, datetime(time_ns / 1e9,
// 'unixepoch') in SQLite), durations nanoseconds, events, outcomes, kinds,
// codes and states their names ("call", "ok", "already_confirmed",
// "pending"), arguments and results blobs (bytea), and text a caller
// controls its stored form: as it is when it is valid UTF-8 without NUL
// or ESC, else with NUL, ESC and invalid bytes escaped as ESC and two hex
// digits, so that PostgreSQL keeps what SQLite does and both read back the
// bytes written (see text.go).
//
// # Guarantees
//
// Every method that writes is one statement or one transaction, so a
// method that fails has written nothing, and every row is committed before
// the service answers. Claim is a conditional UPDATE (pending, and not
// expired at the claim's time: UPDATE ... SET state = 'running' WHERE id =
// $1 AND state = 'pending' AND expires_ns > $now) in the transaction that
// inserts the confirmation's record: of concurrent claims, in any number
// of processes, the database lets one match. Expiry is decided there, from
// the stored expiry and the confirming instance's clock. A call ID is a
// unique index on (principal, conversation, call_id) over the call and
// proposal rows that hold it (the column keyed: the first such row of a
// key), which Start's and Propose's INSERT ... ON CONFLICT DO NOTHING
// meets, so a call retried on another instance is answered from the
// recorded outcome. Nothing relies on a process's lock, and nothing needs
// a background sweeper.
//
// What survives a crash (tested with processes killed by SIGKILL):
//
//   - killed between a proposal and its confirmation: the proposal is
//     pending, and runs once when confirmed;
//   - killed while a confirmed proposal runs: outcome_unknown; it is never
//     run again, and confirming it is refused with that reason;
//   - killed while a call with a call ID runs: a retry of the call ID is
//     answered outcome_unknown, and nothing runs;
//   - killed after a call, a rejection, anything answered: its record, and
//     its result for a retry of its call ID;
//   - killed anywhere: the rate-limit buckets.
//
// When the database is unavailable, a call that needs a row is refused
// ("the call could not be recorded; nothing was run"), and so is a
// confirmation ("the proposal could not be read"): nothing runs without
// its record (service.Options.FailOpen lets reads, displays and actions
// run unrecorded; a confirmation never does). database/sql reconnects when
// the database is back; pending proposals are still pending. The same holds
// for a write the database refuses, tested with a full SQLite database
// (SQLITE_FULL) and PostgreSQL's statement_timeout cancelling a write that
// waits on a lock: a start that fails refuses its call, and leaves no row;
// an end that fails (the tool ran) leaves the start whole, the caller gets
// the answer and a retry of its call ID outcome_unknown; a confirmation
// whose record fails rolls back its claim, and the proposal stays pending.
// pgstore checks a pooled connection before reusing it, so a server
// restart costs no call (see its documentation).
//
// # Reading the record
//
// Records with Query.Newest reads a page newest first by (time_ns, id),
// with Query.Before as its keyset cursor ((time_ns, id) < the cursor's):
// migration 4 indexes (time_ns, id) and (column, time_ns, id) for
// principal, conversation, tool and event, so that a page filtered by one
// of them, in a span of time or not, is a range of one index read
// backwards, not a scan of the table. Filters beyond the first are
// checked on the rows the index yields: a page of a principal's rare
// event reads that principal's rows until it has its page. Measured (a
// page of 50 over 1,000,000 records, under 1 ms on SQLite and PostgreSQL):
// BenchmarkRecordPage and bench/README.md. The five indexes cost a
// little on every write.
//
// # Rate limits
//
// Store.NewLimiter(name, r, burst) is a token bucket per principal in
// toolgen_rate_buckets, taken in one upsert whose update applies only when
// a whole token is there: shared by every instance, kept across restarts.
// Buckets refill by the instances' clocks and never go back in time;
// Limiter.Purge deletes the buckets that have refilled (a full bucket is a
// new one).
//
// # Purge
//
// Nothing is deleted by itself: call the service's Purge(ctx, age) from a
// ticker or a cron job to delete the records older than age and the
// proposals and console sessions that expired more than age ago. A call
// whose record is purged is no longer deduplicated by its call ID, so keep
// age well above the time a client retries.
package sqlstore
