package cache

// Trimming, after Go's build cache: every read of an entry marks it used
// by setting its modification time, at most once per touchInterval (a
// hit costs no write most of the time); once per TrimInterval, recorded
// in trim.txt at the cache's root, Trim removes the entries not used for
// UnusedFor, then, while the entries left exceed the size bound, the
// least recently used ones. An entry another run still reads is at worst
// computed again: entries are never wrong, only missing.

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	// TrimInterval is how often Trim looks at the entries.
	TrimInterval = 24 * time.Hour
	// UnusedFor is how long an entry stays unused before Trim removes it.
	UnusedFor = 5 * 24 * time.Hour
	// DefaultMaxSize is the size bound of the entries, in bytes, when the
	// caller sets none: 1 GiB.
	DefaultMaxSize = 1 << 30

	// touchInterval is how stale an entry's modification time may grow
	// before a read sets it again.
	touchInterval = time.Hour
	// tmpStale is how old a temporary file (a write that never finished)
	// is before Trim removes it.
	tmpStale = time.Hour
	// trimFile records, in the cache's root, when Trim last looked.
	trimFile = "trim.txt"
)

// Removed is what Trim or Clean removed.
type Removed struct {
	Entries int   // entries and leftover temporary files
	Bytes   int64 // their size
}

// used marks the entry at path, last modified at mod, as used now: its
// modification time is set when it is older than touchInterval. A cache
// that cannot be written is left as it is.
func (c *Cache) used(path string, mod time.Time) {
	now := c.clock()
	if now.Sub(mod) > touchInterval {
		os.Chtimes(path, now, now)
	}
}

// clock is the cache's time.
func (c *Cache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// Trim trims the cache (TrimNow) unless trim.txt records a trim less than
// TrimInterval ago. maxSize bounds the entries' size in bytes (0 or less:
// DefaultMaxSize).
func (c *Cache) Trim(maxSize int64) (Removed, error) {
	if c == nil || c.dir == "" {
		return Removed{}, nil
	}
	now := c.clock()
	if data, err := os.ReadFile(filepath.Join(c.dir, trimFile)); err == nil {
		if sec, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil {
			if since := now.Sub(time.Unix(sec, 0)); since >= 0 && since < TrimInterval {
				return Removed{}, nil
			}
		}
	}
	return c.TrimNow(maxSize)
}

// entryFile is an entry, or a leftover temporary file, found by a walk.
type entryFile struct {
	path string
	size int64
	mod  time.Time
}

// TrimNow removes the entries not used for UnusedFor, the temporary files
// of writes that never finished, and then, while the entries left exceed
// maxSize bytes (0 or less: DefaultMaxSize), the least recently used
// ones; it records the trim in trim.txt. Files that are not entries are
// left alone.
func (c *Cache) TrimNow(maxSize int64) (Removed, error) {
	if c == nil || c.dir == "" {
		return Removed{}, nil
	}
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	now := c.clock()
	entries, tmps, err := c.walk()
	if err != nil {
		return Removed{}, err
	}
	var removed Removed
	var errs []error
	remove := func(e entryFile) {
		if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			return
		}
		removed.Entries++
		removed.Bytes += e.size
	}
	for _, e := range tmps {
		if now.Sub(e.mod) > tmpStale {
			remove(e)
		}
	}
	var kept []entryFile
	var size int64
	for _, e := range entries {
		if now.Sub(e.mod) > UnusedFor {
			remove(e)
			continue
		}
		kept = append(kept, e)
		size += e.size
	}
	if size > maxSize {
		slices.SortFunc(kept, func(a, b entryFile) int { return a.mod.Compare(b.mod) })
		for _, e := range kept {
			if size <= maxSize {
				break
			}
			remove(e)
			size -= e.size
		}
	}
	if len(errs) == 0 {
		errs = append(errs, c.writeTrimTime(now))
	}
	return removed, errors.Join(errs...)
}

// Clean removes every entry and every temporary file, whatever its age.
func (c *Cache) Clean() (Removed, error) {
	if c == nil || c.dir == "" {
		return Removed{}, nil
	}
	entries, tmps, err := c.walk()
	if err != nil {
		return Removed{}, err
	}
	var removed Removed
	var errs []error
	for _, e := range append(entries, tmps...) {
		if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed.Entries++
		removed.Bytes += e.size
	}
	return removed, errors.Join(errs...)
}

// walk lists the entries (a file named by a key in hexadecimal, in the
// directory named by its first byte) and the temporary files under the
// cache's directory, the caches in its subdirectories included.
func (c *Cache) walk() (entries, tmps []entryFile, err error) {
	err = filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed by another run meanwhile
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		name := d.Name()
		isTmp := strings.HasPrefix(name, "tmp-")
		if !isTmp && !isEntryName(name, filepath.Base(filepath.Dir(path))) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		e := entryFile{path: path, size: info.Size(), mod: info.ModTime()}
		if isTmp {
			tmps = append(tmps, e)
		} else {
			entries = append(entries, e)
		}
		return nil
	})
	return entries, tmps, err
}

// isEntryName reports whether name, in the directory named dir, is an
// entry's.
func isEntryName(name, dir string) bool {
	b, err := hex.DecodeString(name)
	return err == nil && len(b) == len(Key{}) && strings.ToLower(name) == name && dir == name[:2]
}

// writeTrimTime records now in trim.txt, atomically.
func (c *Cache) writeTrimTime(now time.Time) error {
	f, err := os.CreateTemp(c.dir, "tmp-*")
	if err != nil {
		return err
	}
	_, err = f.WriteString(strconv.FormatInt(now.Unix(), 10) + "\n")
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(c.dir, trimFile))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
