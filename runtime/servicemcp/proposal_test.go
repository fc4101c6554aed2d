package servicemcp_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// TestConfirmerProposal checks what the Confirmer shows of a proposal: the
// service's view of it (its logged arguments, even once the record that
// first kept them is purged), and nothing to one who may not decide it.
func TestConfirmerProposal(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	svc, err := service.New(f.reg, &service.Options{Policy: &service.Rules{ConfirmPermission: "notes.confirm", OthersOnly: true}})
	require.NoError(t, err)
	ctx := tool.WithInvocation(t.Context(), &tool.Invocation{Principal: ana, Conversation: "c1"})
	p, err := svc.Propose(ctx, "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	_, err = svc.Purge(t.Context(), -time.Second) // every record so far
	require.NoError(t, err)
	recs, err := svc.Records(t.Context(), service.Query{})
	require.NoError(t, err)
	require.Empty(t, recs)

	c := servicemcp.Confirmer(svc)
	boss := tool.Principal{ID: "boss", Permissions: []string{"notes.read", "notes.write", "notes.confirm"}}
	got, err := c.Proposal(t.Context(), p.ID, boss)
	require.NoError(t, err)
	assert.Equal(t, p.ID, got.ID)
	assert.Equal(t, "notes_delete", got.Tool)
	assert.Equal(t, "Delete this note? (notes_delete)", got.Summary)
	assert.JSONEq(t, `{"id":7}`, string(got.Args), "the logged form, without the record")
	assert.Equal(t, p.Digest, got.Digest)
	assert.Equal(t, p.Expires, got.Expires)
	assert.True(t, got.Pending)

	for _, who := range []tool.Principal{ana, ben} { // the proposer under four eyes; a stranger
		_, err := c.Proposal(t.Context(), p.ID, who)
		assert.Equal(t, tool.CodeUnknownProposal, tool.CodeOf(err), who.ID)
	}
}
