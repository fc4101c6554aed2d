package gen

// The output cache: Generate's whole result, stored under a key that
// hashes everything generation reads, so that a run on an unchanged module
// loads, checks, reflects, plans and renders nothing. The key holds:
//
//   - toolgen's identity (Options.Identity);
//   - the go command's environment as the bootstrap scan reads it (go env
//     -json, in the load's environment), the GOOS and GOARCH of that
//     environment, and the go env file (GOENV), which may set them;
//   - the options that shape the output: Dir, Output relative to Dir,
//     Package, Patterns and BuildFlags;
//   - for every package the bootstrap scan lists (the import closure of
//     the tools packages and of the bootstrap program, as the program's
//     build and, when it may select other files, as the load select
//     them) but the output package, which toolgen never reads: its
//     import path and the hash of its files (6_schemas_cache.go: every Go
//     file of its directory, whichever the build tags select, its other
//     source files and its module's go.mod and go.sum; the standard
//     library by GOROOT and GOVERSION);
//   - beside each of those packages, the skills folder the skills phase
//     reads: its listing, each skill folder's listing and its SKILL.md.
//
// The entry is a list of the files, each a path relative to the output
// directory and the key of its content, which is stored apart under that
// key: a run after a small change stores only the files that changed. It
// also holds the files the run read besides the packages' files (a file a
// directive names, as //tool:ui names an app's HTML: 1_load_reads.go),
// with the SHA-256 of each one's content: the entry is served only while
// every one still has it.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
)

// outputCacheDir is the directory of the output cache's entries in the
// cache, apart from the bootstrap's entries.
const outputCacheDir = "output"

// outputCacheKind and outputFileKind name the output cache's entries and
// the files' contents; their versions change with the entries' format.
const (
	outputCacheKind = "toolgen output 2"
	outputFileKind  = "toolgen output file 1"
)

// outputCache is the output cache of one run: its store and the run's key.
// A nil outputCache finds and stores nothing.
type outputCache struct {
	cache *cache.Cache
	key   cache.Key
	out   string             // the output directory
	bad   map[cache.Key]bool // the files get found unreadable or corrupt
}

// outputEntry is one file of an entry.
type outputEntry struct {
	Path string    // relative to the output directory, with slashes
	Data cache.Key // the key its content is stored under
}

// outputRecord is an entry: the files, and the files the run read
// besides the packages' files.
type outputRecord struct {
	Files []outputEntry
	Reads []fileRead
}

// openOutputCache waits for the bootstrap scan and keys the run's output
// with it, or returns nil when there is no cache or no key (the run then
// goes without the output cache).
func openOutputCache(opts *Options, scan *bootstrapScan) *outputCache {
	if opts.skip["output"] {
		return nil
	}
	in, err := scan.wait()
	if err != nil {
		return nil
	}
	c, err := cache.Open(filepath.Join(opts.Cache, outputCacheDir))
	if err != nil {
		return nil
	}
	k, err := outputKey(opts, in)
	if err != nil {
		return nil
	}
	return &outputCache{cache: c, key: k, out: opts.outDir(), bad: map[cache.Key]bool{}}
}

// get returns the stored files, in the order they were stored, or false
// when the entry or one of its files is missing or corrupt, a path of the
// entry leaves the output directory, or a file the run that stored it
// read besides the packages' files changed since.
func (oc *outputCache) get() ([]File, bool) {
	if oc == nil {
		return nil, false
	}
	data, ok := oc.cache.Get(oc.key)
	if !ok {
		return nil, false
	}
	var rec outputRecord
	if json.Unmarshal(data, &rec) != nil || len(rec.Files) == 0 || !readsCurrent(rec.Reads) {
		return nil, false
	}
	entries := rec.Files
	files := make([]File, len(entries))
	for i, e := range entries {
		path := filepath.Join(oc.out, filepath.FromSlash(e.Path))
		if !within(oc.out, path) || path == oc.out {
			return nil, false // never write outside the output directory
		}
		data, ok := oc.cache.GetContent(outputFileKind, e.Data)
		if !ok {
			oc.bad[e.Data] = true
			return nil, false
		}
		files[i] = File{Path: path, Data: data}
	}
	return files, true
}

