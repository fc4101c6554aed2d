package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/proposalid"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Tasks: calls that outlive the request that started them (what the MCP
// Tasks extension serves; runtime/mcpserver speaks its wire, through
// runtime/servicemcp).
//
// Which calls: a call of a propose tool, and of a tool whose
// //tool:timeout is at least TaskOptions.Threshold (DefaultTaskThreshold,
// one minute: clock_wait's 70s is one), when the caller takes tasks
// (TaskTool says which). Nothing else changes: a call made through Call
// runs as it always did.
//
// Where: a task is a row of the store (Store.CreateTask), written before
// StartTask returns, so that every instance sharing the store answers
// for it (Task). Its tool runs on the instance that created it, in a
// goroutine the service owns (not the request's: the request may end,
// the client reconnect or reach another instance), with the request's
// Invocation (principal, conversation, call ID: the task's ID when the
// call named none) and the request's values but not its cancellation: it
// runs until it ends, bounded by its //tool:timeout as any call, or is
// cancelled (CancelTask). A process that exits mid-run leaves the task to
// its lease (below).
//
// The lease: the running instance renews its hold on the task
// (Task.Lease, TaskOptions.Lease ahead) every TaskOptions.Tick, and on the
// same write reads whether a cancellation was asked (CancelTask, from any
// instance) and writes the tool's latest progress message as the task's
// Message. A cancellation therefore reaches the tool's context within one
// Tick (DefaultTaskTick, 250ms) plus a store round trip: measured
// (runtime/servicemcp's BenchmarkTaskCancel, the worst case, asked just
// after a renewal) 252ms with a 250ms Tick and 50ms with a 50ms one, on
// SQLite and on PostgreSQL alike. Polling the store, rather than
// PostgreSQL's LISTEN/NOTIFY, keeps one mechanism for every store; a
// shorter Tick trades store writes (one per running task per Tick) for a
// faster cancellation.
//
// A task whose lease passes without renewal was lost with its instance:
// the next instance to read it marks it TaskFailed, finishes the record
// of its run as OutcomeUnknown, and it is never run again (at most once,
// as every call). An instance that lives on but could not renew for a
// whole Lease (a store outage) finds the task no longer its own at its
// next renewal: it cancels the tool's context and writes nothing more of
// the task, which stays failed (the record then holds how the run ended,
// if it ended).
//
// A propose tool's task (its ID is the proposal's) waits in
// TaskInputRequired while its proposal is pending. DecideTask with accept
// confirms the proposal through Confirm (at most once, across instances:
// the proposal's Claim) in a goroutine held by a lease as above; decline
// rejects it. Any other decision (the console, Service.Confirm or Reject,
// an expiry) moves the task on too: each read of the task follows its
// proposal (pending: input_required; running: working; done: completed
// with the confirmation's recorded result; rejected or expired:
// completed; unknown: failed). The record reads proposal → confirmation
// → call as without tasks.
//
// Who: only the principal who started a task sees, decides or cancels
// it; anyone else, an unknown ID and an expired task get the same
// ErrTaskNotFound. A task is kept TaskOptions.TTL (DefaultTaskTTL) from
// its creation, then no longer answered and deleted by Purge.

// Defaults of TaskOptions.
const (
	// DefaultTaskThreshold: a tool whose timeout is at least this runs as
	// a task.
	DefaultTaskThreshold = time.Minute
	// DefaultTaskLease is how long a running task's instance holds it
	// without renewing.
	DefaultTaskLease = 10 * time.Second
	// DefaultTaskTick is how often the running instance renews its lease,
	// reads cancellations and writes progress.
	DefaultTaskTick = 250 * time.Millisecond
	// DefaultTaskTTL is how long a task is kept from its creation.
	DefaultTaskTTL = time.Hour
	// DefaultTaskPollInterval is the poll interval suggested to clients.
	DefaultTaskPollInterval = time.Second
)

