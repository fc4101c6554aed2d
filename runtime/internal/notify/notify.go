// Package notify keeps the subscribers of a source of changes: what
// tool.Notifier's implementations (palettes, dynamic sources, MCP client
// toolkits, the call service) share.
package notify

import "sync"

// List is a set of subscribers, each a function called after every change
// until it is cancelled. The zero value is an empty list. A List is safe
// for concurrent use.
type List struct {
	mu   sync.Mutex
	next uint64
	subs map[uint64]func()
}

// Subscribe adds changed to the list and returns the function that
// removes it; that function may be called more than once.
func (l *List) Subscribe(changed func()) (cancel func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.subs == nil {
		l.subs = make(map[uint64]func())
	}
	id := l.next
	l.next++
	l.subs[id] = changed
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.subs, id)
	}
}

// Notify calls every subscriber, outside the list's lock, in no
// particular order.
func (l *List) Notify() {
	l.mu.Lock()
	fs := make([]func(), 0, len(l.subs))
	for _, f := range l.subs {
		fs = append(fs, f)
	}
	l.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Len returns the number of subscribers.
func (l *List) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.subs)
}
