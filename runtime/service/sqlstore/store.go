package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// Store is a service.Store in a SQL database, through database/sql: the
// records, the proposals and the call IDs already run, shared by every
// instance that opens the same database. The guarantees are the
// database's: a proposal is claimed by one conditional UPDATE (pending and
// not expired at the claim's time) in the transaction that writes the
// confirmation's record, and a call ID by a unique index that the
// record's INSERT meets; no process holds a lock. It is safe for
// concurrent use.
type Store struct {
	db, rdb *sql.DB
	d       *Dialect
	q       queries
	owned   []*sql.DB
	now     func() time.Time
	guard   func() error
}

var _ service.Store = (*Store)(nil)

// Options configures New. The zero value is usable.
type Options struct {
	// ReadDB, when set, runs the queries that only read, and db the
	// writes: SQLite's one writer connection beside a pool of readers. It
	// must see every write as soon as it is committed (not a replica that
	// lags): a call ID's prior record is read there the moment its insert
	// meets it.
	ReadDB *sql.DB
	// OwnDB makes Close close db (and ReadDB): the store owns them.
	OwnDB bool
	// Now tells the time to the store's limiters; nil means time.Now.
	Now func() time.Time
	// Check, when set, is asked before every write (a record, a claim, a
	// rate-limit token, the digest key): an error fails the write, which
	// then writes nothing, and the service refuses what it would have
	// recorded. sqlitestore checks there that the database file is still
	// the one it opened (not deleted or replaced under it).
	Check func() error
}

// queries are the statements of a Store, in its dialect's form.
type queries struct {
	insertRecord, priorRecord, finish                                string
	insertProposal, proposal, claim, settleProposal, closeProposal   string
	purgeRecords, purgeProposals, take, purgeBuckets, schemaVersionQ string
	selectKey, insertKey                                             string
}

// New returns a Store over db in dialect d, after bringing its schema up
// to date (Migrate).
func New(ctx context.Context, db *sql.DB, d *Dialect, o *Options) (*Store, error) {
	if db == nil || d == nil {
		return nil, errors.New("sqlstore: New: nil database or dialect")
	}
	var opts Options
	if o != nil {
		opts = *o
	}
	s := &Store{db: db, rdb: opts.ReadDB, d: d, now: opts.Now, guard: opts.Check}
	if s.rdb == nil {
		s.rdb = db
	}
	if s.now == nil {
		s.now = time.Now
	}
	if opts.OwnDB {
		s.owned = []*sql.DB{db}
		if opts.ReadDB != nil && opts.ReadDB != db {
			s.owned = append(s.owned, opts.ReadDB)
		}
	}
	if _, err := Migrate(ctx, db, d); err != nil {
		return nil, err
	}
	b := d.bind
	s.q = queries{
		insertRecord: b(`INSERT INTO toolgen_records (time_ns, principal, conversation, turn, call_id, agent, tool, kind, event, outcome, code, duration_ns, error, args, args_digest, proposal, result, structured, keyed)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`),
		priorRecord: b(`SELECT ` + recordColumns + ` FROM toolgen_records WHERE keyed AND principal = ? AND conversation = ? AND call_id = ?`),
		finish:      b(`UPDATE toolgen_records SET outcome = ?, code = ?, duration_ns = ?, error = ?, result = ?, structured = ? WHERE id = ?`),
		insertProposal: b(`INSERT INTO toolgen_proposals (id, principal, conversation, turn, call_id, tool, args, digest, summary, created_ns, expires_ns, state, decided_by, decided_ns)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`),
		proposal: b(`SELECT ` + proposalColumns + ` FROM toolgen_proposals WHERE id = ?`),
		// The claim: of concurrent UPDATEs of one row, the database lets
		// one match; the others find it no longer pending.
		claim: b(`UPDATE toolgen_proposals SET state = 'running', decided_by = ?, decided_ns = ?
WHERE id = ? AND state = 'pending' AND expires_ns > ? RETURNING ` + proposalColumns),
		settleProposal: b(`UPDATE toolgen_proposals SET state = ? WHERE id = ? AND state = 'running'`),
		closeProposal: b(`UPDATE toolgen_proposals SET state = ?, decided_by = ?, decided_ns = ?
WHERE id = ? AND state = 'pending' AND (? <> 'rejected' OR expires_ns > ?) RETURNING ` + proposalColumns),
		purgeRecords:   b(`DELETE FROM toolgen_records WHERE time_ns < ?`),
		purgeProposals: b(`DELETE FROM toolgen_proposals WHERE expires_ns < ?`),
		take:           b(takeQuery(d)),
		purgeBuckets:   b(purgeBucketsQuery(d)),
		schemaVersionQ: `SELECT COALESCE(MAX(version), 0) FROM toolgen_migrations`,
		selectKey:      b(`SELECT secret FROM toolgen_keys WHERE name = ?`),
		insertKey:      b(`INSERT INTO toolgen_keys (name, secret) VALUES (?, ?) ON CONFLICT DO NOTHING`),
	}
	return s, nil
}

