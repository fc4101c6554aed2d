package codec

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHasDuplicates(t *testing.T) {
	t.Parallel()
	long := make([]string, 40)
	for i := range long {
		long[i] = strconv.Itoa(i)
	}
	longDup := append(append([]string{}, long...), "17")
	assert.False(t, HasDuplicates([]string{}))
	assert.False(t, HasDuplicates([]string{"a", "b", "c"}))
	assert.True(t, HasDuplicates([]string{"a", "b", "a"}))
	assert.True(t, HasDuplicates([]int64{3, 1, 3}))
	assert.False(t, HasDuplicates([]float64{1, 1.5}))
	assert.False(t, HasDuplicates(long))
	assert.True(t, HasDuplicates(longDup))
}
