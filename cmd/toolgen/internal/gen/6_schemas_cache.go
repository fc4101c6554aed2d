package gen

// The bootstrap cache: the program's result for the types of one tools
// package is stored under a key that hashes everything the program reads
// to compute it, so an unchanged package is never reflected again:
//
//   - toolgen's identity (Options.Identity) and the program's source
//     (bootstrapHead, bootstrapTail, schema.BootstrapSource);
//   - the go command's environment (go env -json, in the load's
//     environment, whose GOFLAGS' tags the program is built with) and the
//     build flags with the bootstrap tag;
//   - the package's import path and the names of its requested types;
//   - for every package in the import closure of that package and of the
//     program's own imports: its import path, the names and content of
//     its Go, cgo, assembly, syso and embedded files as go list selects
//     them with the bootstrap's build flags (and, when the load may
//     select others, as it selects them: scanBootstrapInputs), and of the
//     Go files those flags leave out, its module's go.mod (and go.sum for
//     the main module), and the CommentMap entries of its types. The
//     standard library's files are not read: GOROOT and GOVERSION, in go
//     env, stand for them, as a Go release's files do not change (hashing
//     them was most of the scan's time; whoever edits GOROOT clears the
//     cache).
//
// A hook (JSONSchema, JSONSchemaExtend, a toolgen-tagged file) may read
// anything in its package and the packages it imports, so a type is keyed
// by its package's whole closure: a change there reflects the package's
// types again, and nothing else. What a hook reads at run time from
// outside Go sources (a file it opens, an environment variable other than
// the go command's) is not in the key; cmd/toolgen's documentation says
// to turn the cache off for such hooks.

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
)

// bootstrapCacheKind names the cache's bootstrap entries; its version
// changes with their format.
const bootstrapCacheKind = "toolgen bootstrap package 1"

// listedPackage is a package as go list -json reports it.
type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	Standard   bool
	DepOnly    bool
	Match      []string // the patterns that match it
	Imports    []string
	ImportMap  map[string]string
	Module     *struct {
		Path, Version, Dir, GoMod, GoVersion string
		Main                                 bool
	}
	GoFiles, CgoFiles, CFiles, CXXFiles, HFiles, SFiles, SysoFiles, EmbedFiles []string
	IgnoredGoFiles, IgnoredOtherFiles                                          []string
	Error                                                                      *struct{ Err string }
	DepsErrors                                                                 []*struct{ Err string }
}

// listedFields are the fields asked of go list.
const listedFields = "ImportPath,Name,Dir,Standard,DepOnly,Match,Imports,ImportMap,Module,GoFiles,CgoFiles,CFiles,CXXFiles,HFiles,SFiles,SysoFiles,EmbedFiles,IgnoredGoFiles,IgnoredOtherFiles,Error,DepsErrors"

// bootstrapInputs is what the cache keys are made of: the packages the
// bootstrap program may compile, with the hash of each one's files.
type bootstrapInputs struct {
	env    []byte                    // go env -json
	pkgs   map[string]*listedPackage // by import path
	order  []string                  // the import paths, in go list's order
	hashes map[string][]byte         // package -> hash of its files and module files
	tagged map[string]bool           // the packages with a Go file whose build constraint names BootstrapTag
	roots  []string                  // the program's own imports
	// negated reports whether a Go file's constraint names BootstrapTag
	// under a negation (bootstrapTagUse): the load may then select a file
	// the program's listing leaves out.
	negated bool
	// goflags is GOFLAGS as go env reports it (the environment's, or the
	// go env file's), whose tags the program is built with.
	goflags string
	// loadListed reports whether the load's listing was merged in
	// (addLoadListing): the listing is then not the load's.
	loadListed bool
}

// bootstrapScan lists and hashes the bootstrap program's inputs in the
// background, while toolgen loads and checks the tools packages. Wait
// returns the result; an error means the cache is not used this run.
type bootstrapScan struct {
	wg     sync.WaitGroup
	cancel context.CancelFunc
	cache  *cache.Cache
	inputs *bootstrapInputs
	err    error
}

