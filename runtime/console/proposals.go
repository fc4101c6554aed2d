package console

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// proposalsData is the proposals page's: the proposals waiting for the
// person, or for another's decision on the person's behalf.
type proposalsData struct {
	Pending []service.ProposalView
}

// proposalData is a proposal's page.
type proposalData struct {
	P *service.ProposalView
	// Outcome is how it was decided; nil while it is pending.
	Outcome *outcome
	// Notice says what the person's last decision did (a fixed text).
	Notice string
}

// outcome is how a proposal was decided, from the record: its
// confirmation (and the run's outcome), rejection or expiry.
type outcome struct {
	// Event is "confirmation", "rejection" or "expiry".
	Event string
	// By is who decided.
	By string
	// Time is when.
	Time time.Time
	// Outcome is the run's: "ok", "failed", "unknown", "started" (still
	// running), "refused"; "ok" for a rejection or an expiry.
	Outcome string
	// Code is the failure's code, if any.
	Code string
	// Error is the message of the failure, if any.
	Error string
	// Result is what the run returned: text, or JSON when Structured.
	Result     []byte
	Structured bool
}

// notices are the fixed texts a decision's redirect may show, by key.
var notices = map[string]string{
	"ran":      "Confirmed: it ran.",
	"failed":   "Confirmed: it ran and failed.",
	"rejected": "Rejected: it will never run.",
	"decided":  "Nothing ran now: this proposal had already been decided.",
}

// pending returns the pending proposals who may see.
func (c *Console) pending(ctx context.Context, who tool.Principal) ([]service.ProposalView, error) {
	all, err := c.svc.ViewProposals(ctx, who, service.ProposalQuery{State: service.StatePending})
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, v := range all {
		if v.State == service.StatePending { // not past its expiry
			out = append(out, v)
		}
	}
	return out, nil
}

// proposalsPage serves the proposals waiting for the person.
func (c *Console) proposalsPage(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	ps, err := c.pending(as(r.Context(), who), who)
	if err != nil {
		c.failed(w, r, "read the proposals", err)
		return
	}
	c.render(w, r, http.StatusOK, "proposals", who, &proposalsData{Pending: ps})
}

// proposalPage serves one proposal and, once decided, its outcome.
func (c *Console) proposalPage(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	ctx := as(r.Context(), who)
	v, err := c.svc.ViewProposal(ctx, r.PathValue("id"), who)
	if err != nil {
		c.proposalError(w, r, err)
		return
	}
	d := &proposalData{P: v, Notice: notices[r.URL.Query().Get("done")]}
	if d.Outcome, err = c.outcome(ctx, v); err != nil {
		c.failed(w, r, "read a proposal's record", err)
		return
	}
	c.render(w, r, http.StatusOK, "proposal", who, d)
}

// outcome returns how v was decided, from the record; nil while pending.
func (c *Console) outcome(ctx context.Context, v *service.ProposalView) (*outcome, error) {
	if v.State == service.StatePending {
		return nil, nil
	}
	recs, err := c.svc.Records(ctx, service.Query{Proposal: v.ID})
	if err != nil {
		return nil, err
	}
	var out *outcome
	for i := range recs {
		r := &recs[i]
		switch r.Event {
		case service.EventConfirmation, service.EventRejection, service.EventExpiry:
		default:
			continue // the proposal itself, refusals, replays
		}
		o := &outcome{Event: r.Event.String(), By: r.Principal, Time: r.Time, Outcome: r.Outcome.String(), Error: r.Error}
		if r.Code != 0 {
			o.Code = r.Code.String()
		}
		if r.Event == service.EventConfirmation {
			o.Result, o.Structured = r.Result, r.Structured
		}
		out = o
	}
	return out, nil
}

// decision is the outcome of a person's decision.
type decision struct {
	// notice is the key in notices of what it did.
	notice string
	// err is the refusal, when nothing was decided now.
	err error
}

// decide confirms or rejects the proposal id for who through the
// service: at most once, with who's permissions checked again, its
// digest checked. It decides under ctx's values without its
// cancellation: the person's yes (or no) is carried out even when the
// request ends first (a tab closed, a proxy's timeout); the page then
// shows it from the record.
func (c *Console) decide(ctx context.Context, id string, who tool.Principal, confirm bool) decision {
	ctx = as(context.WithoutCancel(ctx), who)
	if !confirm {
		err := c.svc.Reject(ctx, id, who)
		if err == nil {
			return decision{notice: "rejected"}
		}
		if isDecided(err) {
			return decision{notice: "decided"}
		}
		return decision{err: err}
	}
	conf, err := c.svc.Confirm(ctx, id, who)
	switch {
	case err == nil:
		return decision{notice: "ran"}
	case conf != nil && !conf.Repeat:
		return decision{notice: "failed"} // it ran: the record says how
	case isDecided(err):
		return decision{notice: "decided"}
	}
	return decision{err: err}
}

// isDecided reports whether err refuses a decision because the proposal
// was already decided (or expired).
func isDecided(err error) bool {
	switch tool.CodeOf(err) {
	case tool.CodeAlreadyConfirmed, tool.CodeProposalRejected, tool.CodeProposalExpired, tool.CodeOutcomeUnknown:
		return true
	}
	return false
}

// decidePage serves a Confirm or Reject button's post: the proposal's page
// shows what happened.
func (c *Console) decidePage(confirm bool) handler {
	return func(w http.ResponseWriter, r *http.Request, who tool.Principal) {
		id := r.PathValue("id")
		d := c.decide(r.Context(), id, who, confirm)
		if d.err != nil {
			c.proposalError(w, r, d.err)
			return
		}
		http.Redirect(w, r, base(r)+"proposals/"+url.PathEscape(id)+"?done="+d.notice, http.StatusSeeOther)
	}
}

// statusOf is the HTTP status of a refused decision or lookup.
func statusOf(err error) int {
	switch tool.CodeOf(err) {
	case tool.CodeUnknownProposal:
		return http.StatusNotFound
	case tool.CodeAlreadyConfirmed, tool.CodeProposalRejected, tool.CodeProposalExpired, tool.CodeOutcomeUnknown:
		return http.StatusConflict
	case tool.CodeCancelled:
		return http.StatusServiceUnavailable
	case 0:
		return http.StatusInternalServerError
	}
	return http.StatusForbidden
}

// proposalError answers a refused lookup or decision: the service's
// message, which quotes nothing but identifiers, or a fixed text for a
// failure that is not a *tool.Error (logged).
func (c *Console) proposalError(w http.ResponseWriter, r *http.Request, err error) {
	var te *tool.Error
	if !errors.As(err, &te) {
		c.failed(w, r, "read a proposal", err)
		return
	}
	c.refuse(w, r, statusOf(err), te.Code.String(), te.Message)
}

// failed answers a failure of the store (logged, not shown).
func (c *Console) failed(w http.ResponseWriter, r *http.Request, what string, err error) {
	c.log.LogAttrs(r.Context(), slog.LevelError, "console: "+what, slog.String("error", err.Error()))
	c.refuse(w, r, http.StatusInternalServerError, "internal", "something went wrong on our side; try again later")
}
