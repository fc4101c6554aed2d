package gen

// The cached load: when the bootstrap scan (6_schemas_cache.go: go list
// -deps over the tools packages, and the hash of every package's files)
// lists the packages as the load would see them, the tools packages are
// parsed and type-checked from the scan's listing, and the packages they
// import are read from export data kept in the toolgen cache (export/),
// so the load runs no go command of its own. go/packages runs go list
// -export, which compiles every tools package (the changed one, after an
// edit) only for toolgen to type-check it from source again.
//
// An entry is the export data go list wrote for one imported package,
// stored as it was read by the go/packages load that stored it, under a
// key that hashes toolgen's identity, the go command's environment
// (hashGoEnv), the build flags, the package's import path and the scan's
// hashes of its import closure. The types are the ones go/packages gives:
// the same export data read by the same reader, the tools packages checked
// from the same files with the same configuration.
//
// The load goes through go/packages, which then stores the entries the
// next run needs, when:
//
//   - the cache is off or the scan failed;
//   - the scan's listing may not be the load's: a Go file of a listed
//     package has a build constraint that names BootstrapTag (the scan
//     lists with it), GOFLAGS sets tags, or the load's GOOS or GOARCH is
//     not the host's, which the scan lists for (the scan then merges the
//     load's listing into its own, for the keys: listsAsLoaded);
//   - a listed package has an error, a tools package uses cgo or an
//     import map (vendoring), the output package is listed (a pattern
//     matches it or a registry user), or a package the tools packages
//     import, but they themselves, imports a tools package;
//   - an imported package's entry is missing or does not read;
//   - a tools package does not parse or type-check: go/packages then
//     reports the errors, as it always does.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// exportCacheDir is the directory of the export data entries in the
// cache.
const exportCacheDir = "export"

// exportCacheKind names the export data entries; its version changes with
// their format or with what the key hashes.
const exportCacheKind = "toolgen export data 1"

// exportCache is the export data cache of one run. A nil exportCache
// loads and stores nothing.
type exportCache struct {
	cache *cache.Cache
	in    *bootstrapInputs
	base  cache.Key // toolgen's identity, the go env and the build flags
	bad   sync.Map  // the keys whose entry did not read (cache.Key -> true), stored again
}

// exportCacheUsed reports whether the cache directory opts configures
// has the export data directory (a run stored entries): only then does
// the load wait for the scan to try them, instead of starting go/packages
// at once.
func exportCacheUsed(opts *Options) bool {
	if opts.cacheOff("export") {
		return false
	}
	_, err := os.Stat(filepath.Join(opts.Cache, exportCacheDir))
	return err == nil
}

// openExportCache waits for the scan and returns the export data cache,
// or nil when there is no scan, or its listing may not be the load's.
func openExportCache(opts *Options, scan *bootstrapScan) *exportCache {
	if opts.skip["export"] {
		return nil
	}
	in, err := scan.wait()
	if err != nil || !in.listsAsLoaded() {
		return nil
	}
	c, err := cache.Open(filepath.Join(opts.Cache, exportCacheDir))
	if err != nil {
		return nil
	}
	h := cache.NewHasher(exportCacheKind)
	h.String(opts.Identity)
	if err := hashGoEnv(h, opts.Env, in); err != nil {
		return nil
	}
	h.String(strings.Join(opts.BuildFlags, "\x00"))
	return &exportCache{cache: c, in: in, base: h.Key()}
}

// listsAsLoaded reports whether the scan's listing, the bootstrap
// program's (with BootstrapTag, on the host's GOOS and GOARCH), is the
// listing of the load: the load's listing did not have to be merged in
// (scanBootstrapInputs: no Go file's constraint names the tag, and the
// load's GOOS and GOARCH, as go env reports them in the load's
// environment, are the host's), the go command's host is toolgen's, and
// GOFLAGS sets no tags.
func (in *bootstrapInputs) listsAsLoaded() bool {
	var goEnv struct{ GOFLAGS, GOOS, GOARCH, GOHOSTOS, GOHOSTARCH string }
	if in.loadListed || len(in.tagged) > 0 || json.Unmarshal(in.env, &goEnv) != nil || strings.Contains(goEnv.GOFLAGS, "tags") {
		return false
	}
	return goEnv.GOHOSTOS == runtime.GOOS && goEnv.GOHOSTARCH == runtime.GOARCH &&
		goEnv.GOOS == runtime.GOOS && goEnv.GOARCH == runtime.GOARCH
}

// servesLoad reports whether the listing serves the cached load of the
// packages opts' patterns match, as far as the listing tells: it lists
// them as the load sees them (listsAsLoaded), and list finds nothing
// that sends the load to go/packages. The entries are not looked at.
func (in *bootstrapInputs) servesLoad(opts *Options) bool {
	if !in.listsAsLoaded() {
		return false
	}
	cl := &cachedLoad{ec: &exportCache{in: in}, opts: opts, pkgs: map[string]*packages.Package{}}
	return cl.list()
}

