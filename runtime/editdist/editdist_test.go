package editdist

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"abc", "abc", 0},
		{"notes_serch", "notes_search", 1},
		{"notes_seacrh", "notes_search", 1}, // adjacent transposition
		{"kitten", "sitting", 3},
		{"flaw", "lawn", 2},
		{"ca", "abc", 3}, // optimal string alignment, not full Damerau
	}
	for _, tt := range tests {
		t.Run(tt.a+"|"+tt.b, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Distance(tt.a, tt.b))
			assert.Equal(t, tt.want, Distance(tt.b, tt.a), "symmetric")
		})
	}
}
