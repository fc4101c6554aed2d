package gen

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"go/types"
	"hash"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/codecplan"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// Units of planning and rendering. A unit is a set of tools packages
// whose codecs share no codec package with any other tools package:
// usually one tools package, with the codec packages of the types its
// tools reach (two tools packages reaching a type of the same package
// form one unit). A unit's files (its codec packages' codec_gen.go and
// a_guard_gen.go, the set package and the providers file of each of its
// tools packages) and
// its tools' entries of tools.json depend on its tools alone, so each
// unit is planned by a Planner of its own and rendered on its own, and
// its files are cached under a key hashing what planning and rendering
// read of it (unitKey): a run on a module where one type changed plans
// and renders that type's unit, and takes the others from the cache.

// renderUnit is one unit of planning and rendering.
type renderUnit struct {
	tools   []int            // indices in the model's tools, in its order
	key     cache.Key        // what planning and rendering it read
	cached  *unitEntry       // its files from the cache; nil when planned
	planned []codecplan.Unit // its codec packages, when planned
	empty   map[string]bool  // when planned: codec packages with a tool taking no arguments
}

// unitEntry is what the cache holds of a unit: its codec packages, its
// files and its tools' entries of tools.json.
type unitEntry struct {
	units []unitRef  // sorted by import path
	files []unitFile // in the order rendered
	parts [][]byte   // the tools.json entry of each of its tools, in its order
}

// unitFile is a file of a unit: its path relative to the output
// directory, with slashes, its content and the key of its content in the
// output cache (cache.ContentKey of outputFileKind), computed once when
// the unit is stored, so that a run taking the unit from the cache does
// not hash its files again to store the output (outputCache.put).
type unitFile struct {
	rel  string
	data []byte
	key  cache.Key
}

// groupTools divides the tools into units: the tools packages joined by
// the codec packages their shapes' structs go to (a time.Time, a named
// string of another package, take none), sorted by the import path of the
// first codec package of each.
func groupTools(layout *codecplan.Layout, tools []*toolModel) []*renderUnit {
	parent := map[string]string{}
	var find func(string) string
	find = func(p string) string {
		if q, ok := parent[p]; ok && q != p {
			r := find(q)
			parent[p] = r
			return r
		}
		parent[p] = p
		return p
	}
	join := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra < rb {
			parent[rb] = ra
		} else if rb < ra {
			parent[ra] = rb
		}
	}
	for _, t := range tools {
		u := layout.Unit(t.pkg.Types)
		find(u)
		seen := map[*shape.Shape]bool{}
		visit := func(typ types.Type) {
			if h := layout.Home(typ); h != "" {
				join(u, h)
			}
		}
		walkShape(t.inShape, seen, visit)
		walkShape(t.outShape, seen, visit)
	}
	byRoot := map[string]*renderUnit{}
	var roots []string
	for i, t := range tools {
		r := find(layout.Unit(t.pkg.Types))
		g, ok := byRoot[r]
		if !ok {
			g = &renderUnit{}
			byRoot[r] = g
			roots = append(roots, r)
		}
		g.tools = append(g.tools, i)
	}
	slices.Sort(roots)
	out := make([]*renderUnit, len(roots))
	for i, r := range roots {
		out[i] = byRoot[r]
	}
	return out
}

// walkShape calls visit with the type of every struct shape s reaches,
// and with the struct types of its embedded pointers: the types whose
// codecs, and guards, go to the codec package of their Go package.
func walkShape(s *shape.Shape, seen map[*shape.Shape]bool, visit func(types.Type)) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Kind == shape.Struct {
		visit(s.Type)
	}
	walkShape(s.Elem, seen, visit)
	for _, f := range s.Fields {
		for _, v := range f.Via {
			visit(v.Elem)
		}
		walkShape(f.Shape, seen, visit)
	}
}

// unitCacheDir is the directory of the units' entries in the cache,
// beside the formatted files: both hold generated files.
const unitCacheDir = formatCacheDir + "/units"

