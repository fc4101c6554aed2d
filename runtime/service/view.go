package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/proposalid"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// ProposalView is a proposal as a principal may see it: what a person is
// shown before deciding it (a console, an MCP elicitation). Its arguments
// are in their logged form, as the record keeps them (the tool's LogArgs
// form, or secret members replaced by "[secret]" and long strings cut),
// never as the tool runs with them.
type ProposalView struct {
	// ID is the proposal's ID.
	ID string
	// Principal is the ID of the principal who proposed it.
	Principal string
	// Conversation, Turn and CallID are the proposing call's, if any.
	Conversation, Turn, CallID string
	// Tool is the propose tool's name.
	Tool string
	// Summary says in a line what confirming does.
	Summary string
	// Args are the arguments in their logged form, JSON; nil when the
	// tool is no longer served and no record of the proposal keeps them
	// (its secrets could not be told apart).
	Args []byte
	// Digest is the proposal's digest, for a host that binds a decision
	// to the proposal it showed (runtime/mcpserver's requestState). It is
	// a hash of the arguments, secrets included: not for display.
	Digest string
	// Created and Expires bound when it may be confirmed.
	Created, Expires time.Time
	// State is where it stands; a pending proposal past its expiry reads
	// as StateExpired (the store closes it at its next confirmation, or
	// at Expire).
	State State
	// DecidedBy is the principal who confirmed or rejected it.
	DecidedBy string
	// Decided is when it was confirmed, rejected or found expired.
	Decided time.Time
	// Decidable is set when the principal may confirm or reject it (the
	// Policy's MayConfirm): false for one's own proposal that only
	// another may confirm (Rules.OthersOnly).
	Decidable bool
}

// ViewProposal returns the proposal id as who may see it: when who made
// it or may decide it (the Policy's MayConfirm). Anyone else gets
// CodeUnknownProposal, as Confirm answers them, so that an ID reveals
// nothing of a proposal that is not theirs. Nothing is recorded.
func (s *Service) ViewProposal(ctx context.Context, id string, who tool.Principal) (*ProposalView, error) {
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
		return nil, fmt.Errorf("view proposal: %w", err)
	}
	v, ok := s.view(ctx, p, who)
	if !ok {
		return nil, unknown
	}
	return v, nil
}

// ViewProposals returns the proposals q selects that who may see (see
// ViewProposal), oldest first. q.Limit caps the proposals read from the
// store (0: DefaultQueryLimit) before those who may not see are left out.
func (s *Service) ViewProposals(ctx context.Context, who tool.Principal, q ProposalQuery) ([]ProposalView, error) {
	if who.ID == "" {
		return nil, nil
	}
	ps, err := s.store.Proposals(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("view proposals: %w", err)
	}
	var out []ProposalView
	for i := range ps {
		if v, ok := s.view(ctx, &ps[i], who); ok {
			out = append(out, *v)
		}
	}
	return out, nil
}

// view returns p as who may see it, or false when who neither made it nor
// may decide it.
func (s *Service) view(ctx context.Context, p *Proposal, who tool.Principal) (*ProposalView, bool) {
	decidable := s.policy.MayConfirm(ctx, who, p)
	if !decidable && (who.ID == "" || who.ID != p.Principal) {
		return nil, false
	}
	v := &ProposalView{
		ID: p.ID, Principal: p.Principal, Conversation: p.Conversation, Turn: p.Turn, CallID: p.CallID,
		Tool: p.Tool, Summary: p.Summary, Digest: p.Digest, Created: p.Created, Expires: p.Expires,
		State: p.State, DecidedBy: p.DecidedBy, Decided: p.Decided, Decidable: decidable,
	}
	if v.State == StatePending && !s.now().Before(p.Expires) {
		v.State = StateExpired
	}
	if t := s.resolve(ctx, p.Tool); t != nil {
		v.Args = t.logForm(ctx, s, p.Args, false)
	} else if recs, err := s.store.Records(ctx, Query{Proposal: p.ID, Limit: 1}); err == nil && len(recs) == 1 && recs[0].Event == EventProposal {
		// The tool is gone (a dynamic one): its proposal's record kept
		// the logged form.
		v.Args = recs[0].Args
	}
	return v, true
}
