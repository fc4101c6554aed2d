package service_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

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

// argsCorpus are arguments of every shape a logged form handles: compact
// or not, strings to cut, escapes, UTF-8, not JSON, empty, longer than
// the memory store leaves raw.
var argsCorpus = []string{
	``,
	`{}`,
	`{"text":"hello, world"}`,
	` { "text" : "spaced" } `,
	"{\"text\":\n\"a\\nb\\u00e9\"}",
	`{"text":"` + strings.Repeat("long ", 100) + `"}`,
	`{"text":"` + strings.Repeat("é", 300) + `"}`,
	`{"text":"hi","secret":"hunter2"}`,
	`{"text":`,
	`{"text":"x"} trailing`,
	"{\"text\":\"\xff\"}",
	`[1,2,{"a":[true,false,null,-1.5e3]}]`,
	`{"text":"` + strings.Repeat("x", 3000) + `"}`,
	`{"pad":[` + strings.Repeat(`"0123456789",`, 300) + `"end"]}`,
}

// recordedArgs returns the Args of the records of a call of name with
// args, made through a service over a memory store without an Observer
// (which leaves the arguments' form to the store) and through one over a
// store that is not a MemoryStore (which gets the form made before the
// call runs).
func recordedArgs(t *testing.T, name, callID string, args []byte) (memory, other string) {
	t.Helper()
	for _, wrapped := range []bool{false, true} {
		st := service.NewMemoryStore()
		var store service.Store = st
		if wrapped {
			store = wrappedStore{st}
		}
		s, _, _, _ := newService(t, &service.Options{Store: store})
		_, _ = s.Call(as(alice, callID), name, bytes.Clone(args))
		if callID != "" {
			_, _ = s.Call(as(alice, callID), name, bytes.Clone(args)) // a replay
		}
		var got []string
		for _, r := range records(t, st) {
			got = append(got, string(r.Args))
		}
		if wrapped {
			other = strings.Join(got, "\n")
		} else {
			memory = strings.Join(got, "\n")
		}
	}
	return memory, other
}

// TestRawArgsFormedAsBefore: the arguments of a call the memory store
// keeps raw read back as the form the service makes for any other store,
// for every shape of arguments, for a tool with secrets, and for a
// replayed call ID.
func TestRawArgsFormedAsBefore(t *testing.T) {
	for _, args := range argsCorpus {
		for _, name := range []string{"echo", "login"} {
			for _, callID := range []string{"", "toolu_1"} {
				memory, other := recordedArgs(t, name, callID, []byte(args))
				assert.Equal(t, other, memory, "%s(%.40q), call ID %q", name, args, callID)
				if name == "login" {
					assert.NotContains(t, memory, "hunter2", "login's /secret")
				}
			}
		}
	}
}

func FuzzRawArgs(f *testing.F) {
	for _, args := range argsCorpus {
		f.Add([]byte(args))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		memory, other := recordedArgs(t, "echo", "", args)
		if memory != other {
			t.Fatalf("recorded arguments of %q: %q kept raw, %q formed first", args, memory, other)
		}
	})
}

// TestRawArgsThroughDropAndPurge: records whose arguments the memory
// store keeps raw read back formed after the store dropped its oldest, and
// after a purge, each with its own, as a store given the form keeps them.
func TestRawArgsThroughDropAndPurge(t *testing.T) {
	for _, purge := range []bool{false, true} {
		var got [2][]service.Record
		for k, wrapped := range []bool{false, true} {
			st := service.NewMemoryStore()
			st.SetMaxRecords(8)
			var store service.Store = st
			if wrapped {
				store = wrappedStore{st}
			}
			s, _, _, c := newService(t, &service.Options{Store: store})
			for i := range 19 {
				args := fmt.Appendf(nil, ` { "text" : "%d" } `, i) // kept raw
				if i%5 == 2 || i == 13 {
					args = nil // formed first: "{}"
				}
				_, _ = s.Call(as(alice, ""), "echo", args)
				c.add(time.Minute)
			}
			if purge {
				_, err := st.Purge(context.Background(), c.now().Add(-4*time.Minute))
				require.NoError(t, err)
			}
			got[k] = records(t, st)
		}
		require.Len(t, got[0], len(got[1]), "purged: %v", purge)
		require.Greater(t, len(got[0]), 2, "purged: %v", purge)
		for i := range got[0] {
			assert.Equal(t, string(got[1][i].Args), string(got[0][i].Args), "purged: %v, record %d", purge, i)
		}
	}
}

// TestObserverSeesFormedArgs: with an Observer, the record it sees holds
// the arguments' form, made before the call runs.
func TestObserverSeesFormedArgs(t *testing.T) {
	o := &observer{}
	s, _, st, _ := newService(t, &service.Options{Observer: o})
	_, err := s.Call(as(alice, ""), "echo", []byte(` { "text" : "spaced" } `))
	require.NoError(t, err)
	require.Len(t, o.end, 1)
	assert.Equal(t, `{"text":"spaced"}`, string(o.end[0].Args))
	assert.Equal(t, `{"text":"spaced"}`, string(last(t, st).Args))
}
