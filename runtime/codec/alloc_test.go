//go:build !race

package codec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The race detector allocates on its own, so these run only without it.

// TestDuplicateMemberAllocations: past the problem cap, duplicates are only
// counted, and cost no allocation.
func TestDuplicateMemberAllocations(t *testing.T) {
	d := NewDecoder()
	in := []byte(`{"k":1` + strings.Repeat(`,"k":1`, 1000) + `}`)
	var k []byte
	var ok bool
	allocs := testing.AllocsPerRun(10, func() {
		d.Reset(in, Limits{})
		d.Object("object")
		k, _ = d.Key()
		d.Int("integer", 64)
		for i := 0; i < MaxProblems; i++ { // fill the cap
			d.Key()
			d.Problem("full")
			d.Skip()
		}
		for {
			if k, ok = d.Key(); !ok {
				break
			}
			d.DuplicateMember(k)
		}
	})
	assert.Zero(t, allocs, "past the cap a duplicate allocates nothing")
	var ae *ArgumentsError
	require.ErrorAs(t, d.Err(), &ae)
	assert.Equal(t, 1000-MaxProblems, ae.Omitted)
}
