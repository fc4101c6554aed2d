package service

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartRawKeepsACopy: the memory store keeps a copy of raw Args
// (startRaw), short ones in shared blocks, and reads them back formed
// (compact ones as they are); appending to one record's Args writes over
// no other's.
func TestStartRawKeepsACopy(t *testing.T) {
	m := NewMemoryStore()
	var given, want [][]byte
	for i := range 100 { // 100 × 420 bytes: more than a block
		args := fmt.Appendf(nil, `{"n":%d,"pad":"%s"}`, i, bytes.Repeat([]byte("p"), 400))
		if i%2 == 1 {
			args = fmt.Appendf(nil, `{"n": %d,"pad":"%s"}`, i, bytes.Repeat([]byte("p"), 400))
		}
		want = append(want, fmt.Appendf(nil, `{"n":%d,"pad":"%s"}`, i, bytes.Repeat([]byte("p"), 400)))
		given = append(given, args)
	}
	long := fmt.Appendf(nil, `[%s"]`, bytes.Repeat([]byte(`"l",`), 1000))
	want, given = append(want, []byte(`"[not JSON: 4003 bytes]"`)), append(given, long)
	for _, args := range given {
		rec := &Record{Principal: "p", Event: EventCall, Outcome: OutcomeStarted, Args: args}
		prior, err := m.startRaw(rec, -1)
		require.NoError(t, err)
		require.Nil(t, prior)
		assert.Nil(t, rec.Args, "the raw arguments are not to be read as the form")
	}
	for _, args := range given {
		copy(args, bytes.Repeat([]byte("x"), len(args)))
	}
	stored, err := m.Records(t.Context(), Query{})
	require.NoError(t, err)
	require.Len(t, stored, len(want))
	for i := range want {
		assert.Equal(t, string(want[i]), string(stored[i].Args), "record %d", i)
	}
	_ = append(stored[0].Args, bytes.Repeat([]byte("!"), 2000)...)
	again, err := m.Records(t.Context(), Query{Limit: 5})
	require.NoError(t, err)
	for i := 1; i < 5; i++ {
		assert.Equal(t, string(want[i]), string(again[i].Args), "record %d, after an append to the first's Args", i)
	}
}

// TestMemoryStoreRingKeepsItsOrder drives the memory store's ring of
// records (writes, ends of runs, repeats of a call ID, drops of the
// oldest half, purges, a cap that shrinks and grows) against a plain list
// that does what the store promises, and compares what each holds after
// every step.
func TestMemoryStoreRingKeepsItsOrder(t *testing.T) {
	ctx := t.Context()
	m := NewMemoryStore()
	var (
		model []Record // oldest first
		limit = DefaultMaxRecords
		next  int64
		base  = time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	)
	rng := rand.New(rand.NewPCG(1, 2))
	for step := range 4000 {
		switch op := rng.IntN(20); {
		case op == 0:
			limit = []int{2, 3, 7, 16, 40}[rng.IntN(5)]
			m.SetMaxRecords(limit)
		case op == 1:
			before := base.Add(time.Duration(next-int64(rng.IntN(30))) * time.Second)
			_, err := m.Purge(ctx, before)
			require.NoError(t, err)
			model = slices.DeleteFunc(model, func(r Record) bool { return r.Time.Before(before) })
		case op < 5 && len(model) > 0:
			r := model[rng.IntN(len(model))]
			r.Outcome, r.Duration = OutcomeOK, time.Duration(step)
			require.NoError(t, m.Finish(ctx, &r))
			for i := range model {
				if model[i].ID == r.ID {
					model[i].Outcome, model[i].Duration = r.Outcome, r.Duration
				}
			}
		default:
			callID := fmt.Sprint(rng.IntN(50))
			rec := &Record{Time: base.Add(time.Duration(next) * time.Second), Principal: "p", CallID: callID, Event: EventCall, Outcome: OutcomeStarted}
			var want *Record
			for i := range model {
				if model[i].CallID == callID {
					want = &model[i]
					break
				}
			}
			prior, err := m.Start(ctx, rec)
			require.NoError(t, err)
			if want != nil {
				require.NotNil(t, prior, "step %d: call ID %s is held by record %d", step, callID, want.ID)
				require.Equal(t, want.ID, prior.ID, "step %d", step)
				continue
			}
			require.Nil(t, prior, "step %d: call ID %s", step, callID)
			if len(model) >= limit {
				model = slices.Delete(model, 0, len(model)-limit/2)
			}
			next++
			require.Equal(t, next, rec.ID, "step %d", step)
			model = append(model, *rec)
		}
		got, err := m.Records(ctx, Query{Limit: 1 << 20})
		require.NoError(t, err)
		require.Equal(t, len(model), len(got), "step %d", step)
		for i := range model {
			require.Equal(t, model[i], got[i], "step %d, record %d", step, i)
		}
	}
}
