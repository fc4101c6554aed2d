package service

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// target is a tool the service runs, of one of two kinds: a registry's
// (*registryTool) or one known only at run time (*dynamicTool). The call
// path (call.go, propose.go) asks it what differs between the kinds and
// nothing else.
type target interface {
	// spec is the tool's Spec.
	spec() *tool.Spec
	// offered reports whether the tool is offered to inv: not a mutating
	// tool under the read-only mark ro (checked first: no policy or tool
	// can lift it), the principal holds its permissions, the policy
	// allows it and, for a registry tool, its own Offered method agrees.
	offered(ctx context.Context, s *Service, inv *tool.Invocation, ro bool) bool
	// run runs the tool, appending its content to dst.
	run(ctx context.Context, s *Service, dst, args []byte) (tool.Result, error)
	// check validates the arguments without running the tool.
	check(ctx context.Context, s *Service, args []byte) error
	// runProposed runs a propose tool with a confirmed proposal's
	// arguments, calling onStart as the tool is entered; started reports
	// whether it was (false: nothing was run, the run refused before it
	// began).
	runProposed(ctx context.Context, s *Service, args []byte, onStart func()) (res tool.Result, started bool, err error)
	// logForm returns the arguments as the record keeps them; with raw,
	// args themselves when their form is the memory store's to make (see
	// Service.logForm).
	logForm(ctx context.Context, s *Service, args []byte, raw bool) []byte
}

// resolve returns the tool of that name: the registry's first, then the
// dynamic source's, available for ctx; nil when there is none.
func (s *Service) resolve(ctx context.Context, name string) target {
	if i := s.find(name); i >= 0 {
		return &s.targets[i]
	}
	if s.dyn != nil && name != "" {
		if d, ok := s.dyn.Lookup(ctx, name); ok {
			if spec := d.Spec(); spec != nil && spec.Name == name {
				return &dynamicTool{sp: spec, d: d}
			}
		}
	}
	return nil
}

// registryTool is a tool of the service's registry, by its position in
// s.tools; the service holds one per tool (s.targets), so resolving one
// allocates nothing.
type registryTool struct {
	i       int
	sp      *tool.Spec
	secrets secretPaths // the paths of sp.Secrets, split once
}

// registryTools returns the targets of the registry's tools.
func registryTools(specs []*tool.Spec) []registryTool {
	ts := make([]registryTool, len(specs))
	for i, spec := range specs {
		ts[i] = registryTool{i: i, sp: spec, secrets: splitSecrets(spec.Secrets)}
	}
	return ts
}

func (t *registryTool) spec() *tool.Spec { return t.sp }

func (t *registryTool) offered(ctx context.Context, s *Service, inv *tool.Invocation, ro bool) bool {
	if ro && !t.sp.ReadOnly {
		return false
	}
	return inv.Principal.HasAll(t.sp.Permissions) && s.policy.Allows(ctx, inv, t.sp) && registry.SelfOffered(ctx, s.reg, t.i)
}

func (t *registryTool) run(ctx context.Context, s *Service, dst, args []byte) (tool.Result, error) {
	return s.reg.AppendCall(ctx, dst, t.sp.Name, args)
}

func (t *registryTool) check(ctx context.Context, s *Service, args []byte) error {
	return s.reg.Check(ctx, t.sp.Name, args)
}

func (t *registryTool) runProposed(ctx context.Context, s *Service, args []byte, onStart func()) (tool.Result, bool, error) {
	return registry.RunConfirmed(ctx, s.reg, t.sp.Name, args, onStart)
}

// logForm is the tool's LogArgs form, or the arguments with secrets
// replaced and long strings cut.
func (t *registryTool) logForm(ctx context.Context, s *Service, args []byte, raw bool) []byte {
	if t.sp.LogsArgs {
		form, own, err := registry.LogArgs(ctx, s.reg, t.sp.Name, args)
		if own && err == nil {
			return form
		}
		if err != nil {
			// Arguments LogArgs cannot take are invalid: the call will
			// fail on them. Log what the generic form shows.
			return appendLogForm(nil, args, t.secrets, s.maxStr)
		}
	}
	return s.logForm(args, t.secrets, raw)
}

