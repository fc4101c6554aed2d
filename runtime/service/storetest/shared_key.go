package storetest

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// testKeyRowDeleted: the toolgen_keys row deleted under a running service
// while a proposal is pending: an instance started then fails closed (it
// makes no new key, refuses calls and confirmations that need one, and
// destroys no proposal), and the running service, which holds the key,
// still confirms the proposal.
func testKeyRowDeleted(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	db, ok := st.(interface{ DB() *sql.DB })
	if !ok {
		t.Skip("not a SQL store")
	}
	running := serve(t, st, nil, runs)
	id := proposeNote(t, running, 7)
	_, err := db.DB().ExecContext(ctx, "DELETE FROM toolgen_keys")
	require.NoError(t, err)

	st2 := instance(t, b, dsn)
	_, err = st2.Key(ctx, make([]byte, service.MinKeyLen))
	require.ErrorIs(t, err, service.ErrKeyLost)
	next := serve(t, st2, nil, runs)
	_, err = next.Confirm(ctx, id, alice)
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err))
	assert.ErrorContains(t, err, "digest key is lost")
	assert.ErrorIs(t, err, service.ErrKeyLost, "the cause, for the log")
	_, err = next.Call(as(""), "notes_delete", []byte(`{"id":8}`))
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "no proposal is made without the key")
	_, err = next.Call(as("toolu_k"), "act", []byte(`{"text":"k"}`))
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "nor a call whose call ID needs its digest")
	assert.ErrorContains(t, err, "digest key is lost")
	var keys int
	require.NoError(t, db.DB().QueryRowContext(ctx, "SELECT COUNT(*) FROM toolgen_keys").Scan(&keys))
	assert.Zero(t, keys, "no new key was made")
	assert.Equal(t, service.StatePending, stateOf(t, st, id), "the proposal is not destroyed")
	assert.Empty(t, runLines(t, runs))

	_, err = running.Confirm(ctx, id, alice)
	require.NoError(t, err, "the running service holds the key: it confirms")
	assert.Equal(t, []string{"notes_delete 7"}, runLines(t, runs))
}