// TaskOptions configure a Service's tasks (Options.Tasks). The zero value
// is usable.
type TaskOptions struct {
	// Instance identifies this service instance among those sharing the
	// store (the holder of its tasks' leases); "" means a random one.
	Instance string
	// Threshold: a tool whose //tool:timeout is at least this runs as a
	// task; 0 means DefaultTaskThreshold, a negative value only propose
	// tools.
	Threshold time.Duration
	// Lease is how long the instance running a task holds it without
	// renewing; past it, the task is taken for lost. 0 means
	// DefaultTaskLease; it must exceed two Ticks.
	Lease time.Duration
	// Tick is how often the running instance renews its lease and reads
	// cancellations: the bound on how long a cancellation takes to reach
	// the tool, plus a store round trip. 0 means DefaultTaskTick.
	Tick time.Duration
	// TTL is how long a task is kept from its creation (its retention):
	// then it is no longer answered, and Purge deletes it. 0 means
	// DefaultTaskTTL.
	TTL time.Duration
	// PollInterval is how often clients are asked to poll a task; 0 means
	// DefaultTaskPollInterval.
	PollInterval time.Duration
}

// config returns o with its defaults, checked.
func (o TaskOptions) config() (TaskOptions, error) {
	if o.Instance == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		o.Instance = hex.EncodeToString(b[:])
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultTaskThreshold
	}
	if o.Lease == 0 {
		o.Lease = DefaultTaskLease
	}
	if o.Tick == 0 {
		o.Tick = DefaultTaskTick
	}
	if o.TTL == 0 {
		o.TTL = DefaultTaskTTL
	}
	if o.PollInterval == 0 {
		o.PollInterval = DefaultTaskPollInterval
	}
	switch {
	case o.Tick < 0 || o.Lease < 0 || o.TTL < 0 || o.PollInterval < 0:
		return o, errors.New("negative Tasks duration")
	case o.Lease <= 2*o.Tick:
		return o, fmt.Errorf("Tasks.Lease %s does not exceed two Ticks of %s", o.Lease, o.Tick)
	case len(o.Instance) > MaxIDLen:
		return o, fmt.Errorf("Tasks.Instance is longer than %d bytes", MaxIDLen)
	}
	return o, nil
}

// The errors the task methods return besides ErrTaskNotFound.
var (
	// ErrTaskNotWaiting: DecideTask of a task that waits for no decision.
	ErrTaskNotWaiting = errors.New("the task is not waiting for input")
	// ErrTaskFinished: CancelTask of a task that has ended.
	ErrTaskFinished = errors.New("the task has ended")
	// ErrNotTask: StartTask of a tool that does not run as a task.
	ErrNotTask = errors.New("the tool does not run as a task")
)

// TaskTool reports whether a call of the named tool with args, by the
// principal of ctx's Invocation, runs as a task for a caller that takes
// tasks: a propose tool, or one whose timeout is at least
// TaskOptions.Threshold, offered to the principal, with arguments the
// tool accepts. Any other call is no task: it is made (and refused, or
// recorded) as without tasks.
func (s *Service) TaskTool(ctx context.Context, name string, args []byte) bool {
	t := s.resolve(ctx, name)
	if t == nil {
		return false
	}
	sp := t.spec()
	if sp.Kind != tool.KindPropose && (s.tasks.Threshold <= 0 || sp.Timeout < s.tasks.Threshold) {
		return false
	}
	inv, ok := tool.InvocationFrom(ctx)
	return ok && inv.Principal.ID != "" && t.offered(ctx, s, inv, tool.IsReadOnly(ctx)) && t.check(ctx, s, args) == nil
}

