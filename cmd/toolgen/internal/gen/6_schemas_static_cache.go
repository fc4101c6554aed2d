package gen

// The static cache: the static path's results (6_schemas_static.go) for
// the requested types of one tools package, stored under a key that
// hashes everything the derivation reads, so that an unchanged package
// neither derives its schemas nor reads its doc comments again. The key
// holds:
//
//   - toolgen's identity (Options.Identity);
//   - the go command's environment as the bootstrap scan reads it, the
//     GOOS and GOARCH the load sees and the go env file (as the output
//     cache's key, 0_generate_cache.go), the build flags, and the GOROOT
//     toolgen reads the standard library's directories from;
//   - the import paths of the loaded packages (which packages the
//     derivation may read from source, and whose doc comments it has);
//   - the package's import path and the names of its requested types;
//   - for every package in its import closure, as the bootstrap scan
//     lists it and as go/types records it: its import path and the hash
//     of its files (6_schemas_cache.go: every Go file of its directory,
//     whichever the build tags select; the standard library by GOROOT and
//     GOVERSION). The doc comments, the //tool:keepnames directive and
//     the build constraints the derivation reads are in those files.
//
// The entry is each type's raw result (null for a type the static path
// leaves to the bootstrap program) and the CommentMap entry of each type,
// which schema.InputRoot reads for an input.

import (
	"bytes"
	"encoding/json"
	"go/build"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"golang.org/x/tools/go/packages"
)

// staticCacheDir is the directory of the static cache's entries in the
// cache, apart from the bootstrap's entries.
const staticCacheDir = "static"

// staticCacheKind names the static cache's entries; its version changes
// with their format or with what the key hashes.
const staticCacheKind = "toolgen static schemas 1"

// staticCache is the static cache of one run. A nil staticCache finds
// and stores nothing.
type staticCache struct {
	cache    *cache.Cache
	in       *bootstrapInputs
	cfg      *bootstrapConfig
	cs       *commentSet
	pkgs     map[string]*packages.Package // the loaded packages, by path
	loaded   string                       // their paths, in l's order
	answered map[string]bool              // the packages whose entry was found
	keys     map[string]cache.Key         // the packages to store, with their keys
}

// staticEntry is what the cache holds for a package.
type staticEntry struct {
	Items []json.RawMessage // per requested type, in the key's order; null: not static
	Docs  map[string]string // the CommentMap entry of each type that has one, by name
}

// openStaticCache is the static cache in dir, the toolgen cache, of the
// run cfg configures: nil without a scan, a successful one, or a comment
// set to record into.
func openStaticCache(dir string, l *loaded, cfg *bootstrapConfig) *staticCache {
	if cfg.scan == nil || cfg.comments == nil {
		return nil
	}
	in, err := cfg.scan.wait()
	if err != nil {
		return nil
	}
	c, err := cache.Open(filepath.Join(dir, staticCacheDir))
	if err != nil {
		return nil
	}
	sc := &staticCache{cache: c, in: in, cfg: cfg, cs: cfg.comments, pkgs: map[string]*packages.Package{}, answered: map[string]bool{}, keys: map[string]cache.Key{}}
	sc.loaded = strings.Join(cfg.comments.order, "\x00")
	for _, p := range l.pkgs {
		sc.pkgs[p.PkgPath] = p
	}
	return sc
}

// isAnswered reports whether the entry of the package at path was found.
func (sc *staticCache) isAnswered(path string) bool {
	return sc != nil && sc.answered[path]
}

// key is the key of the requested types names (sorted) of the package at
// path, or false when the scan does not list its closure.
func (sc *staticCache) key(path string, names []string) (cache.Key, bool) {
	p := sc.pkgs[path]
	if p == nil || p.Types == nil {
		return cache.Key{}, false
	}
	set := map[string]bool{}
	for _, q := range append(typesClosure(p.Types), path) {
		if !sc.in.closure(q, set) {
			return cache.Key{}, false
		}
	}
	h := cache.NewHasher(staticCacheKind)
	h.String(sc.cfg.Identity)
	if err := hashGoEnv(h, sc.cfg.Env, sc.in); err != nil {
		return cache.Key{}, false
	}
	h.String(strings.Join(sc.cfg.BuildFlags, "\x00"))
	h.String(build.Default.GOROOT)
	h.String(sc.loaded)
	h.String(path)
	h.String(strings.Join(names, "\x00"))
	sc.in.hashClosure(h, set, nil)
	return h.Key(), true
}

