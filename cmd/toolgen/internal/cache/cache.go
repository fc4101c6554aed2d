// Package cache is toolgen's content-addressed store on disk: entries are
// named by a key, the SHA-256 of everything that went into computing them,
// so an entry is never out of date, only unused.
//
// Entries are written to a temporary file in the cache directory and
// renamed into place, so concurrent toolgen runs (go generate in several
// packages at once) never see a partial entry; two runs that compute the
// same entry write the same bytes, and the last rename wins. Each entry
// carries the SHA-256 of its key and its data: an entry that is
// truncated, corrupt or unreadable, or a valid entry copied or renamed
// over another, is reported as missing, and the caller computes it again
// and overwrites it. An entry named by the hash of its own content
// (GetContent) is also checked against its name.
//
// Nothing is kept forever: a read marks an entry used, and Trim removes
// the entries unused for UnusedFor and, over a size bound, the least
// recently used ones (trim.go). Clean removes them all.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Cache is a directory of entries. The zero Cache, or a nil *Cache, stores
// nothing and finds nothing.
type Cache struct {
	dir string
	now func() time.Time // nil: time.Now; tests set it
}

// Open returns the cache in dir, creating the directory if needed. An
// empty dir returns the cache that stores nothing.
func Open(dir string) (*Cache, error) {
	if dir == "" {
		return &Cache{}, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// Key names an entry: the SHA-256 of its inputs, as a Hasher writes them.
type Key [sha256.Size]byte

// String is the key in hexadecimal, as entries are named on disk.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Hasher builds a Key from a sequence of fields. Each field is written
// with its length first, so that ("ab", "c") and ("a", "bc") differ.
type Hasher struct {
	h hash.Hash
}

// NewHasher starts a key. kind names what the key is for (for example
// "bootstrap-package v1"): keys of different kinds never collide, and
// changing the kind's version invalidates its entries.
func NewHasher(kind string) *Hasher {
	h := &Hasher{h: sha256.New()}
	h.String(kind)
	return h
}

// String adds a field.
func (h *Hasher) String(s string) {
	h.Bytes([]byte(s))
}

// Bytes adds a field.
func (h *Hasher) Bytes(b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	h.h.Write(n[:])
	h.h.Write(b)
}

// Key returns the key of the fields added so far.
func (h *Hasher) Key() Key {
	var k Key
	h.h.Sum(k[:0])
	return k
}

// magic starts every entry; its version changes with the entry format.
const magic = "toolgen-cache 2\n"

// sum is the checksum an entry carries: the SHA-256 of its key and its
// data, so that an entry is valid under its own key only.
func sum(k Key, data []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(k[:])
	h.Write(data)
	var s [sha256.Size]byte
	h.Sum(s[:0])
	return s
}

// path is where the entry of k lives: a subdirectory per first byte keeps
// directories small.
func (c *Cache) path(k Key) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s)
}

// Get returns the data stored under k. It reports false when the cache
// stores nothing, when there is no entry, and when the entry cannot be
// read or fails its checksum (which binds it to k).
func (c *Cache) Get(k Key) ([]byte, bool) {
	if c == nil || c.dir == "" {
		return nil, false
	}
	p := c.path(k)
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false
	}
	raw := make([]byte, info.Size())
	if _, err := io.ReadFull(f, raw); err != nil {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(raw, []byte(magic))
	if !ok || len(rest) < sha256.Size {
		return nil, false
	}
	want, data := rest[:sha256.Size], rest[sha256.Size:]
	if got := sum(k, data); !bytes.Equal(got[:], want) {
		return nil, false
	}
	c.used(p, info.ModTime())
	return data, true
}

// ContentKey is the key of data in a content-addressed store of kind:
// the Hasher of kind with data as its one field.
func ContentKey(kind string, data []byte) Key {
	h := NewHasher(kind)
	h.Bytes(data)
	return h.Key()
}

// GetContent returns the data stored under k, an entry of kind named by
// its content (ContentKey), as Get does, and reports false as well when
// the data is not the content k names.
func (c *Cache) GetContent(kind string, k Key) ([]byte, bool) {
	data, ok := c.Get(k)
	if !ok || ContentKey(kind, data) != k {
		return nil, false
	}
	return data, true
}

// Has reports whether there is an entry under k, without reading it: Get
// may still find it unreadable or corrupt. Like Get, it marks the entry
// used (trim.go).
func (c *Cache) Has(k Key) bool {
	if c == nil || c.dir == "" {
		return false
	}
	p := c.path(k)
	info, err := os.Stat(p)
	if err != nil {
		return false
	}
	c.used(p, info.ModTime())
	return true
}

// Put stores data under k, atomically: a reader sees the whole entry or
// none. It does nothing when the cache stores nothing.
func (c *Cache) Put(k Key, data []byte) error {
	if c == nil || c.dir == "" {
		return nil
	}
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "tmp-*")
	if err != nil {
		return err
	}
	s := sum(k, data)
	_, err = f.Write(append(append([]byte(magic), s[:]...), data...))
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// Writable returns why entries cannot be stored in the cache (a directory
// that is read-only, for one), or nil when they can: it writes a
// temporary file and removes it.
func (c *Cache) Writable() error {
	if c == nil || c.dir == "" {
		return nil
	}
	f, err := os.CreateTemp(c.dir, "tmp-*")
	if err != nil {
		return err
	}
	return errors.Join(f.Close(), os.Remove(f.Name()))
}
