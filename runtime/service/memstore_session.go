package service

import (
	"context"
	"crypto/sha256"
	"errors"
	"slices"
	"time"
)

// sessionKey is the key a MemoryStore keeps a session under: its hash,
// which must be a SHA-256.
func sessionKey(hash []byte) ([32]byte, bool) {
	if len(hash) != sha256.Size {
		return [32]byte{}, false
	}
	return [32]byte(hash), true
}

// copySession returns a copy of s that shares no memory with it.
func copySession(s *Session) *Session {
	cp := *s
	cp.Hash = slices.Clone(s.Hash)
	cp.Principal.Permissions = slices.Clone(s.Principal.Permissions)
	return &cp
}

// StartSession implements Store.
func (m *MemoryStore) StartSession(_ context.Context, s *Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("start a session"); err != nil {
		return err
	}
	k, ok := sessionKey(s.Hash)
	if !ok {
		return errors.New("service store: a session's hash is not a SHA-256")
	}
	if m.sessions == nil {
		m.sessions = map[[32]byte]*Session{}
	}
	if _, taken := m.sessions[k]; taken {
		return errors.New("service store: a session of that hash exists")
	}
	m.sessions[k] = copySession(s)
	return nil
}

// Session implements Store.
func (m *MemoryStore) Session(_ context.Context, hash []byte) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := sessionKey(hash)
	s, found := m.sessions[k]
	if !ok || !found {
		return nil, ErrNoSession
	}
	return copySession(s), nil
}

// SeeSession implements Store.
func (m *MemoryStore) SeeSession(_ context.Context, hash []byte, seen time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("see a session"); err != nil {
		return err
	}
	k, ok := sessionKey(hash)
	if s, found := m.sessions[k]; ok && found && seen.After(s.Seen) {
		s.Seen = seen
	}
	return nil
}

// EndSession implements Store.
func (m *MemoryStore) EndSession(_ context.Context, hash []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("end a session"); err != nil {
		return err
	}
	if k, ok := sessionKey(hash); ok {
		delete(m.sessions, k)
	}
	return nil
}

// purgeSessions deletes the sessions that expired before before and
// returns how many; m.mu is held.
func (m *MemoryStore) purgeSessions(before time.Time) int {
	n := 0
	for k, s := range m.sessions {
		if s.Expires.Before(before) {
			delete(m.sessions, k)
			n++
		}
	}
	return n
}
