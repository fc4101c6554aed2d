package notes

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// signedIn returns a context whose invocation runs for the principal id.
func signedIn(id string) context.Context {
	return tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: id}})
}

const passphrase = "correct horse battery"

func TestShareToolOffered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{name: "no invocation", ctx: context.Background(), want: false},
		{name: "principal without an ID", ctx: tool.WithInvocation(context.Background(), &tool.Invocation{Conversation: "c1"}), want: false},
		{name: "signed in", ctx: signedIn("ada"), want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestStore(t)
			assert.Equal(t, tt.want, ShareTool{Store: s}.Offered(tt.ctx))
		})
	}
}

func TestShareTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		tool    ShareTool
		ctx     context.Context
		in      ShareInput
		wantURL string        // prefix
		wantTTL time.Duration // from the store's clock
		wantErr string        // a model error containing this
	}{
		{name: "default hours", ctx: signedIn("ada"), in: ShareInput{ID: "n3", Passphrase: passphrase}, wantURL: DefaultShareURL, wantTTL: 24 * time.Hour},
		{name: "hours and base URL", tool: ShareTool{BaseURL: "https://n.test/"}, ctx: signedIn("ada"), in: ShareInput{ID: "n3", Passphrase: passphrase, Hours: 168}, wantURL: "https://n.test/", wantTTL: 168 * time.Hour},
		{name: "anonymous", ctx: context.Background(), in: ShareInput{ID: "n3", Passphrase: passphrase}, wantErr: "needs a signed-in user"},
		{name: "missing note", ctx: signedIn("ada"), in: ShareInput{ID: "n99", Passphrase: passphrase}, wantErr: "note n99: not found"},
		{name: "short passphrase", ctx: signedIn("ada"), in: ShareInput{ID: "n3", Passphrase: "short"}, wantErr: "invalid passphrase: must have 8 to 200 characters"},
		{name: "too long", ctx: signedIn("ada"), in: ShareInput{ID: "n3", Passphrase: passphrase, Hours: 169}, wantErr: "invalid ttl: a share lasts from 1 to 168 hours"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, clock := newTestStore(t)
			share := tt.tool
			share.Store = s
			out, err := share.Call(tt.ctx, tt.in)
			if tt.wantErr != "" {
				assertModelError(t, err, tt.wantErr)
				assert.NotContains(t, err.Error(), tt.in.Passphrase)
				assert.Empty(t, s.Shares())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.in.ID, out.ID)
			assert.True(t, strings.HasPrefix(out.URL, tt.wantURL), out.URL)
			assert.Equal(t, clock.Now().Add(tt.wantTTL), out.Expires)
			b, err := json.Marshal(out)
			require.NoError(t, err)
			assert.NotContains(t, string(b), tt.in.Passphrase, "the passphrase is never returned")

			shares := s.Shares()
			require.Len(t, shares, 1)
			assert.Equal(t, "ada", shares[0].Owner)
			assert.Equal(t, strings.TrimPrefix(out.URL, tt.wantURL), shares[0].Token)
		})
	}
}

// TestOpenShare: a share opens with its passphrase until it expires or
// its note is deleted.
func TestOpenShare(t *testing.T) {
	t.Parallel()
	s, clock := newTestStore(t)
	link, err := s.Share("n3", "ada", passphrase, 2*time.Hour)
	require.NoError(t, err)

	n, err := s.OpenShare(link.Token, passphrase)
	require.NoError(t, err)
	assert.Equal(t, NoteID("n3"), n.ID)
	_, err = s.OpenShare(link.Token, passphrase+"!")
	assert.ErrorIs(t, err, ErrWrongPassphrase)
	_, err = s.OpenShare("no-such-token", passphrase)
	assert.ErrorIs(t, err, ErrNotFound)

	clock.Advance(2 * time.Hour)
	_, err = s.OpenShare(link.Token, passphrase)
	assert.ErrorIs(t, err, ErrNotFound, "expired")
	assert.Empty(t, s.Shares())

	link, err = s.Share("n3", "ada", passphrase, time.Hour)
	require.NoError(t, err)
	require.NoError(t, s.Delete("n3"))
	_, err = s.OpenShare(link.Token, passphrase)
	assert.ErrorIs(t, err, ErrNotFound, "note deleted")
	assert.Empty(t, s.Shares())
}

// TestShareBounds: the store holds at most MaxShares unexpired shares;
// expired ones make room.
func TestShareBounds(t *testing.T) {
	t.Parallel()
	s, clock := newTestStore(t)
	// Filled directly: each real share derives a key on purpose slowly.
	for i := range MaxShares {
		tok := "t" + strconv.Itoa(i)
		s.shares[tok] = &share{ShareLink: ShareLink{Token: tok, Note: "n1", Owner: "ada", Expires: clock.Now().Add(time.Hour)}}
	}
	_, err := s.Share("n3", "ada", passphrase, time.Hour)
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "shares", verr.Field)
	assert.Contains(t, verr.Problem, "at most 100 unexpired shares")

	clock.Advance(time.Hour)
	_, err = s.Share("n3", "ada", passphrase, time.Hour)
	require.NoError(t, err)
	assert.Len(t, s.shares, 1, "expired shares are dropped")

	_, err = s.Share("n3", "", passphrase, time.Hour)
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "owner", verr.Field)
}

func TestUpdateToolLogArgs(t *testing.T) {
	t.Parallel()
	body := "the user's private text"
	tests := []struct {
		name string
		in   UpdateInput
		want string
	}{
		{name: "nothing", in: UpdateInput{ID: "n3"}, want: "n3: nothing set"},
		{name: "body", in: UpdateInput{ID: "n3", Body: &body}, want: "n3: body"},
		{
			name: "every field",
			in: UpdateInput{
				ID: "n12", Title: ptr("t"), Body: &body, Priority: ptr(Priority(2)), Color: &Color{R: 1},
				Attributes: map[string]string{"k": "v"}, Data: 1, IfChecksum: []byte{1},
			},
			want: "n12: title, body, priority, color, attributes, data, if_checksum",
		},
		{name: "invalid ID", in: UpdateInput{ID: "../etc"}, want: "(invalid ID): nothing set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := UpdateTool{}.LogArgs(tt.in)
			assert.Equal(t, tt.want, got)
			assert.NotContains(t, got, body)
		})
	}
}
