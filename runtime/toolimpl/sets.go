package toolimpl

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// A generated registry takes its tools one tools package at a time: for
// each Go package declaring tools, toolgen writes a set package (its
// Tools struct, one field per tool, and a dispatch switching on the
// tool's index in the set), and the registry package holds only the
// sorted table of specs, the import paths of its set packages and an
// Index placing each tool in its set. No package but a set package names
// a tool's type, so that no one package's compile grows with every tool of
// the catalog.

// Set is what a set package's Tools value hands to the registry's New
// (NewRegistryOfSets): its ToolSet method's result.
type Set struct {
	// Path is the import path of the set package: New finds the set's
	// place in the registry's table of set paths by it.
	Path string
	// Unset is why the Tools value holds no ready tool in a field (a nil
	// pointer, or the zero value of a type that is not ready so); nil when
	// every field is set. New refuses the value with it.
	Unset error
	// Unavailable holds, by the tool's index in the set, what the tool's
	// Available method reported (nil: available). It may be nil or shorter
	// than the set: the tools past its end are available.
	Unavailable []error
	// Dispatch is Dispatch over the set's tools: i is the tool's index in
	// the set.
	Dispatch Dispatch
	// Offered is Offered over the set's tools, i being the tool's index in
	// the set; nil when no tool of the set decides its offer.
	Offered Offered
}

// Tools is implemented by the Tools type of every set package: what a
// generated registry's New and Unavailable take a slice of.
type Tools interface {
	// ToolSet returns the set, for the registry's New only.
	ToolSet() *Set
}

// Index places the tool of a registry's table in its set: Set is the
// set's position in the registry's table of set paths, Tool the tool's
// index in the set.
type Index = registry.Index

// NewRegistryOfSets returns the registry of the tools in tools, one Tools
// of each set package of the generated package pkg: what its New returns.
// table is its sorted table of specs (as NewRegistry takes it, but not
// checked: toolgen checked it when it wrote it, and a registry of many
// tools does not read it at start-up), sets the sorted import paths of
// its set packages, index the place of each tool of table in its set
// (not checked either). Each of sets must be given exactly once, by a
// Tools value whose fields are set; a tool whose Available method
// reported an error is left out. The errors start with pkg + ".New" and
// name set packages, never a value.
func NewRegistryOfSets[T Tools](pkg string, table []*tool.Spec, sets []string, index []Index, tools []T, opts ...tool.Option) (tool.Registry, error) {
	bound, err := bind(pkg, sets, tools)
	if err != nil {
		return nil, err
	}
	for _, s := range bound {
		if s.Unset != nil {
			return nil, s.Unset
		}
	}
	// The index is read only when a tool is unavailable: a registry of
	// many tools does not read it at start-up.
	var off []bool
	for _, s := range bound {
		if slices.ContainsFunc(s.Unavailable, func(err error) bool { return err != nil }) {
			off = make([]bool, len(index))
			break
		}
	}
	if off != nil {
		for i, x := range index {
			if x.Set < 0 || int(x.Set) >= len(bound) {
				return nil, fmt.Errorf("%s.New: tool %d placed in no set", pkg, i)
			}
			u := bound[x.Set].Unavailable
			off[i] = x.Tool >= 0 && int(x.Tool) < len(u) && u[x.Tool] != nil
		}
	}
	dispatch := make([]Dispatch, len(bound))
	for j, s := range bound {
		dispatch[j] = s.Dispatch
	}
	var offered Offered
	if slices.ContainsFunc(bound, func(s *Set) bool { return s.Offered != nil }) {
		offered = func(ctx context.Context, i int) bool {
			x := index[i]
			if o := bound[x.Set].Offered; o != nil {
				return o(ctx, int(x.Tool))
			}
			return true
		}
	}
	s, err := registry.NewSets(table, off, index, dispatch, offered, opts...)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Unavailable reports, by tool name, what the Available methods of the
// tools in tools report: the generated Unavailable, over the registry's
// table, set paths and index as NewRegistryOfSets takes them. The sets not given, and
// the fields not set, report nothing.
func Unavailable[T Tools](table []*tool.Spec, sets []string, index []Index, tools []T) map[string]error {
	given := make([]*Set, len(sets))
	for _, t := range tools {
		if any(t) == nil {
			continue
		}
		if s := t.ToolSet(); s != nil {
			if j, ok := slices.BinarySearch(sets, s.Path); ok {
				given[j] = s
			}
		}
	}
	out := map[string]error{}
	for i, x := range index {
		if s := given[x.Set]; s != nil && int(x.Tool) < len(s.Unavailable) && s.Unavailable[x.Tool] != nil {
			out[table[i].Name] = s.Unavailable[x.Tool]
		}
	}
	return out
}

// bind returns the set of each path of sets, from tools.
func bind[T Tools](pkg string, sets []string, tools []T) ([]*Set, error) {
	bound := make([]*Set, len(sets))
	for i, t := range tools {
		if any(t) == nil {
			return nil, fmt.Errorf("%s.New: tools[%d] is nil", pkg, i)
		}
		s := t.ToolSet()
		if s == nil || s.Dispatch == nil {
			return nil, fmt.Errorf("%s.New: tools[%d] is no set package's Tools", pkg, i)
		}
		j, ok := slices.BinarySearch(sets, s.Path)
		switch {
		case !ok:
			return nil, fmt.Errorf("%s.New: tools[%d] is a %s.Tools of %s, which this registry does not hold: use the set packages generated beside it", pkg, i, path.Base(s.Path), s.Path)
		case bound[j] != nil:
			return nil, fmt.Errorf("%s.New: %s.Tools given twice", pkg, path.Base(s.Path))
		}
		bound[j] = s
	}
	var missing []error
	for j, s := range bound {
		if s == nil {
			missing = append(missing, fmt.Errorf("%s.New: no %s.Tools among the tools: pass one (%s)", pkg, path.Base(sets[j]), sets[j]))
		}
	}
	if len(missing) > 0 {
		return nil, errors.Join(missing...)
	}
	return bound, nil
}
