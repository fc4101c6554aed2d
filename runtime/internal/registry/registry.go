package registry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/options"
	"github.com/toolgen-go/toolgen/runtime/internal/run"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Static is the registry a generated package builds: a fixed, sorted set
// of specs and the generated Dispatch that runs them. It is safe for
// concurrent use and must not be copied.
type Static struct {
	// tools are the specs served, sorted by name: the table itself when no
	// tool is off.
	tools []*tool.Spec
	// ids holds the table index of each of tools, for the dispatch; nil
	// when tools is the whole table (the index is the position).
	ids []int32
	// at holds the set of each of tools and its index there, which the
	// set's dispatch in sets switches on: the index New was given when
	// no tool is off. A registry New built from one dispatch has one set.
	at        []Index
	sets      []Dispatch
	offered   Offered
	runner    *run.Runner // runs every call; its tool index is the position in tools
	opts      options.Registry
	pool      sync.Pool // of *codecs
	emptyArgs []byte
}

var _ tool.Registry = (*Static)(nil)

// New returns the registry serving the tools of table through dispatch, a
// switch on a tool's index in table: what a generated package builds
// from its static table. The tools whose off is true are left out
// (neither listed nor callable); off may be nil or shorter than table
// (the tools past its end are served). offered asks the tools whose
// Spec.DecidesOffer is set whether they are offered; nil means they
// always are.
//
// The specs of table must be non-nil, with non-empty names, sorted by
// byte-wise string comparison and unique, and valid kinds: New refuses
// anything else rather than serve a registry whose Lookup would miss
// tools. The table is kept as it is, without a copy, when off leaves no
// tool out, and the specs always are: neither may be modified afterwards.
func New(table []*tool.Spec, off []bool, dispatch Dispatch, offered Offered, opts ...tool.Option) (*Static, error) {
	if dispatch == nil {
		return nil, errors.New("new static tool registry: nil dispatch")
	}
	if err := checkTable(table); err != nil {
		return nil, err
	}
	index := make([]Index, len(table))
	for i := range index {
		index[i].Tool = int32(i)
	}
	return newStatic(table, off, index, &Static{sets: []Dispatch{dispatch}, offered: offered}, opts)
}

// Index places a tool of the table in its set: Set is the set's position
// in the registry's sets, Tool the tool's index in the set.
type Index struct{ Set, Tool int32 }

// NewSets is New for a table whose tools are dispatched by their sets:
// index holds the set of each tool of table and its index there, which
// the set's dispatch in sets switches on. Neither the table nor the
// index is checked, so that a registry of many tools reads neither at
// start-up: toolgen wrote both and checked the table as New does (two
// tools with one name fail its run), and reading 10,000 specs to check
// them again was 7% of a listing program's start-up. A table New would
// refuse serves a registry whose Lookup misses tools; a tool placed in no
// set fails its calls (the call recovers the index's panic as the
// tool's), and one placed past its set's tools gets the error of the
// set's dispatch.
func NewSets(table []*tool.Spec, off []bool, index []Index, sets []Dispatch, offered Offered, opts ...tool.Option) (*Static, error) {
	if len(index) != len(table) {
		return nil, fmt.Errorf("new static tool registry: %d tools placed in sets, %d in the table", len(index), len(table))
	}
	return newStatic(table, off, index, &Static{sets: sets, offered: offered}, opts)
}

// newStatic completes s, holding its sets and offered, as New says.
func newStatic(table []*tool.Spec, off []bool, index []Index, s *Static, opts []tool.Option) (*Static, error) {
	o := options.Registry{MaxOutputBytes: tool.DefaultMaxOutputBytes}
	for _, opt := range opts {
		opt(&o)
	}
	if err := checkOptions(o, len(table)); err != nil {
		return nil, err
	}
	s.tools, s.at, s.opts, s.emptyArgs = table, index, o, []byte("{}")
	if slices.Contains(off, true) {
		s.tools = make([]*tool.Spec, 0, len(table))
		s.ids = make([]int32, 0, len(table))
		s.at = make([]Index, 0, len(table))
		for i, sp := range table {
			if i >= len(off) || !off[i] {
				s.tools = append(s.tools, sp)
				s.ids = append(s.ids, int32(i))
				s.at = append(s.at, index[i])
			}
		}
	}
	runner, err := run.New(len(s.tools), o.MaxAbandoned)
	if err != nil {
		return nil, fmt.Errorf("new static tool registry: %w", err)
	}
	s.runner = runner
	s.pool.New = func() any {
		c := &codecs{s: s}
		c.out.SetLimit(s.opts.MaxOutputBytes)
		return c
	}
	return s, nil
}