// unitCacheKind names the units' entries: a change of their layout or of
// what a key hashes changes it.
const unitCacheKind = "toolgen unit v3"

// unitCache keeps the units' files in the toolgen cache. Its zero value
// caches nothing.
type unitCache struct {
	cache    *cache.Cache
	identity string
	types    map[types.Type][sha256.Size]byte // fingerprints of the types met, for the run
	descs    map[types.Type][sha256.Size]byte // hashes of their descriptions (describeType)
	mu       sync.Mutex                       // guards types, descs and the layout: units are keyed concurrently
	imports  []byte                           // importsOf
	once     sync.Once                        // computes imports
}

// openUnitCache is the unit cache of opts: none when the cache is off or
// cannot be opened (the run then plans and renders every unit).
func openUnitCache(opts *Options) *unitCache {
	if opts.cacheOff("units") {
		return &unitCache{}
	}
	c, err := cache.Open(filepath.Join(opts.Cache, filepath.FromSlash(unitCacheDir)))
	if err != nil {
		return &unitCache{}
	}
	return &unitCache{cache: c, identity: opts.Identity, types: map[types.Type][sha256.Size]byte{}, descs: map[types.Type][sha256.Size]byte{}}
}

// get is the entry under k of a unit of n tools; nil when there is none,
// or it does not decode, or it is not such an entry.
func (uc *unitCache) get(k cache.Key, n int) *unitEntry {
	if uc.cache == nil {
		return nil
	}
	data, ok := uc.cache.Get(k)
	if !ok {
		return nil
	}
	e, ok := decodeUnitEntry(data)
	if !ok || len(e.parts) != n {
		return nil
	}
	for _, f := range e.files {
		if !filepath.IsLocal(filepath.FromSlash(f.rel)) {
			return nil
		}
	}
	return e
}

// lookupAll sets the key of each group (key) and its cached entry (get),
// GOMAXPROCS groups at once: hashing a unit's types and reading its
// entry, which holds its files, are most of planning a catalog whose
// units the cache holds.
func (uc *unitCache) lookupAll(groups []*renderUnit, key func(*renderUnit) cache.Key) {
	if uc.cache == nil {
		return
	}
	var wg sync.WaitGroup
	next := make(chan *renderUnit)
	for range min(runtime.GOMAXPROCS(0), len(groups)) {
		wg.Go(func() {
			for g := range next {
				g.key = key(g)
				g.cached = uc.get(g.key, len(g.tools))
			}
		})
	}
	for _, g := range groups {
		next <- g
	}
	close(next)
	wg.Wait()
}

// put stores e under k; a failed store only costs the next run the unit.
func (uc *unitCache) put(k cache.Key, e *unitEntry) {
	if uc.cache == nil {
		return
	}
	uc.cache.Put(k, e.encode())
}

