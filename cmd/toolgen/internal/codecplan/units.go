package codecplan

import (
	"go/types"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// Where the codecs go. The generated registry is a small package (specs,
// schemas, the dispatch switch) over one codec package per Go package
// whose types it decodes or encodes, under the registry's internal
// directory: internal/notescodec holds the decoders and encoders of the
// types of package notes, and the call function of each tool of notes.
// The compiler then works on packages of bounded size, in parallel, and
// a change to one type recompiles the codec package of its Go package
// only, not the whole registry.
//
// Every decoder and encoder is written once, in the codec package of its
// type, and called from the others: a struct decoder of package notes
// calls the decoder of a field type of package shared, which notes
// imports. Codec packages therefore import each other as their Go
// packages do, and never in a cycle. A generic type instantiated with
// types of other packages (Page[notes.Item]) goes to the package that
// comes last in import order among the packages it names (see rank).

// Layout names the codec packages of one registry.
type Layout struct {
	base  string            // the import path they are under: <registry>/internal
	name  map[string]string // Go package path -> codec package name
	rank  map[string]int    // Go package path -> its height in the import graph
	named map[string]*types.Package
	used  map[string]bool // the codec package names given
}

// NewLayout returns the layout of the codec packages of the registry at
// import path registry, whose tools are in roots: a codec package for any
// package roots reach may be needed, named after that package with
// "codec" appended, numbered in import path order when names coincide.
func NewLayout(registry string, roots []*types.Package) *Layout {
	l := &Layout{base: registry + "/internal", name: map[string]string{}, rank: map[string]int{}, named: map[string]*types.Package{}, used: map[string]bool{}}
	for _, p := range roots {
		l.height(p)
	}
	paths := make([]string, 0, len(l.named))
	for p := range l.named {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		l.nameOf(l.named[p])
	}
	return l
}

// height is one more than the largest height of the packages p imports:
// a package comes after every package it imports.
func (l *Layout) height(p *types.Package) int {
	if h, ok := l.rank[p.Path()]; ok {
		return h
	}
	l.rank[p.Path()] = 0 // an import cycle is a type-checking error: stop here
	l.named[p.Path()] = p
	h := 0
	for _, q := range p.Imports() {
		h = max(h, l.height(q)+1)
	}
	l.rank[p.Path()] = h
	return h
}

// home is the Go package whose codec package holds the codecs of t: the
// package of a named type, or for an instantiated generic type, the one
// coming last in import order among the packages it names; nil for a type
// naming no package (an unnamed struct: it goes with its user).
func (l *Layout) home(t types.Type) *types.Package {
	var best *types.Package
	visitPackages(t, map[types.Type]bool{}, func(p *types.Package) {
		if best == nil || l.before(best, p) {
			best = p
		}
	})
	return best
}

// Home is the import path of the codec package holding the codecs of t,
// a named or instantiated type; "" for a type naming no package.
func (l *Layout) Home(t types.Type) string {
	p := l.home(t)
	if p == nil {
		return ""
	}
	return l.base + "/" + l.nameOf(p)
}

// before reports whether a comes before b: lower in the import graph, or
// at the same height and first by path.
func (l *Layout) before(a, b *types.Package) bool {
	ha, hb := l.height(a), l.height(b)
	if ha != hb {
		return ha < hb
	}
	return a.Path() < b.Path()
}

// visitPackages calls f with the package of every named type t is built
// from: a named type and its type arguments, the elements of composite
// types. The fields of a named struct are its own package's business.
func visitPackages(t types.Type, seen map[types.Type]bool, f func(*types.Package)) {
	if seen[t] {
		return
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil {
			f(p)
		}
		for a := range t.TypeArgs().Types() {
			visitPackages(a, seen, f)
		}
	case *types.Alias:
		visitPackages(types.Unalias(t), seen, f)
	case *types.Pointer:
		visitPackages(t.Elem(), seen, f)
	case *types.Slice:
		visitPackages(t.Elem(), seen, f)
	case *types.Array:
		visitPackages(t.Elem(), seen, f)
	case *types.Map:
		visitPackages(t.Key(), seen, f)
		visitPackages(t.Elem(), seen, f)
	case *types.Struct:
		for i := range t.NumFields() {
			visitPackages(t.Field(i).Type(), seen, f)
		}
	}
}

// unitOf returns the codec package of the Go package p, made on first
// use.
func (g *Planner) unitOf(p *types.Package) *unit {
	name := g.layout.nameOf(p)
	path := g.layout.base + "/" + name
	u, ok := g.units[path]
	if !ok {
		u = &unit{path: path, name: name, funcs: map[string]string{}, names: map[string]bool{}, patterns: map[string]string{}}
		for _, n := range reservedNames {
			u.names[n] = true
		}
		g.units[path] = u
	}
	return u
}

// nameOf is the name of the codec package of p; a package the roots do
// not reach (none: every type a tool names is imported) gets one too.
func (l *Layout) nameOf(p *types.Package) string {
	if n, ok := l.name[p.Path()]; ok {
		return n
	}
	base := p.Name() + "codec"
	n := base
	for i := 2; l.used[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	l.used[n] = true
	l.name[p.Path()] = n
	return n
}

// reservedNames are the names a codec package's other declarations take:
// the decoder of a tool without arguments.
var reservedNames = []string{NoArguments}

// NoArguments is the decoder a codec package holds when one of its tools
// takes no arguments.
const NoArguments = "DecodeNoArguments"

// unit is one codec package being written.
type unit struct {
	path, name string
	decls      []jen.Code
	funcs      map[string]string // dedup key -> function name
	names      map[string]bool   // function and variable names in use
	patterns   map[string]string // regexp source -> package-level variable
}

// enter makes the codec package of t's home current, when t has one, and
// returns the function making the previous one current again.
func (g *Planner) enter(t types.Type) (restore func()) {
	saved := g.cur
	if p := g.layout.home(t); p != nil {
		g.cur = g.unitOf(p)
	}
	return func() { g.cur = saved }
}

// Enter makes the codec package of the Go package p current: the
// decoders, encoders and statements planned next, and the call function
// of a tool of p, go there.
func (g *Planner) Enter(p *types.Package) {
	g.cur = g.unitOf(p)
}

// Current is the import path of the current codec package.
func (g *Planner) Current() string { return g.cur.path }

// Func is a generated function: the import path of its package and its
// name.
type Func struct {
	Path, Name string
}

// Call is a call of f with args; jennifer leaves the package out where
// the call is in f's own package.
func (f Func) Call(args ...jen.Code) *jen.Statement {
	return jen.Qual(f.Path, f.Name).Call(args...)
}

// ref is the function name of the current codec package.
func (g *Planner) ref(name string) Func { return Func{Path: g.cur.path, Name: name} }

// Unit is one codec package to print.
type Unit struct {
	Path, Name string     // its import path and package name
	Decls      []jen.Code // its decoders and encoders, in the order written
	Patterns   []Pattern  // its patterns, sorted by name
}
