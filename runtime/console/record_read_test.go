package console_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// queryLog is a store that keeps the record queries it answers.
type queryLog struct {
	service.Store
	mu      sync.Mutex
	queries []service.Query
}

func (l *queryLog) Records(ctx context.Context, q service.Query) ([]service.Record, error) {
	l.mu.Lock()
	l.queries = append(l.queries, q)
	l.mu.Unlock()
	return l.Store.Records(ctx, q)
}

// TestRecordPageIsOneQuery checks that a page of the record is one
// newest-first keyset query of the store, filters and cursor passed
// down, however far back in time its records lie: no reading of widening
// windows, which over a long record reads far more rows than it shows.
func TestRecordPageIsOneQuery(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}
	st := &queryLog{Store: service.NewMemoryStore()}
	svc, err := service.New(newFixture(t).reg, &service.Options{Store: st, Now: clk.now})
	require.NoError(t, err)
	c, err := console.New(svc, &console.Options{
		Principal: console.BearerTokens(map[string]tool.Principal{anaToken: ana}), Key: key, Now: clk.now, PageSize: 3,
	})
	require.NoError(t, err)
	e := &env{svc: svc, c: c, clock: clk, url: mount(t, c)}
	for range 7 {
		_, err := svc.Call(as(ana, "c-1"), "files_list", []byte(`{"path":"/f"}`))
		require.NoError(t, err)
		clk.add(30 * 24 * time.Hour) // a month between calls
	}
	st.mu.Lock()
	st.queries = nil
	st.mu.Unlock()

	ids := allPages(t, e, anaToken, map[string][]string{"limit": {"3"}, "event": {"call"}, "tool": {"files_list"}})
	assert.Len(t, ids, 7)
	st.mu.Lock()
	queries := st.queries
	st.mu.Unlock()
	require.Len(t, queries, 3, "one query per page: 3 + 3 + 1")
	for i, q := range queries {
		assert.True(t, q.Newest, "page %d newest first", i)
		assert.Equal(t, 4, q.Limit, "page %d: its size and one more", i)
		assert.Equal(t, service.EventCall, q.Event)
		assert.Equal(t, "files_list", q.Tool)
		assert.Equal(t, "ana", q.Principal)
		assert.Equal(t, i == 0, q.Before.Time.IsZero(), "page %d: a cursor after the first", i)
	}
}
