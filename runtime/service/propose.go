package service

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/confirmation"
	"github.com/toolgen-go/toolgen/runtime/internal/proposalid"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// canonical returns args as a proposal keeps them: the compact JSON the
// tool will run with.
func canonical(args []byte) ([]byte, error) {
	if len(args) == 0 {
		return []byte("{}"), nil
	}
	n, err := jsontree.Parse(args)
	if err != nil {
		return nil, err
	}
	return n.Compact(), nil
}

// propose handles an admitted call of a propose tool: it validates the
// arguments, stores a proposal and answers with it; nothing runs.
func (s *Service) propose(ctx context.Context, c inFlight, t target, dst, args []byte, out **Proposal) (tool.Result, error) {
	inv, rec, spec := c.inv, c.rec, t.spec()
	rec.Event = EventProposal
	rec.Args = t.logForm(ctx, s, args, false)
	if err := t.check(ctx, s, args); err != nil {
		var te *tool.Error
		if !errors.As(err, &te) {
			te = &tool.Error{Code: tool.CodeFailed, Tool: spec.Name, Message: "the tool failed", Cause: err}
		}
		rec.Outcome, rec.Code, rec.Error = OutcomeFailed, te.Code, te.Message
		if errors.Is(err, tool.ErrNotRun) {
			rec.Outcome = OutcomeRefused
		}
		rec.Duration = s.since(rec.Time)
		s.append(ctx, rec)
		return tool.Result{Content: append(dst, te.Message...), IsError: true}, te
	}
	raw := args
	args, err := canonical(args)
	if err != nil { // Check accepted them: they are JSON
		return s.refuse(ctx, rec, dst, &tool.Error{Code: tool.CodeInvalidArguments, Tool: spec.Name, Message: "the arguments are not valid JSON", Cause: err})
	}
	key, err := s.key(ctx)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "call service: read the digest key", slog.String("tool", spec.Name), slog.String("error", err.Error()))
		return s.refuse(ctx, rec, dst, keyFailure(spec.Name, err))
	}
	p := &Proposal{
		ID: proposalid.New(), Principal: inv.Principal.ID, Conversation: inv.Conversation, Turn: inv.Turn,
		CallID: inv.CallID, Tool: spec.Name, Args: args, Summary: summary(spec),
		Created: rec.Time, Expires: rec.Time.Add(s.ttl), State: StatePending,
	}
	p.Digest = digest(key, p)
	rec.Proposal, rec.Outcome = p.ID, OutcomeOK
	rec.Result, rec.Structured = proposalResult(p), true
	rec.Duration = s.since(rec.Time)
	wctx := detached(ctx)
	prior, err := s.store.Propose(wctx, p, rec)
	wctx.close()
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "call service: store a proposal", slog.String("tool", spec.Name), slog.String("error", err.Error()))
		rec.Proposal, rec.Result = "", nil
		return s.refuse(ctx, rec, dst, unrecorded(spec.Name, err))
	}
	if prior != nil {
		if e := s.reused(ctx, rec, prior, raw); e != nil {
			rec.Proposal, rec.Result, rec.Structured = "", nil, false
			return s.refuse(ctx, rec, dst, e)
		}
		res, err := s.replay(ctx, rec, prior, dst)
		if out != nil && err == nil {
			*out, err = s.store.Proposal(ctx, prior.Proposal)
		}
		return res, err
	}
	if out != nil {
		*out = p
	}
	s.observed(ctx, rec)
	return tool.Result{Content: append(dst, rec.Result...), Structured: true}, nil
}

// proposalResult is what the model reads of a proposal: that nothing ran,
// the tool, the summary, its ID and when it expires; it conforms to
// tool.ProposalOutputSchema.
func proposalResult(p *Proposal) []byte {
	b := []byte(`{"status":"proposed","message":"Nothing has run yet: a person must confirm this proposal first.","tool":`)
	b = jsonlex.AppendString(b, p.Tool)
	b = append(b, `,"summary":`...)
	b = jsonlex.AppendString(b, p.Summary)
	b = append(b, `,"proposal":`...)
	b = jsonlex.AppendString(b, p.ID)
	b = append(b, `,"expires":`...)
	b = jsonlex.AppendString(b, p.Expires.UTC().Format(time.RFC3339))
	return append(b, '}')
}

