package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Defaults of Options.
const (
	// DefaultMaxCallsPerTurn caps the calls of one turn.
	DefaultMaxCallsPerTurn = 32
	// DefaultParallel is how many calls of one turn run at once.
	DefaultParallel = 4
	// DefaultProposalTTL is how long a proposal may be confirmed.
	DefaultProposalTTL = 15 * time.Minute
	// DefaultMaxLoggedString is the length in bytes past which a string of
	// the logged arguments is cut.
	DefaultMaxLoggedString = 256
	// DefaultAwaitRunning is how long a repeat waits for a run that another
	// instance has under way, for a tool without a //tool:timeout.
	DefaultAwaitRunning = 10 * time.Second
)

// Observer sees every call the service handles: Start before anything is
// decided (the context it returns is the one the call runs with, so that a
// tracing span is the parent of the tool's own), End once its record is
// written. runtime/service/oteltrace makes an OpenTelemetry span of each.
type Observer interface {
	Start(ctx context.Context, tool string) context.Context
	End(ctx context.Context, rec *Record)
}

// Options configures a Service. The zero value is usable: a memory store,
// a policy that offers every tool (permissions still apply) and lets the
// proposer confirm, no rate limit, the default caps.
type Options struct {
	// Store keeps proposals and records; nil means a new MemoryStore.
	Store Store
	// Policy decides what is offered and who confirms; nil means &Rules{}.
	Policy Policy
	// Logger receives what goes wrong (the causes of failed calls, store
	// failures); nil discards.
	Logger *slog.Logger
	// Observer sees every call; nil means none.
	Observer Observer
	// Limiter limits the calls of each principal; nil means no limit (see
	// NewRateLimiter).
	Limiter Limiter
	// MaxCallsPerTurn caps the calls of one turn (of one TurnState); 0
	// means DefaultMaxCallsPerTurn, a negative value no cap.
	MaxCallsPerTurn int
	// Parallel is how many calls of one turn RunTurn runs at once; 0 means
	// DefaultParallel.
	Parallel int
	// ProposalTTL is how long a proposal may be confirmed; 0 means
	// DefaultProposalTTL.
	ProposalTTL time.Duration
	// MaxLoggedString cuts longer strings in the logged arguments; 0 means
	// DefaultMaxLoggedString, a negative value cuts nothing.
	MaxLoggedString int
	// FailOpen runs a read, display or action call even when its record
	// cannot be written (the failure is logged). By default such a call is
	// refused. A confirmation never runs without its record.
	FailOpen bool
	// AwaitRunning is how long a confirmation, or a repeat of a call ID,
	// waits for a run that another instance sharing the store has under
	// way (polling the store) before it answers outcome_unknown: a run
	// that outlives it is taken for one whose process died. 0 means the
	// tool's //tool:timeout, or DefaultAwaitRunning for a tool without
	// one; a negative value waits not at all. A run under way in this
	// process is always waited for.
	AwaitRunning time.Duration
	// Halted, when set, is a kill switch shared beyond this Service (a
	// flag in a database, a file): it is asked before every call and every
	// confirmation, and a true answer refuses them, as Halt does.
	Halted func(ctx context.Context) bool
	// Now tells the time; nil means time.Now.
	Now func() time.Time
	// Key keys the digests that bind a proposal to what its confirmation
	// runs and a call ID to its call's tool and arguments (HMAC-SHA256):
	// at least MinKeyLen random bytes, secret, and the same on every
	// instance sharing the store. nil means the store's own (Store.Key):
	// made at random by the first instance that needs it and kept in the
	// store, so that every instance sharing the store uses it.
	Key []byte
	// Dynamic serves tools known only at run time (runtime/dynamic.Source),
	// after the registry's: offered, refused, recorded, proposed and
	// confirmed as the registry's are. A name the registry holds is
	// always the registry's tool. nil means none.
	Dynamic tool.Source
	// Tasks configures the calls that run as tasks (see tasks.go).
	Tasks TaskOptions
}

// Service runs tool calls for a principal under a policy and records every
// one: the one way in to a registry (it implements tool.Caller). It is
// safe for concurrent use.
type Service struct {
	reg      *registry.Static
	dyn      tool.Source
	tools    []*tool.Spec
	targets  []registryTool // by position in tools
	store    Store
	policy   Policy
	log      *slog.Logger
	obs      Observer
	limiter  Limiter
	maxTurn  int
	parallel int
	ttl      time.Duration
	maxStr   int
	failOpen bool
	await    time.Duration
	halted   func(ctx context.Context) bool
	now      func() time.Time
	sysClock bool         // now is time.Now: since reads the monotonic clock alone
	mem      *MemoryStore // store, when it is a MemoryStore: see start
	recs     sync.Pool    // *Record, of calls no one keeps a pointer to (reused)
	halt     atomic.Bool
	waits    waiters
	offers   *offerMemo
	keys     keyring
	tasks    TaskOptions // Options.Tasks, its defaults applied
}

var _ tool.Caller = (*Service)(nil)

