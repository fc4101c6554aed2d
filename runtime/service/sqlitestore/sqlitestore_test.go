package sqlitestore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
)

// open opens a store on a new file in t's temporary directory.
func open(t *testing.T) *sqlstore.Store {
	t.Helper()
	st, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "calls.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.CloseDB()) })
	return st
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) service.Store { return open(t) })
}

func TestConformanceInMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) service.Store {
		st, err := sqlitestore.Open(context.Background(), ":memory:", nil)
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, st.CloseDB()) })
		return st
	})
}