// unitKey hashes what planning and rendering the unit of the tools at idx
// read: the options that shape the output, toolgen's identity, the
// packages the generated files may name (importsOf), and per tool its
// model entry (directives, description, types, hooks), its name and
// Tools field and the freshness test's descriptions of its types, the codec
// packages it is in and reaches, its shapes with a fingerprint of each
// type, and its published schemas. Positions are hashed too: they are not
// in the output, so a moved declaration only costs a miss.
func unitKey(uc *unitCache, l *loaded, layout *codecplan.Layout, tools []*toolModel, idx []int, fields map[*toolModel]string, opts *Options) cache.Key {
	if uc.cache == nil {
		return cache.Key{}
	}
	w := &keyWriter{b: sha256.New(), uc: uc, layout: layout, shapes: map[*shape.Shape]int{}}
	fmt.Fprintf(w.b, "%q %q\n", opts.Package, l.outPath)
	w.b.Write(uc.importsOf(l))
	w.b.Write(l.reads.digest()) // the files read besides the packages' (1_load_reads.go)
	for _, i := range idx {
		t := tools[i]
		fmt.Fprintf(w.b, "tool %#v\n%q %q\n", t.directives, t.description, t.groupDesc)
		fmt.Fprintf(w.b, "%q %q\n", t.name, fields[t])
		fmt.Fprintf(w.b, "%q %q %q %v %t %t %t %t %q\n", t.pkg.PkgPath, t.pkg.Name, t.obj.Name(), t.pos,
			t.pointer, t.hasAvail, t.hasOffered, t.hasLogArgs, t.secrets)
		fmt.Fprintf(w.b, "%q %q\n", w.unit(t.pkg.Types), w.unit(t.obj.Pkg()))
		w.typ(t.obj.Type())
		if t.input != nil {
			w.typ(t.input)
		}
		fmt.Fprintf(w.b, "%v %d %v\n", t.inputPos, t.outKind, t.callPos)
		w.typ(t.output)
		if t.outStruct != nil {
			w.typ(t.outStruct)
		}
		w.shape(t.inShape)
		w.shape(t.outShape)
		if t.input != nil {
			w.described(t.input)
		} else {
			w.described(nil)
		}
		w.described(t.output)
		in := t.inNode.Compact()
		fmt.Fprintf(w.b, "%d\n%s\n", len(in), in)
		if t.outNode != nil {
			out := t.outNode.Compact()
			fmt.Fprintf(w.b, "%d\n%s\n", len(out), out)
		}
	}
	h := cache.NewHasher(unitCacheKind)
	h.String(uc.identity)
	h.Bytes(w.b.Sum(nil))
	return h.Key()
}

// importsOf is the hash of the packages every generated file names
// (importNames): their paths and names, in the order registered.
func (uc *unitCache) importsOf(l *loaded) []byte {
	uc.once.Do(func() {
		h := sha256.New()
		seen := map[*types.Package]bool{}
		var walk func(p *types.Package)
		walk = func(p *types.Package) {
			if p == nil || seen[p] {
				return
			}
			seen[p] = true
			fmt.Fprintf(h, "%q %q\n", p.Path(), p.Name())
			for _, q := range p.Imports() {
				walk(q)
			}
		}
		for _, p := range l.pkgs {
			walk(p.Types)
		}
		uc.imports = h.Sum(nil)
	})
	return uc.imports
}

// keyWriter hashes the text of a unit's key.
type keyWriter struct {
	b      hash.Hash
	uc     *unitCache
	layout *codecplan.Layout
	shapes map[*shape.Shape]int // the shapes written, numbered in order
}

// shape writes s and what it reaches; a shape met before is written as
// its number.
func (w *keyWriter) shape(s *shape.Shape) {
	if s == nil {
		io.WriteString(w.b, "nil\n")
		return
	}
	if n, ok := w.shapes[s]; ok {
		fmt.Fprintf(w.b, "shape#%d\n", n)
		return
	}
	w.shapes[s] = len(w.shapes)
	fmt.Fprintf(w.b, "shape %d %d %d\n", s.Kind, s.Bits, s.Len)
	w.typ(s.Type)
	w.shape(s.Elem)
	fmt.Fprintf(w.b, "fields %d\n", len(s.Fields))
	for _, f := range s.Fields {
		fmt.Fprintf(w.b, "%q %q %t %t %t %v %d\n", f.GoName, f.JSONName, f.OmitEmpty, f.OmitZero, f.Secret, f.Pos, len(f.Via))
		for _, v := range f.Via {
			fmt.Fprintf(w.b, "%q ", v.Sel)
			w.typ(v.Elem)
		}
		w.shape(f.Shape)
	}
}

// typ writes the fingerprint of t.
func (w *keyWriter) typ(t types.Type) {
	if t == nil {
		io.WriteString(w.b, "type nil\n")
		return
	}
	fp := w.uc.hash(w.uc.types, t, func() string { return typeFingerprint(t) })
	w.b.Write(fp[:])
	w.uc.mu.Lock()
	home := w.layout.Home(t)
	w.uc.mu.Unlock()
	fmt.Fprintf(w.b, "home %q\n", home)
}

// unit is layout.Unit(p); the layout names codec packages as it meets
// them, so its calls are serialized.
func (w *keyWriter) unit(p *types.Package) string {
	w.uc.mu.Lock()
	defer w.uc.mu.Unlock()
	return w.layout.Unit(p)
}