// New returns a Service running the tools of reg, a registry a generated
// package's New returned: the service runs a propose tool once a person
// has confirmed it, which only the runtime's own registry lets it do.
func New(reg tool.Registry, opts *Options) (*Service, error) {
	if reg == nil {
		return nil, errors.New("new call service: nil registry")
	}
	st, ok := registry.Of(reg)
	if !ok {
		return nil, fmt.Errorf("new call service: the registry is a %T, not one a generated package's New returned", reg)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	s := &Service{
		reg: st, dyn: o.Dynamic, tools: st.Tools(), store: o.Store, policy: o.Policy, log: o.Logger,
		obs: o.Observer, limiter: o.Limiter, maxTurn: o.MaxCallsPerTurn, parallel: o.Parallel,
		ttl: o.ProposalTTL, maxStr: o.MaxLoggedString, failOpen: o.FailOpen, await: o.AwaitRunning, halted: o.Halted, now: o.Now,
		offers: newOfferMemo(),
	}
	switch {
	case s.parallel < 0:
		return nil, fmt.Errorf("new call service: negative Parallel %d", s.parallel)
	case s.ttl < 0:
		return nil, fmt.Errorf("new call service: negative ProposalTTL %s", s.ttl)
	case o.Key != nil && len(o.Key) < MinKeyLen:
		return nil, fmt.Errorf("new call service: the Key has %d bytes, fewer than %d", len(o.Key), MinKeyLen)
	}
	tasks, err := o.Tasks.config()
	if err != nil {
		return nil, fmt.Errorf("new call service: %w", err)
	}
	s.tasks = tasks
	if o.Key != nil {
		s.keys.key = append([]byte(nil), o.Key...)
	}
	if s.store == nil {
		s.store = NewMemoryStore()
	}
	s.mem, _ = s.store.(*MemoryStore)
	if s.policy == nil {
		s.policy = &Rules{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.maxTurn == 0 {
		s.maxTurn = DefaultMaxCallsPerTurn
	}
	if s.parallel == 0 {
		s.parallel = DefaultParallel
	}
	if s.ttl == 0 {
		s.ttl = DefaultProposalTTL
	}
	if s.maxStr == 0 {
		s.maxStr = DefaultMaxLoggedString
	}
	if s.now == nil {
		s.now, s.sysClock = time.Now, true
	}
	s.targets = registryTools(s.tools)
	return s, nil
}

// since returns the time passed since t, a reading of the service's
// clock. With the system's clock it is time.Since, which reads only the
// monotonic clock (time.Now reads it and the wall clock), as Sub of
// time.Now's reading would.
func (s *Service) since(t time.Time) time.Duration {
	if s.sysClock {
		return time.Since(t)
	}
	return s.now().Sub(t)
}

// Halt is the kill switch: until Resume, every call and every confirmation
// is refused (CodeRefused) and recorded. Runs already started go on.
func (s *Service) Halt() { s.halt.Store(true) }

// Resume undoes Halt.
func (s *Service) Resume() { s.halt.Store(false) }

// isHalted asks both kill switches.
func (s *Service) isHalted(ctx context.Context) bool {
	return s.halt.Load() || s.halted != nil && s.halted(ctx)
}

// Store returns the service's store.
func (s *Service) Store() Store { return s.store }

// find returns the position in s.tools of the named tool, or -1.
func (s *Service) find(name string) int {
	i, j := 0, len(s.tools)
	for i < j {
		h := int(uint(i+j) >> 1)
		if s.tools[h].Name < name {
			i = h + 1
		} else {
			j = h
		}
	}
	if i < len(s.tools) && s.tools[i].Name == name {
		return i
	}
	return -1
}

// Offer returns the tools offered to the principal of ctx's Invocation,
// sorted by name: those the policy allows, whose permissions the principal
// holds and whose own Offered method agrees. A context without an
// Invocation, or with no principal, is offered nothing. The specs are the
// registry's: a provider.Definitions gives their precomputed definitions as they
// are. A context marked read-only (tool.WithReadOnly) is offered only
// tools that are //tool:readonly.
func (s *Service) Offer(ctx context.Context) []*tool.Spec {
	inv, ok := tool.InvocationFrom(ctx)
	if !ok || inv.Principal.ID == "" {
		return nil
	}
	return s.offer(ctx, inv, make([]*tool.Spec, 0, len(s.tools)), tool.IsReadOnly(ctx))
}

// AppendOffer is Offer appending to dst, for a caller that reuses one
// slice.
func (s *Service) AppendOffer(ctx context.Context, dst []*tool.Spec) []*tool.Spec {
	inv, ok := tool.InvocationFrom(ctx)
	if !ok || inv.Principal.ID == "" {
		return dst
	}
	return s.offer(ctx, inv, dst, tool.IsReadOnly(ctx))
}

// offer appends the tools offered to inv to dst; ro as for
// target.offered.
func (s *Service) offer(ctx context.Context, inv *tool.Invocation, dst []*tool.Spec, ro bool) []*tool.Spec {
	n := len(dst)
	for i := range s.targets {
		if t := &s.targets[i]; t.offered(ctx, s, inv, ro) {
			dst = append(dst, t.sp)
		}
	}
	if s.dyn != nil {
		dst = s.appendDynamicOffer(ctx, inv, dst, n, ro)
	}
	return dst
}

// awaitFor returns how long a repeat waits for the named tool's run that
// another instance has under way.
func (s *Service) awaitFor(name string) time.Duration {
	switch {
	case s.await < 0:
		return 0
	case s.await > 0:
		return s.await
	}
	if i := s.find(name); i >= 0 && s.tools[i].Timeout > 0 {
		return s.tools[i].Timeout
	}
	return DefaultAwaitRunning
}

// poll calls done at growing intervals until it reports true, wait has
// passed or ctx is done, and reports whether done did.
func poll(ctx context.Context, wait time.Duration, done func() bool) bool {
	deadline := time.Now().Add(wait)
	for interval := 5 * time.Millisecond; ; interval = min(2*interval, 250*time.Millisecond) {
		if done() {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		t := time.NewTimer(min(interval, left))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false
		}
	}
}

// waiters serializes, within this process, the calls that share a key (a
// call ID, a proposal): the second waits for the first to finish, then
// finds its outcome recorded, instead of reading "outcome unknown" while
// the first still runs. Across processes the store decides alone.
type waiters struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

// enter waits until no call of this process holds key, then holds it; the
// returned function releases it. It fails only when ctx is done first.
func (w *waiters) enter(ctx context.Context, key string) (release func(), err error) {
	for {
		w.mu.Lock()
		ch := w.m[key]
		if ch == nil {
			if w.m == nil {
				w.m = map[string]chan struct{}{}
			}
			ch = make(chan struct{})
			w.m[key] = ch
			w.mu.Unlock()
			return func() {
				w.mu.Lock()
				delete(w.m, key)
				w.mu.Unlock()
				close(ch)
			}, nil
		}
		w.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// writeEnd makes write, the end of a run (Finish, Settle: writes that may
// be made again), on a detached context, and makes it again after a
// failure, twice more at growing intervals: a write that met a connection
// the database had closed goes through on the next, so that the run does
// not read as outcome_unknown. It returns the last failure. The writes
// are made on w, opened for them, or on a context of their own when w is
// nil.
func writeEnd(ctx context.Context, w *recordContext, write func(ctx context.Context) error) error {
	if w == nil {
		w = detached(ctx)
	} else {
		w.open(ctx)
	}
	defer w.close()
	return writeAgain(w, write(w), write)
}

// writeAgain makes write again on ctx after err, the failure of its first
// attempt, as writeEnd does: twice more at growing intervals, while ctx
// lasts. It returns the last failure, nil once an attempt succeeds.
func writeAgain(ctx context.Context, err error, write func(ctx context.Context) error) error {
	for _, pause := range [...]time.Duration{20 * time.Millisecond, 200 * time.Millisecond} {
		if err == nil {
			return nil
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return err
		}
		err = write(ctx)
	}
	return err
}

// writeFinish writes rec, the end of a call's run, as writeEnd does. It
// lives beside writeEnd so that a call enters this file once on its way
// to the store (see servicemcp's TestCallEntersEachFileOnce).
// w is the call's record context (nil: a new one). The memory store,
// which never looks at its context, is written first on ctx, with no
// context of the write opened, and on a detached one only to try again.
func (s *Service) writeFinish(ctx context.Context, w *recordContext, rec *Record) error {
	write := func(ctx context.Context) error { return s.store.Finish(ctx, rec) }
	if s.mem == nil {
		return writeEnd(ctx, w, write)
	}
	err := write(ctx)
	if err == nil {
		return nil
	}
	wctx := detached(ctx)
	defer wctx.close()
	return writeAgain(wctx, err, write)
}

// writeSettle moves the running proposal id to state with rec, the end of
// its run, as writeEnd does.
func (s *Service) writeSettle(ctx context.Context, id string, state State, rec *Record) error {
	return writeEnd(ctx, nil, func(ctx context.Context) error { return s.store.Settle(ctx, id, state, rec) })
}

// key returns the key of the service's digests, reading the store's on a
// detached context the first time.
func (s *Service) key(ctx context.Context) ([]byte, error) {
	w := detached(ctx)
	defer w.close()
	return s.keys.get(w, s.store)
}

// notNow is the refusal of a confirmation whose context ended before it
// claimed its proposal: nothing was run, and it stays pending.
func notNow(name string, err error) *tool.Error {
	e := &tool.Error{Code: tool.CodeCancelled, Tool: name, Message: "the confirmation was cancelled; nothing was run",
		Cause: fmt.Errorf("%w: %w", tool.ErrNotRun, err)}
	if errors.Is(err, context.DeadlineExceeded) {
		e.Code, e.Message = tool.CodeTimeout, "the confirmation's deadline passed; nothing was run"
	}
	return e
}

// waitCancelled is the refusal of a call whose context ended while it
// waited for an earlier call with the same key.
func waitCancelled(name string, err error) *tool.Error {
	return &tool.Error{Code: tool.CodeCancelled, Tool: name,
		Message: "the call was cancelled while an earlier call with the same ID ran; nothing was run", Cause: fmt.Errorf("%w: %w", tool.ErrNotRun, err)}
}
