package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// testHostileBytes: whatever bytes a caller sends (NUL, invalid UTF-8) in
// a tool's name, a principal, a conversation or a call ID, and whatever a
// tool's message quotes, the call leaves its record, read back as it was
// sent; a failure quoting NUL finishes its run, and a retry of its call
// ID is answered with that failure.
func testHostileBytes(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	svc := serve(t, st, nil, runs)

	for _, name := range []string{"act\x00", "notes_delete\x00", "act\xff", "\x00", "\xc3", strings.Repeat("\xff", 200)} {
		_, err := svc.Call(as(""), name, []byte(`{}`))
		require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err), "%q", name)
		recs, err := st.Records(ctx, service.Query{Tool: name[:min(len(name), 128)]})
		require.NoError(t, err)
		if assert.Len(t, recs, 1, "%q: a refusal row", name) {
			assert.Equal(t, service.EventRefusal, recs[0].Event)
			assert.Equal(t, tool.CodeUnknownTool, recs[0].Code)
		}
	}

	who := tool.Principal{ID: "al\x00ice\xff"}
	hostile := tool.WithInvocation(ctx, &tool.Invocation{Principal: who, Conversation: "c\x00\x1b00", Turn: "t\xfe", CallID: "toolu_\x00\xff"})
	res, err := svc.Call(hostile, "act", []byte(`{"text":"\u0000 boom","fail":true}`))
	require.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.Contains(t, res.Text(), "cannot act on \x00 boom")
	recs, err := st.Records(ctx, service.Query{Principal: who.ID, Conversation: "c\x00\x1b00", CallID: "toolu_\x00\xff"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, service.OutcomeFailed, recs[0].Outcome, "the failure quoting NUL finished its run")
	assert.Equal(t, res.Text(), recs[0].Error, "the message as the model read it")
	assert.Equal(t, "t\xfe", recs[0].Turn)

	// A retry, here and on another instance, is answered with the
	// failure, not outcome_unknown, and runs nothing.
	other := serve(t, instance(t, b, dsn), nil, runs)
	for _, s := range []*service.Service{svc, other} {
		again, err := s.Call(hostile, "act", []byte(`{"text":"\u0000 boom","fail":true}`))
		assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
		assert.Equal(t, res.Text(), again.Text())
	}
	assert.Len(t, runLines(t, runs), 1)

	// A proposal of such a principal is confirmed by it.
	proposer := tool.WithInvocation(ctx, &tool.Invocation{Principal: who, Conversation: "c\x00\x1b00", CallID: "toolu_\x00p"})
	res, err = svc.Call(proposer, "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	conf, err := other.Confirm(ctx, proposalID(t, res), who)
	require.NoError(t, err)
	assert.Equal(t, "deleted 7 for "+who.ID, conf.Result.Text())
}

// testTampered: a proposal whose arguments or expiry were changed in the
// database is refused at confirmation, and runs nothing.
func testTampered(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	db, ok := st.(interface{ DB() *sql.DB })
	if !ok {
		t.Skip("not a SQL store")
	}
	svc := serve(t, st, nil, runs)
	propose := func(id int) string {
		res, err := svc.Call(as(""), "notes_delete", []byte(`{"id":`+strconv.Itoa(id)+`}`))
		require.NoError(t, err)
		return proposalID(t, res)
	}
	p7, p8, p9 := propose(7), propose(8), propose(9)
	for _, c := range []struct{ name, id, update string }{
		{"arguments", p7, "UPDATE toolgen_proposals SET args = (SELECT args FROM toolgen_proposals WHERE id = '" + p8 + "') WHERE id = '" + p7 + "'"},
		{"expiry", p9, "UPDATE toolgen_proposals SET expires_ns = expires_ns + 86400000000000 WHERE id = '" + p9 + "'"},
	} {
		_, err := db.DB().ExecContext(ctx, c.update)
		require.NoError(t, err, c.name)
		_, err = serve(t, instance(t, b, dsn), nil, runs).Confirm(ctx, c.id, alice)
		assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "%s changed: refused", c.name)
		assert.ErrorContains(t, err, "does not match its digest", c.name)
	}
	assert.Empty(t, runLines(t, runs), "nothing ran")
	_, err := svc.Confirm(ctx, p8, alice)
	require.NoError(t, err, "the untouched one runs")
	assert.Equal(t, []string{"notes_delete 8"}, runLines(t, runs))
}

// testLongIDs: a principal ID, conversation or call ID longer than
// service.MaxIDLen (here 20 KB of random bytes, which no index compresses)
// is refused, runs nothing, and leaves its refusal row, the ID cut.
func testLongIDs(t *testing.T, b Backend) {
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	st := instance(t, b, dsn)
	svc := serve(t, st, nil, runs)
	long := make([]byte, 20<<10)
	_, _ = rand.Read(long)
	for i, c := range []struct {
		name string
		inv  tool.Invocation
		tool string
		code tool.Code
	}{
		{"principal", tool.Invocation{Principal: tool.Principal{ID: string(long)}, Conversation: "c1"}, "act", tool.CodeRefused},
		{"conversation", tool.Invocation{Principal: alice, Conversation: string(long)}, "act", tool.CodeRefused},
		{"call ID", tool.Invocation{Principal: alice, Conversation: "c1", CallID: string(long)}, "act", tool.CodeRefused},
		{"call ID of a proposal", tool.Invocation{Principal: alice, Conversation: "c1", CallID: string(long)}, "notes_delete", tool.CodeRefused},
		{"call ID of an unknown tool", tool.Invocation{Principal: alice, Conversation: "c1", CallID: string(long)}, "nope", tool.CodeUnknownTool},
	} {
		_, err := svc.Call(tool.WithInvocation(ctx, &c.inv), c.tool, []byte(`{"id":1}`))
		assert.Equal(t, c.code, tool.CodeOf(err), c.name)
		if c.code == tool.CodeRefused {
			assert.ErrorContains(t, err, "longer than 256 bytes", c.name)
		}
		recs := all(t, st)
		if assert.Len(t, recs, i+1, "%s: a refusal row", c.name) {
			r := recs[i]
			assert.Equal(t, service.EventRefusal, r.Event, c.name)
			assert.Equal(t, c.tool, r.Tool, c.name)
			assert.Equal(t, c.inv.Principal.ID[:min(len(c.inv.Principal.ID), service.MaxIDLen)], r.Principal, "%s: cut", c.name)
			assert.Equal(t, c.inv.Conversation[:min(len(c.inv.Conversation), service.MaxIDLen)], r.Conversation, "%s: cut", c.name)
			assert.Equal(t, c.inv.CallID[:min(len(c.inv.CallID), service.MaxIDLen)], r.CallID, "%s: cut", c.name)
		}
	}
	res, err := svc.Call(as(""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	id := proposalID(t, res)
	_, err = svc.Confirm(ctx, id, tool.Principal{ID: string(long)})
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "a confirming principal too")
	recs, err := st.Records(ctx, service.Query{Proposal: id})
	require.NoError(t, err)
	assert.Len(t, recs, 2, "the proposal and the refusal")
	assert.Empty(t, runLines(t, runs), "nothing ran")
}