// described writes the freshness test's description of t (describeType).
func (w *keyWriter) described(t types.Type) {
	if t == nil {
		io.WriteString(w.b, "described nil\n")
		return
	}
	d := w.uc.hash(w.uc.descs, t, func() string { return strings.Join(describeType(t), "\n") })
	w.b.Write(d[:])
}

// hash returns the SHA-256 of text() for t, computed once per run and
// kept in m (uc.types or uc.descs), which uc.mu guards; text runs
// outside the lock.
func (uc *unitCache) hash(m map[types.Type][sha256.Size]byte, t types.Type, text func() string) [sha256.Size]byte {
	uc.mu.Lock()
	h, ok := m[t]
	uc.mu.Unlock()
	if !ok {
		h = sha256.Sum256([]byte(text()))
		uc.mu.Lock()
		m[t] = h
		uc.mu.Unlock()
	}
	return h
}

// typeFingerprint is what the generated code can depend on of t: its
// name, its underlying type (fields, their types and tags), whether it is
// comparable, and the method sets of t and *t; packages by path and name.
func typeFingerprint(t types.Type) string {
	q := func(p *types.Package) string { return p.Path() + "#" + p.Name() }
	var b strings.Builder
	fmt.Fprintf(&b, "type %s\n%s\n%t\n", types.TypeString(t, q), types.TypeString(t.Underlying(), q), types.Comparable(t))
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr {
		for _, typ := range []types.Type{t, types.NewPointer(t)} {
			ms := types.NewMethodSet(typ)
			for i := range ms.Len() {
				b.WriteString(types.ObjectString(ms.At(i).Obj(), q))
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// encode is the entry's bytes: each count and length an unsigned varint.
func (e *unitEntry) encode() []byte {
	n := 3 * binary.MaxVarintLen64
	for _, u := range e.units {
		n += len(u.Path) + len(u.Name) + 2*binary.MaxVarintLen64
	}
	for _, f := range e.files {
		n += len(f.rel) + len(f.data) + len(f.key) + 3*binary.MaxVarintLen64
	}
	for _, p := range e.parts {
		n += len(p) + binary.MaxVarintLen64
	}
	b := make([]byte, 0, n)
	str := func(s []byte) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(e.units)))
	for _, u := range e.units {
		str([]byte(u.Path))
		str([]byte(u.Name))
	}
	b = binary.AppendUvarint(b, uint64(len(e.files)))
	for _, f := range e.files {
		str([]byte(f.rel))
		str(f.data)
		str(f.key[:])
	}
	b = binary.AppendUvarint(b, uint64(len(e.parts)))
	for _, p := range e.parts {
		str(p)
	}
	return b
}

// decodeUnitEntry decodes what encode wrote; false when data is not such
// an entry.
func decodeUnitEntry(data []byte) (*unitEntry, bool) {
	ok := true
	count := func() int {
		n, w := binary.Uvarint(data)
		if w <= 0 || n > uint64(len(data)) {
			ok = false
			return 0
		}
		data = data[w:]
		return int(n)
	}
	str := func() []byte {
		n := count()
		if !ok || n > len(data) {
			ok = false
			return nil
		}
		s := data[:n:n]
		data = data[n:]
		return s
	}
	e := &unitEntry{}
	for range count() {
		e.units = append(e.units, unitRef{Path: string(str()), Name: string(str())})
	}
	for range count() {
		f := unitFile{rel: string(str()), data: str()}
		if key := str(); len(key) == len(f.key) {
			f.key = cache.Key(key)
		} else {
			ok = false
		}
		e.files = append(e.files, f)
	}
	for range count() {
		e.parts = append(e.parts, str())
	}
	if !ok || len(data) != 0 {
		return nil, false
	}
	return e, true
}

// sortUnits sorts codec packages by import path.
func sortUnits(us []unitRef) {
	slices.SortFunc(us, func(a, b unitRef) int { return strings.Compare(a.Path, b.Path) })
}
