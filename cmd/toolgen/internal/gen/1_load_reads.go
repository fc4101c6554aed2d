package gen

// The files generation reads besides the packages' files: a file a
// directive names, for one (the HTML file of //tool:ui: readApp). The
// cache keys hash the packages' files as the go command lists them
// (6_schemas_cache.go), and nothing else of a package's directory (but
// its skills folder); a phase that reads another file reads it through
// the run's fileReads, which records the file with the SHA-256 of its
// content (or as missing). The output cache stores the record with its
// entry and serves the entry only while every file recorded still has
// that content (0_generate_cache.go), and the units' keys hash the record
// (unitKey, unitSources): a change to such a file is a miss, as a change
// to a Go file is.

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
)

// fileReads records the files a run read besides the packages' files. A
// nil fileReads reads and records nothing.
type fileReads struct {
	mu    sync.Mutex
	files map[string][]byte // by absolute path: the SHA-256 of the content, nil when missing
}

// fileRead is a file of the record: its absolute path and the SHA-256 of
// its content, nil when there was no file.
type fileRead struct {
	Path string
	Sum  []byte
}

// read returns the content of the file at path, which must be absolute,
// and records it: its content, or that there is no file.
func (r *fileReads) read(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if r == nil {
		return data, err
	}
	var sum []byte
	switch {
	case err == nil:
		s := sha256.Sum256(data)
		sum = s[:]
	case !errors.Is(err, fs.ErrNotExist):
		return data, err // not recorded: the run fails, and stores nothing
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.files == nil {
		r.files = map[string][]byte{}
	}
	r.files[path] = sum
	return data, err
}

// list returns the record, sorted by path.
func (r *fileReads) list() []fileRead {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]fileRead, 0, len(r.files))
	for p, s := range r.files {
		out = append(out, fileRead{Path: p, Sum: s})
	}
	slices.SortFunc(out, func(a, b fileRead) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// digest is the SHA-256 of the record, for the keys that hash it.
func (r *fileReads) digest() []byte {
	h := sha256.New()
	for _, f := range r.list() {
		h.Write([]byte(f.Path))
		h.Write([]byte{0, byte(len(f.Sum))})
		h.Write(f.Sum)
	}
	return h.Sum(nil)
}

// readsCurrent reports whether every file of the record list still has
// the content recorded (or is still missing).
func readsCurrent(list []fileRead) bool {
	for _, f := range list {
		data, err := os.ReadFile(f.Path)
		switch {
		case err == nil:
			s := sha256.Sum256(data)
			if f.Sum == nil || string(s[:]) != string(f.Sum) {
				return false
			}
		case errors.Is(err, fs.ErrNotExist):
			if f.Sum != nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}
