package proposalid_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/internal/proposalid"
)

func TestNewIsValid(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 200 {
		id := proposalid.New()
		assert.Len(t, id, proposalid.Len)
		assert.True(t, proposalid.Valid(id), id)
		assert.True(t, proposalid.Valid([]byte(id)), id)
		assert.False(t, seen[id], "IDs repeat")
		seen[id] = true
	}
}

func TestValid(t *testing.T) {
	t.Parallel()
	good := "prop_" + strings.Repeat("V", 25) + "S"
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{good, true},
		{"prop_" + strings.Repeat("0", 26), true},
		{"prop_" + strings.Repeat("9", 25) + "G", true},
		{"", false},
		{"prop_", false},
		{good[:len(good)-1], false}, // short
		{good + "0", false},         // long
		{"Prop_" + good[5:], false}, // prefix
		{"prop_" + strings.Repeat("v", 25) + "S", false},     // lower case: not base32hex
		{"prop_" + strings.Repeat("W", 25) + "0", false},     // past V
		{"prop_" + strings.Repeat("A", 24) + "-0", false},    // not base32
		{"prop_" + strings.Repeat("A", 24) + "\x000", false}, // a NUL
		{"delete_everything", false},                         // an identifier is not an ID
	} {
		assert.Equal(t, tc.want, proposalid.Valid(tc.id), "%q", tc.id)
		assert.Equal(t, tc.want, proposalid.Valid([]byte(tc.id)), "%q", tc.id)
	}
}