// Confirmation is what Confirm returns: the proposal and its run's result.
type Confirmation struct {
	// Proposal is the proposal as stored after the confirmation.
	Proposal *Proposal
	// Result is the run's result; for a proposal confirmed before
	// (Repeat), the recorded one.
	Result tool.Result
	// Repeat is set when the proposal had been confirmed before: nothing
	// ran now, and Result is the recorded outcome.
	Repeat bool
}

// Confirm runs the proposal id at most once, for who, with the arguments
// that were proposed. who must be allowed by the policy (by default, the
// proposer); anyone else is answered as for an unknown ID. The tool runs
// with who as its principal, in the proposal's conversation, and must
// still be offered to who (permissions are checked again); a context
// marked read-only (tool.WithReadOnly) confirms nothing that mutates.
//
// A confirmation is refused, and recorded, when the kill switch is on,
// the ID is unknown or foreign (CodeUnknownProposal), the proposal
// expired (CodeProposalExpired) or was rejected (CodeProposalRejected),
// its digest verifies under none of the service's keys (Options.Key,
// Options.OldKeys: the proposal was changed in the store, or made by a
// service with another key), the key cannot be read (ErrKeyLost), or its
// record cannot be written: then nothing runs, and the proposal is left
// as it was (a digest that does not verify here may verify on the
// instance that made it). Of concurrent or repeated confirmations,
// in this process or in others sharing the store, one runs the tool; the
// others get CodeAlreadyConfirmed with the recorded outcome in the
// Confirmation (waiting for the run when this process runs it), or
// CodeOutcomeUnknown when the run never finished (the process died, or the
// tool was abandoned at its deadline): it is never run again.
//
// A confirmation never spends a proposal without running it. Once it has
// claimed the proposal (Store.Claim), one of two things happens. If the
// tool is entered, it runs exactly once: ctx reaches it as it reaches any
// call (a cancellation, a deadline), its outcome (ok, failed, cancelled)
// is recorded and the proposal is settled StateDone, or StateUnknown when
// the run was abandoned. If the tool is never entered (ctx ended before
// the run began, the run was refused: the tool busy; or the proposal as
// claimed no longer verifies), the claim is undone (Store.Release): the
// proposal is pending again, the confirmation's record ends refused
// ("nothing was run"), and a later Confirm can run it. A caller that
// must not lose a person's yes to its request's end confirms under
// context.WithoutCancel, as runtime/console does; runtime/mcpserver
// detaches until the tool has started, so that a client's cancellation
// of a run under way still reaches it.
func (s *Service) Confirm(ctx context.Context, id string, who tool.Principal) (*Confirmation, error) {
	ro := tool.IsReadOnly(ctx) // before any hook sees the confirmation
	rec := Record{Time: s.now(), Principal: recordedID(who.ID), Event: EventConfirmation, Proposal: recordedName(id)}
	if inv, ok := tool.InvocationFrom(ctx); ok {
		rec.Agent = inv.Agent.Name
	}
	if s.obs != nil {
		ctx = s.obs.Start(ctx, "")
	}
	if err := ctx.Err(); err != nil {
		return nil, s.refused(ctx, &rec, notNow("", err))
	}
	if e := tooLong("", who.ID, "", ""); e != nil {
		return nil, s.refused(ctx, &rec, e)
	}
	p, release, e := s.enterProposal(ctx, id, who, &rec)
	if e != nil {
		return nil, s.refused(ctx, &rec, e)
	}
	defer release()
	rec.Tool, rec.Conversation, rec.Turn, rec.CallID = p.Tool, p.Conversation, p.Turn, p.CallID
	inv := &tool.Invocation{Principal: who, Conversation: p.Conversation, Turn: p.Turn, CallID: p.CallID}
	if cur, ok := tool.InvocationFrom(ctx); ok {
		inv.Agent, inv.State = cur.Agent, cur.State
	}
	t := s.resolve(ctx, p.Tool)
	if t == nil || t.spec().Kind != tool.KindPropose || !t.offered(ctx, s, inv, ro) {
		return nil, s.refused(ctx, &rec, toolerr.UnknownTool(s.offer(ctx, inv, nil, ro), p.Tool))
	}
	rec.Kind = t.spec().Kind
	if s.isHalted(ctx) {
		return nil, s.refused(ctx, &rec, &tool.Error{Code: tool.CodeRefused, Tool: p.Tool, Message: "tool calls are halted by the operator; nothing was run"})
	}
	if p.State == StatePending && !rec.Time.Before(p.Expires) {
		return nil, s.expire(ctx, p, &rec)
	}
	if p.State != StatePending {
		return s.decided(ctx, p, &rec)
	}
	rec.Args = t.logForm(ctx, s, p.Args, false)
	key, err := s.key(ctx)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "call service: read the digest key", slog.String("tool", p.Tool), slog.String("error", err.Error()))
		return nil, s.refused(ctx, &rec, keyFailure(p.Tool, err))
	}
	if !s.keys.verifies(key, p) { // refused before the claim: the proposal stays as it is
		s.log.LogAttrs(ctx, slog.LevelWarn, "call service: a proposal's digest verifies under no key of this service", slog.String("tool", p.Tool), slog.String("proposal", p.ID))
		return nil, s.refused(ctx, &rec, mismatch(p.Tool))
	}
	if err := ctx.Err(); err != nil { // a claim would be undone at once
		return nil, s.refused(ctx, &rec, notNow(p.Tool, err))
	}
	rec.Outcome = OutcomeStarted
	wctx := detached(ctx)
	claimed, err := s.store.Claim(wctx, p.ID, &rec)
	wctx.close()
	switch {
	case errors.Is(err, ErrNotPending):
		rec.ID = 0
		if claimed.State == StatePending { // expired between the read and the claim
			return nil, s.expire(ctx, claimed, &rec)
		}
		return s.decided(ctx, claimed, &rec)
	case err != nil:
		s.log.LogAttrs(ctx, slog.LevelError, "call service: claim a proposal", slog.String("tool", p.Tool), slog.String("error", err.Error()))
		rec.ID = 0
		return nil, s.refused(ctx, &rec, unrecorded(p.Tool, err))
	}
	return s.runClaimed(tool.WithInvocation(ctx, inv), t, claimed, &rec, key)
}

