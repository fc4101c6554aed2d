package service

import (
	"strconv"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Event says what a Record records.
type Event uint8

const (
	// EventCall is a call of a read, display or action tool that was let
	// through: it ran, or its arguments were refused by the tool's decoder.
	EventCall Event = iota + 1
	// EventRefusal is a call the service refused before anything ran: a
	// tool not offered, the kill switch, a rate limit, the cap on calls
	// per turn, a confirmation it would not run.
	EventRefusal
	// EventProposal is a call of a propose tool: it stored a proposal and
	// ran nothing.
	EventProposal
	// EventConfirmation is a confirmed proposal, and the run of its tool.
	EventConfirmation
	// EventRejection is a proposal rejected (or cancelled) for good.
	EventRejection
	// EventExpiry is a proposal found expired before it was confirmed.
	EventExpiry
	// EventReplay is a call whose call ID was already recorded, answered
	// with the recorded outcome; nothing ran.
	EventReplay
	// EventOffer is what an agent was offered (Service.RecordOffer, which
	// a palette's Offer calls): Args holds the offered tools' names, Tool
	// is empty, Outcome is OutcomeOK; nothing ran.
	EventOffer
)

var eventNames = [...]string{
	EventCall:         "call",
	EventRefusal:      "refusal",
	EventProposal:     "proposal",
	EventConfirmation: "confirmation",
	EventRejection:    "rejection",
	EventExpiry:       "expiry",
	EventReplay:       "replay",
	EventOffer:        "offer",
}

// String returns the event's name, such as "call", or "Event(N)".
func (e Event) String() string {
	if int(e) < len(eventNames) && eventNames[e] != "" {
		return eventNames[e]
	}
	return "Event(" + strconv.Itoa(int(e)) + ")"
}

// Outcome says how a recorded event ended.
type Outcome uint8

const (
	// OutcomeStarted: the run started and has not finished. A record that
	// stays so (the process died mid-run) reads as an unknown outcome.
	OutcomeStarted Outcome = iota + 1
	// OutcomeOK: the tool ran and succeeded, or the event needed no run
	// (a proposal stored, a rejection).
	OutcomeOK
	// OutcomeFailed: the call failed (invalid arguments, the tool's error,
	// a panic, a timeout the tool reported); the tool may have run.
	OutcomeFailed
	// OutcomeRefused: nothing ran.
	OutcomeRefused
	// OutcomeUnknown: the run was abandoned at its deadline (after its
	// caller's cancellation, when it did not stop) and may still be
	// running: whether it did its work is unknown. It is never run again.
	OutcomeUnknown
	// OutcomeCancelled: the caller cancelled the call while the tool ran
	// (an MCP client's notifications/cancelled, an HTTP client gone, an
	// agent stopped), and the tool stopped: it returned an error once it
	// saw its context done (Code is tool.CodeCancelled). How much of its
	// work it did is the tool's to say; it is never run again.
	OutcomeCancelled
)

var outcomeNames = [...]string{
	OutcomeStarted:   "started",
	OutcomeOK:        "ok",
	OutcomeFailed:    "failed",
	OutcomeRefused:   "refused",
	OutcomeUnknown:   "unknown",
	OutcomeCancelled: "cancelled",
}

// String returns the outcome's name, such as "ok", or "Outcome(N)".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// ParseEvent returns the event whose String is s.
func ParseEvent(s string) (Event, bool) {
	for e := range eventNames {
		if e > 0 && eventNames[e] == s {
			return Event(e), true
		}
	}
	return 0, false
}

// ParseOutcome returns the outcome whose String is s.
func ParseOutcome(s string) (Outcome, bool) {
	for o := range outcomeNames {
		if o > 0 && outcomeNames[o] == s {
			return Outcome(o), true
		}
	}
	return 0, false
}

// Record is one row of the record the service keeps: one per call,
// refusal, proposal, confirmation, rejection, expiry, replay and offer.
type Record struct {
	// ID is the store's identifier of the row, assigned when it is
	// written.
	ID int64
	// Time is when the event began.
	Time time.Time
	// Principal is the ID of the principal the call ran for (for a
	// confirmation, the one who confirmed).
	Principal string
	// Conversation, Turn and CallID are the caller's, when it gave them.
	Conversation, Turn, CallID string
	// Agent is the calling agent's name, when it gave one.
	Agent string
	// Tool is the tool's name as the call gave it (an identifier, or the
	// name cut to 128 bytes when it is not one); empty for an offer.
	Tool string
	// Kind is the tool's kind; 0 for a tool the registry does not have.
	Kind tool.Kind
	// Event says what the row records.
	Event Event
	// Outcome says how it ended.
	Outcome Outcome
	// Code is the failure's code; 0 when the event succeeded.
	Code tool.Code
	// Duration is how long the event took, the tool's run included.
	Duration time.Duration
	// Error is the message the model (or the confirming person) read about
	// the failure; "" on success.
	Error string
	// Args are the arguments as the tool wants them logged: its LogArgs
	// form, or the arguments with secret members replaced and long strings
	// cut (see Options.MaxLoggedString). JSON.
	Args []byte
	// ArgsDigest binds the tool and the arguments of a call or proposal
	// made with a call ID (a keyed digest: HMAC-SHA256 under the
	// service's key, hex, over the arguments' canonical JSON form: see
	// the package documentation), so that a repeat of the call ID is
	// compared with the call that holds it without keeping the arguments
	// themselves; "" for a call without one.
	ArgsDigest string
	// Proposal is the ID of the proposal the event is about, if any.
	Proposal string
	// Result is the result the caller received, kept for a call with a
	// call ID and for a confirmation, so that a repeat is answered with it
	// instead of a second run; nil otherwise. It is the tool's output: a
	// store that keeps it keeps what the tool returned.
	Result []byte
	// Structured is set when Result is the tool's structured output.
	Structured bool
}

// Query selects records. Zero fields select everything.
type Query struct {
	// Principal, Conversation, CallID and Tool select exact values.
	Principal, Conversation, CallID, Tool string
	// Proposal selects the records of one proposal.
	Proposal string
	// Event selects one kind of event; 0 selects every kind.
	Event Event
	// Since and Until bound Time: Since <= Time < Until.
	Since, Until time.Time
	// Before, when its Time is set, selects the records that come before
	// that place (see Position): with Newest, the keyset cursor of the
	// next, older page.
	Before Position
	// Newest orders the records newest first: by Time, then ID, both
	// descending. false keeps the order the store wrote them in, oldest
	// first.
	Newest bool
	// Limit caps the number of records; 0 means DefaultQueryLimit.
	Limit int
}

// Position is a record's place in time: its Time, then its ID among the
// records of one Time. Records ordered newest first come in decreasing
// Position.
type Position struct {
	// Time is the record's Time.
	Time time.Time
	// ID is the record's ID.
	ID int64
}

// After reports whether p comes after r: r's Time is earlier, or the
// same and r's ID lower.
func (p Position) After(r *Record) bool {
	return r.Time.Before(p.Time) || r.Time.Equal(p.Time) && r.ID < p.ID
}

// DefaultQueryLimit is the number of records a Query returns at most when
// its Limit is 0.
const DefaultQueryLimit = 1000

// Match reports whether r is selected by q (the Limit aside): what every
// store's Records applies.
func (q *Query) Match(r *Record) bool {
	return (q.Principal == "" || r.Principal == q.Principal) &&
		(q.Conversation == "" || r.Conversation == q.Conversation) &&
		(q.CallID == "" || r.CallID == q.CallID) &&
		(q.Tool == "" || r.Tool == q.Tool) &&
		(q.Proposal == "" || r.Proposal == q.Proposal) &&
		(q.Event == 0 || r.Event == q.Event) &&
		(q.Before.Time.IsZero() || q.Before.After(r)) &&
		(q.Since.IsZero() || !r.Time.Before(q.Since)) &&
		(q.Until.IsZero() || r.Time.Before(q.Until))
}

// limit returns the number of records q asks for at most.
func (q *Query) limit() int {
	if q.Limit <= 0 {
		return DefaultQueryLimit
	}
	return q.Limit
}
