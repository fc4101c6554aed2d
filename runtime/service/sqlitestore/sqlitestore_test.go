package sqlitestore_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// backend is SQLite for storetest: a database is a file.
var backend = func() storetest.Backend {
	b := storetest.SQLBackend("sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "calls.db") },
		func(ctx context.Context, dsn string) (*sqlstore.Store, error) { return sqlitestore.Open(ctx, dsn, nil) })
	b.Confirms = 100
	return b
}()

func TestMain(m *testing.M) {
	storetest.Child(backend) // a child process of RunShared's plays its role and exits
	os.Exit(m.Run())
}

// open opens a store on a new file in t's temporary directory.
func open(t *testing.T) *sqlstore.Store {
	t.Helper()
	st, err := sqlitestore.Open(context.Background(), backend.NewDB(t), nil)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.Close()) })
	return st
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) service.Store { return open(t) })
}

func TestConformanceInMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) service.Store {
		st, err := sqlitestore.Open(context.Background(), ":memory:", nil)
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, st.Close()) })
		return st
	})
}

func TestShared(t *testing.T) {
	storetest.RunShared(t, backend)
}

func TestMigrationsRecordedOnce(t *testing.T) {
	path := backend.NewDB(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			st, err := sqlitestore.Open(context.Background(), path, nil)
			if assert.NoError(t, err) {
				assert.NoError(t, st.Close())
			}
		})
	}
	wg.Wait()
	st := open(t)
	v, err := st.SchemaVersion(context.Background())
	require.NoError(t, err)
	assert.Equal(t, len(sqlstore.SQLite.Migrations()), v)
	var n int
	require.NoError(t, st.DB().QueryRow("SELECT COUNT(*) FROM toolgen_migrations").Scan(&n))
	assert.Equal(t, v, n, "each step once")
}

func TestOpenPaths(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a dir#1")
	require.NoError(t, os.Mkdir(dir, 0o755))
	path := filepath.Join(dir, "calls?.db")
	st, err := sqlitestore.Open(ctx, path, nil)
	require.NoError(t, err)
	_, err = os.Stat(path)
	assert.NoError(t, err, "the file is where the path says")
	var mode string
	require.NoError(t, st.DB().QueryRow("PRAGMA journal_mode").Scan(&mode))
	assert.Equal(t, "wal", mode)
	var sync int
	require.NoError(t, st.DB().QueryRow("PRAGMA synchronous").Scan(&sync))
	assert.Equal(t, 2, sync, "FULL")
	require.NoError(t, st.Close())

	// A file: URI's parameters win.
	st, err = sqlitestore.Open(ctx, "file:"+filepath.Join(t.TempDir(), "n.db")+"?_synchronous=NORMAL", nil)
	require.NoError(t, err)
	require.NoError(t, st.DB().QueryRow("PRAGMA synchronous").Scan(&sync))
	assert.Equal(t, 1, sync, "NORMAL")
	require.NoError(t, st.Close())
}

// TestFileGoneFailsClosed: when the database file is deleted, or
// replaced by another, under a running service, every write is refused
// (nothing runs unrecorded into a file a restart would not see), and a
// store on the new file starts from it.
func TestFileGoneFailsClosed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name string
		path func(dir string) (file, dsn string)
		gone func(t *testing.T, file string)
	}{
		{"deleted", plainPath, deleteFiles},
		{"replaced", plainPath, replaceFile},
		{"deleted, opened by a file: URI", func(dir string) (string, string) {
			file := filepath.Join(dir, "a dir#1", "calls?.db")
			return file, "file:" + (&url.URL{Path: file}).EscapedPath() + "?_synchronous=NORMAL"
		}, deleteFiles},
		{"deleted, opened by a file:// URI", func(dir string) (string, string) {
			file := filepath.Join(dir, "calls.db")
			return file, "file://" + file
		}, deleteFiles},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			file, dsn := c.path(t.TempDir())
			require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
			st, err := sqlitestore.Open(ctx, dsn, nil)
			require.NoError(t, err)
			t.Cleanup(func() { st.Close() })
			_, err = os.Stat(file)
			require.NoError(t, err, "the file is where the test looks")
			var runs atomic.Int64
			svc, err := service.New(actRegistry(t, &runs), &service.Options{Store: st, Limiter: st.NewLimiter("calls", 100, 100)})
			require.NoError(t, err)
			alice := tool.WithInvocation(ctx, &tool.Invocation{Principal: tool.Principal{ID: "alice"}, CallID: "toolu_1"})
			_, err = svc.Call(alice, "act", nil)
			require.NoError(t, err)

			c.gone(t, file)
			_, err = svc.Call(tool.WithInvocation(ctx, &tool.Invocation{Principal: tool.Principal{ID: "alice"}, CallID: "toolu_2"}), "act", nil)
			assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "refused")
			assert.ErrorContains(t, err, "nothing was run")
			assert.EqualValues(t, 1, runs.Load(), "nothing ran after the file went")
			err = st.Append(ctx, &service.Record{Principal: "alice", Event: service.EventRefusal})
			assert.ErrorIs(t, err, sqlitestore.ErrFileGone)
			_, err = st.NewLimiter("calls", 100, 100).Allow(ctx, "alice")
			assert.ErrorIs(t, err, sqlitestore.ErrFileGone)

			// A restart opens what is at the path now.
			st2, err := sqlitestore.Open(ctx, dsn, nil)
			require.NoError(t, err)
			t.Cleanup(func() { st2.Close() })
			recs, err := st2.Records(ctx, service.Query{CallID: "toolu_2"})
			require.NoError(t, err)
			assert.Empty(t, recs)
		})
	}
}

// plainPath is a database at a plain path.
func plainPath(dir string) (string, string) {
	file := filepath.Join(dir, "calls.db")
	return file, file
}

// deleteFiles deletes the database's files.
func deleteFiles(t *testing.T, file string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(file + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// replaceFile moves another database over the file.
func replaceFile(t *testing.T, file string) {
	other := filepath.Join(t.TempDir(), "other.db")
	st, err := sqlitestore.Open(context.Background(), other, nil)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	require.NoError(t, os.Rename(other, file))
}

// actRegistry is a registry of one action, act, counting its runs.
func actRegistry(t *testing.T, runs *atomic.Int64) tool.Registry {
	t.Helper()
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{Name: "act", Kind: tool.KindAction}}, nil,
		func(_ context.Context, _ int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			if in.Object("object") {
				for {
					key, ok := in.Key()
					if !ok {
						break
					}
					in.Unknown(key)
				}
			}
			in.End()
			if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
				return 0, err
			}
			runs.Add(1)
			out.RawText("acted")
			return toolimpl.OutputText, nil
		}, nil)
	require.NoError(t, err)
	return reg
}
