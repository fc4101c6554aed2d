package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// MaxListedTasks is the most tasks Tasks returns.
const MaxListedTasks = 100

// Tasks returns who's tasks that have not ended: running (TaskWorking)
// or waiting for a person (TaskInputRequired), the most recently created
// first, at most MaxListedTasks. Each is as Task returns it, moved on
// where the store says it moved (a proposal decided meanwhile, a lease
// lost); one that ended so, or expired, is left out. Only the principal
// who started a task sees it (what the console shows a person).
func (s *Service) Tasks(ctx context.Context, who tool.Principal) ([]*Task, error) {
	if who.ID == "" {
		return nil, nil
	}
	stored, err := s.store.Tasks(ctx, who.ID, MaxListedTasks)
	if err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	out := make([]*Task, 0, len(stored))
	for _, st := range stored {
		t, err := s.Task(ctx, st.ID, who)
		switch {
		case errors.Is(err, ErrTaskNotFound):
			continue // expired, or purged meanwhile
		case err != nil:
			return nil, err
		case !t.Status.Terminal():
			out = append(out, t)
		}
	}
	return out, nil
}
