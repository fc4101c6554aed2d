package service

import (
	"cmp"
	"slices"
)

// newest returns the records q selects, newest first (q.Newest): the
// memory store keeps them in the order written, which a record's Time
// need not follow, so it sorts what matches; m.mu is held.
func (m *MemoryStore) newest(q *Query) []Record {
	var idx []int
	for i := range m.count {
		if q.Match(&m.at(i).Record) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		ra, rb := &m.at(a).Record, &m.at(b).Record
		if c := rb.Time.Compare(ra.Time); c != 0 {
			return c
		}
		return cmp.Compare(rb.ID, ra.ID)
	})
	if n := q.limit(); len(idx) > n {
		idx = idx[:n]
	}
	out := make([]Record, len(idx))
	for j, i := range idx {
		out[j] = *m.formed(i)
	}
	return out
}
