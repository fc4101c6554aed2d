package service

import (
	"bytes"
	"context"
	"sync"
	"time"
)

// memTasks are a MemoryStore's tasks, under a lock of their own.
type memTasks struct {
	mu sync.Mutex
	m  map[string]*Task
}

// copyTask returns a copy of t that shares no bytes with it.
func copyTask(t *Task) *Task {
	cp := *t
	cp.Result = bytes.Clone(t.Result)
	return &cp
}

// CreateTask implements Store.
func (m *MemoryStore) CreateTask(_ context.Context, t *Task) error {
	if err := m.failure("create task"); err != nil {
		return err
	}
	m.tasks.mu.Lock()
	defer m.tasks.mu.Unlock()
	if _, ok := m.tasks.m[t.ID]; ok {
		return ErrTaskExists
	}
	if m.tasks.m == nil {
		m.tasks.m = map[string]*Task{}
	}
	t.Version = 1
	m.tasks.m[t.ID] = copyTask(t)
	return nil
}

// Task implements Store.
func (m *MemoryStore) Task(_ context.Context, id string) (*Task, error) {
	m.tasks.mu.Lock()
	defer m.tasks.mu.Unlock()
	t, ok := m.tasks.m[id]
	if !ok {
		return nil, ErrTaskNotFound
	}
	return copyTask(t), nil
}

// UpdateTask implements Store.
func (m *MemoryStore) UpdateTask(_ context.Context, t *Task) error {
	if err := m.failure("update task"); err != nil {
		return err
	}
	m.tasks.mu.Lock()
	defer m.tasks.mu.Unlock()
	cur, ok := m.tasks.m[t.ID]
	switch {
	case !ok:
		return ErrTaskNotFound
	case cur.Version != t.Version:
		return ErrTaskChanged
	}
	t.Version++
	m.tasks.m[t.ID] = copyTask(t)
	return nil
}

// PurgeTasks implements Store.
func (m *MemoryStore) PurgeTasks(_ context.Context, before time.Time) (int, error) {
	m.tasks.mu.Lock()
	defer m.tasks.mu.Unlock()
	n := 0
	for id, t := range m.tasks.m {
		if t.Expires.Before(before) {
			delete(m.tasks.m, id)
			n++
		}
	}
	return n, nil
}

// failure returns the injected failure of op, if any.
func (m *MemoryStore) failure(op string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failed(op)
}
