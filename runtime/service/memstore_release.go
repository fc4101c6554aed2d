package service

import (
	"context"
	"time"
)

// Release implements Store.
func (m *MemoryStore) Release(_ context.Context, id string, rec *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("release"); err != nil {
		return err
	}
	if p, ok := m.proposals[id]; ok && p.State == StateRunning {
		p.State, p.DecidedBy, p.Decided = StatePending, "", time.Time{}
	}
	m.finish(rec)
	return nil
}

// holdsOpen reports whether a proposal is pending or running: made under
// a key that must not be replaced (Key); m.mu is held.
func (m *MemoryStore) holdsOpen() bool {
	for _, p := range m.proposals {
		if p.State == StatePending || p.State == StateRunning {
			return true
		}
	}
	return false
}
