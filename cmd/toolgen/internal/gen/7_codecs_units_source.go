package gen

// The units' source keys: computing a unit's key (unitKey) hashes the
// fingerprint, shape and description of every type its tools reach, most
// of what planning costs when the cache holds every unit. A unit whose
// tools packages did not change has the key it had, so the key is also
// stored under a source key, which hashes what the key is computed from
// instead of the key's text:
//
//   - toolgen's identity, the go command's environment, GOOS and GOARCH
//     and the go env file (hashGoEnv), the build flags, the options that
//     shape the output (Dir, Package, the output's import path), the
//     packages the generated files may name (importsOf) and the files
//     the run read besides the packages' files (1_load_reads.go);
//   - the codec package name of every package the layout names (which
//     depends on every loaded package: names are numbered when they
//     coincide);
//   - per tool, in order: its name, its Tools field and group description
//     (which depend on the other tools), and its published schemas (the
//     bootstrap program's and the static path's results, with their own
//     caches);
//   - for every package in the import closure of the unit's tools
//     packages, as the bootstrap scan lists it and as go/types records
//     it: its import path and the hash of its files (6_schemas_cache.go).
//     The model, the shapes, the types and the positions the key hashes
//     are read from those files.
//
// A unit whose source key is found takes the key stored under it; the
// others compute their key and store it.

import (
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/codecplan"
)

// unitSourceDir is the directory of the source keys in the cache.
const unitSourceDir = "unitsource"

// unitSourceKind names the source keys; its version changes with what
// they hash.
const unitSourceKind = "toolgen unit source 3"

// unitSources keys units by their sources for one run. A nil unitSources
// finds and stores nothing.
type unitSources struct {
	cache  *cache.Cache
	in     *bootstrapInputs
	common []byte // the part of every source key that is the run's
}

// openUnitSources is the source keys of the run: nil without a unit
// cache or a successful scan.
func openUnitSources(uc *unitCache, scan *bootstrapScan, l *loaded, layout *codecplan.Layout, opts *Options) *unitSources {
	if uc.cache == nil || scan == nil || opts.skip["unitsource"] {
		return nil
	}
	in, err := scan.wait()
	if err != nil {
		return nil
	}
	c, err := cache.Open(filepath.Join(opts.Cache, unitSourceDir))
	if err != nil {
		return nil
	}
	h := cache.NewHasher(unitSourceKind)
	h.String(opts.Identity)
	if hashGoEnv(h, opts.Env, in) != nil {
		return nil
	}
	for _, s := range []string{strings.Join(opts.BuildFlags, "\x00"), opts.Dir, opts.Package, l.outPath} {
		h.String(s)
	}
	h.Bytes(uc.importsOf(l))
	h.Bytes(l.reads.digest()) // the files read besides the packages' (1_load_reads.go)
	var all []string
	for _, p := range l.pkgs {
		all = append(all, typesClosure(p.Types)...)
	}
	slices.Sort(all)
	for _, path := range slices.Compact(all) {
		h.String(path)
	}
	seen := map[string]bool{}
	for _, p := range l.pkgs {
		for _, q := range typesPackages(p.Types) {
			if !seen[q.Path()] {
				seen[q.Path()] = true
				h.String(q.Path() + " " + layout.Unit(q))
			}
		}
	}
	k := h.Key()
	return &unitSources{cache: c, in: in, common: k[:]}
}

// key is the source key of the unit of the tools at idx, or false when
// the scan does not list their closure.
func (us *unitSources) key(tools []*toolModel, idx []int, fields map[*toolModel]string) (cache.Key, bool) {
	if us == nil {
		return cache.Key{}, false
	}
	h := cache.NewHasher(unitSourceKind)
	h.Bytes(us.common)
	set := map[string]bool{}
	for _, i := range idx {
		t := tools[i]
		h.String(t.name)
		h.String(fields[t])
		h.String(t.groupDesc)
		h.Bytes(t.inNode.Compact())
		if t.outNode != nil {
			h.Bytes(t.outNode.Compact())
		} else {
			h.String("-")
		}
		for _, q := range append(typesClosure(t.pkg.Types), t.pkg.PkgPath) {
			if !us.in.closure(q, set) {
				return cache.Key{}, false
			}
		}
	}
	us.in.hashClosure(h, set, nil)
	return h.Key(), true
}

// get is the unit key stored under the source key k.
func (us *unitSources) get(k cache.Key) (cache.Key, bool) {
	data, ok := us.cache.Get(k)
	if !ok || len(data) != len(cache.Key{}) {
		return cache.Key{}, false
	}
	return cache.Key(data), true
}

// put stores the unit key under the source key k; a failed store only
// costs the next run the key.
func (us *unitSources) put(k, unit cache.Key) {
	us.cache.Put(k, unit[:])
}

// typesPackages is p and every package it imports, directly or not, as
// go/types records them.
func typesPackages(p *types.Package) []*types.Package {
	seen := map[*types.Package]bool{}
	var out []*types.Package
	var walk func(*types.Package)
	walk = func(q *types.Package) {
		if q == nil || seen[q] {
			return
		}
		seen[q] = true
		out = append(out, q)
		for _, imp := range q.Imports() {
			walk(imp)
		}
	}
	walk(p)
	return out
}
