package gen

// The recent record: whether the load starts beside the bootstrap scan.
// The output cache's key needs the scan (0_generate_cache.go), and a run
// the cache answers loads nothing; a run it does not answer loads the
// tools packages after the scan. The record, one per set of options in
// its directory of the cache, holds the size and modification time of
// every file and directory the last scan hashed: when one differs (or
// there is no record), the output is probably not in the cache, and the
// load starts at once, beside the scan, instead of after it. The record
// decides only when the load starts, never what a run generates: a wrong
// guess costs a load stopped early, or the wait for the scan. It also
// says whether the last scan's listing served the load (servesLoad):
// then the load waits for the scan, to read the packages from its listing
// and the export data cache (1_load_cached.go), instead of starting
// go/packages beside it.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
)

// recentDir is the directory of the recent records in the cache.
const recentDir = "recent"

// recentKind names the recent records; its version changes with their
// format.
const recentKind = "toolgen recent 2"

// recentStat is what the record holds of a file or directory.
type recentStat struct {
	Path string
	Size int64
	Mod  int64 // modification time, in nanoseconds since 1970
}

// recentEntry is what the cache holds of a record.
type recentEntry struct {
	Files  []recentStat
	Listed bool // the scan's listing served the load (servesLoad)
}

// recentRecord is the recent record of one run's options. A nil record
// guesses nothing and stores nothing.
type recentRecord struct {
	cache   *cache.Cache
	key     cache.Key
	changed bool // a file of the record differs, or there is none
	listed  bool // the record's Listed
}

// openRecent reads the record of opts' options and compares it with the
// files it names, or returns nil when the cache is off.
func openRecent(opts *Options) *recentRecord {
	if opts.cacheOff("recent") {
		return nil
	}
	c, err := cache.Open(filepath.Join(opts.Cache, recentDir))
	if err != nil {
		return nil
	}
	h := cache.NewHasher(recentKind)
	for _, s := range []string{opts.Identity, opts.Dir, opts.outDir(), opts.Package, strings.Join(opts.Patterns, "\x00"), strings.Join(opts.BuildFlags, "\x00")} {
		h.String(s)
	}
	r := &recentRecord{cache: c, key: h.Key(), changed: true}
	var old recentEntry
	if data, ok := c.Get(r.key); ok && json.Unmarshal(data, &old) == nil && len(old.Files) > 0 {
		paths := make([]string, len(old.Files))
		for i, s := range old.Files {
			paths[i] = s.Path
		}
		r.changed = !slices.Equal(old.Files, statAll(paths))
		r.listed = old.Listed
	}
	return r
}

// likelyMiss reports whether the run's output is probably not in the
// cache: a file the last scan hashed changed, or there is no record.
func (r *recentRecord) likelyMiss() bool { return r != nil && r.changed }

// likelyListed reports whether the last scan's listing served the load.
func (r *recentRecord) likelyListed() bool { return r != nil && r.listed }

// update stores the record of the files in and whether in serves the
// load of opts' packages, when the one read differed.
func (r *recentRecord) update(in *bootstrapInputs, opts *Options) {
	if r == nil || in == nil {
		return
	}
	listed := in.servesLoad(opts)
	if !r.changed && listed == r.listed {
		return
	}
	var paths []string
	for _, p := range in.pkgs {
		if p.Standard || p.Dir == "" {
			continue
		}
		paths = append(paths, p.Dir)
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.HFiles, p.SFiles, p.SysoFiles, p.EmbedFiles, p.IgnoredGoFiles} {
			for _, name := range list {
				paths = append(paths, filepath.Join(p.Dir, name))
			}
		}
		if p.Module != nil && p.Module.GoMod != "" {
			paths = append(paths, p.Module.GoMod)
		}
	}
	slices.Sort(paths)
	if data, err := json.Marshal(recentEntry{Files: statAll(slices.Compact(paths)), Listed: listed}); err == nil {
		r.cache.Put(r.key, data) // a failed store only costs a guess
	}
}

// statAll is the size and modification time of each path; a path that
// cannot be read has neither.
func statAll(paths []string) []recentStat {
	out := make([]recentStat, len(paths))
	for i, p := range paths {
		out[i].Path = p
		if fi, err := os.Stat(p); err == nil {
			out[i].Size, out[i].Mod = fi.Size(), fi.ModTime().UnixNano()
		}
	}
	return out
}
