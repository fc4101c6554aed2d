package dynamic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/notify"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Options configure a Source. The zero value is usable.
type Options struct {
	// Logger receives what is left out and why (a tool whose name or
	// schema is invalid, a collision that appeared after registration, a
	// toolkit that panicked); nil discards it. Toolkits get it, with
	// their group, in Env.
	Logger *slog.Logger
	// Getenv reads credentials and settings for toolkits (Env.Getenv);
	// nil means os.Getenv.
	Getenv func(key string) string
	// Limits bound the arguments of a call (size and depth) as they bound
	// a generated registry's; zero fields mean the codec's defaults.
	Limits codec.Limits
}

// maxName is the longest tool name every provider accepts.
const maxName = 64

// Source composes toolkits behind a generated registry: it serves
// their tools to the call service as a tool.Source. Lookups and listings
// read the toolkits' tools anew each time (Toolkit.Tools), without
// locking; Register and Unregister may run at any time, concurrently with
// them and with each other. A Source is safe for concurrent use.
type Source struct {
	static  map[string]struct{}
	logger  *slog.Logger
	getenv  func(string) string
	check   *validator
	mu      sync.Mutex               // serialises Register and Unregister
	entries atomic.Pointer[[]*entry] // registered toolkits, in registration order; never modified in place
	changes notify.List              // the Source's subscribers (Subscribe)
}

var _ tool.Notifier = (*Source)(nil)

// Subscribe implements tool.Notifier: changed is called after a toolkit
// is registered or unregistered, and after a registered toolkit that is
// a tool.Notifier itself (runtime/mcpclient's, whose remote list changed)
// tells of a change. The tools of a toolkit that is not one are still
// read anew on every lookup, but nobody is told when they change (nor
// when it becomes available or not): a toolkit whose tools change while
// it is registered should implement tool.Notifier.
func (s *Source) Subscribe(changed func()) (cancel func()) { return s.changes.Subscribe(changed) }

