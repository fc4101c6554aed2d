package service

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// anonymous is the Invocation of a call whose context carries none.
var anonymous = &tool.Invocation{}

// Call runs the named tool with JSON arguments for the principal of ctx's
// Invocation, under the policy, and records it: Call of tool.Caller.
//
// Before anything runs, a call is refused, and recorded, when the tool is
// not offered to the principal (an unknown name, not allowed, a
// permission missing, declined by the tool's Offered method, an empty
// name, a tool that is not //tool:readonly when the context is marked
// read-only by tool.WithReadOnly: all answered as the registry answers an
// unknown tool, naming only offered tools), when the context carries no
// principal, when the kill
// switch is on, when the principal's rate limit or the turn's cap is
// reached, and when the record cannot be written (unless FailOpen).
//
// A read, display or action tool then runs, recorded as started before
// and finished after. A propose tool runs nothing: its arguments are
// validated and a Proposal stored; the Result holds the proposal's ID and
// summary, for the model, and Confirm runs it.
//
// With a call ID in the Invocation, a call repeated with the same
// principal, conversation and call ID is answered with the recorded
// outcome instead of running again, when it is the same call (the same
// tool, the same arguments); another call with that ID is refused
// (CodeCallIDReused). Without a call ID there is no deduplication. A
// principal ID, conversation or call ID longer than MaxIDLen is refused.
// Failures are reported as the registry reports them: a *tool.Error, and
// a Result holding its Message.
func (s *Service) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	return s.call(ctx, nil, name, args)
}

// AppendCall is Call with the Result's Content appended to dst, as
// tool.Registry.AppendCall does.
func (s *Service) AppendCall(ctx context.Context, dst []byte, name string, args []byte) (tool.Result, error) {
	return s.call(ctx, dst, name, args)
}

// Propose stores a proposal of the named propose tool with the arguments,
// for the principal of ctx's Invocation, as a model's call of the tool
// does, and returns it: for a host that proposes on a person's behalf. It
// is refused, and recorded, as Call is; a tool of another kind is
// refused with CodeNotProposal (it is not a write tool that waits for a
// person) and nothing runs.
func (s *Service) Propose(ctx context.Context, name string, args []byte) (*Proposal, error) {
	ctx, c := s.begin(ctx, name)
	t := s.resolve(ctx, name)
	if t == nil || !c.offers(ctx, s, t) {
		_, err := s.refuseUnoffered(ctx, c, t, nil, name)
		return nil, err
	}
	spec := t.spec()
	e := s.admitCall(ctx, c, spec)
	if e == nil && spec.Kind != tool.KindPropose {
		e = &tool.Error{Code: tool.CodeNotProposal, Tool: spec.Name,
			Message: "tool " + spec.Name + " is not a write tool: it makes no proposal (its kind is " + spec.Kind.String() + "); nothing was run"}
	}
	if e == nil {
		e = s.digestArgs(ctx, c, spec.Name, args)
	}
	if e != nil {
		_, err := s.refuse(ctx, c.rec, nil, e)
		return nil, err
	}
	var p *Proposal
	if _, err := s.propose(ctx, c, t, nil, args, &p); err != nil {
		return nil, err
	}
	return p, nil
}

// CallDynamic runs d, a tool known only at run time that the service
// does not serve itself (a palette's request_tools or request_skill),
// for the principal of ctx's Invocation, as Call runs a tool: refused
// under the read-only mark when d is not //tool:readonly, without a
// principal or one lacking d's permissions, by the kill switch, the rate
// limit and the turn's cap, and recorded, started and finished. The
// Policy is not asked: the host that gives an agent d decides that it is
// offered, and what d admits is judged by the policy as the service offers
// it. A propose tool is refused (CodeNotProposal): a proposal must be
// confirmable by name, and d is not served by name. It is one of the
// methods that make the service a tool.Recorder.
func (s *Service) CallDynamic(ctx context.Context, d tool.Dynamic, args []byte) (tool.Result, error) {
	if d == nil || d.Spec() == nil {
		return s.call(ctx, nil, "", args) // refused: no tool has no name
	}
	t := &dynamicTool{sp: d.Spec(), d: d}
	ctx, c := s.begin(ctx, t.sp.Name)
	if c.inv.Principal.ID == "" || !t.granted(c.inv, c.ro) {
		return s.refuseUnoffered(ctx, c, t, nil, t.sp.Name)
	}
	e := s.admitCall(ctx, c, t.sp)
	if e == nil && t.sp.Kind == tool.KindPropose {
		e = &tool.Error{Code: tool.CodeNotProposal, Tool: t.sp.Name,
			Message: "tool " + t.sp.Name + " is a write tool the service does not serve by name: it cannot be proposed; nothing was run"}
	}
	if e == nil {
		e = s.digestArgs(ctx, c, t.sp.Name, args)
	}
	if e != nil {
		return s.refuse(ctx, c.rec, nil, e)
	}
	return s.run(ctx, c, t, nil, args)
}

