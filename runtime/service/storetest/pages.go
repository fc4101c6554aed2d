package storetest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// testPages checks the record queries a record page makes: the event
// filter, newest-first order (Time, then ID, whatever order the records
// were written in), and keyset pages (Query.Before) that together read
// every selected record once, also combined with the other filters.
func testPages(t *testing.T, st service.Store) {
	written := writePageRecords(t, st)
	for _, q := range []service.Query{
		{},
		{Event: service.EventRefusal},
		{Principal: "alice", Event: service.EventProposal},
		{Conversation: "c2"},
		{Tool: "act", Conversation: "c1"},
		{Since: t0.Add(5 * time.Second), Until: t0.Add(15 * time.Second)},
		{Principal: "bob", Since: t0.Add(3 * time.Second)},
	} {
		checkPages(t, st, written, q)
	}
	checkCursor(t, st, written)
}

// writePageRecords appends 60 records of two principals, three
// conversations, two tools and four events, their Times out of the
// order of writing, with runs of one instant, so that the ID orders
// records of one Time; it returns them as written.
func writePageRecords(t *testing.T, st service.Store) []service.Record {
	ctx := context.Background()
	events := []service.Event{service.EventCall, service.EventRefusal, service.EventProposal, service.EventOffer}
	var written []service.Record
	for i := range 60 {
		at := t0.Add(time.Duration((i*7)%20) * time.Second)
		rec := &service.Record{Time: at, Principal: []string{"alice", "bob"}[i%2], Conversation: []string{"c1", "c2", "c3"}[i%3],
			Tool: []string{"echo", "act"}[i/30], Event: events[i%len(events)], Outcome: service.OutcomeOK}
		require.NoError(t, st.Append(ctx, rec))
		written = append(written, *rec)
	}
	return written
}

// newestFirst returns the IDs of the written records q selects, newest
// first: by Time, then by ID.
func newestFirst(written []service.Record, q service.Query) []int64 {
	var ids []service.Record
	for _, r := range written {
		if q.Match(&r) {
			ids = append(ids, r)
		}
	}
	slices.SortFunc(ids, func(a, b service.Record) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return idsOf(ids)
}

// idsOf returns the IDs of recs, in their order.
func idsOf(recs []service.Record) []int64 {
	out := []int64{}
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

// checkPages checks what the store reads for q: one page newest first,
// pages of 4 each after the last one's end, and oldest first.
func checkPages(t *testing.T, st service.Store, written []service.Record, q service.Query) {
	ctx := context.Background()
	name := fmt.Sprintf("%+v", q)
	want := newestFirst(written, q)
	require.NotEmpty(t, want, "%s selects something", name)

	// One page of everything.
	q.Newest = true
	got, err := st.Records(ctx, q)
	require.NoError(t, err)
	assert.Equal(t, want, idsOf(got), "%s: newest first", name)

	// Pages of 4, each after the last one's end.
	q.Limit = 4
	var paged []int64
	for range 100 {
		page, err := st.Records(ctx, q)
		require.NoError(t, err)
		require.LessOrEqual(t, len(page), 4)
		paged = append(paged, idsOf(page)...)
		if len(page) < 4 {
			break
		}
		end := page[len(page)-1]
		q.Before = service.Position{Time: end.Time, ID: end.ID}
	}
	assert.Equal(t, want, paged, "%s: the pages read every record once, in order", name)

	// Oldest first (Newest false) is still the order written, with
	// the event filter and the cursor as filters.
	q.Newest, q.Limit, q.Before = false, 0, service.Position{}
	got, err = st.Records(ctx, q)
	require.NoError(t, err)
	wantOld := slices.Clone(want)
	slices.Sort(wantOld)
	assert.Equal(t, wantOld, idsOf(got), "%s: oldest first, as written", name)
}

// checkCursor checks the cursor alone: the records before a place, and
// a place's nanoseconds.
func checkCursor(t *testing.T, st service.Store, written []service.Record) {
	ctx := context.Background()
	mid := written[30]
	before := service.Position{Time: mid.Time, ID: mid.ID}
	want := newestFirst(written, service.Query{Before: before})
	got, err := st.Records(ctx, service.Query{Before: before, Newest: true})
	require.NoError(t, err)
	assert.Equal(t, want, idsOf(got))
	for _, r := range got {
		assert.True(t, r.Time.Before(mid.Time) || r.Time.Equal(mid.Time) && r.ID < mid.ID, "record %d comes before the cursor", r.ID)
	}

	// A record's place holds nanoseconds: a cursor one nanosecond later
	// takes in the records of the instant.
	at := t0.Add(3 * time.Second)
	got, err = st.Records(ctx, service.Query{Before: service.Position{Time: at.Add(1)}, Since: at, Newest: true})
	require.NoError(t, err)
	assert.Equal(t, newestFirst(written, service.Query{Since: at, Until: at.Add(1)}), idsOf(got))
}