// New returns an empty Source that never serves a tool named as one of
// static: the generated registry's tools (tool.Registry.Tools), which the
// call service serves itself and which come first. opts may be nil.
func New(static []*tool.Spec, opts *Options) (*Source, error) {
	if opts == nil {
		opts = &Options{}
	}
	s := &Source{
		static: make(map[string]struct{}, len(static)),
		logger: opts.Logger,
		getenv: opts.Getenv,
		check:  newValidator(opts.Limits),
	}
	if s.logger == nil {
		s.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.getenv == nil {
		s.getenv = os.Getenv
	}
	for i, spec := range static {
		if spec == nil {
			return nil, fmt.Errorf("new dynamic source: static tool %d is nil", i)
		}
		s.static[spec.Name] = struct{}{}
	}
	s.entries.Store(&[]*entry{})
	return s, nil
}

// Register adds p's tools to the Source, after the toolkits registered
// before it, and reports what collides.
//
// The first registration of p binds it (Toolkit.Bind) to the Source's
// environment; an error from Bind refuses the registration. A tool whose
// name is taken, by a static tool or by a tool of a toolkit registered
// earlier, refuses the registration: the error names each collision, as
// "tool X of toolkit Y collides with the static tool X" or "... with
// tool X of toolkit Z". A refused toolkit is not registered, and a
// later Register binds it again.
//
// Registering p again (the same value, compared with ==) is an upsert: it
// keeps p's place and binding, and checks its current tools again,
// returning the collisions it finds; p stays registered, and its
// colliding tools are not served (see the package doc). Another toolkit
// value is another toolkit, even in the same group: their tools share
// the group's namespace and must not collide. Register is idempotent, so
// it is safe to call every turn.
//
// A toolkit is compared with ==, so its dynamic type must be comparable
// (a pointer, typically): Register refuses one that is not. Registrations
// run one at a time (Bind included); lookups and listings never wait for
// them.
func (s *Source) Register(ctx context.Context, p Toolkit) error {
	if p == nil {
		return errors.New("register toolkit: nil toolkit")
	}
	if !reflect.ValueOf(p).Comparable() {
		return fmt.Errorf("register toolkit %T: it is not comparable; register a pointer", p)
	}
	group := p.Group()
	if group == "" {
		group = DefaultGroup
	}
	if !ValidGroup(group) {
		return fmt.Errorf("register toolkit %T: invalid group: want lower-case letters, digits and hyphens, starting with a letter, at most %d bytes", p, maxGroup)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := *s.entries.Load()
	i := slices.IndexFunc(list, func(e *entry) bool { return e.p == p })
	var e *entry
	if i >= 0 {
		e = list[i]
	} else {
		var err error
		if e, err = s.newEntry(p, group); err != nil {
			return err
		}
		if err := p.Bind(ctx, Env{Logger: e.logger, Getenv: s.getenv}); err != nil {
			return fmt.Errorf("register toolkit %s: bind: %w", e.label, err)
		}
	}
	var errs []error
	seen := map[string]bool{}
	type other struct {
		e *entry
		v *view
	}
	var others []other // the group's other toolkits, each listed once
	for _, o := range list {
		if o != e && o.group == group {
			others = append(others, other{o, o.view(ctx)})
		}
	}
	for _, spec := range e.tools(ctx) {
		if spec == nil {
			continue
		}
		name := group + "_" + spec.Name
		if !ValidName(name) || seen[name] {
			continue // left out of its listing, and logged there
		}
		seen[name] = true
		if _, ok := s.static[name]; ok {
			errs = append(errs, fmt.Errorf("tool %s of toolkit %s collides with the static tool %s", name, e.label, name))
			continue
		}
		for _, o := range others {
			if o.v.find(name) != nil {
				errs = append(errs, fmt.Errorf("tool %s of toolkit %s collides with tool %s of toolkit %s", name, e.label, name, o.e.label))
			}
		}
	}
	err := errors.Join(errs...)
	if i < 0 {
		if err != nil {
			return fmt.Errorf("register toolkit %s: refused: %w", e.label, err)
		}
		if n, ok := p.(tool.Notifier); ok {
			e.quiet = n.Subscribe(s.changes.Notify)
		}
		next := append(slices.Clip(list), e)
		s.entries.Store(&next)
		s.changes.Notify()
		return nil
	}
	if err != nil {
		return fmt.Errorf("register toolkit %s again: %w", e.label, err)
	}
	return nil
}

// Unregister removes p and its tools from the Source. Unregistering a
// toolkit that is not registered does nothing. A toolkit registered
// again after Unregister is bound again.
func (s *Source) Unregister(p Toolkit) {
	if p == nil || !reflect.ValueOf(p).Comparable() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := *s.entries.Load()
	i := slices.IndexFunc(list, func(e *entry) bool { return e.p == p })
	if i < 0 {
		return
	}
	if list[i].quiet != nil {
		list[i].quiet()
	}
	next := slices.Delete(slices.Clone(list), i, i+1)
	s.entries.Store(&next)
	s.changes.Notify()
}

// AppendTools appends to dst the specs of the tools of every toolkit
// available for ctx, sorted by name across toolkits, and returns the
// extended slice. A name two toolkits serve is listed once, as the one
// registered first serves it. The specs are shared: callers must not
// modify them. While the toolkits return the same slices from Tools, it
// allocates nothing beyond the growth of dst.
func (s *Source) AppendTools(ctx context.Context, dst []*tool.Spec) []*tool.Spec {
	list := *s.entries.Load()
	var buf [8][]*dynTool
	heads := buf[:0]
	for _, e := range list {
		if !e.available(ctx) {
			continue
		}
		if v := e.view(ctx); len(v.tools) > 0 {
			heads = append(heads, v.tools)
		}
	}
	if len(heads) == 1 {
		for _, t := range heads[0] {
			dst = append(dst, t.spec)
		}
		return dst
	}
	// Merge the sorted views; on a tie, the toolkit registered first
	// wins and the others' tool of that name is skipped.
	for {
		best := -1
		for j, h := range heads {
			if len(h) > 0 && (best < 0 || h[0].spec.Name < heads[best][0].spec.Name) {
				best = j
			}
		}
		if best < 0 {
			return dst
		}
		name := heads[best][0].spec.Name
		dst = append(dst, heads[best][0].spec)
		for j, h := range heads {
			if len(h) > 0 && h[0].spec.Name == name {
				heads[j] = h[1:]
			}
		}
	}
}

// Lookup returns the tool of that name when a toolkit available for ctx
// serves it: the toolkits are asked in registration order, and a name a
// toolkit does not serve (or serves while unavailable) goes on to the
// next. A static tool's name is never found here.
func (s *Source) Lookup(ctx context.Context, name string) (tool.Dynamic, bool) {
	i := strings.IndexByte(name, '_')
	if i <= 0 {
		return nil, false
	}
	group := name[:i]
	for _, e := range *s.entries.Load() {
		if e.group != group {
			continue
		}
		t := e.view(ctx).find(name)
		if t == nil || !e.available(ctx) {
			continue
		}
		return t, true
	}
	return nil, false
}

// maxGroup is the longest group: room is left for "_" and a local name.
const maxGroup = 62

// ValidGroup reports whether group is a toolkit's namespace: lower-case
// ASCII letters, digits and hyphens, starting with a letter (Gemini's
// names must start with a letter or "_"), at most 62 bytes.
func ValidGroup(group string) bool {
	if len(group) == 0 || len(group) > maxGroup || group[0] < 'a' || group[0] > 'z' {
		return false
	}
	for i := 0; i < len(group); i++ {
		c := group[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// ValidName reports whether name is a tool name every provider accepts:
// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$, OpenAI's and Anthropic's pattern
// (^[a-zA-Z0-9_-]{1,64}$) within Gemini's.
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > maxName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || i > 0 && ('0' <= c && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}
