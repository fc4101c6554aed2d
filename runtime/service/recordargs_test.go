package service_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// wrappedStore is a Store over a MemoryStore that is not one: the service
// knows nothing of how it keeps what it is given.
type wrappedStore struct{ service.Store }

// TestRecordKeepsItsOwnArgs: the arguments a record keeps are a copy: a
// caller that reuses its buffer once the call returns changes no record,
// the store's or the one the Observer saw, whichever store took the call
// and whether it could write it or not.
func TestRecordKeepsItsOwnArgs(t *testing.T) {
	const sent = `{"text":"hello, world"}`
	for _, c := range []struct {
		name           string
		wrapped, fails bool
		failOpen       bool
	}{
		{name: "memory store"},
		{name: "memory store failing", fails: true},
		{name: "memory store failing, open", fails: true, failOpen: true},
		{name: "another store", wrapped: true},
		{name: "another store failing, open", wrapped: true, fails: true, failOpen: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := service.NewMemoryStore()
			var store service.Store = st
			if c.wrapped {
				store = wrappedStore{st}
			}
			if c.fails {
				st.FailWith(func(string) error { return errors.New("disk full") })
			}
			o := &observer{}
			s, _, _, _ := newService(t, &service.Options{Store: store, Observer: o, FailOpen: c.failOpen})
			args := []byte(sent)
			_, err := s.Call(as(alice, ""), "echo", args)
			assert.Equal(t, c.fails && !c.failOpen, err != nil, "%v", err)
			copy(args, bytes.Repeat([]byte("x"), len(args))) // the caller's buffer, reused
			require.Len(t, o.end, 1)
			assert.Equal(t, sent, string(o.end[0].Args), "the record the Observer saw")
			if !c.fails {
				assert.Equal(t, sent, string(last(t, st).Args), "the record stored")
			}
		})
	}
}

// TestMemoryStoreCopiesArgs: the memory store keeps a copy of the Args of
// each record it writes, short ones in shared blocks, and the record
// written points to it; appending to one record's Args writes over no
// other's.
func TestMemoryStoreCopiesArgs(t *testing.T) {
	st := service.NewMemoryStore()
	ctx := context.Background()
	var given, want [][]byte
	for i := range 100 { // 100 × 420 bytes: more than a block
		args := fmt.Appendf(nil, `{"n":%d,"pad":"%s"}`, i, bytes.Repeat([]byte("p"), 400))
		want = append(want, bytes.Clone(args))
		given = append(given, args)
	}
	long := append([]byte(`"`), append(bytes.Repeat([]byte("l"), 5000), '"')...)
	want, given = append(want, bytes.Clone(long)), append(given, long)
	var recs []*service.Record
	for i, args := range given {
		rec := &service.Record{Principal: "p", Event: service.EventCall, Outcome: service.OutcomeStarted, Args: args}
		if i%2 == 0 {
			_, err := st.Start(ctx, rec)
			require.NoError(t, err)
		} else {
			require.NoError(t, st.Append(ctx, rec))
		}
		recs = append(recs, rec)
	}
	for _, args := range given {
		copy(args, bytes.Repeat([]byte("x"), len(args)))
	}
	stored := records(t, st)
	require.Len(t, stored, len(want))
	for i := range want {
		assert.Equal(t, string(want[i]), string(stored[i].Args), "record %d", i)
		assert.Equal(t, string(want[i]), string(recs[i].Args), "record %d as written", i)
	}
	_ = append(stored[0].Args, "!!!!"...)
	assert.Equal(t, string(want[1]), string(records(t, st)[1].Args), "the next record's Args, after an append to the first's")
}