// put stores files, each one's content first (unless it is there already
// and get did not find it corrupt), then the entry, with reads, the files
// the run read besides the packages' files. known holds the content keys
// of files taken from the unit cache, by path (codecPlan.contentKeys): a
// file whose data is the very slice known names is not hashed again. The
// files are hashed and stored GOMAXPROCS at once. A file outside the
// output directory is not stored, and neither is the entry then; a failed
// store only costs the next run a generation.
func (oc *outputCache) put(files []File, known map[string]knownContent, reads []fileRead) {
	if oc == nil {
		return
	}
	entries := make([]outputEntry, len(files))
	for i, f := range files {
		rel, err := filepath.Rel(oc.out, f.Path)
		if err != nil || !within(oc.out, f.Path) {
			return
		}
		entries[i].Path = filepath.ToSlash(rel)
	}
	failed := make([]bool, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(len(files), 1)) {
		wg.Go(func() {
			for i := range next {
				f := files[i]
				if kc, ok := known[f.Path]; ok && kc.same(f.Data) {
					entries[i].Data = kc.key
				} else {
					entries[i].Data = cache.ContentKey(outputFileKind, f.Data)
				}
				if oc.bad[entries[i].Data] || !oc.cache.Has(entries[i].Data) {
					failed[i] = oc.cache.Put(entries[i].Data, f.Data) != nil
				}
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	if slices.Contains(failed, true) {
		return
	}
	if data, err := json.Marshal(outputRecord{Files: entries, Reads: reads}); err == nil {
		oc.cache.Put(oc.key, data)
	}
}

// knownContent is a generated file's content and the key of that content
// in the output cache, known without hashing it (a unit's file from the
// unit cache, whose entry holds the key).
type knownContent struct {
	data []byte
	key  cache.Key
}

// same reports whether data is the very slice kc holds (the same bytes
// at the same address): only then does kc's key name it.
func (kc knownContent) same(data []byte) bool {
	if len(data) != len(kc.data) {
		return false
	}
	return len(data) == 0 || &data[0] == &kc.data[0]
}

// contentKeys are the content keys of the files of the units taken from
// the unit cache, by path under the output directory out; the units
// planned this run have none (their files are hashed when stored).
func (plan *codecPlan) contentKeys(out string) map[string]knownContent {
	known := map[string]knownContent{}
	for _, g := range plan.groups {
		if g.cached == nil {
			continue
		}
		for _, f := range g.cached.files {
			if f.key != (cache.Key{}) {
				known[filepath.Join(out, filepath.FromSlash(f.rel))] = knownContent{data: f.data, key: f.key}
			}
		}
	}
	return known
}

// outputKey is the key of the run's output (see the top of this file).
func outputKey(opts *Options, in *bootstrapInputs) (cache.Key, error) {
	h := cache.NewHasher(outputCacheKind)
	h.String(opts.Identity)
	if err := hashGoEnv(h, opts.Env, in); err != nil {
		return cache.Key{}, err
	}
	out := filepath.Clean(opts.outDir())
	rel, err := filepath.Rel(opts.Dir, out)
	if err != nil {
		return cache.Key{}, err
	}
	for _, s := range []string{opts.Dir, rel, opts.Package} {
		h.String(s)
	}
	for _, list := range [][]string{opts.Patterns, opts.BuildFlags} {
		h.String(strings.Join(list, "\x00"))
	}
	paths := make([]string, 0, len(in.pkgs))
	for p, lp := range in.pkgs {
		if filepath.Clean(lp.Dir) != out {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		h.String(p)
		h.Bytes(in.hashes[p])
		if lp := in.pkgs[p]; !lp.Standard && lp.Dir != "" {
			if err := hashSkills(h, filepath.Join(lp.Dir, skillsDir)); err != nil {
				return cache.Key{}, err
			}
		}
	}
	return h.Key(), nil
}

// hashGoEnv adds the go command's environment as the scan read it (in
// the load's environment), the GOOS and GOARCH of env (nil: the
// process's), and the go env file, which may set them.
func hashGoEnv(h *cache.Hasher, env []string, in *bootstrapInputs) error {
	h.Bytes(in.env)
	if env == nil {
		env = os.Environ()
	}
	for _, name := range []string{"GOOS", "GOARCH"} {
		h.String(name + "=" + lookupEnv(env, name))
	}
	var goEnv struct{ GOENV string }
	if err := json.Unmarshal(in.env, &goEnv); err != nil {
		return err
	}
	return hashOptional(h, goEnv.GOENV)
}

// lookupEnv is the last value of name in env, "" when it is not set.
func lookupEnv(env []string, name string) string {
	for _, kv := range slices.Backward(env) {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// hashOptional adds the content of the file at path, or a mark when there
// is no path or no file.
func hashOptional(h *cache.Hasher, path string) error {
	data, err := os.ReadFile(path)
	switch {
	case path == "" || errors.Is(err, os.ErrNotExist):
		h.String("-")
		return nil
	case err != nil:
		return err
	}
	h.String("+")
	h.Bytes(data)
	return nil
}

// hashSkills adds what the skills phase reads of the skills folder dir
// (findSkills, readSkill): its listing, with whether each entry is a
// folder, each folder's listing, and each SKILL.md's content.
func hashSkills(h *cache.Hasher, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		h.String("-") // no folder, or one findSkills cannot read either
		return nil
	}
	h.String(strconv.Itoa(len(entries)))
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		h.String(e.Name())
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			h.String("file")
			continue
		}
		sub, err := os.ReadDir(p)
		if err != nil {
			h.String("-")
			continue
		}
		h.String(strconv.Itoa(len(sub)))
		for _, s := range sub {
			h.String(s.Name())
		}
		if err := hashOptional(h, filepath.Join(p, skillFile)); err != nil {
			return err
		}
	}
	return nil
}
