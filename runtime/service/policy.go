package service

import (
	"context"
	"slices"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Policy decides, per request, what a principal is offered and who may
// confirm a proposal. The service applies it on top of what no policy can
// lift: a tool's //tool:permission names must all be held, and a tool's
// own Offered method must agree. Implementations are safe for concurrent
// use; Rules is the usual one.
type Policy interface {
	// Allows reports whether the tool may be offered to inv's principal.
	// It is asked when the offer is built and again before every run.
	Allows(ctx context.Context, inv *tool.Invocation, spec *tool.Spec) bool
	// MayConfirm reports whether who may confirm or reject p. Anyone it
	// refuses is answered as for a proposal that does not exist.
	MayConfirm(ctx context.Context, who tool.Principal, p *Proposal) bool
}

// Rules is a Policy written as data: a tool is allowed when its name is
// in Tools or its group in Groups (both empty: any tool), and its kind is
// in Kinds (empty: any kind). A proposal may be confirmed by the
// principal who made it, unless OthersOnly, and by any principal holding
// ConfirmPermission, when it is set. The zero Rules allows every tool and
// lets a proposal be confirmed by its proposer only.
type Rules struct {
	// Tools are tool names to allow.
	Tools []string
	// Groups are tool groups (//tool:group) to allow.
	Groups []string
	// Kinds are the kinds to allow.
	Kinds []tool.Kind
	// ConfirmPermission is a permission whose holders may confirm any
	// principal's proposals.
	ConfirmPermission string
	// OthersOnly refuses a proposal's confirmation by its own proposer
	// (four eyes): only a holder of ConfirmPermission who did not propose
	// it may confirm it.
	OthersOnly bool
}

var _ Policy = (*Rules)(nil)

// Allows implements Policy.
func (r *Rules) Allows(_ context.Context, _ *tool.Invocation, spec *tool.Spec) bool {
	if len(r.Kinds) > 0 && !slices.Contains(r.Kinds, spec.Kind) {
		return false
	}
	if len(r.Tools) == 0 && len(r.Groups) == 0 {
		return true
	}
	return slices.Contains(r.Tools, spec.Name) || spec.Group != "" && slices.Contains(r.Groups, spec.Group)
}

// MayConfirm implements Policy.
func (r *Rules) MayConfirm(_ context.Context, who tool.Principal, p *Proposal) bool {
	if who.ID == "" {
		return false
	}
	own := who.ID == p.Principal
	if own && !r.OthersOnly {
		return true
	}
	return !own && r.ConfirmPermission != "" && who.Has(r.ConfirmPermission)
}
