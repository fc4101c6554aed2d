package palette

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// yield returns a next function over entries.
func yield(entries ...entry) func() (entry, bool) {
	return func() (entry, bool) {
		if len(entries) == 0 {
			return entry{}, false
		}
		e := entries[0]
		entries = entries[1:]
		return e, true
	}
}

// TestMetaSpecCache: the spec is kept while the entries are the same,
// rebuilt when one differs, and built from what there is when the set
// shrank while it was read (a skill attached at the same time).
func TestMetaSpecCache(t *testing.T) {
	m := &meta{name: RequestSkill, kind: tool.KindRead, readOnly: true, desc: "D."}
	a, b, c := entry{"a", "A."}, entry{"b", "B."}, entry{"c", "C."}
	assert.Nil(t, m.spec(0, yield()))

	first := m.spec(2, yield(a, b))
	require.NotNil(t, first)
	assert.Same(t, first, m.spec(2, yield(a, b)))

	changed := m.spec(2, yield(a, c))
	assert.NotSame(t, first, changed)
	assert.Contains(t, string(changed.InputSchema), `"const":"c"`)
	assert.NotContains(t, string(changed.InputSchema), `"const":"b"`)

	shrunk := m.spec(2, yield(a))
	require.NotNil(t, shrunk, "counted two, one left")
	assert.Equal(t, string(m.spec(1, yield(a)).InputSchema), string(shrunk.InputSchema))
	assert.Equal(t, []entry{a}, m.last.Load().entries)

	m.last.Store(nil)
	assert.Nil(t, m.spec(2, yield()), "counted two, none left: not offered")
}