// byPackage groups the indices of types (sorted by package and name) by
// package, in order.
func byPackage(types []bootstrapType) (paths []string, idx map[string][]int) {
	idx = map[string][]int{}
	for i, t := range types {
		if idx[t.PkgPath] == nil {
			paths = append(paths, t.PkgPath)
		}
		idx[t.PkgPath] = append(idx[t.PkgPath], i)
	}
	return paths, idx
}

// lookup sets the items of the types whose package's entry is found,
// leaving nil those the entry leaves to the program, records the found
// entries' doc comments in the comment set, and keys the others for
// store.
func (sc *staticCache) lookup(types []bootstrapType, items []json.RawMessage) {
	if sc == nil {
		return
	}
	paths, idx := byPackage(types)
	// Each package's key and entry, GOMAXPROCS packages at once (reading
	// and decoding the entries of a catalog's packages is most of the
	// lookup); then the results in the packages' order.
	type found struct {
		key   cache.Key
		keyed bool
		entry *staticEntry
	}
	results := make([]found, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(len(paths), 1)) {
		wg.Go(func() {
			for pi := range next {
				path := paths[pi]
				names := make([]string, len(idx[path]))
				for j, i := range idx[path] {
					names[j] = types[i].Name
				}
				r := &results[pi]
				if r.key, r.keyed = sc.key(path, names); !r.keyed {
					continue
				}
				var e staticEntry
				if data, ok := sc.cache.Get(r.key); ok && json.Unmarshal(data, &e) == nil && len(e.Items) == len(names) {
					r.entry = &e
				}
			}
		})
	}
	for pi := range paths {
		next <- pi
	}
	close(next)
	wg.Wait()
	for pi, path := range paths {
		r := results[pi]
		if !r.keyed {
			continue
		}
		k := r.key
		if e := r.entry; e != nil {
			sc.answered[path] = true
			for j, i := range idx[path] {
				if raw := e.Items[j]; len(raw) > 0 && string(raw) != "null" {
					items[i] = raw
				}
			}
			for name, doc := range e.Docs {
				sc.cs.roots[path+"."+name] = doc
			}
			continue
		}
		sc.keys[path] = k
	}
}

// store stores the entries of the packages lookup keyed, unless reading
// the doc comments failed; a failed store only costs the next run the
// derivation.
func (sc *staticCache) store(types []bootstrapType, items []json.RawMessage) {
	if sc == nil {
		return
	}
	type stored struct {
		k cache.Key
		e staticEntry
	}
	var entries []stored
	paths, idx := byPackage(types)
	for _, path := range paths {
		k, ok := sc.keys[path]
		if !ok {
			continue
		}
		sc.cs.ensure(path)
		if len(sc.cs.errs) > 0 {
			break
		}
		e := staticEntry{Docs: map[string]string{}}
		for _, i := range idx[path] {
			e.Items = append(e.Items, items[i])
			if doc, ok := sc.cs.m[path+"."+types[i].Name]; ok {
				e.Docs[types[i].Name] = doc
			}
		}
		entries = append(entries, stored{k, e})
	}
	// Encoded and stored GOMAXPROCS at once.
	var wg sync.WaitGroup
	next := make(chan stored)
	for range min(runtime.GOMAXPROCS(0), len(entries)) {
		wg.Go(func() {
			for s := range next {
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false) // the items as the derivation wrote them
				if enc.Encode(s.e) == nil {
					sc.cache.Put(s.k, b.Bytes())
				}
			}
		})
	}
	for _, s := range entries {
		next <- s
	}
	close(next)
	wg.Wait()
}