// key is the key of the export data of the package at path, or false
// when the scan does not list its closure.
func (ec *exportCache) key(path string) (cache.Key, bool) {
	set := map[string]bool{}
	if !ec.in.closure(path, set) {
		return cache.Key{}, false
	}
	h := cache.NewHasher(exportCacheKind)
	h.Bytes(ec.base[:])
	h.String(path)
	ec.in.hashClosure(h, set, nil)
	return h.Key(), true
}

// store keeps the export data go/packages read for the packages that
// pkgs, the tools packages it loaded, import, when not kept already.
func (ec *exportCache) store(pkgs []*packages.Package) {
	if ec == nil {
		return
	}
	roots := map[string]bool{}
	for _, p := range pkgs {
		roots[p.PkgPath] = true
	}
	done := map[string]bool{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if roots[imp.PkgPath] || done[imp.PkgPath] || imp.PkgPath == "unsafe" || imp.ExportFile == "" {
				continue
			}
			done[imp.PkgPath] = true
			k, ok := ec.key(imp.PkgPath)
			if _, bad := ec.bad.Load(k); !ok || !bad && ec.cache.Has(k) {
				continue
			}
			if data, err := os.ReadFile(imp.ExportFile); err == nil {
				ec.cache.Put(k, data) // a failed store only costs the next run a go list
			}
		}
	}
}

// cachedLoad is one cached load's state: the listing's packages as
// go/packages gives them, by import path.
type cachedLoad struct {
	ec    *exportCache
	opts  *Options
	fset  *token.FileSet
	roots []*packages.Package // the tools packages, in go list's order
	pkgs  map[string]*packages.Package
}

// load returns the packages opts' patterns match as go/packages loads
// them with loadMode, or false (see the top of this file).
func (ec *exportCache) load(ctx context.Context, opts *Options, fset *token.FileSet) ([]*packages.Package, bool) {
	if ec == nil {
		return nil, false
	}
	cl := &cachedLoad{ec: ec, opts: opts, fset: fset, pkgs: map[string]*packages.Package{}}
	if !cl.list() || ctx.Err() != nil {
		return nil, false
	}
	if !cl.readImports() || ctx.Err() != nil {
		return nil, false
	}
	if !cl.parse() || ctx.Err() != nil {
		return nil, false
	}
	if !cl.check() || ctx.Err() != nil {
		return nil, false
	}
	return cl.roots, true
}

// list builds the packages of the tools packages' closure from the scan's
// listing, or reports false when the listing does not serve.
func (cl *cachedLoad) list() bool {
	in := cl.ec.in
	patterns := map[string]bool{}
	for _, p := range cl.opts.Patterns {
		patterns[p] = true
	}
	outDir := filepath.Clean(cl.opts.outDir())
	var add func(path string) *packages.Package
	ok := true
	add = func(path string) *packages.Package {
		if p := cl.pkgs[path]; p != nil {
			return p
		}
		lp := in.pkgs[path]
		if lp == nil || lp.Error != nil || strings.ContainsAny(path, " \t") || filepath.Clean(lp.Dir) == outDir {
			ok = false
			return nil
		}
		p := &packages.Package{ID: path, Name: lp.Name, PkgPath: path, Imports: map[string]*packages.Package{}}
		for _, name := range lp.GoFiles {
			p.GoFiles = append(p.GoFiles, filepath.Join(lp.Dir, name))
		}
		for _, name := range append(slices.Clip(lp.IgnoredGoFiles), lp.IgnoredOtherFiles...) {
			p.IgnoredFiles = append(p.IgnoredFiles, filepath.Join(lp.Dir, name))
		}
		if m := lp.Module; m != nil {
			p.Module = &packages.Module{Path: m.Path, Version: m.Version, Main: m.Main, Dir: m.Dir, GoMod: m.GoMod, GoVersion: m.GoVersion}
		}
		cl.pkgs[path] = p
		for _, imp := range lp.Imports {
			if imp == "C" {
				continue
			}
			if q := add(imp); q != nil {
				p.Imports[imp] = q
			}
		}
		return p
	}
	for _, path := range in.order {
		lp := in.pkgs[path]
		if !slices.ContainsFunc(lp.Match, func(m string) bool { return patterns[m] }) {
			continue
		}
		if lp.DepOnly || len(lp.DepsErrors) > 0 || len(lp.CgoFiles) > 0 || len(lp.ImportMap) > 0 || len(lp.GoFiles) == 0 {
			return false
		}
		if p := add(path); p != nil {
			cl.roots = append(cl.roots, p)
		}
	}
	return ok && len(cl.roots) > 0 && !cl.rootImported()
}

