package notify

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestList(t *testing.T) {
	var l List
	l.Notify() // nobody: nothing happens
	var a, b atomic.Int64
	cancelA := l.Subscribe(func() { a.Add(1) })
	cancelB := l.Subscribe(func() { b.Add(1) })
	assert.Equal(t, 2, l.Len())
	l.Notify()
	assert.Equal(t, int64(1), a.Load())
	assert.Equal(t, int64(1), b.Load())
	cancelA()
	cancelA() // twice: no harm
	l.Notify()
	assert.Equal(t, int64(1), a.Load(), "cancelled")
	assert.Equal(t, int64(2), b.Load())
	cancelB()
	assert.Zero(t, l.Len())
}

func TestSubscriberMaySubscribeAndCancel(t *testing.T) {
	var l List
	var cancel func()
	n := 0
	cancel = l.Subscribe(func() {
		n++
		cancel() // from inside a notification: the lock is not held
		l.Subscribe(func() {})
	})
	l.Notify()
	assert.Equal(t, 1, n)
	assert.Equal(t, 1, l.Len())
}

func TestConcurrentUse(t *testing.T) {
	var l List
	var calls atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				cancel := l.Subscribe(func() { calls.Add(1) })
				l.Notify()
				cancel()
			}
		})
	}
	wg.Wait()
	assert.Zero(t, l.Len())
	assert.GreaterOrEqual(t, calls.Load(), int64(800), "each notifies at least its own subscriber")
}