// mismatch is the refusal of a proposal whose digest verifies under no
// key of the service: changed in the store, or made by a service with
// another key. It changes nothing: a service that holds its key may
// still confirm it.
func mismatch(name string) *tool.Error {
	return &tool.Error{Code: tool.CodeRefused, Tool: name,
		Message: "the proposal as stored does not match its digest under any key of this service; nothing was run, and the proposal is unchanged",
		Cause:   errors.New("proposal digest mismatch: the stored proposal was changed, or made under a key this service does not hold (Options.Key, Options.OldKeys)")}
}

// keyFailure is the refusal of a call or confirmation whose digest key
// cannot be read: the store failed, or lost it (ErrKeyLost).
func keyFailure(name string, err error) *tool.Error {
	if errors.Is(err, ErrKeyLost) {
		return &tool.Error{Code: tool.CodeRefused, Tool: name,
			Message: "the service's digest key is lost: calls are refused until the operator restores it; nothing was run", Cause: err}
	}
	return unrecorded(name, err)
}

// runClaimed runs a proposal this service claimed, its digest checked
// under its keys (key the current one), and settles it: done, or unknown
// when the run was abandoned, once the tool was entered; when it was not
// (the context ended first, the run was refused, the proposal as claimed
// no longer verifies), the claim is released and the proposal is pending
// again.
func (s *Service) runClaimed(ctx context.Context, t target, p *Proposal, rec *Record, key []byte) (*Confirmation, error) {
	if !s.keys.verifies(key, p) { // changed between the read and the claim
		return nil, s.release(ctx, p, rec, mismatch(p.Tool))
	}
	pctx, stop := s.watchProgress(ctx, rec)
	var forwarding atomic.Pointer[func() bool]
	res, started, err := t.runProposed(pctx, s, p.Args, func() {
		end := confirmation.Started(pctx) // a person's channel: its cancellation counts from now on
		forwarding.Store(&end)
	})
	stop()
	if end := forwarding.Load(); end != nil {
		(*end)()
	}
	if !started {
		var e *tool.Error
		if !errors.As(err, &e) {
			e = &tool.Error{Code: tool.CodeRefused, Tool: p.Tool, Message: "the confirmed run did not start; nothing was run", Cause: err}
		}
		return nil, s.release(ctx, p, rec, e)
	}
	rec.Duration = s.since(rec.Time)
	rec.Outcome, rec.Code, rec.Error = outcomeOf(err), tool.CodeOf(err), ""
	if err != nil {
		rec.Error = res.Text()
	}
	rec.Result, rec.Structured = res.Content, res.Structured
	state := StateDone
	if rec.Outcome == OutcomeUnknown {
		state = StateUnknown
	}
	if serr := s.writeSettle(ctx, p.ID, state, rec); serr != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "call service: settle a proposal (it reads as outcome unknown)", slog.String("tool", p.Tool), slog.String("error", serr.Error()))
	}
	s.observed(ctx, rec)
	p.State = state
	return &Confirmation{Proposal: p, Result: res}, err
}