// startBootstrapScan opens the cache and starts the scan for the packages
// matched by opts' patterns, or returns nil when the cache is off or
// cannot be opened (the run then goes without it). The caller stops the
// scan.
func startBootstrapScan(ctx context.Context, opts *Options) *bootstrapScan {
	if opts.Cache == "" || opts.Identity == "" {
		return nil
	}
	c, err := cache.Open(opts.Cache)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &bootstrapScan{cancel: cancel, cache: c}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.inputs, s.err = scanBootstrapInputs(ctx, opts.Dir, opts.Patterns, opts.BuildFlags, opts.Env)
	}()
	return s
}

// stop ends the scan and waits for it; a nil scan does nothing.
func (s *bootstrapScan) stop() {
	if s != nil {
		s.cancel()
		s.wg.Wait()
	}
}

// wait returns the scan's result; a nil scan returns an error.
func (s *bootstrapScan) wait() (*bootstrapInputs, error) {
	if s == nil {
		return nil, errors.New("the cache is off")
	}
	s.wg.Wait()
	return s.inputs, s.err
}

// bootstrapEnv is the go command's environment for the bootstrap program:
// env (nil: the process's) with GOOS and GOARCH the host's.
func bootstrapEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(slices.Clip(env), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
}

// bootstrapRoots are the packages the program imports besides the tools
// packages, read from its source.
func bootstrapRoots() ([]string, error) {
	var roots []string
	for _, src := range [][]byte{[]byte(bootstrapHead + ")\n"), schema.BootstrapSource()} {
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return nil, err
			}
			roots = append(roots, p)
		}
	}
	slices.Sort(roots)
	return slices.Compact(roots), nil
}

// scanBootstrapInputs runs go env and go list -deps (in dir) and hashes
// the files of every package listed. The listing is the bootstrap
// program's: the tools packages and the program's own imports, with the
// bootstrap's build flags (the user's tags, from -tags or GOFLAGS, and
// BootstrapTag) on toolgen's GOOS and GOARCH. The load's files are those
// or fewer (the files whose constraint names the tag are left out), but
// when it may select a file the listing leaves out (a Go file's
// constraint names BootstrapTag under a negation, or the load's GOOS or
// GOARCH, from env or the go env file, is not toolgen's), the tools
// packages are listed a second time as the load lists them (the user's
// build flags and environment, without the tag), and the inputs are the
// union of both listings: each package's hash then covers its files as
// both select them, and its imports are both listings'. So every key
// covers every file the load and the program read.
func scanBootstrapInputs(ctx context.Context, dir string, patterns, buildFlags, env []string) (*bootstrapInputs, error) {
	roots, err := bootstrapRoots()
	if err != nil {
		return nil, err
	}
	if env == nil {
		env = os.Environ()
	}
	envOut, goEnv, listOut, err := listProgram(ctx, dir, append(slices.Clip(patterns), roots...), buildFlags, env)
	if err != nil {
		return nil, err
	}
	crossed := goEnv.GOOS != runtime.GOOS || goEnv.GOARCH != runtime.GOARCH // the program's listing's (bootstrapEnv)
	var loadOut []byte
	var loadErr error
	done := make(chan struct{})
	listLoad := func() {
		defer close(done)
		loadOut, loadErr = goOutput(ctx, dir, env, listArgs(buildFlags, patterns)...)
	}
	if crossed {
		go listLoad()
		defer func() { <-done }()
	}
	in := &bootstrapInputs{env: envOut, goflags: goEnv.GOFLAGS, pkgs: map[string]*listedPackage{}, hashes: map[string][]byte{}, tagged: map[string]bool{}, roots: roots}
	listed, err := decodeListing(listOut)
	if err != nil {
		return nil, err
	}
	for _, p := range listed {
		if _, ok := in.pkgs[p.ImportPath]; !ok {
			in.order = append(in.order, p.ImportPath)
		}
		in.pkgs[p.ImportPath] = p
	}
	if err := in.hashPackages(); err != nil {
		return nil, err
	}
	if !crossed && !in.negated {
		// The load's files are the program's, or fewer (those whose
		// constraints name the tag, not negated, are left out), and so are
		// the packages they import: the listing covers them.
		return in, nil
	}
	if !crossed {
		listLoad()
	}
	<-done
	if loadErr != nil {
		return nil, loadErr
	}
	if listed, err = decodeListing(loadOut); err != nil {
		return nil, err
	}
	if err := in.addLoadListing(listed); err != nil {
		return nil, err
	}
	return in, nil
}

