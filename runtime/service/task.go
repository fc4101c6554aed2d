package service

import (
	"errors"
	"strconv"
	"time"
)

// TaskStatus is where a task stands: the statuses of the MCP Tasks
// extension (io.modelcontextprotocol/tasks).
type TaskStatus uint8

const (
	// TaskWorking: the call runs (or a confirmation of its proposal does).
	TaskWorking TaskStatus = iota + 1
	// TaskInputRequired: a propose tool's task, waiting for a person to
	// confirm or reject its proposal.
	TaskInputRequired
	// TaskCompleted: the call ended with a result (a tool's error
	// included: Task.IsError); Task.Result holds it.
	TaskCompleted
	// TaskFailed: the run was lost (its instance stopped renewing its
	// lease): whether the tool did its work is unknown, and it is never
	// run again; Task.Error says so.
	TaskFailed
	// TaskCancelled: cancelled before it ended; the tool saw its context
	// done.
	TaskCancelled
)

var taskStatusNames = [...]string{
	TaskWorking:       "working",
	TaskInputRequired: "input_required",
	TaskCompleted:     "completed",
	TaskFailed:        "failed",
	TaskCancelled:     "cancelled",
}

// String returns the status's name as the MCP Tasks extension spells it,
// such as "input_required", or "TaskStatus(N)".
func (s TaskStatus) String() string {
	if int(s) < len(taskStatusNames) && taskStatusNames[s] != "" {
		return taskStatusNames[s]
	}
	return "TaskStatus(" + strconv.Itoa(int(s)) + ")"
}

// ParseTaskStatus returns the status whose String is s.
func ParseTaskStatus(s string) (TaskStatus, bool) {
	for st := range taskStatusNames {
		if st > 0 && taskStatusNames[st] == s {
			return TaskStatus(st), true
		}
	}
	return 0, false
}

// Terminal reports whether a task of this status has ended for good.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// Task is a call that outlives the request that started it: its tool runs
// on the instance that created it, held by a lease that instance renews,
// and its status, progress and result are in the store, so that any
// instance sharing the store answers for it (see tasks.go).
type Task struct {
	// ID is unguessable: "task_" and 128 random bits, or, for a propose
	// tool's task, its proposal's ID.
	ID string
	// Principal is the ID of the principal who started it: the only one
	// who may see, decide or cancel it.
	Principal string
	// Conversation and CallID are the call's (CallID is the task's ID
	// when the call named none: the record of the run is found by it).
	Conversation, CallID string
	// Tool is the tool's name.
	Tool string
	// Proposal is the ID of the proposal a propose tool's task waits on;
	// "" for any other tool.
	Proposal string
	// Status is where it stands.
	Status TaskStatus
	// Message is the latest word on it: the tool's last progress message
	// while it works, why it failed or was cancelled.
	Message string
	// Created, Updated and Expires: when it was created, last changed,
	// and when it is deleted (Purge); the MCP ttlMs is Expires − Created.
	Created, Updated, Expires time.Time
	// PollInterval is how often a client should ask for it.
	PollInterval time.Duration
	// Result is the output of a completed task (the tool's output, or the
	// message of its error when IsError is set).
	Result []byte
	// Structured is set when Result is the tool's structured output.
	Structured bool
	// IsError is set when the call ended with the tool's (or the
	// service's) error: Result is its message for the model.
	IsError bool
	// Error says why a failed task failed.
	Error string
	// Instance is the ID of the service instance running it (its lease's
	// holder; TaskOptions.Instance), "" while nothing runs.
	Instance string
	// Lease is when Instance's hold on it ends unless renewed: a working
	// task whose lease has passed was lost with its instance.
	Lease time.Time
	// CancelRequested is set by a cancellation, for the instance that
	// runs it to see on its next renewal.
	CancelRequested bool
	// Version counts its writes: UpdateTask writes a task only over the
	// version it was read at.
	Version int64
}

// The errors stores (and the service) return about tasks.
var (
	// ErrTaskNotFound: no task has the ID (or, from the service, it is
	// another principal's, or expired: the same answer).
	ErrTaskNotFound = errors.New("service store: no such task")
	// ErrTaskExists: CreateTask found a task of the same ID.
	ErrTaskExists = errors.New("service store: a task of this ID exists")
	// ErrTaskChanged: UpdateTask found the task written since it was read
	// (its Version moved on): nothing was written.
	ErrTaskChanged = errors.New("service store: the task changed since it was read")
)
