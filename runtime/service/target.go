package service

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// target is a tool the service runs: a registry's, by its position in
// s.tools, or a dynamic one (Options.Dynamic, CallDynamic).
type target struct {
	spec *tool.Spec
	i    int          // position in s.tools; -1 for a dynamic tool
	dyn  tool.Dynamic // set when i < 0
}

// resolve returns the tool of that name: the registry's first, then the
// dynamic source's, available for ctx.
func (s *Service) resolve(ctx context.Context, name string) (target, bool) {
	if i := s.find(name); i >= 0 {
		return target{spec: s.tools[i], i: i}, true
	}
	if s.dyn != nil && name != "" {
		if d, ok := s.dyn.Lookup(ctx, name); ok {
			if spec := d.Spec(); spec != nil && spec.Name == name {
				return target{spec: spec, i: -1, dyn: d}, true
			}
		}
	}
	return target{i: -1}, false
}

// offeredTarget is offered for a resolved tool: not a mutating tool under
// the read-only mark (checked first), the principal holds its
// permissions, the policy allows it and, for a registry tool, its own
// Offered method agrees.
func (s *Service) offeredTarget(ctx context.Context, inv *tool.Invocation, t target, ro bool) bool {
	if t.i >= 0 {
		return s.offered(ctx, inv, t.i, ro)
	}
	if ro && !t.spec.ReadOnly {
		return false
	}
	return inv.Principal.HasAll(t.spec.Permissions) && s.policy.Allows(ctx, inv, t.spec)
}

// run runs a resolved tool, appending its content to dst. A dynamic tool
// runs under its Spec.Timeout, as the registry runs its own.
func (s *Service) run(ctx context.Context, dst []byte, t target, args []byte) (tool.Result, error) {
	if t.i >= 0 {
		return s.reg.AppendCall(ctx, dst, t.spec.Name, args)
	}
	if t.spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.spec.Timeout)
		defer cancel()
	}
	res, err := t.dyn.Call(ctx, args)
	err = dynamicFailure(t.spec.Name, err)
	if err != nil && len(res.Content) == 0 {
		if te := (*tool.Error)(nil); errors.As(err, &te) {
			res = tool.Result{Content: []byte(te.Message), IsError: true}
		}
	}
	if dst != nil {
		res.Content = append(dst, res.Content...)
	}
	return res, err
}

// dynamicFailure is the error of a dynamic tool's run as the registry
// reports its own: a *tool.Error, as the Dynamic returned it (it speaks
// for its tools as the registry does for its own: runtime/dynamic keeps a
// toolkit's reserved codes out), or, for an error of another type, a
// failure whose cause stays out of the message.
func dynamicFailure(name string, err error) error {
	if err == nil {
		return nil
	}
	var te *tool.Error
	if !errors.As(err, &te) {
		return &tool.Error{Code: tool.CodeFailed, Tool: name, Message: "tool " + name + " failed", Cause: err}
	}
	return err
}

// check validates a resolved tool's arguments without running it.
func (s *Service) check(ctx context.Context, t target, args []byte) error {
	if t.i >= 0 {
		return s.reg.Check(ctx, t.spec.Name, args)
	}
	return t.dyn.Check(ctx, args)
}

// runProposed runs a resolved propose tool with a confirmed proposal's
// arguments.
func (s *Service) runProposed(ctx context.Context, t target, args []byte) (tool.Result, error) {
	if t.i >= 0 {
		return registry.RunProposed(ctx, s.reg, t.spec.Name, args)
	}
	return s.run(ctx, nil, t, args)
}

// logFormOf is the logged form of a resolved tool's arguments.
func (s *Service) logFormOf(ctx context.Context, t target, args []byte) []byte {
	if t.i >= 0 {
		return s.logForm(ctx, t.i, args)
	}
	return appendLogForm(make([]byte, 0, len(args)+8), args, splitSecrets(t.spec.Secrets), s.maxStr)
}

// appendDynamicOffer appends to dst the dynamic tools offered to inv and
// sorts dst[from:], which holds the registry's offered tools, sorted, by
// name.
func (s *Service) appendDynamicOffer(ctx context.Context, inv *tool.Invocation, dst []*tool.Spec, from int, ro bool) []*tool.Spec {
	n := len(dst)
	dst = s.dyn.AppendTools(ctx, dst)
	kept := dst[:n]
	for _, spec := range dst[n:] {
		if spec == nil || s.find(spec.Name) >= 0 {
			continue // a Source never shadows the registry
		}
		if s.offeredTarget(ctx, inv, target{spec: spec, i: -1}, ro) {
			kept = append(kept, spec)
		}
	}
	clear(dst[len(kept):])
	if len(kept) > n && n > from {
		slices.SortFunc(kept[from:], func(a, b *tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	}
	return kept
}
