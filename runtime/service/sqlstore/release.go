package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// The statements of Release and of Key's check, bound to the dialect
// when run (both are rare: a claim undone, a key read once per service).
const (
	// releaseProposal gives a running proposal back its pending state.
	releaseProposal = `UPDATE toolgen_proposals SET state = 'pending', decided_by = ?, decided_ns = ? WHERE id = ? AND state = 'running'`
	// openProposal finds a proposal made under the digest key that a
	// confirmation still needs: pending or running.
	openProposal = `SELECT 1 FROM toolgen_proposals WHERE state IN ('pending', 'running') LIMIT 1`
)

// Release implements service.Store: the proposal moves back from running
// to pending if it is running, and rec is finished, in one transaction.
func (s *Store) Release(ctx context.Context, id string, rec *service.Record) error {
	_, err := s.inTx(ctx, true, func(ex execer, _ *sql.Tx) (bool, error) {
		if _, err := ex.ExecContext(ctx, s.d.bind(releaseProposal), text(""), nanos(time.Time{}), text(id)); err != nil {
			return false, err
		}
		_, err := ex.ExecContext(ctx, s.q.finish, s.finishValues(rec)...)
		return err == nil, err
	})
	if err != nil {
		return fmt.Errorf("sqlstore: release a claimed proposal: %w", err)
	}
	return nil
}

// insertKey keeps fresh as the digest key, in one transaction that first
// makes sure no open proposal was made under a key that is gone
// (service.ErrKeyLost).
func (s *Store) insertKey(ctx context.Context, fresh []byte) error {
	_, err := s.inTx(ctx, true, func(ex execer, _ *sql.Tx) (bool, error) {
		var one int
		err := ex.QueryRowContext(ctx, openProposal).Scan(&one)
		switch {
		case err == nil:
			return false, service.ErrKeyLost
		case !errors.Is(err, sql.ErrNoRows):
			return false, err
		}
		_, err = ex.ExecContext(ctx, s.q.insertKey, digestKeyName, fresh)
		return err == nil, err
	})
	return err
}
