package service

import (
	"cmp"
	"context"
	"slices"
)

// Tasks implements Store.
func (m *MemoryStore) Tasks(_ context.Context, principal string, limit int) ([]*Task, error) {
	if limit <= 0 {
		return nil, nil
	}
	m.tasks.mu.Lock()
	var out []*Task
	for _, t := range m.tasks.m {
		if t.Principal == principal && !t.Status.Terminal() {
			out = append(out, copyTask(t))
		}
	}
	m.tasks.mu.Unlock()
	slices.SortFunc(out, func(a, b *Task) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