var _ tool.Recorder = (*Service)(nil)

// RecordRefusal records a call a layer in front of the service refused
// before it reached the service (a palette refusing a tool outside it),
// with e's code and message, for the principal of ctx's Invocation, as
// the service records its own refusals (tool.Recorder). Nothing runs.
func (s *Service) RecordRefusal(ctx context.Context, name string, e *tool.Error) {
	if e == nil {
		return
	}
	ctx, c := s.begin(ctx, name)
	if t := s.resolve(ctx, name); t != nil {
		c.rec.Kind = t.spec().Kind
	}
	_, _ = s.refuse(ctx, c.rec, nil, e)
}

// call is Call and AppendCall: a call of the named tool, which runs, or,
// for a propose tool, is proposed.
func (s *Service) call(ctx context.Context, dst []byte, name string, args []byte) (tool.Result, error) {
	ctx, c := s.begin(ctx, name)
	t := s.resolve(ctx, name)
	if t == nil || !c.offers(ctx, s, t) {
		return s.refuseUnoffered(ctx, c, t, dst, name)
	}
	spec := t.spec()
	e := s.admitCall(ctx, c, spec)
	if e == nil {
		e = s.digestArgs(ctx, c, spec.Name, args)
	}
	if e != nil {
		return s.refuse(ctx, c.rec, dst, e)
	}
	if spec.Kind == tool.KindPropose {
		return s.propose(ctx, c, t, dst, args, nil)
	}
	return s.run(ctx, c, t, dst, args)
}

// inFlight is a call on its way through the service: who makes it, the
// read-only mark and its record.
type inFlight struct {
	inv *tool.Invocation
	ro  bool // tool.IsReadOnly, read before any hook saw the call
	rec *Record
	// w is the context of the writes of rec, opened for each; nil for the
	// memory store, written on the call's context.
	w *recordContext
}

// flight is what an inFlight points to, in one allocation.
type flight struct {
	rec Record
	w   recordContext
}

// begin opens a call of the named tool: the record of ctx's Invocation
// (or of no one) starting now, told to the Observer.
func (s *Service) begin(ctx context.Context, name string) (context.Context, inFlight) {
	start := s.now()
	ro := tool.IsReadOnly(ctx)
	inv, ok := tool.InvocationFrom(ctx)
	if !ok {
		inv = anonymous
	}
	c := inFlight{inv: inv, ro: ro}
	if s.mem != nil {
		c.rec = s.record()
	} else {
		f := &flight{}
		c.rec, c.w = &f.rec, &f.w
	}
	*c.rec = callRecord(start, inv, name)
	if s.obs != nil {
		ctx = s.obs.Start(ctx, c.rec.Tool)
	}
	return ctx, c
}

// offers reports whether t, a resolved tool, is offered to the call's
// principal.
func (c inFlight) offers(ctx context.Context, s *Service, t target) bool {
	return c.inv.Principal.ID != "" && t.offered(ctx, s, c.inv, c.ro)
}

// refuseUnoffered refuses a call of a tool that is not offered, or not
// found (t nil), as the registry answers an unknown tool.
func (s *Service) refuseUnoffered(ctx context.Context, c inFlight, t target, dst []byte, name string) (tool.Result, error) {
	offer := []*tool.Spec(nil)
	if c.inv.Principal.ID != "" {
		offer = s.offer(ctx, c.inv, nil, c.ro)
	}
	if t != nil {
		c.rec.Kind = t.spec().Kind
	}
	return s.refuse(ctx, c.rec, dst, toolerr.UnknownTool(offer, name))
}

// admitCall returns the refusal of a call of an offered tool before
// anything runs: an ID too long, or a limit (admit); nil when it goes on.
func (s *Service) admitCall(ctx context.Context, c inFlight, spec *tool.Spec) *tool.Error {
	c.rec.Kind = spec.Kind
	inv := c.inv
	if e := tooLong(spec.Name, inv.Principal.ID, inv.Conversation, inv.CallID); e != nil {
		return e
	}
	if e := s.admit(ctx, inv); e != nil {
		e.Tool = spec.Name
		return e
	}
	return nil
}