// release undoes the claim of p, whose run did not start for the reason
// e gives: the proposal is pending again, and the claim's record, rec,
// ends refused (nothing was run). It returns e, saying so.
func (s *Service) release(ctx context.Context, p *Proposal, rec *Record, e *tool.Error) error {
	if !strings.Contains(e.Message, "pending") && !strings.Contains(e.Message, "unchanged") {
		e2 := *e
		e2.Message += " (the proposal is still pending: it may be confirmed again)"
		e = &e2
	}
	rec.Outcome, rec.Code, rec.Error, rec.Result, rec.Structured = OutcomeRefused, e.Code, e.Message, nil, false
	rec.Duration = s.since(rec.Time)
	if err := writeEnd(ctx, nil, func(ctx context.Context) error { return s.store.Release(ctx, p.ID, rec) }); err != nil {
		// The proposal stays running, and reads as outcome unknown: never
		// as run when it was not.
		s.log.LogAttrs(ctx, slog.LevelError, "call service: release a claimed proposal that did not run (it reads as outcome unknown)",
			slog.String("tool", p.Tool), slog.String("error", err.Error()))
	}
	s.observed(ctx, rec)
	return e
}

// decidable returns the proposal id when who may decide it; otherwise
// the answer for an unknown proposal.
func (s *Service) decidable(ctx context.Context, id string, who tool.Principal, rec *Record) (*Proposal, *tool.Error) {
	unknown := &tool.Error{Code: tool.CodeUnknownProposal, Message: "no such proposal"}
	if proposalid.Valid(id) {
		unknown.Message = "no proposal " + id + " is open to you"
	}
	if id == "" || who.ID == "" {
		return nil, unknown
	}
	p, err := s.store.Proposal(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, unknown
	case err != nil:
		s.log.LogAttrs(ctx, slog.LevelError, "call service: read a proposal", slog.String("error", err.Error()))
		return nil, &tool.Error{Code: tool.CodeRefused, Message: "the proposal could not be read; nothing was run, try again later", Cause: err}
	}
	if !s.policy.MayConfirm(ctx, who, p) {
		rec.Tool = p.Tool
		unknown.Cause = errors.New("the policy does not let this principal decide the proposal")
		return nil, unknown
	}
	return p, nil
}

// enterProposal returns the proposal id when who may decide it, once no
// other confirmation or rejection of it in this process is under way (so
// that it reads the outcome of a run in progress here, not "unknown"),
// holding it until release is called.
func (s *Service) enterProposal(ctx context.Context, id string, who tool.Principal, rec *Record) (p *Proposal, release func(), e *tool.Error) {
	p, e = s.decidable(ctx, id, who, rec)
	if e != nil {
		return nil, nil, e
	}
	release, err := s.waits.enter(ctx, "proposal\x00"+p.ID)
	if err != nil {
		return nil, nil, waitCancelled(p.Tool, err)
	}
	cur, err := s.store.Proposal(ctx, p.ID)
	if err != nil {
		release()
		s.log.LogAttrs(ctx, slog.LevelError, "call service: read a proposal", slog.String("error", err.Error()))
		return nil, nil, &tool.Error{Code: tool.CodeRefused, Tool: p.Tool, Message: "the proposal could not be read; nothing was run, try again later", Cause: err}
	}
	return cur, release, nil
}

