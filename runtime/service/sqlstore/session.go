package sqlstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// sessionTable is migration 5's statements: the console's sessions,
// keyed by the SHA-256 of their secret (the secret is never stored), with
// the principal each was made for, its permissions encoded by
// encodePermissions.
func sessionTable() []string {
	return []string{
		`CREATE TABLE toolgen_sessions (
	hash {blob} NOT NULL PRIMARY KEY,
	principal TEXT NOT NULL,
	permissions {blob} NOT NULL,
	created_ns {int} NOT NULL,
	expires_ns {int} NOT NULL,
	seen_ns {int} NOT NULL,
	digest TEXT NOT NULL
){table}`,
		`CREATE INDEX toolgen_sessions_expires ON toolgen_sessions (expires_ns)`,
	}
}

// The session statements, in ? form (bound on use).
const (
	insertSessionQ = `INSERT INTO toolgen_sessions (hash, principal, permissions, created_ns, expires_ns, seen_ns, digest) VALUES (?, ?, ?, ?, ?, ?, ?)`
	selectSessionQ = `SELECT principal, permissions, created_ns, expires_ns, seen_ns, digest FROM toolgen_sessions WHERE hash = ?`
	seeSessionQ    = `UPDATE toolgen_sessions SET seen_ns = ? WHERE hash = ? AND seen_ns < ?`
	endSessionQ    = `DELETE FROM toolgen_sessions WHERE hash = ?`
	purgeSessionsQ = `DELETE FROM toolgen_sessions WHERE expires_ns < ?`
)

// encodePermissions writes perms as a blob: each name's length (uvarint)
// then its bytes, so that any bytes round-trip.
func encodePermissions(perms []string) []byte {
	b := []byte{}
	for _, p := range perms {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	return b
}

// decodePermissions reads a blob of encodePermissions.
func decodePermissions(b []byte) ([]string, error) {
	var perms []string
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, errors.New("a session's permissions are not in their stored form")
		}
		perms = append(perms, string(b[k:k+int(n)]))
		b = b[k+int(n):]
	}
	return perms, nil
}

// StartSession implements service.Store.
func (s *Store) StartSession(ctx context.Context, ss *service.Session) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("sqlstore: start a session: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.d.bind(insertSessionQ), ss.Hash, text(ss.Principal.ID),
		encodePermissions(ss.Principal.Permissions), nanos(ss.Created), nanos(ss.Expires), nanos(ss.Seen), text(ss.Digest)); err != nil {
		return fmt.Errorf("sqlstore: start a session: %w", err)
	}
	return nil
}

// Session implements service.Store.
func (s *Store) Session(ctx context.Context, hash []byte) (*service.Session, error) {
	ss := &service.Session{Hash: append([]byte(nil), hash...)}
	var perms []byte
	var created, expires, seen int64
	err := s.rdb.QueryRowContext(ctx, s.d.bind(selectSessionQ), hash).Scan(textInto{&ss.Principal.ID}, &perms, &created, &expires, &seen,
		textInto{&ss.Digest})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, service.ErrNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: read a session: %w", err)
	}
	if ss.Principal.Permissions, err = decodePermissions(perms); err != nil {
		return nil, fmt.Errorf("sqlstore: read a session: %w", err)
	}
	ss.Created, ss.Expires, ss.Seen = fromNanos(created), fromNanos(expires), fromNanos(seen)
	return ss, nil
}

// SeeSession implements service.Store.
func (s *Store) SeeSession(ctx context.Context, hash []byte, seen time.Time) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("sqlstore: see a session: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.d.bind(seeSessionQ), nanos(seen), hash, nanos(seen)); err != nil {
		return fmt.Errorf("sqlstore: see a session: %w", err)
	}
	return nil
}

// EndSession implements service.Store.
func (s *Store) EndSession(ctx context.Context, hash []byte) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("sqlstore: end a session: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.d.bind(endSessionQ), hash); err != nil {
		return fmt.Errorf("sqlstore: end a session: %w", err)
	}
	return nil
}
