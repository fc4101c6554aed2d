package codecplan

import (
	"go/types"
	"slices"
	"strconv"
	"sync"

	"github.com/dave/jennifer/jen"
)

// Where the codecs go. The generated registry is a small package (specs,
// schemas, the dispatch switch) over one codec package per Go package
// whose types it decodes or encodes, under the registry's internal
// directory: internal/notescodec holds the decoders and encoders of the
// types of package notes, and the call function of each tool of notes.
// The compiler then works on packages of bounded size, in parallel, and
// a change to one type rewrites the codec package of its Go package (and
// its schemas in the registry), not the others.
//
// Every decoder and encoder is written once, in the codec package of its
// type's Go package (an unnamed struct goes with the codec that uses it),
// and called from the others: the decoder of a struct of package notes
// calls the decoder of a field type of package shared, which notes
// imports. Codec packages therefore import each other as their Go
// packages do, and never in a cycle. (toolgen refuses generic types, whose
// instantiations could name packages importing each other the other way.)

// Layout names the codec packages of one registry. Its methods may be
// called concurrently: a unit is rendered while the next one is planned.
type Layout struct {
	base string            // the import path they are under: <registry>/internal
	mu   sync.Mutex        // guards name and used
	name map[string]string // Go package path -> codec package name
	used map[string]bool   // the codec package names given
}

// NewLayout returns the layout of the codec packages of the registry at
// import path registry, whose tools are in roots: a codec package for any
// package roots reach may be needed, named after that package with
// "codec" appended, numbered in import path order when names coincide.
func NewLayout(registry string, roots []*types.Package) *Layout {
	l := &Layout{base: registry + "/internal", name: map[string]string{}, used: map[string]bool{}}
	reached := map[string]*types.Package{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if reached[p.Path()] != nil {
			return
		}
		reached[p.Path()] = p
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	for _, p := range roots {
		walk(p)
	}
	paths := make([]string, 0, len(reached))
	for p := range reached {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		l.nameOf(reached[p])
	}
	return l
}

// home is the Go package whose codec package holds the codecs of t: the
// package of a named type; nil for a type naming no package (an unnamed
// struct: it goes with its user).
func home(t types.Type) *types.Package {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Pkg()
	}
	return nil
}

// Home is the import path of the codec package holding the codecs of the
// named type t; "" for a type naming no package.
func (l *Layout) Home(t types.Type) string {
	p := home(t)
	if p == nil {
		return ""
	}
	return l.base + "/" + l.nameOf(p)
}

// Unit is the import path of the codec package of the Go package p: the
// one holding the call functions of p's tools and the codecs of its types.
func (l *Layout) Unit(p *types.Package) string {
	return l.base + "/" + l.nameOf(p)
}

// unitOf returns the codec package of the Go package p, made on first
// use.
func (g *Planner) unitOf(p *types.Package) *unit {
	name := g.layout.nameOf(p)
	path := g.layout.base + "/" + name
	u, ok := g.units[path]
	if !ok {
		u = &unit{path: path, name: name, funcs: map[string]string{}, names: map[string]bool{}, patterns: map[string]Pattern{}}
		for _, n := range reservedNames {
			u.names[n] = true
		}
		g.units[path] = u
	}
	return u
}

// nameOf is the name of the codec package of p, given on first use.
func (l *Layout) nameOf(p *types.Package) string {
	l.mu.Lock()
	defer l.mu.Unlock()
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
// the decoder of a tool without arguments and the property table.
var reservedNames = []string{NoArguments, PropsTable}

// NoArguments is the decoder a codec package holds when one of its tools
// takes no arguments.
const NoArguments = "DecodeNoArguments"

// unit is one codec package being written.
type unit struct {
	path, name string
	decls      []jen.Code
	funcs      map[string]string  // dedup key -> function name
	names      map[string]bool    // function and variable names in use
	patterns   map[string]Pattern // by its regexp source
	props      []string           // the property table (PropsTable)
	ranges     []PropsRange       // its decoders' ranges, in the order written
}

// enter makes the codec package of t's home current, when t has one, and
// returns the function making the previous one current again.
func (g *Planner) enter(t types.Type) (restore func()) {
	saved := g.cur
	if p := home(t); p != nil {
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
	Path, Name string       // its import path and package name
	Decls      []jen.Code   // its decoders and encoders, in the order written
	Patterns   []Pattern    // its patterns, sorted by name
	Props      []string     // its property table (PropsTable)
	Ranges     []PropsRange // the decoders' ranges of Props, in the order written
}
