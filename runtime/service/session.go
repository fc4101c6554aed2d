package service

import (
	"context"
	"errors"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Session is a person signed in to the console (runtime/console): the
// principal it was made for, kept by the store under the hash of its
// secret. Only the person's cookie holds the secret; the store never
// does, so that neither a copy of the store nor its logs sign anyone in.
// Sessions live in the store, not in a process, so that every instance
// sharing the store knows them and ending one ends it everywhere.
type Session struct {
	// Hash is the SHA-256 of the session's secret: how it is found.
	Hash []byte
	// Principal is the principal the session was made for, with the
	// permissions they held then: the session resolves to this principal
	// and to no one else.
	Principal tool.Principal
	// Created is when it was made; Expires when it ends, however much it
	// is used.
	Created, Expires time.Time
	// Seen is when it was last used (as SeeSession last wrote): an idle
	// timeout counts from it.
	Seen time.Time
	// Digest binds the hash, the principal and its permissions, Created
	// and Expires under the console's key (HMAC-SHA256, hex), so that a
	// session changed in the store, or written there without the key, is
	// refused.
	Digest string
}

// ErrNoSession is returned when no session has the hash: it never
// existed, it ended (sign-out), or it was purged.
var ErrNoSession = errors.New("service store: no such session")

// SessionStore is the part of Store that keeps console sessions.
type SessionStore interface {
	// StartSession writes s, a new session. A session of the same hash
	// is an error (secrets are random: it never happens by chance).
	StartSession(ctx context.Context, s *Session) error
	// Session returns the session whose Hash is hash, or ErrNoSession.
	// It returns expired sessions too: their expiry is the caller's to
	// apply, by its clock.
	Session(ctx context.Context, hash []byte) (*Session, error)
	// SeeSession moves the session's Seen to seen, when that is later;
	// no error when there is no such session.
	SeeSession(ctx context.Context, hash []byte, seen time.Time) error
	// EndSession deletes the session (sign-out): from then on Session
	// returns ErrNoSession for it, on every instance. No error when there
	// is no such session.
	EndSession(ctx context.Context, hash []byte) error
}