// checkOptions reports options that are not as New requires, and a
// table of more tools than a registry serves.
func checkOptions(o options.Registry, tools int) error {
	switch {
	case o.MaxOutputBytes <= 0:
		return fmt.Errorf("new static tool registry: max output bytes must be positive, got %d", o.MaxOutputBytes)
	case o.Limits.MaxBytes < 0 || o.Limits.MaxDepth < 0:
		return fmt.Errorf("new static tool registry: negative limits %+v", o.Limits)
	case o.MaxAbandoned < 0:
		return fmt.Errorf("new static tool registry: max abandoned runs must not be negative, got %d", o.MaxAbandoned)
	case tools > math.MaxInt32:
		return fmt.Errorf("new static tool registry: %d specs, more than %d", tools, math.MaxInt32)
	}
	return nil
}

// checkTable reports specs that are not as New requires.
func checkTable(specs []*tool.Spec) error {
	for i, sp := range specs {
		switch {
		case sp == nil:
			return fmt.Errorf("new static tool registry: spec %d is nil", i)
		case sp.Name == "":
			return fmt.Errorf("new static tool registry: spec %d (type %s) has no name", i, sp.Type)
		case sp.Kind < tool.KindRead || sp.Kind > tool.KindAction:
			return fmt.Errorf("new static tool registry: tool %q has invalid kind %s", sp.Name, sp.Kind)
		case i == 0:
			continue
		}
		switch c := strings.Compare(specs[i-1].Name, sp.Name); {
		case c == 0:
			return fmt.Errorf("new static tool registry: duplicate tool name %q", sp.Name)
		case c > 0:
			return fmt.Errorf("new static tool registry: specs not sorted by name: %q before %q", specs[i-1].Name, sp.Name)
		}
	}
	return nil
}

// Of returns the registry behind v when v is one New built: what the
// call service serves, and what the MCP server knows offers the same
// tools to every caller unless a tool decides its own offer.
func Of(v any) (*Static, bool) {
	s, ok := v.(*Static)
	return s, ok && s != nil
}

// Tools returns every tool sorted by name. The slice and the specs are
// shared: callers must not modify them.
func (s *Static) Tools() []*tool.Spec { return s.tools }

// Lookup returns the tool with the given name, by binary search (written
// out: on the call path, slices.BinarySearchFunc's comparison through a
// function value cost more than the search).
func (s *Static) Lookup(name string) (*tool.Spec, bool) {
	if i := s.find(name); i >= 0 {
		return s.tools[i], true
	}
	return nil, false
}

// find returns the position in s.tools of the tool with the given name, or
// -1. It compares three ways, one call of the runtime's comparison a
// step, and stops at the name: the tools of a small registry are found at
// the first or second step, where a search for the lower bound compared
// every step and then once more for equality.
func (s *Static) find(name string) int {
	i, j := 0, len(s.tools)
	for i < j {
		h := int(uint(i+j) >> 1)
		switch c := strings.Compare(s.tools[h].Name, name); {
		case c == 0:
			return h
		case c < 0:
			i = h + 1
		default:
			j = h
		}
	}
	return -1
}

// id returns the table index of s.tools[i], which the dispatch switches on.
// dispatchAt runs the dispatch of the tool served at i: its set's.
func (s *Static) dispatchAt(ctx context.Context, i int, mode Mode, in *codec.Decoder, out *codec.Encoder) (Output, error) {
	x := s.at[i]
	return s.sets[x.Set](ctx, int(x.Tool), mode, in, out)
}

func (s *Static) id(i int) int {
	if s.ids == nil {
		return i
	}
	return int(s.ids[i])
}
