package service

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// State is where a proposal stands.
type State uint8

const (
	// StatePending: proposed, waiting for a person's decision.
	StatePending State = iota + 1
	// StateRunning: confirmed, and its run started; a proposal that stays
	// so (the process died mid-run) reads as StateUnknown.
	StateRunning
	// StateDone: confirmed and run; the confirmation's record holds the
	// outcome.
	StateDone
	// StateUnknown: confirmed, and its run was abandoned: whether the tool
	// did its work is unknown. It is never run again.
	StateUnknown
	// StateRejected: rejected or cancelled; it never runs.
	StateRejected
	// StateExpired: not confirmed in time; it never runs.
	StateExpired
)

var stateNames = [...]string{
	StatePending:  "pending",
	StateRunning:  "running",
	StateDone:     "done",
	StateUnknown:  "unknown",
	StateRejected: "rejected",
	StateExpired:  "expired",
}

// String returns the state's name, such as "pending", or "State(N)".
func (s State) String() string {
	if int(s) < len(stateNames) && stateNames[s] != "" {
		return stateNames[s]
	}
	return "State(" + strconv.Itoa(int(s)) + ")"
}

// ParseState returns the state whose String is s.
func ParseState(s string) (State, bool) {
	for st := range stateNames {
		if st > 0 && stateNames[st] == s {
			return State(st), true
		}
	}
	return 0, false
}

// Proposal is a call of a propose tool that waits for a person: the
// arguments it will run with if confirmed, bound by a digest.
type Proposal struct {
	// ID is unguessable: 128 random bits.
	ID string
	// Principal is the ID of the principal who proposed.
	Principal string
	// Conversation is the conversation it was proposed in, if any.
	Conversation string
	// Turn and CallID are the proposing call's, if any.
	Turn, CallID string
	// Tool is the propose tool's name.
	Tool string
	// Args are the arguments, canonical (compact JSON): exactly what the
	// tool runs with.
	Args []byte
	// Digest binds what a confirmation relies on: the proposal's ID,
	// principal, conversation, turn, call ID, tool, summary, arguments
	// and expiry, under the service's key (HMAC-SHA256, hex), so that a
	// proposal changed in the store, or kept past its expiry, is refused
	// before it runs.
	Digest string
	// Summary says in a line what confirming does, for the person.
	Summary string
	// Created and Expires bound when it may be confirmed.
	Created, Expires time.Time
	// State is where it stands.
	State State
	// DecidedBy is the principal who confirmed or rejected it.
	DecidedBy string
	// Decided is when it was confirmed, rejected or found expired.
	Decided time.Time
}

// ProposalQuery selects proposals. Zero fields select everything.
type ProposalQuery struct {
	// Principal and Conversation select exact values.
	Principal, Conversation string
	// State selects proposals in one state.
	State State
	// Limit caps the number of proposals; 0 means DefaultQueryLimit.
	Limit int
}

// Match reports whether p is selected by q (the Limit aside).
func (q *ProposalQuery) Match(p *Proposal) bool {
	return (q.Principal == "" || p.Principal == q.Principal) &&
		(q.Conversation == "" || p.Conversation == q.Conversation) &&
		(q.State == 0 || p.State == q.State)
}

// The errors stores return; the service maps them to what a caller reads.
var (
	// ErrNotFound: no proposal has the ID.
	ErrNotFound = errors.New("service store: no such proposal")
	// ErrNotPending: the proposal is no longer pending (or has expired):
	// the operation changed nothing.
	ErrNotPending = errors.New("service store: the proposal is not pending")
	// ErrKeyLost: the store keeps no digest key (Key) while it holds
	// proposals that are pending or running, which were made under a key:
	// it was deleted (the toolgen_keys row). Making a new one would leave
	// every such proposal unconfirmable, so the store makes none; the
	// operator restores the row, or gives the services the key (or a new
	// Options.Key with the lost one among Options.OldKeys).
	ErrKeyLost = errors.New("service store: the digest key is gone while proposals made under it are pending; no new key was made: restore it, or set Options.Key")
)