// refused records a confirmation or rejection refused before anything
// ran and returns its error.
func (s *Service) refused(ctx context.Context, rec *Record, e *tool.Error) error {
	rec.Event, rec.Outcome, rec.Code, rec.Error = EventRefusal, OutcomeRefused, e.Code, e.Message
	rec.Duration = s.since(rec.Time)
	s.append(ctx, rec)
	return e
}

// expire closes a pending proposal past its expiry, recording the expiry,
// and returns the refusal of the confirmation that found it.
func (s *Service) expire(ctx context.Context, p *Proposal, rec *Record) error {
	e := &tool.Error{Code: tool.CodeProposalExpired, Tool: p.Tool, Message: "proposal " + p.ID + " expired at " + p.Expires.UTC().Format(time.RFC3339) + "; nothing was run"}
	exp := *rec
	exp.ID, exp.Event, exp.Outcome, exp.Code, exp.Error, exp.Args = 0, EventExpiry, OutcomeOK, 0, "", nil
	wctx := detached(ctx)
	_, err := s.store.Retire(wctx, p.ID, StateExpired, &exp)
	wctx.close()
	if err == nil {
		s.observed(ctx, &exp)
	}
	return s.refused(ctx, rec, e)
}

// decided answers a confirmation of a proposal that is no longer pending.
func (s *Service) decided(ctx context.Context, p *Proposal, rec *Record) (*Confirmation, error) {
	if p.State == StateRunning {
		// Another instance may be running it: wait for it to settle.
		poll(ctx, s.awaitFor(p.Tool), func() bool {
			cur, err := s.store.Proposal(ctx, p.ID)
			if err == nil {
				p = cur
			}
			return p.State != StateRunning
		})
	}
	var e *tool.Error
	switch p.State {
	case StateRejected:
		e = &tool.Error{Code: tool.CodeProposalRejected, Tool: p.Tool, Message: "proposal " + p.ID + " was rejected; nothing was run"}
	case StateExpired:
		e = &tool.Error{Code: tool.CodeProposalExpired, Tool: p.Tool, Message: "proposal " + p.ID + " expired; nothing was run"}
	case StateRunning, StateUnknown:
		e = &tool.Error{Code: tool.CodeOutcomeUnknown, Tool: p.Tool, Message: "proposal " + p.ID + " was confirmed and its run did not finish: its outcome is unknown, and it is not run again"}
	case StatePending: // another instance's claim was released: its run never started
		e = &tool.Error{Code: tool.CodeRefused, Tool: p.Tool, Message: "proposal " + p.ID + " is pending again: a confirmation under way did not start its run; nothing was run, try again"}
	case StateDone:
		e = &tool.Error{Code: tool.CodeAlreadyConfirmed, Tool: p.Tool, Message: "proposal " + p.ID + " was already confirmed and ran; it is not run again"}
	default:
		e = &tool.Error{Code: tool.CodeRefused, Tool: p.Tool, Message: "proposal " + p.ID + " cannot be confirmed now"}
	}
	err := s.refused(ctx, rec, e)
	if p.State != StateDone {
		return nil, err
	}
	c := &Confirmation{Proposal: p, Repeat: true}
	if recs, qerr := s.store.Records(ctx, Query{Proposal: p.ID}); qerr == nil {
		for i := range recs {
			if r := &recs[i]; r.Event == EventConfirmation && r.Outcome != OutcomeStarted {
				c.Result = tool.Result{Content: r.Result, Structured: r.Structured, IsError: r.Code != 0}
			}
		}
	}
	return c, err
}

