package gen

// The static path (package schema's static.go): the schemas of the types
// whose graph needs no hook are derived from go/types, without the
// bootstrap program; the other types go through the program (and its
// cache) as before. A type goes through the program when anything in its
// graph may make invopop's result differ from the derivation: a hook
// method (JSONSchema, JSONSchemaExtend, JSONSchemaAlias,
// JSONSchemaProperty, GetFieldDocString, EnumDescriptor), a named type of
// a package with a file whose build constraint names the bootstrap tag
// (the program may compile what go/types did not see), a named type of a package toolgen did not load
// from source (other than the standard library, which has no such file),
// a generic or function-local type, a kind invopop refuses, or a tag
// invopop would panic on or encode as invalid JSON (schema.NotStaticError
// says which).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"go/build"
	"go/build/constraint"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"golang.org/x/tools/go/packages"
)

// staticPath is the static path for the types of a run's packages: for
// a type it can derive, the raw result the bootstrap program would write
// ({"schema": ...}). It reads the doc comments of the loaded packages a
// type's package imports, directly or not, from cs, and the files of a
// package (hasBootstrapFiles) once its types are asked for. Its methods
// are safe for concurrent use.
type staticPath struct {
	pkgs   map[string]*packages.Package
	cs     *commentSet // nil: no comments
	goroot string
	// statics are the schema.Static values not in use: a Static keeps
	// what it learnt of each type (schema.Static.checked) and is not safe
	// for concurrent use, so each derivation takes one.
	statics chan *schema.Static

	mu      sync.Mutex
	allowed map[string]bool // by package path, once asked
	ensured map[string]bool // the packages whose closure's comments are in cs
}

// newStaticPath is the static path of l's packages, reading comments
// from cs (nil: none).
func newStaticPath(l *loaded, cs *commentSet) *staticPath {
	sp := &staticPath{pkgs: map[string]*packages.Package{}, cs: cs, goroot: build.Default.GOROOT,
		statics: make(chan *schema.Static, runtime.GOMAXPROCS(0)), allowed: map[string]bool{}, ensured: map[string]bool{}}
	for _, p := range l.pkgs {
		sp.pkgs[p.PkgPath] = p
	}
	return sp
}

// allow reports whether the named types of the package at path may be
// read from go/types (ok), and whether it is a loaded package.
func (sp *staticPath) allow(path string) (ok, loaded bool) {
	p := sp.pkgs[path]
	if p == nil {
		return false, false
	}
	sp.mu.Lock()
	ok, done := sp.allowed[path]
	sp.mu.Unlock()
	if !done {
		ok = p.Types != nil && !hasBootstrapFiles(p)
		sp.mu.Lock()
		sp.allowed[path] = ok
		sp.mu.Unlock()
	}
	return ok, true
}

// static takes a schema.Static for one derivation; done gives it back.
func (sp *staticPath) static() *schema.Static {
	select {
	case s := <-sp.statics:
		return s
	default:
	}
	s := &schema.Static{Comments: map[string]string{}, Allowed: func(p *types.Package) bool {
		if ok, loaded := sp.allow(p.Path()); loaded {
			return ok
		}
		return standardPackage(sp.goroot, p.Path())
	}}
	if sp.cs != nil {
		s.Comments = sp.cs.m
	}
	return s
}

// done gives s back for another derivation.
func (sp *staticPath) done(s *schema.Static) {
	select {
	case sp.statics <- s:
	default:
	}
}

// typeName is the type t names, when the static path may derive it.
func (sp *staticPath) typeName(t bootstrapType) (*types.TypeName, bool) {
	if ok, _ := sp.allow(t.PkgPath); !ok {
		return nil, false
	}
	tn, ok := sp.pkgs[t.PkgPath].Types.Scope().Lookup(t.Name).(*types.TypeName)
	return tn, ok
}

// schema is the static path's result for t, and true when it derives t.
func (sp *staticPath) schema(t bootstrapType) (json.RawMessage, bool) {
	tn, ok := sp.typeName(t)
	if !ok {
		return nil, false
	}
	if sp.cs != nil {
		sp.mu.Lock()
		if !sp.ensured[t.PkgPath] {
			sp.cs.ensure(typesClosure(tn.Pkg())...)
			sp.ensured[t.PkgPath] = true
		}
		sp.mu.Unlock()
	}
	s := sp.static()
	defer sp.done(s)
	root, err := s.StaticRaw(tn.Type())
	if err != nil {
		return nil, false
	}
	return json.RawMessage(`{"schema":` + string(root.Compact()) + `}`), true
}

