// Package sqlitestore is the call service's embedded durable store: a
// service.Store (and a durable service.Limiter) in one SQLite file,
// through modernc.org/sqlite, a pure-Go driver (no cgo, no server). It is
// the default for a single machine: proposals, records, call IDs and
// rate limits survive a restart, and several processes on the machine
// may share the file.
//
//	st, err := sqlitestore.Open(ctx, "/var/lib/myapp/toolcalls.db", nil)
//	if err != nil {
//		return err
//	}
//	defer st.Close()
//	svc, err := service.New(reg, &service.Options{
//		Store:   st,
//		Limiter: st.NewLimiter("calls", 2, 20), // 2 calls a second, bursts of 20
//	})
//
// The file is opened in WAL mode with synchronous=FULL (a committed write
// survives a crash of the process and of the machine;
// "file:/path?_synchronous=NORMAL" trades the last commits on power loss
// for speed, never on a crash of the process), a busy timeout and foreign
// keys on. Writes go through one connection whose transactions
// begin with BEGIN IMMEDIATE, so that concurrent claims queue in the
// process and wait on SQLite's lock across processes instead of failing;
// reads go through a pool of read-only connections, which WAL lets run
// beside the writer. For several machines, use runtime/service/pgstore.
//
// A store fails closed when its file goes: before every write it checks
// that the file at the path is still the one it opened (os.SameFile:
// device and inode), and refuses the write when the file was deleted or
// replaced under it, instead of writing to an unlinked file whose rows a
// restart would never see. The service refuses what it could not record.
package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
)

// BusyTimeout is how long a write waits for another process's write
// transaction before it fails (and the call it records is refused).
const BusyTimeout = 10 * time.Second

// Open opens (creating it if needed) the SQLite database at path and
// returns a store over it, its schema migrated. path is a file name, or a
// "file:" URI whose query parameters (such as _synchronous=NORMAL, which
// trades the last commits on power loss for speed) override the
// defaults; ":memory:" is a database in this process alone, on one
// connection. Close closes it.
func Open(ctx context.Context, path string, o *sqlstore.Options) (*sqlstore.Store, error) {
	var opts sqlstore.Options
	if o != nil {
		opts = *o
	}
	opts.OwnDB = true
	if path == ":memory:" {
		db, err := open("file::memory:", map[string]string{"_txlock": "immediate", "_journal_mode": ""})
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		db.SetConnMaxIdleTime(0)
		db.SetConnMaxLifetime(0)
		return newStore(ctx, db, nil, &opts)
	}
	name := path
	if !strings.HasPrefix(name, "file:") {
		name = "file:" + (&url.URL{Path: path}).EscapedPath()
	}
	// One writer: every transaction takes the write lock as it begins, so
	// that two claims never both read and then race to write.
	w, err := open(name, map[string]string{"_txlock": "immediate"})
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	// The writer's first connection puts the file in WAL mode, before the
	// readers connect.
	if err := connect(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	r, err := open(name, map[string]string{"_query_only": "1", "_journal_mode": ""})
	if err != nil {
		w.Close()
		return nil, err
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	opts.ReadDB = r
	if file := filePath(name); file != "" {
		if at, err := os.Stat(file); err == nil {
			opts.Check = sameFile(file, at, opts.Check)
		}
	}
	return newStore(ctx, w, r, &opts)
}

// ErrFileGone is the failure of a write to a store whose database file
// was deleted, or replaced by another file, after the store opened it.
var ErrFileGone = errors.New("sqlitestore: the database file was deleted or replaced since the store opened it")

// sameFile returns the check that the file at path is still at, then
// next's, if any.
func sameFile(path string, at os.FileInfo, next func() error) func() error {
	return func() error {
		now, err := os.Stat(path)
		if err != nil || !os.SameFile(at, now) {
			return fmt.Errorf("%w: %s", ErrFileGone, path)
		}
		if next != nil {
			return next()
		}
		return nil
	}
}

// filePath returns the file a "file:" DSN names, or "" for a database in
// memory.
func filePath(name string) string {
	rest, query, _ := strings.Cut(strings.TrimPrefix(name, "file:"), "?")
	if q, err := url.ParseQuery(query); err == nil && (q.Get("mode") == "memory" || q.Get("vfs") != "") {
		return ""
	}
	if strings.HasPrefix(rest, "//") { // file://host/path: the host is empty or localhost
		i := strings.IndexByte(rest[2:], '/')
		if i < 0 {
			return ""
		}
		rest = rest[2+i:]
	}
	file, err := url.PathUnescape(rest)
	if err != nil || file == "" || file == ":memory:" {
		return ""
	}
	return file
}

// connect makes db's first connection. Switching a new file to WAL mode
// takes an exclusive lock, and SQLite answers SQLITE_BUSY at once, without
// waiting, when another process or connection is switching it too: such
// a connection is tried again until BusyTimeout.
func connect(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(BusyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := db.PingContext(ctx)
		var e interface{ Code() int }
		if err == nil || !errors.As(err, &e) || e.Code()&0xff != sqliteBusy || time.Now().After(deadline) {
			return err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// sqliteBusy is SQLITE_BUSY, the low byte of its extended codes.
const sqliteBusy = 5

// newStore returns the store over w (and r), closing them when it fails.
func newStore(ctx context.Context, w, r *sql.DB, o *sqlstore.Options) (*sqlstore.Store, error) {
	st, err := sqlstore.New(ctx, w, sqlstore.SQLite, o)
	if err != nil {
		w.Close()
		if r != nil {
			r.Close()
		}
		return nil, fmt.Errorf("sqlitestore: %w", err)
	}
	return st, nil
}

// open opens a database/sql handle on the SQLite DSN name with the
// store's defaults, those of extra (an empty value removes a default),
// and then the parameters name sets itself, which win.
func open(name string, extra map[string]string) (*sql.DB, error) {
	base, query, _ := strings.Cut(name, "?")
	given, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", name, err)
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL")
	q.Set("_foreign_keys", "1")
	for k, v := range extra {
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
	}
	for k, v := range given {
		q[k] = v
	}
	db, err := sql.Open("sqlite", base+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", name, err)
	}
	return db, nil
}