// StartTask starts a call of the named tool as a task, for the principal
// of ctx's Invocation, and returns the task as written. A propose tool's
// call stores its proposal at once (refused as Call refuses it: then no
// task, and the error is the call's) and its task waits in
// TaskInputRequired; any other tool's task is TaskWorking and its tool
// runs in a goroutine the service owns, with ctx's values but not its
// cancellation. A call TaskTool does not name is refused with ErrNotTask
// (nothing is recorded: make it with Call).
func (s *Service) StartTask(ctx context.Context, name string, args []byte) (*Task, error) {
	if !s.TaskTool(ctx, name, args) {
		return nil, ErrNotTask
	}
	inv, _ := tool.InvocationFrom(ctx) // TaskTool saw its principal
	now := s.now()
	t := &Task{
		Principal: inv.Principal.ID, Conversation: inv.Conversation, CallID: inv.CallID, Tool: name,
		Created: now, Updated: now, Expires: now.Add(s.tasks.TTL), PollInterval: s.tasks.PollInterval,
	}
	if s.resolve(ctx, name).spec().Kind == tool.KindPropose {
		p, err := s.Propose(ctx, name, args)
		if err != nil {
			return nil, err
		}
		t.ID, t.Proposal, t.Status = p.ID, p.ID, TaskInputRequired
		t.Message = "waiting for a person to confirm the proposal"
		if err := s.store.CreateTask(ctx, t); err != nil {
			if errors.Is(err, ErrTaskExists) { // a repeat of the call ID: its task
				return s.Task(ctx, p.ID, inv.Principal)
			}
			return nil, fmt.Errorf("start task: %w", err)
		}
		return t, nil
	}
	t.ID, t.Status = newTaskID(), TaskWorking
	if t.CallID == "" {
		t.CallID = t.ID
	}
	t.Instance, t.Lease = s.tasks.Instance, now.Add(s.tasks.Lease)
	if err := s.store.CreateTask(ctx, t); err != nil {
		return nil, fmt.Errorf("start task: %w", err)
	}
	run := tool.WithCallID(context.WithoutCancel(ctx), t.CallID)
	args = bytes.Clone(args)
	go s.runTask(run, t.ID, func(ctx context.Context) func(*Task) {
		r, err := s.Call(ctx, name, args)
		return func(t *Task) { settleCall(t, r, err) }
	})
	return t.copy(), nil
}

// taskIDPrefix starts the ID of a task that is not a proposal's (whose
// ID is its proposal's).
const taskIDPrefix = "task_"

// newTaskID returns an unguessable task ID: taskIDPrefix and 128 random
// bits, written as a proposal ID's.
func newTaskID() string {
	return taskIDPrefix + strings.TrimPrefix(proposalid.New(), proposalid.Prefix)
}

// validTaskID reports whether id has the form of a task's ID: a
// proposal's, or newTaskID's.
func validTaskID(id string) bool {
	if rest, ok := strings.CutPrefix(id, taskIDPrefix); ok {
		return proposalid.Valid(proposalid.Prefix + rest)
	}
	return proposalid.Valid(id)
}

// copy returns a copy of t sharing no bytes with it.
func (t *Task) copy() *Task { return copyTask(t) }

// settleCall ends t with a call's outcome.
func settleCall(t *Task, r tool.Result, err error) {
	t.Status = TaskCompleted
	switch {
	case err != nil && t.CancelRequested && tool.CodeOf(err) == tool.CodeCancelled:
		t.Status, t.Message = TaskCancelled, "cancelled: the tool stopped"
	case err != nil:
		t.Result, t.IsError, t.Message = []byte(errorMessage(err)), true, "the tool failed"
	default:
		t.Result, t.Structured, t.IsError, t.Message = bytes.Clone(r.Content), r.Structured, r.IsError, "done"
	}
}

// errorMessage is what the model reads about err: a *tool.Error's
// message, else a fixed text.
func errorMessage(err error) string {
	var te *tool.Error
	if errors.As(err, &te) {
		return te.Error()
	}
	return "the tool failed"
}

// ownTask reads the task id as who may see it.
func (s *Service) ownTask(ctx context.Context, id string, who tool.Principal) (*Task, error) {
	if id == "" || who.ID == "" || !validTaskID(id) {
		return nil, ErrTaskNotFound
	}
	t, err := s.store.Task(ctx, id)
	if err != nil {
		return nil, err
	}
	if t.Principal != who.ID || !s.now().Before(t.Expires) {
		return nil, ErrTaskNotFound
	}
	return t, nil
}

// Task returns the task id as who, its creator, may see it: unknown,
// another principal's and expired tasks are ErrTaskNotFound. Reading it
// moves it on where the store says it moved: a lease passed (failed,
// the record of its run finished as OutcomeUnknown), a proposal decided
// elsewhere.
func (s *Service) Task(ctx context.Context, id string, who tool.Principal) (*Task, error) {
	for range 8 {
		t, err := s.ownTask(ctx, id, who)
		if err != nil {
			return nil, err
		}
		lost, changed := s.follow(ctx, t)
		if !changed {
			return t, nil
		}
		err = s.store.UpdateTask(ctx, t)
		if errors.Is(err, ErrTaskChanged) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("task: %w", err)
		}
		if lost {
			s.abandoned(ctx, t)
		}
		return t, nil
	}
	return nil, errors.New("task: it changed on every read; try again")
}

