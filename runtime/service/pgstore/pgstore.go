// Package pgstore is the call service's store for several instances: a
// service.Store (and a durable service.Limiter) in PostgreSQL, through
// pgx's database/sql driver (github.com/jackc/pgx/v5/stdlib). Every
// instance behind a load balancer opens the same database: a proposal
// made on one is confirmed on another, a call retried on another instance
// is answered from the record, the rate limit is shared, and a proposal
// runs at most once across all of them, because the database decides it
// (a conditional UPDATE in the transaction that writes the confirmation's
// record), not a process.
//
//	st, err := pgstore.Open(ctx, "postgres://toolgen@db.internal/app?sslmode=verify-full", nil)
//	if err != nil {
//		return err
//	}
//	defer st.Close()
//	svc, err := service.New(reg, &service.Options{
//		Store:   st,
//		Limiter: st.NewLimiter("calls", 2, 20), // shared by every instance
//	})
//
// The schema (tables prefixed toolgen_) is created and migrated when a
// store opens; instances that start at once take turns on an advisory
// lock. Put the tables in a schema of their own with the DSN's
// search_path parameter (?search_path=toolcalls). What the store
// guarantees, and what survives a crash, is runtime/service/sqlstore's.
//
// # Several instances
//
// Give every instance the same DSN (Open), or one *sql.DB of yours (New);
// nothing else is shared, and any instance may serve any request. Each
// instance holds at most MaxConns connections: size the server's
// max_connections (100 by default) for your instance count. Keep the
// instances' clocks in sync (NTP): expiry is judged by the confirming
// instance's clock. One thing an instance cannot know is whether another
// instance's run is still going: a confirmation (or a retried call ID)
// that arrives on instance B while instance A runs it polls the store for
// A's outcome up to service.Options.AwaitRunning, and past that is
// answered outcome_unknown, the answer a run whose process died gets;
// nothing runs twice either way.
//
// # A server that restarts
//
// A restart, a failover or a terminated backend costs no call. The
// server tells each connection it closes (a FATAL message, then the end
// of the stream); a connection the pool holds is checked for that before
// it is reused, without sending anything (a peek at its socket, on Unix
// systems), and pinged when the server spoke or it has been idle over a
// second; a connection that fails the ping is dropped and database/sql
// takes or opens another before the statement is sent. A statement
// already sent when its connection breaks is not sent again: the call is
// refused (the call could not be recorded) or its end is written again,
// as runtime/service/sqlstore says, since it may have been written. Pass
// New a pool from OpenDB to have the same check.
//
// The tests run on the server TOOLGEN_PG_DSN names (a user who may create
// schemas), or else on a throwaway server started from initdb and postgres
// (on PATH or under /usr/lib/postgresql/*/bin) in a temporary directory;
// without either they skip, saying so, except under CI, where they fail.
package pgstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
)

// MaxConns is how many connections a store that Open opened keeps at
// most: each instance holds up to this many of the server's
// max_connections (100 by default).
const MaxConns = 16

// Open connects to the PostgreSQL database dsn (a URL or key=value
// string, as pgx reads it) and returns a store over it, its schema
// migrated. It holds at most MaxConns connections; Close closes them.
func Open(ctx context.Context, dsn string, o *sqlstore.Options) (*sqlstore.Store, error) {
	db, err := OpenDB(dsn)
	if err != nil {
		return nil, err
	}
	var opts sqlstore.Options
	if o != nil {
		opts = *o
	}
	opts.OwnDB = true
	st, err := New(ctx, db, &opts)
	if err != nil {
		db.Close()
		return nil, err
	}
	return st, nil
}

// OpenDB returns the pool Open opens for dsn (a URL or key=value string,
// as pgx reads it), for a host that passes its own *sql.DB to New: pgx's
// database/sql driver, at most MaxConns connections, each checked before
// it is reused (see "A server that restarts"). It connects lazily, on
// first use.
func OpenDB(dsn string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgstore: open: %w", err)
	}
	db := stdlib.OpenDB(*cfg, stdlib.OptionShouldPing(shouldPing))
	db.SetMaxOpenConns(MaxConns)
	db.SetMaxIdleConns(MaxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return db, nil
}

// shouldPing decides whether a pooled connection is pinged before it is
// reused: after a second idle, as pgx's driver does by default, and
// whenever the server has spoken or hung up on it since its last use
// (closedByServer): a server that restarts, fails over or has the
// backend terminated sends a FATAL message and closes the connection.
// The ping then fails, and database/sql takes another connection, or
// opens one, before the statement is sent: a write is never sent on a
// connection known dead, and never sent twice.
func shouldPing(_ context.Context, p stdlib.ShouldPingParams) bool {
	return p.IdleDuration > time.Second || closedByServer(p.Conn.PgConn().Conn())
}

// New returns a store over db, a PostgreSQL database opened with pgx's
// database/sql driver (or another that speaks PostgreSQL's SQL), its
// schema migrated. Open it with OpenDB to have its connections checked
// before they are reused, as Open's are. The caller keeps db: Close leaves it open unless
// o.OwnDB. Bound its connections (db.SetMaxOpenConns): every concurrent
// call holds one while it is recorded.
func New(ctx context.Context, db *sql.DB, o *sqlstore.Options) (*sqlstore.Store, error) {
	st, err := sqlstore.New(ctx, db, sqlstore.Postgres, o)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	return st, nil
}
