package sqlstore

import (
	"context"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// tasksOfPrincipalIndex serves Tasks (a principal's tasks, newest
// first): part of the tasks' migration step.
const tasksOfPrincipalIndex = `CREATE INDEX toolgen_tasks_principal ON toolgen_tasks (principal, created_ns)`

// Tasks implements service.Store.
func (s *Store) Tasks(ctx context.Context, principal string, limit int) ([]*service.Task, error) {
	if limit <= 0 {
		return nil, nil
	}
	rows, err := s.rdb.QueryContext(ctx, s.d.bind(`SELECT `+taskColumns+` FROM toolgen_tasks
WHERE principal = ? AND status IN (?, ?) ORDER BY created_ns DESC, id DESC LIMIT ?`),
		text(principal), enumName(service.TaskWorking), enumName(service.TaskInputRequired), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: list tasks: %w", err)
	}
	defer rows.Close()
	var out []*service.Task
	for rows.Next() {
		var t service.Task
		if err := scanTask(rows, &t); err != nil {
			return nil, fmt.Errorf("sqlstore: list tasks: %w", err)
		}
		out = append(out, &t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: list tasks: %w", err)
	}
	return out, nil
}
