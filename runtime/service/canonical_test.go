package service_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// TestCallIDRepeatWrittenOtherwise: a repeat of a call ID whose arguments
// are the same JSON value written otherwise (members in another order,
// 1.0 for 1, a string's escapes) is the repeat it is, answered from the
// record; other values, or another tool, are refused (call_id_reused).
func TestCallIDRepeatWrittenOtherwise(t *testing.T) {
	t.Parallel()
	s, f, st, _ := newService(t, nil)
	first, err := s.Call(as(alice, "toolu_1"), "act", []byte(`{"text":"x","id":1}`))
	require.NoError(t, err)
	for _, args := range []string{
		`{"id":1,"text":"x"}`,
		`{"id":1.0,"text":"x"}`,
		`{ "text" : "\u0078", "id" : 1e0 }`,
		`{"id":10E-1,"text":"x"}`,
	} {
		again, err := s.Call(as(alice, "toolu_1"), "act", []byte(args))
		require.NoError(t, err, args)
		assert.Equal(t, first.Text(), again.Text(), args)
		assert.Equal(t, service.EventReplay, last(t, st).Event, args)
	}
	for _, args := range []string{`{"id":2,"text":"x"}`, `{"id":1,"text":"y"}`, `{"id":1,"text":"x","pause":false}`, `{"id":"1","text":"x"}`} {
		_, err := s.Call(as(alice, "toolu_1"), "act", []byte(args))
		assert.Equal(t, tool.CodeCallIDReused, codeOf(err), args)
	}
	_, err = s.Call(as(alice, "toolu_1"), "echo", []byte(`{"id":1,"text":"x"}`))
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err), "another tool")
	assert.EqualValues(t, 1, f.runs[tAct].Load(), "ran once")

	// A proposal too (its arguments are decoded before: a spelling the
	// tool refuses, such as 7.0 for an integer, is refused as invalid).
	id := proposeArgs(t, s, "toolu_2", `{"text":"a","id":7}`)
	assert.Equal(t, id, proposeArgs(t, s, "toolu_2", `{"id":7,"text":"\u0061"}`))
	_, err = s.Call(as(alice, "toolu_2"), "notes_delete", []byte(`{"id":8,"text":"a"}`))
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err))
}

// proposeArgs proposes notes_delete with args as alice and returns the
// proposal's ID.
func proposeArgs(t *testing.T, s *service.Service, callID, args string) string {
	t.Helper()
	p, err := s.Propose(as(alice, callID), "notes_delete", []byte(args))
	require.NoError(t, err, args)
	return p.ID
}

// TestCallIDOfARecordBeforeCanonicalArgs: a record whose argument digest
// was made before the canonical form (the arguments without their white
// space, under the domain "toolgen call v1") still holds the call of the
// arguments written as they were then, however spaced: it is answered
// from the record. Written otherwise (another member order) it is refused,
// as it was before.
func TestCallIDOfARecordBeforeCanonicalArgs(t *testing.T) {
	t.Parallel()
	key := make([]byte, service.MinKeyLen)
	for i := range key {
		key[i] = byte(i)
	}
	s, f, st, c := newService(t, &service.Options{Key: key})
	old := &service.Record{Time: c.now(), Principal: "alice", Conversation: "c1", CallID: "toolu_v1", Tool: "act",
		Event: service.EventCall, Outcome: service.OutcomeStarted, ArgsDigest: v1ArgsDigest(key, "act", `{"text":"x","id":1}`)}
	_, err := st.Start(context.Background(), old)
	require.NoError(t, err)
	old.Outcome, old.Result = service.OutcomeOK, []byte("ran before")
	require.NoError(t, st.Finish(context.Background(), old))

	res, err := s.Call(as(alice, "toolu_v1"), "act", []byte(`{ "text": "x", "id": 1 }`))
	require.NoError(t, err)
	assert.Equal(t, "ran before", res.Text())
	_, err = s.Call(as(alice, "toolu_v1"), "act", []byte(`{"text":"x","id":2}`))
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err))
	_, err = s.Call(as(alice, "toolu_v1"), "act", []byte(`{"id":1,"text":"x"}`))
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err), "the old digest binds the old writing")
	assert.Zero(t, f.runs[tAct].Load())
}

// v1ArgsDigest is the argument digest records held before the canonical
// form: HMAC-SHA256 of the domain, the length-prefixed tool name and the
// compact arguments (args here has no white space).
func v1ArgsDigest(key []byte, name, args string) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("toolgen call v1\x00"))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(name)))
	h.Write(n[:])
	h.Write([]byte(name))
	h.Write([]byte(args))
	return hex.EncodeToString(h.Sum(nil))
}