// Store keeps what the service must not lose: proposals, records, the
// call IDs already run, tasks and the console's sessions. Every method is safe
// for concurrent use, also by several services (processes) sharing one
// store; the guarantees that make a proposal run at most once are the
// store's (Claim), never a process's lock. The service writes each record
// before it answers: a method that fails has written nothing.
//
// MemoryStore is the store of one process; durable stores live in
// subpackages so that a program using the memory store links no database
// driver.
type Store interface {
	// Start writes rec, a run about to start (Outcome OutcomeStarted), and
	// sets rec.ID. When rec.CallID is set and a record of the same
	// principal, conversation and call ID exists, Start writes nothing and
	// returns that record instead: the call already ran, or is running, or
	// its run never finished.
	Start(ctx context.Context, rec *Record) (prior *Record, err error)
	// Finish writes the end of the run Start wrote as rec.ID: its
	// Outcome, Code, Duration, Error, Result and Structured.
	Finish(ctx context.Context, rec *Record) error
	// Append writes rec, an event that runs nothing, and sets rec.ID.
	Append(ctx context.Context, rec *Record) error
	// Records returns the records q selects: oldest first, in the order
	// written; with q.Newest, newest first by Time, then ID (q.Before is
	// then the keyset cursor of the next page).
	Records(ctx context.Context, q Query) ([]Record, error)

	// Propose writes p, pending, and rec, its record, together, and sets
	// rec.ID. When rec.CallID is set and a record of the same principal,
	// conversation and call ID exists, it writes nothing and returns that
	// record, as Start does.
	Propose(ctx context.Context, p *Proposal, rec *Record) (prior *Record, err error)
	// Proposal returns the proposal with the ID, or ErrNotFound.
	Proposal(ctx context.Context, id string) (*Proposal, error)
	// Proposals returns the proposals q selects, oldest first.
	Proposals(ctx context.Context, q ProposalQuery) ([]Proposal, error)
	// Claim is the one step that lets a proposal run: atomically, when
	// the proposal id is pending and rec.Time is before its expiry, it
	// moves it to StateRunning, decided by rec.Principal at rec.Time, and
	// writes rec (its confirmation, OutcomeStarted; rec.ID is set). Of any
	// number of concurrent Claims of one proposal, in any number of
	// processes, at most one succeeds. Otherwise it writes nothing and
	// returns the proposal as stored with ErrNotPending, or ErrNotFound.
	Claim(ctx context.Context, id string, rec *Record) (*Proposal, error)
	// Settle ends the run Claim started: the proposal moves to state
	// (StateDone or StateUnknown after a run) and rec, the claim's record,
	// is finished as Finish does. A claim whose run never started is
	// undone by Release instead.
	Settle(ctx context.Context, id string, state State, rec *Record) error
	// Release undoes a Claim whose run never started (the tool was never
	// entered: the caller's context ended first, the run was refused, the
	// proposal as claimed failed its digest): atomically, the proposal id
	// moves from StateRunning back to StatePending, its DecidedBy and
	// Decided cleared, and rec, the claim's record, is finished as Finish
	// does (OutcomeRefused: nothing was run). A later Claim may then run
	// it. A proposal that is not running is left as it is; rec is
	// finished all the same.
	Release(ctx context.Context, id string, rec *Record) error
	// Retire moves the pending proposal id to state (StateRejected or
	// StateExpired), decided by rec.Principal at rec.Time, and writes rec;
	// when it is not pending it writes nothing and returns the proposal as
	// stored with ErrNotPending (or ErrNotFound). A proposal pending past
	// its expiry may be closed as expired but not rejected.
	Retire(ctx context.Context, id string, state State, rec *Record) (*Proposal, error)

	// Key returns the key the services sharing the store make their
	// digests with (Proposal.Digest, Record.ArgsDigest): the one the store
	// keeps, or, when it keeps none yet, fresh, which it keeps from then
	// on. Of concurrent calls with different fresh keys, all return the
	// one key kept, also across processes. When it keeps none but holds a
	// proposal that is pending or running (its key was deleted), it keeps
	// nothing and returns an error wrapping ErrKeyLost: it fails closed.
	Key(ctx context.Context, fresh []byte) ([]byte, error)

	// CreateTask writes t, a new task, and sets its Version to 1; when a
	// task of its ID exists it writes nothing and returns ErrTaskExists.
	CreateTask(ctx context.Context, t *Task) error
	// Task returns the task with the ID, or ErrTaskNotFound.
	Task(ctx context.Context, id string) (*Task, error)
	// UpdateTask writes t over the task of its ID when the stored one's
	// Version is t.Version, and increments t.Version: of concurrent
	// updates of one version, in any number of processes, one succeeds.
	// Otherwise it writes nothing and returns ErrTaskChanged (or
	// ErrTaskNotFound).
	UpdateTask(ctx context.Context, t *Task) error
	// Tasks returns the principal's tasks whose stored status has not
	// ended (working, input_required), the most recently created first,
	// at most limit of them (limit > 0).
	Tasks(ctx context.Context, principal string, limit int) ([]*Task, error)
	// PurgeTasks deletes the tasks whose Expires is before before and
	// returns how many it deleted.
	PurgeTasks(ctx context.Context, before time.Time) (int, error)

	// SessionStore keeps the console's sessions (see Session).
	SessionStore

	// Purge deletes the records whose Time is before before, the
	// proposals that expired before it (whatever their state: one no
	// longer stored cannot be confirmed either) and the sessions that
	// expired before it, and returns how many rows it deleted.
	Purge(ctx context.Context, before time.Time) (int, error)
}