// Dialect returns the store's dialect.
func (s *Store) Dialect() *Dialect { return s.d }

// DB returns the database the store writes to.
func (s *Store) DB() *sql.DB { return s.db }

// SchemaVersion returns the version of the database's schema.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.rdb.QueryRowContext(ctx, s.q.schemaVersionQ).Scan(&v); err != nil {
		return 0, fmt.Errorf("sqlstore: schema version: %w", err)
	}
	return v, nil
}

// Close closes the databases the store owns (Options.OwnDB; the stores
// sqlitestore.Open and pgstore.Open return own theirs); a store over a
// caller's *sql.DB leaves it open. (Close is service.Store's: it closes a
// proposal.)
func (s *Store) Close() error {
	var errs []error
	for _, db := range s.owned {
		errs = append(errs, db.Close())
	}
	return errors.Join(errs...)
}

// execer is a *sql.DB or *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// insert writes rec, taking its call ID's key when key is set, and
// reports whether it wrote it: not when another row holds the key.
func (s *Store) insert(ctx context.Context, ex execer, rec *service.Record, key bool) (bool, error) {
	var id int64
	err := ex.QueryRowContext(ctx, s.q.insertRecord, recordValues(rec, key)...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	rec.ID = id
	return true, nil
}

// prior returns the record that holds rec's call ID, or nil.
func (s *Store) prior(ctx context.Context, rec *service.Record) (*service.Record, error) {
	var r service.Record
	err := scanRecord(s.rdb.QueryRowContext(ctx, s.q.priorRecord, text(rec.Principal), text(rec.Conversation), text(rec.CallID)), &r)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// attempts bounds the retries of an insert whose call ID's record was
// purged between the conflict and the read.
const attempts = 3

// write writes rec unless its call ID was recorded: then it returns the
// record that holds the key. With tx set, the insert runs in the
// transaction tx returns, which commit completes (with nil, the insert
// alone). It is the check of Start and Propose.
func (s *Store) write(ctx context.Context, rec *service.Record, then func(tx *sql.Tx) error) (*service.Record, error) {
	key := keyed(rec)
	if rec.CallID != "" && !key {
		// An event that takes no key but carries a call ID: the memory
		// store answers it with the key's record, if any, too.
		if prior, err := s.prior(ctx, rec); err != nil || prior != nil {
			return prior, err
		}
	}
	for range attempts {
		ok, err := s.inTx(ctx, then != nil, func(ex execer, tx *sql.Tx) (bool, error) {
			ok, err := s.insert(ctx, ex, rec, key)
			if err != nil || !ok || then == nil {
				return ok, err
			}
			return true, then(tx)
		})
		if err != nil {
			rec.ID = 0
			return nil, err
		}
		if ok {
			return nil, nil
		}
		prior, err := s.prior(ctx, rec)
		if err != nil || prior != nil {
			return prior, err
		}
	}
	return nil, errors.New("the record of the call ID vanished as it was read (purged?); try again")
}

// check asks Options.Check, before a write.
func (s *Store) check() error {
	if s.guard == nil {
		return nil
	}
	return s.guard()
}

// inTx runs f in a transaction when tx is set (committed when f returns
// true, rolled back otherwise), else on the database; Options.Check is
// asked first.
func (s *Store) inTx(ctx context.Context, tx bool, f func(ex execer, tx *sql.Tx) (bool, error)) (bool, error) {
	if err := s.check(); err != nil {
		return false, err
	}
	if !tx {
		return f(s.db, nil)
	}
	t, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	ok, err := f(t, t)
	if err != nil || !ok {
		_ = t.Rollback()
		return false, err
	}
	return true, t.Commit()
}

// Start implements service.Store.
func (s *Store) Start(ctx context.Context, rec *service.Record) (*service.Record, error) {
	prior, err := s.write(ctx, rec, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: record the start of a call: %w", err)
	}
	return prior, nil
}

// Finish implements service.Store.
func (s *Store) Finish(ctx context.Context, rec *service.Record) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("sqlstore: record the end of a call: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q.finish, s.finishValues(rec)...); err != nil {
		return fmt.Errorf("sqlstore: record the end of a call: %w", err)
	}
	return nil
}

// finishValues returns the values of the finish statement.
func (s *Store) finishValues(rec *service.Record) []any {
	return []any{enumName(rec.Outcome), enumName(rec.Code), int64(rec.Duration), text(rec.Error), rec.Result, rec.Structured, rec.ID}
}

// Append implements service.Store. A call or proposal whose call ID an
// earlier row holds is written without the key (the memory store keeps
// the key with the first row too).
func (s *Store) Append(ctx context.Context, rec *service.Record) error {
	if err := s.check(); err != nil {
		rec.ID = 0
		return fmt.Errorf("sqlstore: record an event: %w", err)
	}
	ok, err := s.insert(ctx, s.db, rec, keyed(rec))
	if err == nil && !ok {
		_, err = s.insert(ctx, s.db, rec, false)
	}
	if err != nil {
		rec.ID = 0
		return fmt.Errorf("sqlstore: record an event: %w", err)
	}
	return nil
}

// Records implements service.Store.
func (s *Store) Records(ctx context.Context, q service.Query) ([]service.Record, error) {
	query, args := recordsQuery(&q)
	out, err := selectAll(ctx, s, query, args, scanRecord)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: read records: %w", err)
	}
	return out, nil
}