// dynamicTool is a tool known only at run time: one of the dynamic
// source's (Options.Dynamic) or one a host hands to CallDynamic.
type dynamicTool struct {
	sp *tool.Spec
	d  tool.Dynamic
}

func (t *dynamicTool) spec() *tool.Spec { return t.sp }

func (t *dynamicTool) offered(ctx context.Context, s *Service, inv *tool.Invocation, ro bool) bool {
	return t.granted(inv, ro) && s.policy.Allows(ctx, inv, t.sp)
}

// granted is offered without the policy: what CallDynamic asks of a tool
// the host hands it.
func (t *dynamicTool) granted(inv *tool.Invocation, ro bool) bool {
	return (!ro || t.sp.ReadOnly) && inv.Principal.HasAll(t.sp.Permissions)
}

// run runs the tool under its Spec.Timeout, as the registry runs its own.
func (t *dynamicTool) run(ctx context.Context, _ *Service, dst, args []byte) (tool.Result, error) {
	if t.sp.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.sp.Timeout)
		defer cancel()
	}
	res, err := t.d.Call(ctx, args)
	err = dynamicFailure(t.sp.Name, err)
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

func (t *dynamicTool) check(ctx context.Context, _ *Service, args []byte) error {
	return t.d.Check(ctx, args)
}

// runProposed takes a run whose error wraps tool.ErrNotRun for one that
// did not start: a Dynamic reports so when its runner refused the run
// (runtime/dynamic), which is all the service can know of it; onStart is
// called as the Dynamic is called.
func (t *dynamicTool) runProposed(ctx context.Context, s *Service, args []byte, onStart func()) (tool.Result, bool, error) {
	if err := ctx.Err(); err != nil {
		return tool.Result{}, false, notNow(t.sp.Name, err)
	}
	onStart()
	res, err := t.run(ctx, s, nil, args)
	return res, !errors.Is(err, tool.ErrNotRun), err
}

// logForm is the arguments with secrets replaced and long strings cut.
func (t *dynamicTool) logForm(_ context.Context, s *Service, args []byte, raw bool) []byte {
	return s.logForm(args, splitSecrets(t.sp.Secrets), raw)
}

// logForm returns the arguments with secrets replaced and long strings
// cut, in a slice of their own; with raw, args themselves when no secret
// is to be replaced and they are not empty and no longer than
// maxArenaArgs: the memory store then keeps a copy and makes their form
// when the record is read (MemoryStore.startRaw), else ownArgs makes it.
func (s *Service) logForm(args []byte, secrets secretPaths, raw bool) []byte {
	if raw && len(secrets) == 0 && len(args) > 0 && len(args) <= maxArenaArgs {
		return args
	}
	return appendLogForm(make([]byte, 0, len(args)+8), args, secrets, s.maxStr)
}

// ownArgs gives rec the logged form of args, in a slice of its own, when
// its Args are still args, raw (logForm), and no store took them.
func (s *Service) ownArgs(rec *Record, args []byte) {
	if isRaw(rec, args) {
		rec.Args = appendLogForm(make([]byte, 0, len(args)+8), args, nil, s.maxStr)
	}
}

// isRaw reports whether rec.Args are args, the call's own.
func isRaw(rec *Record, args []byte) bool {
	return len(rec.Args) > 0 && len(args) > 0 && &rec.Args[0] == &args[0]
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
		if t := (dynamicTool{sp: spec}); t.offered(ctx, s, inv, ro) {
			kept = append(kept, spec)
		}
	}
	clear(dst[len(kept):])
	if len(kept) > n && n > from {
		slices.SortFunc(kept[from:], func(a, b *tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	}
	return kept
}
