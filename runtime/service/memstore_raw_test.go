package service

import (
	"bytes"
	"fmt"
	"testing"

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