// stableEnv is go env -json's output without GOGCCFLAGS, which names a
// temporary directory that changes with every run (the C compiler flags
// it holds otherwise follow from CC and CGO_CFLAGS, which are kept).
func stableEnv(out []byte) ([]byte, error) {
	var env map[string]string
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, fmt.Errorf("reading go env's output: %w", err)
	}
	delete(env, "GOGCCFLAGS")
	return json.Marshal(env) // keys sorted
}

// goOutput runs the go command and returns its standard output.
func goOutput(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bootstrapBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v: %s", args[0], err, stderr.String())
	}
	return out, nil
}

// hashPackages hashes each package's files, the packages in parallel,
// but for the standard library's: its hash is nil, go env's GOROOT and
// GOVERSION stand for it.
func (in *bootstrapInputs) hashPackages() error {
	paths := make([]string, 0, len(in.pkgs))
	for p, lp := range in.pkgs {
		if !lp.Standard {
			paths = append(paths, p)
		}
	}
	sums := make([][]byte, len(paths))
	uses := make([]tagUse, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range work {
				sums[i], uses[i], errs[i] = in.pkgs[paths[i]].hash()
			}
		})
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, p := range paths {
		in.hashes[p] = sums[i]
		if uses[i].named {
			in.tagged[p] = true
		}
		in.negated = in.negated || uses[i].negated
	}
	return errors.Join(errs...)
}

// hash is the SHA-256 of the package's files (names and content, in go
// list's order, by kind) and of its module's go.mod, and the main module's
// go.sum; use says how the Go files' build constraints name BootstrapTag
// (bootstrapTagUse).
func (p *listedPackage) hash() (sum []byte, use tagUse, err error) {
	h := sha256.New()
	field := func(b []byte) {
		fmt.Fprintf(h, "%d:", len(b))
		h.Write(b)
	}
	file := func(path string) error {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		field([]byte(filepath.Base(path)))
		field(data)
		if strings.HasSuffix(path, ".go") {
			named, negated := bootstrapTagUse(data)
			use.named, use.negated = use.named || named, use.negated || negated
		}
		return nil
	}
	field([]byte(p.ImportPath))
	for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.HFiles, p.SFiles, p.SysoFiles, p.EmbedFiles, p.IgnoredGoFiles} {
		field([]byte(strconv.Itoa(len(list))))
		for _, name := range list {
			field([]byte(name))
			if err := file(filepath.Join(p.Dir, name)); err != nil {
				return nil, tagUse{}, err
			}
		}
	}
	if m := p.Module; m != nil && m.GoMod != "" {
		if err := file(m.GoMod); err != nil {
			return nil, tagUse{}, err
		}
		if sum := strings.TrimSuffix(m.GoMod, ".mod") + ".sum"; m.Main {
			if err := file(sum); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, tagUse{}, err
			}
		}
	}
	return h.Sum(nil), use, nil
}

// tagUse is how a package's Go files name BootstrapTag (bootstrapTagUse).
type tagUse struct {
	named   bool // a constraint names it
	negated bool // a constraint names it under a negation
}

// closure adds path and every package it imports, directly or not, to
// set. It reports false when a package is missing from the listing.
func (in *bootstrapInputs) closure(path string, set map[string]bool) bool {
	if set[path] {
		return true
	}
	p, ok := in.pkgs[path]
	if !ok || path == "C" {
		return path == "C" || path == "unsafe"
	}
	set[path] = true
	for _, imp := range p.Imports {
		if !in.closure(imp, set) {
			return false
		}
	}
	return true
}