// digestArgs keeps the arguments' digest in the record of a call with a
// call ID, against which a repeat is compared; it returns the refusal of
// a call whose digest key cannot be read.
func (s *Service) digestArgs(ctx context.Context, c inFlight, name string, args []byte) *tool.Error {
	if c.rec.CallID == "" {
		return nil
	}
	key, err := s.key(ctx)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "call service: read the digest key", slog.String("tool", name), slog.String("error", err.Error()))
		return keyFailure(name, err)
	}
	c.rec.ArgsDigest = argsDigest(key, name, args)
	return nil
}

// run runs an admitted call of t, a tool that is not a propose tool,
// recorded as started before and finished after; a repeat of a recorded
// call ID is answered from its record instead.
func (s *Service) run(ctx context.Context, c inFlight, t target, dst, args []byte) (tool.Result, error) {
	rec, name := c.rec, t.spec().Name
	// The arguments' form may be left to the memory store (startRaw) when
	// no Observer is to see the record: until the start is written, when
	// ownArgs makes it if the store did not take them.
	rec.Args = t.logForm(ctx, s, args, s.mem != nil && s.obs == nil)
	rec.Outcome = OutcomeStarted
	if rec.CallID != "" {
		release, err := s.waits.enter(ctx, waitKey(rec))
		if err != nil {
			s.ownArgs(rec, args)
			return s.refuse(ctx, rec, dst, waitCancelled(name, err))
		}
		defer release()
	}
	// The start is written even when the caller is gone: the run then
	// reports the cancellation, and its end is recorded.
	prior, err := s.start(ctx, c.w, rec, args)
	s.ownArgs(rec, args)
	switch {
	case err != nil && !s.failOpen:
		s.log.LogAttrs(ctx, slog.LevelError, "call service: record the start of a call", slog.String("tool", name), slog.String("error", err.Error()))
		rec.ID = 0
		return s.refuse(ctx, rec, dst, unrecorded(name, err))
	case err != nil:
		s.log.LogAttrs(ctx, slog.LevelError, "call service: record the start of a call (failing open: it runs)", slog.String("tool", name), slog.String("error", err.Error()))
	case prior != nil:
		if e := s.reused(ctx, rec, prior, args); e != nil {
			return s.refuse(ctx, rec, dst, e)
		}
		return s.replay(ctx, rec, prior, dst)
	}
	pctx, stop := s.watchProgress(ctx, rec)
	res, callErr := t.run(pctx, s, dst, args)
	stop()
	s.finish(ctx, c.w, rec, res, callErr, rec.CallID != "")
	s.recycle(rec)
	return res, callErr
}

// record returns a Record for a call on the memory store: one a call
// recycled, when there is one.
func (s *Service) record() *Record {
	if r, ok := s.recs.Get().(*Record); ok {
		return r
	}
	return &Record{}
}

// recycle keeps rec, the record of a call that has ended, for another
// call, when no one has a pointer to it: the memory store copies the
// records it is given, and there is no Observer to be given it. Its
// fields are all set again (begin) before it is used.
func (s *Service) recycle(rec *Record) {
	if s.mem != nil && s.obs == nil {
		s.recs.Put(rec)
	}
}

// start writes rec, the start of a run of args, on w, opened for it; to
// the memory store, which never looks at its context, without one (w is
// nil), and with raw arguments (logForm) by startRaw.
func (s *Service) start(ctx context.Context, w *recordContext, rec *Record, args []byte) (*Record, error) {
	switch {
	case s.mem != nil && isRaw(rec, args):
		return s.mem.startRaw(rec, s.maxStr)
	case s.mem != nil:
		return s.mem.Start(ctx, rec)
	}
	w.open(ctx)
	defer w.close()
	return s.store.Start(w, rec)
}

// callRecord is the record of a call of the named tool by inv, started at
// t.
func callRecord(t time.Time, inv *tool.Invocation, name string) Record {
	return Record{
		Time: t, Principal: recordedID(inv.Principal.ID), Conversation: recordedID(inv.Conversation),
		Turn: inv.Turn, CallID: recordedID(inv.CallID), Agent: inv.Agent.Name, Tool: recordedName(name), Event: EventCall,
	}
}

// MaxIDLen is the longest principal ID, conversation and call ID a call
// (or a confirmation) may carry, in bytes. A longer one is refused before
// anything runs, and recorded cut to MaxIDLen: every store indexes them
// (a PostgreSQL index entry holds about 2.7 KB), and none may fail to
// record a call because of what its caller sent.
const MaxIDLen = 256

