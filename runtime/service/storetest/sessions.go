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

// testSessions checks the console's sessions: written and read back by
// hash with the principal they were made for (any bytes in its ID and
// permissions), Seen only moving forward, ended for good by EndSession,
// and purged once expired.
func testSessions(t *testing.T, st service.Store) {
	ctx := context.Background()
	hash := func(secret string) []byte { h := sha256.Sum256([]byte(secret)); return h[:] }
	alice := &service.Session{Hash: hash("a"), Principal: tool.Principal{ID: "alice\x00\xff", Permissions: []string{"files.read", "", "x\x1by"}},
		Created: t0, Expires: t0.Add(12 * time.Hour), Seen: t0, Digest: "d1\x00"}
	bob := &service.Session{Hash: hash("b"), Principal: tool.Principal{ID: "bob"}, Created: t0, Expires: t0.Add(time.Hour), Seen: t0}
	require.NoError(t, st.StartSession(ctx, alice))
	require.NoError(t, st.StartSession(ctx, bob))
	assert.Error(t, st.StartSession(ctx, &service.Session{Hash: hash("a"), Principal: tool.Principal{ID: "mallory"}, Expires: t0.Add(time.Hour)}),
		"a second session of one hash")

	got, err := st.Session(ctx, hash("a"))
	require.NoError(t, err)
	assert.Equal(t, alice.Hash, got.Hash)
	assert.Equal(t, alice.Principal, got.Principal, "the principal it was made for, as written")
	assert.Equal(t, alice.Digest, got.Digest)
	assert.True(t, got.Created.Equal(t0) && got.Expires.Equal(alice.Expires) && got.Seen.Equal(t0), "times: %+v", got)
	got.Principal.Permissions[0] = "changed"
	again, err := st.Session(ctx, hash("a"))
	require.NoError(t, err)
	assert.Equal(t, "files.read", again.Principal.Permissions[0], "a session read is a copy")

	got, err = st.Session(ctx, hash("b"))
	require.NoError(t, err)
	assert.Equal(t, "bob", got.Principal.ID)
	assert.Empty(t, got.Principal.Permissions)

	for _, h := range [][]byte{hash("c"), nil, []byte("short"), make([]byte, sha256.Size)} {
		_, err = st.Session(ctx, h)
		assert.ErrorIs(t, err, service.ErrNoSession, "unknown hash %x", h)
	}

	// Seen moves forward only.
	require.NoError(t, st.SeeSession(ctx, hash("a"), t0.Add(time.Minute)))
	require.NoError(t, st.SeeSession(ctx, hash("a"), t0.Add(time.Second)))
	got, err = st.Session(ctx, hash("a"))
	require.NoError(t, err)
	assert.True(t, got.Seen.Equal(t0.Add(time.Minute)), "seen %v", got.Seen)
	require.NoError(t, st.SeeSession(ctx, hash("c"), t0), "no such session: no error")

	// Ended: gone for good; the others stay.
	require.NoError(t, st.EndSession(ctx, hash("a")))
	_, err = st.Session(ctx, hash("a"))
	assert.ErrorIs(t, err, service.ErrNoSession)
	require.NoError(t, st.EndSession(ctx, hash("a")), "ending an ended session is no error")
	_, err = st.Session(ctx, hash("b"))
	require.NoError(t, err)

	// Purge deletes the sessions expired before its time, and only those.
	carol := &service.Session{Hash: hash("c"), Principal: tool.Principal{ID: "carol"}, Created: t0, Expires: t0.Add(24 * time.Hour), Seen: t0}
	require.NoError(t, st.StartSession(ctx, carol))
	n, err := st.Purge(ctx, t0.Add(2*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "bob's session, expired")
	_, err = st.Session(ctx, hash("b"))
	assert.ErrorIs(t, err, service.ErrNoSession)
	_, err = st.Session(ctx, hash("c"))
	assert.NoError(t, err, "carol's has not expired")
}