// follow moves t (as read) where the store says it is, and reports
// whether it changed it, and whether t's lease was found lost.
func (s *Service) follow(ctx context.Context, t *Task) (lost, changed bool) {
	now := s.now()
	if t.Status == TaskWorking && t.Instance != "" && now.After(t.Lease) {
		t.Status, t.Instance, t.Lease, t.Updated = TaskFailed, "", time.Time{}, now
		t.Error = "the instance running the task stopped: whether the tool did its work is unknown, and it is not run again"
		t.Message = t.Error
		return true, true
	}
	if t.Proposal == "" || t.Status.Terminal() || t.Instance != "" {
		return false, false
	}
	p, err := s.store.Proposal(ctx, t.Proposal)
	if err != nil {
		return false, false
	}
	before := *t
	applyProposal(ctx, s, t, p)
	if t.Status == before.Status && t.Message == before.Message {
		return false, false
	}
	t.Updated = now
	return false, true
}

// applyProposal sets a propose tool's task (not running here) from its
// proposal's state; a proposal pending past its expiry has expired.
func applyProposal(ctx context.Context, s *Service, t *Task, p *Proposal) {
	switch {
	case p.State == StatePending && !s.now().Before(p.Expires):
		t.Status, t.Message = TaskCompleted, "expired: nothing ran"
		return
	}
	switch p.State {
	case StatePending:
		t.Status, t.Message = TaskInputRequired, "waiting for a person to confirm the proposal"
	case StateRunning:
		if w := s.awaitFor(p.Tool); w > 0 && s.now().Sub(p.Decided) > w {
			// Confirmed elsewhere, and not settled for longer than a run
			// is awaited (Options.AwaitRunning): taken for lost, as
			// Confirm takes it.
			t.Status, t.Message = TaskFailed, "confirmed, and its run did not finish: its outcome is unknown"
			t.Error = t.Message
			return
		}
		t.Status, t.Message = TaskWorking, "confirmed; the tool runs"
	case StateDone:
		t.Status, t.Message = TaskCompleted, "confirmed, and the tool ran"
		if recs, err := s.store.Records(ctx, Query{Proposal: p.ID}); err == nil {
			for i := range recs {
				if r := &recs[i]; r.Event == EventConfirmation && r.Outcome != OutcomeStarted && r.Outcome != OutcomeRefused {
					if r.Code != 0 {
						t.Result, t.Structured, t.IsError = []byte(r.Error), false, true
					} else {
						t.Result, t.Structured, t.IsError = bytes.Clone(r.Result), r.Structured, false
					}
				}
			}
		}
	case StateRejected:
		t.Status, t.Message = TaskCompleted, "rejected: nothing ran"
	case StateExpired:
		t.Status, t.Message = TaskCompleted, "expired: nothing ran"
	default: // StateUnknown
		t.Status, t.Message = TaskFailed, "confirmed, and its run did not finish: its outcome is unknown"
		t.Error = t.Message
	}
}

// abandoned finishes the record of a lost task's run as OutcomeUnknown.
func (s *Service) abandoned(ctx context.Context, t *Task) {
	q := Query{Principal: t.Principal, Conversation: t.Conversation, CallID: t.CallID}
	if t.Proposal != "" {
		q = Query{Proposal: t.Proposal}
	}
	recs, err := s.store.Records(ctx, q)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "call service: read the record of a lost task", slog.String("error", err.Error()))
		return
	}
	for i := range recs {
		r := &recs[i]
		if r.Outcome != OutcomeStarted || (r.Event != EventCall && r.Event != EventConfirmation) {
			continue
		}
		r.Outcome, r.Code = OutcomeUnknown, tool.CodeOutcomeUnknown
		r.Error = "the instance running the call stopped: its outcome is unknown"
		var err error
		if r.Event == EventConfirmation {
			err = s.store.Settle(ctx, t.Proposal, StateUnknown, r)
		} else {
			err = s.store.Finish(ctx, r)
		}
		if err != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "call service: finish the record of a lost task", slog.String("error", err.Error()))
		}
	}
}

