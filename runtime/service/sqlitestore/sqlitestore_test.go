package sqlitestore_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
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
