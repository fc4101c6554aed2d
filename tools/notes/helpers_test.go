package notes

import (
	"sync"
	"testing"
	"time"
)

// testClock is a clock tests set and advance by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2025, time.April, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newTestStore returns a store seeded with the demo notes whose clock the
// test controls (it starts on 2025-04-01 12:00 UTC, after every demo note).
func newTestStore(t *testing.T) (*Store, *testClock) {
	t.Helper()
	clock := newTestClock()
	s := NewStore(clock.Now)
	seedDemo(s)
	return s, clock
}

func ptr[T any](v T) *T { return &v }