// Reject closes the proposal id for good: it will never run. who must be
// allowed by the policy to decide it (the proposer, by default: then it
// is a cancellation); anyone else is answered as for an unknown ID. A
// proposal that is no longer pending is refused, as Confirm refuses it.
func (s *Service) Reject(ctx context.Context, id string, who tool.Principal) error {
	rec := Record{Time: s.now(), Principal: recordedID(who.ID), Event: EventRejection, Proposal: recordedName(id)}
	if e := tooLong("", who.ID, "", ""); e != nil {
		return s.refused(ctx, &rec, e)
	}
	p, release, e := s.enterProposal(ctx, id, who, &rec)
	if e != nil {
		return s.refused(ctx, &rec, e)
	}
	defer release()
	rec.Tool, rec.Conversation, rec.Turn, rec.CallID = p.Tool, p.Conversation, p.Turn, p.CallID
	if t := s.resolve(ctx, p.Tool); t != nil {
		rec.Kind = t.spec().Kind
	}
	rec.Outcome = OutcomeOK
	wctx := detached(ctx)
	closed, err := s.store.Retire(wctx, p.ID, StateRejected, &rec)
	wctx.close()
	switch {
	case errors.Is(err, ErrNotPending):
		rec.ID, rec.Event = 0, EventRejection
		if closed.State == StatePending {
			return s.expire(ctx, closed, &rec)
		}
		_, derr := s.decided(ctx, closed, &rec)
		return derr
	case err != nil:
		s.log.LogAttrs(ctx, slog.LevelError, "call service: reject a proposal", slog.String("error", err.Error()))
		return s.refused(ctx, &rec, &tool.Error{Code: tool.CodeRefused, Tool: p.Tool, Message: "the rejection could not be recorded; try again later", Cause: err})
	}
	s.observed(ctx, &rec)
	return nil
}

// Expire closes every pending proposal whose expiry has passed, recording
// an expiry for each, and returns how many it closed. Expiry is decided
// when a proposal is confirmed, so calling Expire is never needed for
// correctness: it is for a record that shows expiries when they happen.
func (s *Service) Expire(ctx context.Context) (int, error) {
	now, n := s.now(), 0
	for {
		ps, err := s.store.Proposals(ctx, ProposalQuery{State: StatePending})
		if err != nil {
			return n, err
		}
		closed, err := s.expireAll(ctx, ps, now)
		n += closed
		if err != nil || closed == 0 || len(ps) < DefaultQueryLimit {
			return n, err
		}
		// A full page closed something: the next page may hold more.
	}
}

// expireAll closes the proposals of ps past their expiry at now.
func (s *Service) expireAll(ctx context.Context, ps []Proposal, now time.Time) (int, error) {
	n := 0
	for i := range ps {
		p := &ps[i]
		if now.Before(p.Expires) {
			continue
		}
		rec := Record{Time: now, Event: EventExpiry, Outcome: OutcomeOK, Tool: p.Tool, Conversation: p.Conversation,
			Turn: p.Turn, CallID: p.CallID, Principal: p.Principal, Proposal: p.ID}
		if _, err := s.store.Retire(ctx, p.ID, StateExpired, &rec); err == nil {
			n++
			s.observed(ctx, &rec)
		} else if !errors.Is(err, ErrNotPending) {
			return n, err
		}
	}
	return n, nil
}

// Proposal returns the proposal id when who may decide it, as Confirm
// would see it; anyone else gets CodeUnknownProposal. Nothing is recorded.
func (s *Service) Proposal(ctx context.Context, id string, who tool.Principal) (*Proposal, error) {
	var rec Record
	p, e := s.decidable(ctx, id, who, &rec)
	if e != nil {
		return nil, e
	}
	return p, nil
}

// Proposals returns the proposals q selects, from the store.
func (s *Service) Proposals(ctx context.Context, q ProposalQuery) ([]Proposal, error) {
	return s.store.Proposals(ctx, q)
}

// Records returns the records q selects: oldest first, or newest first
// with q.Newest (see Store.Records).
func (s *Service) Records(ctx context.Context, q Query) ([]Record, error) {
	return s.store.Records(ctx, q)
}

// Purge deletes the records older than age, the proposals and console
// sessions that expired more than age ago and the tasks past their TTL,
// and returns how many rows it deleted. A call whose
// record is purged is no longer deduplicated by its call ID.
func (s *Service) Purge(ctx context.Context, age time.Duration) (int, error) {
	n, err := s.store.Purge(ctx, s.now().Add(-age))
	if err != nil {
		return n, err
	}
	m, err := s.store.PurgeTasks(ctx, s.now()) // tasks past their TTL
	return n + m, err
}