// recordedID is a principal ID, conversation or call ID as a record
// keeps it: cut to MaxIDLen bytes.
func recordedID(s string) string { return s[:min(len(s), MaxIDLen)] }

// tooLong returns the refusal of a call whose principal ID, conversation
// or call ID is longer than MaxIDLen, or nil.
func tooLong(name, principal, conversation, callID string) *tool.Error {
	for _, f := range [...]struct{ what, s string }{{"principal ID", principal}, {"conversation", conversation}, {"call ID", callID}} {
		if len(f.s) > MaxIDLen {
			return &tool.Error{Code: tool.CodeRefused, Tool: name,
				Message: "the call's " + f.what + " is longer than " + strconv.Itoa(MaxIDLen) + " bytes; nothing was run"}
		}
	}
	return nil
}

// admit applies the limits that refuse a call of an offered tool before
// anything runs: the kill switch, the rate limit and the turn's cap.
func (s *Service) admit(ctx context.Context, inv *tool.Invocation) *tool.Error {
	if s.isHalted(ctx) {
		return &tool.Error{Code: tool.CodeRefused, Message: "tool calls are halted by the operator; nothing was run"}
	}
	if s.limiter != nil {
		ok, err := s.limiter.Allow(ctx, inv.Principal.ID)
		if err != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "call service: check the rate limit", slog.String("error", err.Error()))
			return &tool.Error{Code: tool.CodeRefused, Message: "the call could not be checked against its rate limit; nothing was run, try again later", Cause: err}
		}
		if !ok {
			return &tool.Error{Code: tool.CodeRefused, Message: "too many tool calls; nothing was run, try again later"}
		}
	}
	if !s.countTurn(ctx) {
		return &tool.Error{Code: tool.CodeRefused, Message: "too many tool calls in this turn; nothing was run"}
	}
	return nil
}

// unrecorded is the refusal of a call whose record could not be written.
func unrecorded(name string, err error) *tool.Error {
	return &tool.Error{Code: tool.CodeRefused, Tool: name, Message: "the call could not be recorded; nothing was run, try again later", Cause: err}
}

// refuse records a call refused before anything ran and returns its
// failure.
func (s *Service) refuse(ctx context.Context, rec *Record, dst []byte, e *tool.Error) (tool.Result, error) {
	rec.Event, rec.Outcome, rec.Code, rec.Error = EventRefusal, OutcomeRefused, e.Code, e.Message
	rec.Duration = s.since(rec.Time)
	s.append(ctx, rec)
	return tool.Result{Content: append(dst, e.Message...), IsError: true}, e
}

// append writes rec, an event that ran nothing, logging a failure; it is
// written even when the caller is gone.
func (s *Service) append(ctx context.Context, rec *Record) {
	wctx := detached(ctx)
	err := s.store.Append(wctx, rec)
	wctx.close()
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "call service: record an event", slog.String("event", rec.Event.String()),
			slog.String("tool", rec.Tool), slog.String("error", err.Error()))
	}
	s.observed(ctx, rec)
}

// observed tells the Observer a record is written.
func (s *Service) observed(ctx context.Context, rec *Record) {
	if s.obs != nil {
		s.obs.End(ctx, rec)
	}
}

// finish records the end of a run, written on w; keep says whether the
// result is kept for a repeat.
func (s *Service) finish(ctx context.Context, w *recordContext, rec *Record, res tool.Result, err error, keep bool) {
	rec.Duration = s.since(rec.Time)
	rec.Outcome, rec.Code, rec.Error = outcomeOf(err), tool.CodeOf(err), ""
	if err != nil {
		rec.Error = res.Text()
		var te *tool.Error
		if errors.As(err, &te) && te.Cause != nil && rec.Outcome != OutcomeRefused {
			s.log.LogAttrs(ctx, slog.LevelWarn, "call service: tool call failed", slog.String("tool", rec.Tool),
				slog.String("code", te.Code.String()), slog.String("cause", te.Cause.Error()))
		}
	}
	if keep {
		rec.Result, rec.Structured = append([]byte(nil), res.Content...), res.Structured
	}
	if rec.ID != 0 {
		if ferr := s.writeFinish(ctx, w, rec); ferr != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "call service: record the end of a call", slog.String("tool", rec.Tool), slog.String("error", ferr.Error()))
		}
	}
	s.observed(ctx, rec)
}

