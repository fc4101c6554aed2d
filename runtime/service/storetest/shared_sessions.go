package storetest

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// testSessionsAcross checks that a console session started on one
// instance is read on another with its principal, that use seen on one
// is seen on the other, and that ending it on one ends it on both.
func testSessionsAcross(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn := b.NewDB(t)
	one, two := instance(t, b, dsn), instance(t, b, dsn)
	h := sha256.Sum256([]byte("secret"))
	s := &service.Session{Hash: h[:], Principal: tool.Principal{ID: "alice", Permissions: []string{"files.read"}},
		Created: t0, Expires: t0.Add(time.Hour), Seen: t0}
	require.NoError(t, one.StartSession(ctx, s))

	got, err := two.Session(ctx, h[:])
	require.NoError(t, err)
	assert.Equal(t, s.Principal, got.Principal)
	require.NoError(t, two.SeeSession(ctx, h[:], t0.Add(time.Minute)))
	got, err = one.Session(ctx, h[:])
	require.NoError(t, err)
	assert.True(t, got.Seen.Equal(t0.Add(time.Minute)))

	require.NoError(t, two.EndSession(ctx, h[:]))
	for _, st := range []service.Store{one, two} {
		_, err := st.Session(ctx, h[:])
		assert.ErrorIs(t, err, service.ErrNoSession, "ended on every instance")
	}
}
