package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// taskTables is the migration step of the tasks: one row per task,
// updated in place under its version (compare-and-swap: of concurrent
// updates of one version, the database lets one match).
func taskTables() []string {
	return []string{
		`CREATE TABLE toolgen_tasks (
	id TEXT NOT NULL PRIMARY KEY,
	principal TEXT NOT NULL,
	conversation TEXT NOT NULL,
	call_id TEXT NOT NULL,
	tool TEXT NOT NULL,
	proposal TEXT NOT NULL,
	status TEXT NOT NULL,
	message TEXT NOT NULL,
	created_ns {int} NOT NULL,
	updated_ns {int} NOT NULL,
	expires_ns {int} NOT NULL,
	poll_ns {int} NOT NULL,
	result {blob},
	structured {bool} NOT NULL,
	is_error {bool} NOT NULL,
	error TEXT NOT NULL,
	instance TEXT NOT NULL,
	lease_ns {int} NOT NULL,
	cancel_requested {bool} NOT NULL,
	version {int} NOT NULL
){table}`,
		`CREATE INDEX toolgen_tasks_expires ON toolgen_tasks (expires_ns)`,
	}
}

// taskColumns are the columns of a task, in the order of taskValues.
const taskColumns = `id, principal, conversation, call_id, tool, proposal, status, message, created_ns, updated_ns, expires_ns, poll_ns,
result, structured, is_error, error, instance, lease_ns, cancel_requested, version`

// taskValues are t's values for taskColumns.
func taskValues(t *service.Task) []any {
	return []any{text(t.ID), text(t.Principal), text(t.Conversation), text(t.CallID), text(t.Tool), text(t.Proposal),
		enumName(t.Status), text(t.Message), nanos(t.Created), nanos(t.Updated), nanos(t.Expires), int64(t.PollInterval),
		t.Result, t.Structured, t.IsError, text(t.Error), text(t.Instance), nanos(t.Lease), t.CancelRequested, t.Version}
}

// scanTask reads a row of taskColumns.
func scanTask(row scanner, t *service.Task) error {
	var created, updated, expires, poll, lease int64
	var status string
	if err := row.Scan(textInto{&t.ID}, textInto{&t.Principal}, textInto{&t.Conversation}, textInto{&t.CallID}, textInto{&t.Tool},
		textInto{&t.Proposal}, &status, textInto{&t.Message}, &created, &updated, &expires, &poll, &t.Result, &t.Structured,
		&t.IsError, textInto{&t.Error}, textInto{&t.Instance}, &lease, &t.CancelRequested, &t.Version); err != nil {
		return err
	}
	t.Created, t.Updated, t.Expires, t.Lease = fromNanos(created), fromNanos(updated), fromNanos(expires), fromNanos(lease)
	t.PollInterval = time.Duration(poll)
	var err error
	if t.Status, err = parseEnum(status, "TaskStatus", service.ParseTaskStatus); err != nil {
		return fmt.Errorf("task %s: %w", t.ID, err)
	}
	return nil
}

// CreateTask implements service.Store.
func (s *Store) CreateTask(ctx context.Context, t *service.Task) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("sqlstore: create a task: %w", err)
	}
	v := t.Version
	t.Version = 1
	res, err := s.db.ExecContext(ctx, s.d.bind(`INSERT INTO toolgen_tasks (`+taskColumns+`)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`), taskValues(t)...)
	if err != nil {
		t.Version = v
		return fmt.Errorf("sqlstore: create a task: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		t.Version = v
		if err != nil {
			return fmt.Errorf("sqlstore: create a task: %w", err)
		}
		return service.ErrTaskExists
	}
	return nil
}

// Task implements service.Store.
func (s *Store) Task(ctx context.Context, id string) (*service.Task, error) {
	var t service.Task
	err := scanTask(s.rdb.QueryRowContext(ctx, s.d.bind(`SELECT `+taskColumns+` FROM toolgen_tasks WHERE id = ?`), text(id)), &t)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, service.ErrTaskNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: read a task: %w", err)
	}
	return &t, nil
}

// UpdateTask implements service.Store.
func (s *Store) UpdateTask(ctx context.Context, t *service.Task) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("sqlstore: update a task: %w", err)
	}
	v := t.Version
	t.Version++
	vals := taskValues(t)
	res, err := s.db.ExecContext(ctx, s.d.bind(`UPDATE toolgen_tasks SET principal = ?, conversation = ?, call_id = ?, tool = ?,
proposal = ?, status = ?, message = ?, created_ns = ?, updated_ns = ?, expires_ns = ?, poll_ns = ?, result = ?, structured = ?,
is_error = ?, error = ?, instance = ?, lease_ns = ?, cancel_requested = ?, version = ? WHERE id = ? AND version = ?`),
		append(vals[1:], vals[0], v)...)
	if err != nil {
		t.Version = v
		return fmt.Errorf("sqlstore: update a task: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		t.Version = v
		return fmt.Errorf("sqlstore: update a task: %w", err)
	}
	if n == 0 {
		t.Version = v
		if _, err := s.Task(ctx, t.ID); err != nil {
			return err
		}
		return service.ErrTaskChanged
	}
	return nil
}

// PurgeTasks implements service.Store.
func (s *Store) PurgeTasks(ctx context.Context, before time.Time) (int, error) {
	if err := s.check(); err != nil {
		return 0, fmt.Errorf("sqlstore: purge tasks: %w", err)
	}
	res, err := s.db.ExecContext(ctx, s.d.bind(`DELETE FROM toolgen_tasks WHERE expires_ns < ?`), nanos(before))
	if err != nil {
		return 0, fmt.Errorf("sqlstore: purge tasks: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