// filter is the WHERE clause of a query: conditions joined by AND.
type filter struct {
	where []string
	args  []any
}

// add adds the condition cond with its value v, when on.
func (f *filter) add(on bool, cond string, v any) {
	if on {
		f.where, f.args = append(f.where, cond), append(f.args, v)
	}
}

// query returns base with the conditions, ordered by order, and limited
// to limit rows (DefaultQueryLimit for 0), and its arguments.
func (f *filter) query(base, order string, limit int) (string, []any) {
	if len(f.where) > 0 {
		base += " WHERE " + strings.Join(f.where, " AND ")
	}
	if limit <= 0 {
		limit = service.DefaultQueryLimit
	}
	return base + " ORDER BY " + order + " LIMIT ?", append(f.args, limit)
}

// selectAll runs query on the readers and scans every row.
func selectAll[T any](ctx context.Context, s *Store, query string, args []any, scan func(scanner, *T) error) ([]T, error) {
	rows, err := s.rdb.QueryContext(ctx, s.d.bind(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Propose implements service.Store.
func (s *Store) Propose(ctx context.Context, p *service.Proposal, rec *service.Record) (*service.Record, error) {
	prior, err := s.write(ctx, rec, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.q.insertProposal, text(p.ID), text(p.Principal), text(p.Conversation), text(p.Turn), text(p.CallID),
			text(p.Tool), p.Args, text(p.Digest), text(p.Summary), nanos(p.Created), nanos(p.Expires), text(p.DecidedBy), nanos(p.Decided))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlstore: store a proposal: %w", err)
	}
	return prior, nil
}

// Proposal implements service.Store.
func (s *Store) Proposal(ctx context.Context, id string) (*service.Proposal, error) {
	var p service.Proposal
	err := scanProposal(s.rdb.QueryRowContext(ctx, s.q.proposal, text(id)), &p)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, service.ErrNotFound
	case err != nil:
		return nil, fmt.Errorf("sqlstore: read a proposal: %w", err)
	}
	return &p, nil
}

// Proposals implements service.Store.
func (s *Store) Proposals(ctx context.Context, q service.ProposalQuery) ([]service.Proposal, error) {
	var f filter
	f.add(q.Principal != "", "principal = ?", text(q.Principal))
	f.add(q.Conversation != "", "conversation = ?", text(q.Conversation))
	f.add(q.State != 0, "state = ?", enumName(q.State))
	query, args := f.query("SELECT "+proposalColumns+" FROM toolgen_proposals", "seq", q.Limit)
	out, err := selectAll(ctx, s, query, args, scanProposal)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: read proposals: %w", err)
	}
	return out, nil
}

// Claim implements service.Store: one transaction that moves the
// proposal from pending to running when it has not expired at rec.Time
// (a conditional UPDATE: the database lets one of concurrent claims match)
// and writes rec. When the UPDATE matches nothing, it writes nothing and
// reads the proposal for ErrNotPending or ErrNotFound.
func (s *Store) Claim(ctx context.Context, id string, rec *service.Record) (*service.Proposal, error) {
	p, err := s.transition(ctx, id, rec, s.q.claim, text(rec.Principal), nanos(rec.Time), text(id), nanos(rec.Time))
	if err != nil && !errors.Is(err, service.ErrNotPending) && !errors.Is(err, service.ErrNotFound) {
		return nil, fmt.Errorf("sqlstore: claim a proposal: %w", err)
	}
	return p, err
}