// schemas sets items[i] to the static path's result for types[i], for
// each i of todo it can derive, GOMAXPROCS types at once: it is what
// calling schema for each in turn sets. The comments of the packages the
// types reach are read first, then the types derived in parallel; when a
// package's path is another's followed by a dot (commentSet.overlap), the
// comments a derivation sees could depend on the order, and the types
// are derived in turn.
func (sp *staticPath) schemas(types []bootstrapType, todo []int, items []json.RawMessage) {
	if sp.cs != nil && sp.cs.overlap {
		for _, i := range todo {
			if raw, ok := sp.schema(types[i]); ok {
				items[i] = raw
			}
		}
		return
	}
	if sp.cs != nil {
		var paths []string
		for _, i := range todo {
			t := types[i]
			if tn, ok := sp.typeName(t); ok {
				sp.mu.Lock()
				if !sp.ensured[t.PkgPath] {
					paths = append(paths, typesClosure(tn.Pkg())...)
					sp.ensured[t.PkgPath] = true
				}
				sp.mu.Unlock()
			}
		}
		sp.mu.Lock()
		sp.cs.ensure(paths...)
		sp.mu.Unlock()
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := range next {
				if raw, ok := sp.schema(types[i]); ok {
					items[i] = raw
				}
			}
		})
	}
	for _, i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
}

// typesClosure is the path of p and of every package it imports, directly
// or not, as go/types records them, sorted.
func typesClosure(p *types.Package) []string {
	seen := map[*types.Package]bool{}
	var paths []string
	var walk func(*types.Package)
	walk = func(q *types.Package) {
		if q == nil || seen[q] {
			return
		}
		seen[q] = true
		paths = append(paths, q.Path())
		for _, imp := range q.Imports() {
			walk(imp)
		}
	}
	walk(p)
	slices.Sort(paths)
	return slices.Compact(paths)
}

// standardPackage reports whether path is a package of the standard
// library: no dot in its first element and a directory of GOROOT/src.
func standardPackage(goroot, path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if goroot == "" || strings.Contains(first, ".") {
		return false
	}
	fi, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(path)))
	return err == nil && fi.IsDir()
}

// hasBootstrapFiles reports whether a file of p, in the build or left
// out of it, has a build constraint that names BootstrapTag (or cannot be
// read): the bootstrap program, built with the tag, may then see another
// package than go/types did (a file built only with the tag, or only
// without it).
func hasBootstrapFiles(p *packages.Package) bool {
	for _, f := range append(slices.Clip(p.GoFiles), p.IgnoredFiles...) {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil || namesBootstrapTag(data) {
			return true
		}
	}
	return false
}

// namesBootstrapTag reports whether a //go:build or // +build line of src,
// before its package clause, names BootstrapTag.
func namesBootstrapTag(src []byte) bool {
	named, _ := bootstrapTagUse(src)
	return named
}

// bootstrapTagUse reports whether a //go:build or // +build line of src,
// before its package clause, names BootstrapTag (named), and whether one
// names it under a negation (negated): only such a file can be in the
// load's build, without the tag, and not in the program's, with it. A
// line that does not parse counts as both.
func bootstrapTagUse(src []byte) (named, negated bool) {
	var walk func(e constraint.Expr, neg bool)
	walk = func(e constraint.Expr, neg bool) {
		switch e := e.(type) {
		case *constraint.TagExpr:
			if e.Tag == BootstrapTag {
				named, negated = true, negated || neg
			}
		case *constraint.NotExpr:
			walk(e.X, !neg)
		case *constraint.AndExpr:
			walk(e.X, neg)
			walk(e.Y, neg)
		case *constraint.OrExpr:
			walk(e.X, neg)
			walk(e.Y, neg)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, len(src)+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "package ") {
			break
		}
		if !constraint.IsGoBuild(line) && !constraint.IsPlusBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return true, true
		}
		walk(expr, false) // every tag, not only those an evaluation reaches
	}
	return named, negated
}

// schemaItems returns, for each type, its raw result: from the static
// path when it can derive it, else from the bootstrap program and its
// cache (bootstrapCached).
func schemaItems(ctx context.Context, cfg bootstrapConfig, reqs []schemaRequest, types []bootstrapType) ([]json.RawMessage, []*problem.Error) {
	items := make([]json.RawMessage, len(types))
	if cfg.static != nil {
		cfg.staticCache.lookup(types, items)
		var todo []int
		for i, t := range types {
			if !cfg.staticCache.isAnswered(t.PkgPath) { // else nil: the entry leaves the type to the program
				todo = append(todo, i)
			}
		}
		cfg.static.schemas(types, todo, items)
		cfg.staticCache.store(types, items)
	}
	cfg.timer.done("static schemas")
	if cfg.comments != nil && slices.ContainsFunc(items, func(raw json.RawMessage) bool { return raw == nil }) {
		cfg.comments.ensure(cfg.comments.order...)
		cfg.Comments = cfg.comments.m // the program reads every package's
	}
	errs := fillMissing(items, types, func(rest []bootstrapType) ([]json.RawMessage, []*problem.Error) {
		return bootstrapCached(ctx, cfg, reqs, rest)
	})
	if len(errs) > 0 {
		return nil, errs
	}
	return items, nil
}

// fillMissing sets the items still nil to what compute returns for their
// types, in order; it calls compute only when an item is missing.
func fillMissing(items []json.RawMessage, types []bootstrapType, compute func([]bootstrapType) ([]json.RawMessage, []*problem.Error)) []*problem.Error {
	var missing []bootstrapType
	var where []int
	for i, t := range types {
		if items[i] == nil {
			missing = append(missing, t)
			where = append(where, i)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	got, errs := compute(missing)
	if len(errs) > 0 {
		return errs
	}
	for j, i := range where {
		items[i] = got[j]
	}
	return nil
}