// key is the cache key of the bootstrap result for the types of package
// pkg (names sorted), or false when the listing does not cover them.
// comments are the CommentMap entries by package (commentsByPackage).
func (in *bootstrapInputs) key(cfg bootstrapConfig, pkg string, names []string, comments map[string]string) (cache.Key, bool) {
	set := map[string]bool{}
	for _, r := range append([]string{pkg}, in.roots...) {
		if !in.closure(r, set) {
			return cache.Key{}, false
		}
	}
	h := cache.NewHasher(bootstrapCacheKind)
	h.String(cfg.Identity)
	h.String(bootstrapHead)
	h.String(bootstrapTail)
	h.Bytes(schema.BootstrapSource())
	h.Bytes(in.env)
	h.String(strings.Join(bootstrapBuildFlags(cfg.BuildFlags, in.goflags), "\x00"))
	h.String(pkg)
	h.String(strings.Join(names, "\x00"))
	in.hashClosure(h, set, comments)
	return h.Key(), true
}

// hashClosure writes to h each package of set (a closure), sorted, with
// the hash of its files and, when comments is not nil, its CommentMap
// entries (commentsByPackage).
func (in *bootstrapInputs) hashClosure(h *cache.Hasher, set map[string]bool, comments map[string]string) {
	closure := make([]string, 0, len(set))
	for p := range set {
		closure = append(closure, p)
	}
	slices.Sort(closure)
	for _, p := range closure {
		h.String(p)
		h.Bytes(in.hashes[p])
		if comments != nil {
			h.String(comments[p])
		}
	}
}

// commentsByPackage groups the CommentMap's entries ("pkg.Type",
// "pkg.Type.Field") by the listed package they belong to, each group
// sorted and joined into one string. An entry whose package is ambiguous
// (a path with a dot in its last element) goes to every candidate.
func (in *bootstrapInputs) commentsByPackage(comments map[string]string) map[string]string {
	groups := map[string][]string{}
	for k, v := range comments {
		last := strings.LastIndex(k, "/") + 1
		for i := last; i < len(k); i++ {
			if k[i] != '.' {
				continue
			}
			if _, ok := in.pkgs[k[:i]]; ok {
				groups[k[:i]] = append(groups[k[:i]], k+"\x00"+v)
			}
		}
	}
	out := make(map[string]string, len(groups))
	for p, entries := range groups {
		slices.Sort(entries)
		out[p] = strings.Join(entries, "\x00")
	}
	return out
}

// bootstrapCached returns, for each type, its raw result ({"schema": ...}
// or {"error": "..."}), from the cache for the packages whose key is
// there, from one run of the program for the others, which it then
// stores. Without a cache, or when the inputs could not be listed, it
// runs the program for every type.
func bootstrapCached(ctx context.Context, cfg bootstrapConfig, reqs []schemaRequest, types []bootstrapType) ([]json.RawMessage, []*problem.Error) {
	items := make([]json.RawMessage, len(types))
	byPkg := map[string][]int{}
	var pkgs []string
	for i, t := range types {
		if byPkg[t.PkgPath] == nil {
			pkgs = append(pkgs, t.PkgPath)
		}
		byPkg[t.PkgPath] = append(byPkg[t.PkgPath], i)
	}
	keys := map[string]cache.Key{}
	if in, err := cfg.scan.wait(); err == nil && !cfg.skipCache {
		comments := in.commentsByPackage(cfg.Comments)
		for _, p := range pkgs {
			var names []string
			for _, i := range byPkg[p] {
				names = append(names, types[i].Name)
			}
			k, ok := in.key(cfg, p, names, comments)
			if !ok {
				continue
			}
			var got []json.RawMessage
			if data, ok := cfg.scan.cache.Get(k); ok && json.Unmarshal(data, &got) == nil && len(got) == len(names) {
				for j, i := range byPkg[p] {
					items[i] = got[j]
				}
				continue
			}
			keys[p] = k
		}
	}
	cfg.timer.done("cache lookup")
	errs := fillMissing(items, types, func(missing []bootstrapType) ([]json.RawMessage, []*problem.Error) {
		return bootstrapRun(ctx, cfg, reqs, missing)
	})
	if len(errs) > 0 {
		return nil, errs
	}
	for p, k := range keys {
		var entry []json.RawMessage
		for _, i := range byPkg[p] {
			entry = append(entry, items[i])
		}
		if data, err := json.Marshal(entry); err == nil {
			cfg.scan.cache.Put(k, data) // a failed store only costs the next run a rebuild
		}
	}
	return items, nil
}