// transition runs update, a conditional UPDATE of the proposal id that
// returns its row, and writes rec, in one transaction. When the UPDATE
// matches nothing it writes nothing and returns the proposal as stored,
// with ErrNotPending, or ErrNotFound.
func (s *Store) transition(ctx context.Context, id string, rec *service.Record, update string, args ...any) (*service.Proposal, error) {
	var p service.Proposal
	ok, err := s.inTx(ctx, true, func(ex execer, _ *sql.Tx) (bool, error) {
		err := scanProposal(ex.QueryRowContext(ctx, update, args...), &p)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return true, s.insertAny(ctx, ex, rec)
	})
	switch {
	case err != nil:
		rec.ID = 0
		return nil, err
	case ok:
		return &p, nil
	}
	rec.ID = 0
	return s.notPending(ctx, id)
}

// insertAny writes rec, with its call ID's key if it is free.
func (s *Store) insertAny(ctx context.Context, ex execer, rec *service.Record) error {
	ok, err := s.insert(ctx, ex, rec, keyed(rec))
	if err == nil && !ok {
		_, err = s.insert(ctx, ex, rec, false)
	}
	return err
}

// notPending returns the proposal id with ErrNotPending, or ErrNotFound.
func (s *Store) notPending(ctx context.Context, id string) (*service.Proposal, error) {
	p, err := s.Proposal(ctx, id)
	if err != nil {
		return nil, err
	}
	return p, service.ErrNotPending
}

// Settle implements service.Store: the proposal moves to state if it is
// running, and rec is finished, in one transaction.
func (s *Store) Settle(ctx context.Context, id string, state service.State, rec *service.Record) error {
	_, err := s.inTx(ctx, true, func(ex execer, _ *sql.Tx) (bool, error) {
		if _, err := ex.ExecContext(ctx, s.q.settleProposal, enumName(state), text(id)); err != nil {
			return false, err
		}
		_, err := ex.ExecContext(ctx, s.q.finish, s.finishValues(rec)...)
		return err == nil, err
	})
	if err != nil {
		return fmt.Errorf("sqlstore: settle a proposal: %w", err)
	}
	return nil
}

// Close implements service.Store: one transaction that moves the
// proposal from pending to state (to rejected only before its expiry) and
// writes rec.
func (s *Store) Retire(ctx context.Context, id string, state service.State, rec *service.Record) (*service.Proposal, error) {
	name := enumName(state)
	p, err := s.transition(ctx, id, rec, s.q.closeProposal, name, text(rec.Principal), nanos(rec.Time), text(id), name, nanos(rec.Time))
	if err != nil && !errors.Is(err, service.ErrNotPending) && !errors.Is(err, service.ErrNotFound) {
		return nil, fmt.Errorf("sqlstore: close a proposal: %w", err)
	}
	return p, err
}

// digestKeyName names the key of service.Store.Key in toolgen_keys.
const digestKeyName = "digest"

// Key implements service.Store: the key is a row of toolgen_keys, which
// the first instance inserts and every other reads (an INSERT ... ON
// CONFLICT DO NOTHING, then a read of the row that won). The insert is
// refused with service.ErrKeyLost when a pending or running proposal
// exists: the row was deleted under it.
func (s *Store) Key(ctx context.Context, fresh []byte) ([]byte, error) {
	var key []byte
	err := s.db.QueryRowContext(ctx, s.q.selectKey, digestKeyName).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		if err := s.insertKey(ctx, fresh); err != nil {
			return nil, fmt.Errorf("sqlstore: keep the digest key: %w", err)
		}
		err = s.db.QueryRowContext(ctx, s.q.selectKey, digestKeyName).Scan(&key)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: read the digest key: %w", err)
	}
	return key, nil
}

// Purge implements service.Store, in one transaction.
func (s *Store) Purge(ctx context.Context, before time.Time) (int, error) {
	var n int64
	b := nanos(before)
	_, err := s.inTx(ctx, true, func(ex execer, _ *sql.Tx) (bool, error) {
		for _, q := range []string{s.q.purgeRecords, s.q.purgeProposals, s.d.bind(purgeSessionsQ)} {
			res, err := ex.ExecContext(ctx, q, b)
			if err != nil {
				return false, err
			}
			k, err := res.RowsAffected()
			if err != nil {
				return false, err
			}
			n += k
		}
		return true, nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlstore: purge: %w", err)
	}
	return int(n), nil
}