// rootImported reports whether a package that is not a tools package
// imports one: go/packages would give it the tools package's types from
// source, which this load does not do.
func (cl *cachedLoad) rootImported() bool {
	roots := map[*packages.Package]bool{}
	for _, p := range cl.roots {
		roots[p] = true
	}
	for _, p := range cl.pkgs {
		if roots[p] {
			continue
		}
		for _, q := range p.Imports {
			if roots[q] {
				return true
			}
		}
	}
	return false
}

// readImports reads the export data of the packages the tools packages
// import, in import path order, into one map of packages, as go/packages
// does: every package of the closure is there, the imported ones complete.
func (cl *cachedLoad) readImports() bool {
	isRoot := map[string]bool{}
	for _, p := range cl.roots {
		isRoot[p.PkgPath] = true
	}
	var paths []string
	for _, p := range cl.roots {
		for path := range p.Imports {
			if !isRoot[path] && path != "unsafe" {
				paths = append(paths, path)
			}
		}
	}
	slices.Sort(paths)
	view := map[string]*types.Package{}
	for path, p := range cl.pkgs {
		switch {
		case path == "unsafe":
			p.Types = types.Unsafe
		case !isRoot[path]:
			p.Types = types.NewPackage(path, p.Name)
		default:
			continue
		}
		view[path] = p.Types
	}
	for _, path := range slices.Compact(paths) {
		k, ok := cl.ec.key(path)
		if !ok {
			return false
		}
		data, ok := cl.ec.cache.Get(k)
		if !ok {
			cl.ec.bad.Store(k, true)
			return false
		}
		r, err := gcexportdata.NewReader(bytes.NewReader(data))
		if err != nil {
			return false
		}
		tp, err := gcexportdata.Read(r, cl.fset, view, path)
		if err != nil || tp != cl.pkgs[path].Types {
			return false
		}
	}
	return true
}

// parse parses the tools packages' files, GOMAXPROCS at a time, as
// go/packages does (parser.AllErrors | parser.ParseComments), or reports
// false when one does not read or parse.
func (cl *cachedLoad) parse() bool {
	type job struct {
		p *packages.Package
		i int
	}
	var jobs []job
	for _, p := range cl.roots {
		p.Syntax = make([]*ast.File, len(p.GoFiles))
		for i := range p.GoFiles {
			jobs = append(jobs, job{p, i})
		}
	}
	failed := make([]bool, len(jobs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for n := range work {
				j := jobs[n]
				src, err := os.ReadFile(j.p.GoFiles[j.i])
				if err == nil {
					j.p.Syntax[j.i], err = parser.ParseFile(cl.fset, j.p.GoFiles[j.i], src, parser.AllErrors|parser.ParseComments)
				}
				failed[n] = err != nil
			}
		})
	}
	for n := range jobs {
		work <- n
	}
	close(work)
	wg.Wait()
	return !slices.Contains(failed, true)
}

// check type-checks the tools packages, each once the tools packages it
// imports are checked, GOMAXPROCS at a time, with go/packages'
// configuration, or reports false when one has an error.
func (cl *cachedLoad) check() bool {
	done := map[*packages.Package]chan struct{}{}
	for _, p := range cl.roots {
		done[p] = make(chan struct{})
	}
	sizes := types.SizesFor("gc", runtime.GOARCH)
	failed := make([]bool, len(cl.roots))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range cl.roots {
		wg.Go(func() {
			defer close(done[p])
			for _, q := range p.Imports {
				if d := done[q]; d != nil {
					<-d
				}
			}
			slots <- struct{}{}
			defer func() { <-slots }()
			failed[i] = !cl.checkOne(p, sizes)
		})
	}
	wg.Wait()
	return !slices.Contains(failed, true)
}

// checkOne type-checks p, whose imports are complete; its TypesInfo
// records the definitions only.
func (cl *cachedLoad) checkOne(p *packages.Package, sizes types.Sizes) bool {
	for _, q := range p.Imports {
		if q.PkgPath != "unsafe" && (q.Types == nil || !q.Types.Complete()) {
			return false // a tools package that failed, or export data not read
		}
	}
	p.Fset = cl.fset
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	p.TypesSizes = sizes
	// Defs is the one map of TypesInfo the later phases read (the model,
	// for each tool's type); recording the others is most of what a
	// type-check costs beyond the checking itself.
	p.TypesInfo = &types.Info{Defs: map[*ast.Ident]types.Object{}}
	failed := false
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if q := p.Imports[path]; q != nil && q.Types != nil {
				return q.Types, nil
			}
			return nil, errors.New("not listed")
		}),
		Error: func(error) { failed = true },
		Sizes: sizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	err := types.NewChecker(tc, cl.fset, p.Types, p.TypesInfo).Files(p.Syntax)
	return err == nil && !failed
}

// importerFunc is a types.Importer of a function.
type importerFunc func(path string) (*types.Package, error)

// Import imports the package at path.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
