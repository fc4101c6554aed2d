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
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"golang.org/x/tools/go/packages"
)

// staticSchemas returns the static path for the types of l's packages:
// for a type it can derive, the raw result the bootstrap program would
// write ({"schema": ...}) and true. It reads the doc comments of the
// loaded packages a type's package imports, directly or not, from cs
// (nil: none), and the files of a package (hasBootstrapFiles) once its
// types are asked for.
func staticSchemas(l *loaded, cs *commentSet) func(bootstrapType) (json.RawMessage, bool) {
	pkgs := map[string]*packages.Package{}
	for _, p := range l.pkgs {
		pkgs[p.PkgPath] = p
	}
	allowed := map[string]bool{}
	allow := func(path string) (ok, loaded bool) {
		p := pkgs[path]
		if p == nil {
			return false, false
		}
		ok, done := allowed[path]
		if !done {
			ok = p.Types != nil && !hasBootstrapFiles(p)
			allowed[path] = ok
		}
		return ok, true
	}
	goroot := build.Default.GOROOT
	s := &schema.Static{Comments: map[string]string{}, Allowed: func(p *types.Package) bool {
		if ok, loaded := allow(p.Path()); loaded {
			return ok
		}
		return standardPackage(goroot, p.Path())
	}}
	if cs != nil {
		s.Comments = cs.m
	}
	ensured := map[string]bool{} // the packages whose closure's comments are in cs
	return func(t bootstrapType) (json.RawMessage, bool) {
		p := pkgs[t.PkgPath]
		if ok, _ := allow(t.PkgPath); !ok {
			return nil, false
		}
		tn, ok := p.Types.Scope().Lookup(t.Name).(*types.TypeName)
		if !ok {
			return nil, false
		}
		if cs != nil && !ensured[t.PkgPath] {
			cs.ensure(typesClosure(p.Types)...)
			ensured[t.PkgPath] = true
		}
		root, err := s.StaticRaw(tn.Type())
		if err != nil {
			return nil, false
		}
		return json.RawMessage(`{"schema":` + string(root.Compact()) + `}`), true
	}
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
		for i, t := range types {
			if cfg.staticCache.isAnswered(t.PkgPath) {
				continue // nil: the entry leaves the type to the program
			}
			if raw, ok := cfg.static(t); ok {
				items[i] = raw
			}
		}
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