// outcomeOf classifies a run's error.
func outcomeOf(err error) Outcome {
	switch {
	case err == nil:
		return OutcomeOK
	case errors.Is(err, tool.ErrAbandoned):
		return OutcomeUnknown
	case errors.Is(err, tool.ErrNotRun):
		return OutcomeRefused
	case tool.CodeOf(err) == tool.CodeCancelled:
		return OutcomeCancelled
	}
	return OutcomeFailed
}

// reused returns the refusal of rec, a call with args whose call ID prior
// holds, when prior is another call: of another tool, or with other
// arguments, compared as JSON values (argsDigest hashes their canonical
// form). A prior record without an argument digest (written before they
// were kept) is compared by its tool alone; one made under an old key
// (Options.OldKeys) is compared under that key, and one written before the
// canonical form (legacyArgsDigest) in its own form.
func (s *Service) reused(ctx context.Context, rec, prior *Record, args []byte) *tool.Error {
	if prior.Tool == rec.Tool && (prior.ArgsDigest == "" || prior.ArgsDigest == rec.ArgsDigest || s.priorArgsDigest(ctx, prior, args)) {
		return nil
	}
	return &tool.Error{Code: tool.CodeCallIDReused, Tool: rec.Tool,
		Message: "this call ID was already used by a call of another tool or with other arguments; nothing was run: give each call a call ID of its own"}
}

// priorArgsDigest reports whether prior's argument digest is that of args
// made otherwise than rec's: under an old key (Options.OldKeys), or in the
// form before the canonical one (legacyArgsDigest) under any of the
// service's keys.
func (s *Service) priorArgsDigest(ctx context.Context, prior *Record, args []byte) bool {
	same := func(d string) bool { return subtle.ConstantTimeCompare([]byte(d), []byte(prior.ArgsDigest)) == 1 }
	if key, err := s.key(ctx); err == nil && same(legacyArgsDigest(key, prior.Tool, args)) {
		return true
	}
	for _, k := range s.keys.old {
		if same(argsDigest(k, prior.Tool, args)) || same(legacyArgsDigest(k, prior.Tool, args)) {
			return true
		}
	}
	return false
}

// replay answers a call whose call ID was already recorded, from the
// record, and records the repeat.
func (s *Service) replay(ctx context.Context, rec *Record, prior *Record, dst []byte) (tool.Result, error) {
	if prior.Outcome == OutcomeStarted {
		// Another instance may be running it: wait for it to finish.
		poll(ctx, s.awaitFor(prior.Tool), func() bool {
			recs, err := s.store.Records(ctx, Query{Principal: prior.Principal, Conversation: prior.Conversation, CallID: prior.CallID})
			for i := range recs {
				if err == nil && recs[i].ID == prior.ID {
					prior = &recs[i]
				}
			}
			return prior.Outcome != OutcomeStarted
		})
	}
	rec.Event = EventReplay
	res, err := recorded(rec.Tool, prior, dst)
	rec.Outcome, rec.Code, rec.Duration = prior.Outcome, tool.CodeOf(err), s.since(rec.Time)
	if err != nil {
		rec.Error = res.Text()
	}
	s.append(ctx, rec)
	return res, err
}

// recorded returns the answer a recorded run gives a repeat: its result,
// or its failure, or "outcome unknown" for a run that never finished.
func recorded(name string, prior *Record, dst []byte) (tool.Result, error) {
	switch prior.Outcome {
	case OutcomeOK:
		return tool.Result{Content: append(dst, prior.Result...), Structured: prior.Structured}, nil
	case OutcomeStarted, OutcomeUnknown:
		e := &tool.Error{Code: tool.CodeOutcomeUnknown, Tool: name,
			Message: "a call with this call ID started earlier and its outcome is unknown; it is not run again"}
		return tool.Result{Content: append(dst, e.Message...), IsError: true}, e
	}
	e := &tool.Error{Code: prior.Code, Tool: name, Message: prior.Error}
	if e.Code == 0 {
		e.Code = tool.CodeFailed
	}
	return tool.Result{Content: append(dst, prior.Result...), IsError: true}, e
}

// waitKey names a call ID's run among the waiters.
func waitKey(r *Record) string {
	return "call\x00" + r.Principal + "\x00" + r.Conversation + "\x00" + r.CallID
}

// recordedName is a tool name as a record keeps it: as given, cut to 128
// bytes.
func recordedName(name string) string {
	if len(name) > 128 {
		return name[:128]
	}
	return name
}
