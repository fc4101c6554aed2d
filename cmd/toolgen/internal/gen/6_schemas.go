package gen

import (
	"context"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"golang.org/x/tools/go/packages"
)

// reflectSchemas derives the schema of every tool's input and structured
// output type, statically when it can (6_schemas_static.go), else with the
// bootstrap program, and records the published schemas on the tools.
// scan, when not nil, lets the program's results for unchanged packages
// come from the cache.
func reflectSchemas(ctx context.Context, l *loaded, m *model, opts *Options, scan *bootstrapScan, timer *phaseTimer) []*problem.Error {
	cs := newCommentSet(l)
	var reqs []schemaRequest
	var dirs []string
	for _, t := range m.tools {
		r := schemaRequest{Tool: t.name, Pos: t.pos}
		if t.input != nil {
			r.Input = &bootstrapType{PkgPath: t.input.Obj().Pkg().Path(), Name: t.input.Obj().Name()}
		}
		if t.outKind == outStructured {
			r.Output = &bootstrapType{PkgPath: t.outStruct.Obj().Pkg().Path(), Name: t.outStruct.Obj().Name()}
		}
		reqs = append(reqs, r)
		if len(t.pkg.GoFiles) > 0 {
			dirs = append(dirs, filepath.Dir(t.pkg.GoFiles[0]))
		}
	}
	dir := commonDir(dirs)
	if l.module != nil && !within(l.module.Dir, dir) {
		dir = l.module.Dir
	}
	cfg := bootstrapConfig{Dir: dir, BuildFlags: opts.BuildFlags, Env: opts.Env, Identity: opts.Identity, scan: scan, timer: timer, static: newStaticPath(l, cs), comments: cs}
	if !opts.skip["static"] {
		cfg.staticCache = openStaticCache(opts.Cache, l, &cfg)
	}
	cfg.skipCache = opts.skip["bootstrap"]
	timer.done("comments")
	got, errs := runBootstrap(ctx, cfg, reqs)
	// The doc comments of every package the static cache did not answer
	// are read, so that a problem with them is reported as before.
	for _, p := range cs.order {
		if !cfg.staticCache.isAnswered(p) {
			cs.ensure(p)
		}
	}
	errs = append(slices.Clip(cs.errs), errs...)
	if len(errs) > 0 {
		return errs
	}
	empty, err := jsontree.Parse([]byte(emptyInput))
	if err != nil {
		return []*problem.Error{{Msg: "toolgen bug: " + err.Error()}}
	}
	defer timer.done("schemas")
	for _, t := range m.tools {
		s := got[t.name]
		t.inNode, t.outNode = s.Input, s.Output
		if t.input == nil || t.inNode == nil {
			t.inNode = empty
			continue
		}
		// An input's own doc comment is not published as the root's
		// description (schema.InputRoot says why); an output's is: output
		// schemas are not part of the provider declarations sent with
		// every request, and the result type's doc says what the result
		// is, which a tool's description often does not. The bootstrap
		// reflects a type once: the input may be the output's node.
		t.inNode = t.inNode.Clone()
		path, name := t.input.Obj().Pkg().Path(), t.input.Obj().Name()
		root := map[string]string{}
		if doc, ok := cs.rootDoc(path, name); ok {
			root[path+"."+name] = doc
		}
		schema.InputRoot(t.inNode, root, path, name)
	}
	return nil
}

