package pgstore_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/internal/pgtest"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
)

// The package's PostgreSQL server, started by TestMain, or why there is
// none.
var (
	server   *pgtest.Server
	noServer error
)

func TestMain(m *testing.M) {
	os.Exit(pgtest.Main(m, &server, &noServer))
}

// newDB returns the DSN of a new, empty database (a schema of its own).
func newDB(t *testing.T) string {
	t.Helper()
	return pgtest.Need(t, server, noServer).NewSchema(t)
}

// open opens a store on dsn, closed when t ends.
func open(t *testing.T, dsn string) *sqlstore.Store {
	t.Helper()
	st, err := pgstore.Open(context.Background(), dsn, nil)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.CloseDB()) })
	return st
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) service.Store { return open(t, newDB(t)) })
}