// DecideTask gives a person's decision on the proposal a propose tool's
// task waits on, for who (its creator): accept confirms it (the tool runs
// at most once, on this instance, as the task; the task moves on when it
// ends), decline rejects it. A task that waits for no decision is
// refused with ErrTaskNotWaiting.
func (s *Service) DecideTask(ctx context.Context, id string, who tool.Principal, accept bool) error {
	for range 8 {
		t, err := s.Task(ctx, id, who)
		if err != nil {
			return err
		}
		if t.Status != TaskInputRequired || t.Proposal == "" {
			return ErrTaskNotWaiting
		}
		if !accept {
			if err := s.Reject(ctx, t.Proposal, who); err != nil && tool.CodeOf(err) == 0 {
				return fmt.Errorf("decide task: %w", err)
			}
			_, err := s.Task(ctx, id, who)
			return err
		}
		now := s.now()
		t.Status, t.Message, t.Updated = TaskWorking, "confirmed; the tool runs", now
		t.Instance, t.Lease = s.tasks.Instance, now.Add(s.tasks.Lease)
		err = s.store.UpdateTask(ctx, t)
		if errors.Is(err, ErrTaskChanged) {
			continue
		}
		if err != nil {
			return fmt.Errorf("decide task: %w", err)
		}
		prop := t.Proposal
		go s.runTask(context.WithoutCancel(ctx), id, func(ctx context.Context) func(*Task) {
			_, cerr := s.Confirm(ctx, prop, who)
			p, perr := s.store.Proposal(context.WithoutCancel(ctx), prop)
			return func(t *Task) {
				if perr != nil {
					t.Status, t.Error = TaskFailed, "the proposal could not be read after its confirmation"
					t.Message = t.Error
					return
				}
				applyProposal(context.WithoutCancel(ctx), s, t, p)
				switch {
				case p.State == StatePending && cerr != nil:
					t.Message = "not confirmed: " + errorMessage(cerr)
				case t.CancelRequested && tool.CodeOf(cerr) == tool.CodeCancelled:
					t.Status, t.Message = TaskCancelled, "cancelled: the tool stopped"
					t.Result, t.Structured, t.IsError = nil, false, false
				}
			}
		})
		return nil
	}
	return errors.New("decide task: it changed on every read; try again")
}

// CancelTask asks for the task id to be cancelled, for who (its creator):
// a running tool sees its context done within one Tick (on whichever
// instance runs it) and the task ends TaskCancelled if it stops; a task
// waiting for a decision is cancelled at once, its proposal rejected. A
// proposal confirmed elsewhere (the console) runs outside the task: the
// request is kept, and the task follows the proposal to its end. A task
// that has ended is refused with ErrTaskFinished.
func (s *Service) CancelTask(ctx context.Context, id string, who tool.Principal) error {
	for range 8 {
		t, err := s.Task(ctx, id, who)
		if err != nil {
			return err
		}
		if t.Status.Terminal() {
			return ErrTaskFinished
		}
		if t.Status == TaskInputRequired {
			if err := s.Reject(ctx, t.Proposal, who); err != nil && tool.CodeOf(err) == 0 {
				return fmt.Errorf("cancel task: %w", err)
			}
			p, err := s.store.Proposal(ctx, t.Proposal)
			if err != nil {
				return fmt.Errorf("cancel task: %w", err)
			}
			if p.State != StateRejected {
				continue // decided meanwhile: the task follows it
			}
			t.Status, t.Message = TaskCancelled, "cancelled: the proposal was rejected, nothing ran"
		} else {
			if t.CancelRequested {
				return nil
			}
			t.CancelRequested = true
		}
		t.Updated = s.now()
		err = s.store.UpdateTask(ctx, t)
		if errors.Is(err, ErrTaskChanged) {
			continue
		}
		if err != nil {
			return fmt.Errorf("cancel task: %w", err)
		}
		return nil
	}
	return errors.New("cancel task: it changed on every read; try again")
}