// commonDir is the deepest directory holding every dir.
func commonDir(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	common := dirs[0]
	for _, d := range dirs[1:] {
		for !within(common, d) {
			parent := filepath.Dir(common)
			if parent == common {
				return common
			}
			common = parent
		}
	}
	return common
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// schemaComments is the CommentMap of l's packages after the comment-map
// step (documented in package schema): descriptions reach the model
// without the line breaks of the source, and without the Go identifier
// they start with unless the package keeps it (//tool:keepnames).
func schemaComments(l *loaded) (map[string]string, []*problem.Error) {
	cs := newCommentSet(l)
	cs.ensure(cs.order...)
	return cs.m, cs.errs
}

// commentSet is schemaComments computed package by package, each when
// first needed (ensure): a run whose static schemas come from the cache
// reads the doc comments of the changed packages only. m holds the
// entries of the packages done, merged in l's order, as schemaComments
// merges them.
type commentSet struct {
	l       *loaded
	keep    map[string]bool
	order   []string                     // the packages' paths, in l's order
	pkgs    map[string]*packages.Package // by path
	byPkg   map[string]map[string]string // the entries of each package done
	m       map[string]string
	owner   map[string]int  // when overlap: the index in l.pkgs of the package of each entry of m
	overlap bool            // a package's path is another's followed by a dot
	merged  map[string]bool // the packages whose entries are in m
	errs    []*problem.Error
	// roots are the entries the static cache recorded for the requested
	// types of the packages it answered ("pkg.Type" -> doc), which
	// rootDoc reads for a package not done.
	roots map[string]string
}

// newCommentSet is the comment set of l, with no package done.
func newCommentSet(l *loaded) *commentSet {
	cs := &commentSet{l: l, keep: keepsNames(l), pkgs: map[string]*packages.Package{}, byPkg: map[string]map[string]string{}, m: map[string]string{}, owner: map[string]int{}, merged: map[string]bool{}, roots: map[string]string{}}
	for _, p := range l.pkgs {
		if _, ok := cs.pkgs[p.PkgPath]; !ok {
			cs.order = append(cs.order, p.PkgPath)
			cs.pkgs[p.PkgPath] = p
		}
	}
	for _, a := range cs.order {
		for _, b := range cs.order {
			cs.overlap = cs.overlap || strings.HasPrefix(b, a+".")
		}
	}
	return cs
}

// ensure adds the entries of the packages of paths not done yet; paths
// that are not loaded packages have no entries.
func (cs *commentSet) ensure(paths ...string) {
	var todo []*packages.Package
	queued := map[string]bool{}
	for _, path := range paths {
		p := cs.pkgs[path]
		if p == nil || cs.byPkg[path] != nil || queued[path] {
			continue
		}
		queued[path] = true
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return
	}
	// Each package's entries depend on its files alone: GOMAXPROCS
	// packages are read at once, their problems kept in paths' order.
	pkgs := make([]map[string]string, len(todo))
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := range next {
				p, pkg := todo[i], map[string]string{}
				errs[i] = schema.AddComments(pkg, cs.l.fset, p.PkgPath, p.Syntax)
				schema.ReflowComments(pkg)
				if !cs.keep[p.PkgPath] {
					schema.DropNames(pkg)
				}
				pkgs[i] = pkg
			}
		})
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, p := range todo {
		if errs[i] != nil {
			cs.errs = append(cs.errs, &problem.Error{Msg: errs[i].Error()})
		}
		cs.byPkg[p.PkgPath] = pkgs[i]
	}
	// Merged in l's order, as schemaComments merges: of two packages with
	// an entry under one key, the later one's wins. Only a package whose
	// path is another's followed by a dot can share a key with it; without
	// one, the entries are copied as they come.
	for i, p := range cs.l.pkgs {
		pkg := cs.byPkg[p.PkgPath]
		if pkg == nil || cs.merged[p.PkgPath] {
			continue
		}
		cs.merged[p.PkgPath] = true
		if !cs.overlap {
			maps.Copy(cs.m, pkg)
			continue
		}
		for k, v := range pkg {
			if o, ok := cs.owner[k]; !ok || o <= i {
				cs.m[k], cs.owner[k] = v, i
			}
		}
	}
}

// done reports whether the entries of the package at path are in m.
func (cs *commentSet) done(path string) bool { return cs.byPkg[path] != nil }

// rootDoc is the CommentMap entry of the type pkgPath.name, from m when
// its package is done, else from what the static cache recorded.
func (cs *commentSet) rootDoc(pkgPath, name string) (string, bool) {
	key := pkgPath + "." + name
	if cs.done(pkgPath) {
		doc, ok := cs.m[key]
		return doc, ok
	}
	doc, ok := cs.roots[key]
	return doc, ok
}
