package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pool holds a few connections (client sessions) to the server, each
// made on first use and made again once it is lost. Calls are spread over
// them in turn.
type pool struct {
	p     *Toolkit
	slots []slot
	next  atomic.Uint32
	// lost counts the connections found lost. A connection made before
	// the last loss reaches the same server, which may be gone: it is
	// pinged before it is used again (a streamable HTTP connection does
	// not notice a server that went away until it sends something, and
	// a call it sends then has an unknown outcome; a ping changes
	// nothing).
	lost atomic.Uint64
}

// slot is one connection of the pool.
type slot struct {
	lock chan struct{} // 1-buffered: held while connecting
	cur  atomic.Pointer[conn]
	had  bool // a connection was made before (guarded by lock)
}

// conn is one client session.
type conn struct {
	cs      *mcp.ClientSession
	done    chan struct{} // closed when the session ended
	checked atomic.Uint64 // pool.lost when it was made or last pinged
	slot    *slot
	// tasks says the connection declares the tasks extension
	// (Options.Tasks over streamable HTTP: see taskTransport).
	tasks bool
}

// newPool returns a pool of n connections for p.
func newPool(p *Toolkit, n int) *pool {
	pl := &pool{p: p, slots: make([]slot, n)}
	for i := range pl.slots {
		pl.slots[i].lock = make(chan struct{}, 1)
	}
	return pl
}

// errClosed is the error of a connection asked of a closed toolkit.
var errClosed = errors.New("mcpclient: the toolkit is closed")

// get returns a live connection of the next slot, connecting (or
// reconnecting) it when it has none.
func (pl *pool) get(ctx context.Context) (*conn, error) {
	return pl.getSlot(ctx, &pl.slots[int(pl.next.Add(1)-1)%len(pl.slots)])
}

// getSlot returns s's live connection, connecting (or reconnecting) it
// when it has none.
func (pl *pool) getSlot(ctx context.Context, s *slot) (*conn, error) {
	if c := s.cur.Load(); c != nil && c.alive() && pl.fresh(ctx, c) {
		return c, nil
	}
	select {
	case s.lock <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.lock }()
	if c := s.cur.Load(); c != nil {
		if c.alive() && pl.fresh(ctx, c) {
			return c, nil
		}
		pl.drop(c)
	}
	if pl.p.closed.Load() {
		return nil, errClosed
	}
	c, err := pl.connect(ctx, s)
	if err != nil {
		return nil, err
	}
	if s.had {
		// A reconnection: the server may have changed (or restarted)
		// meanwhile.
		pl.p.changed()
	}
	s.had = true
	return c, nil
}

// fresh reports whether c may be used: it was made (or pinged) after the
// last loss, or it answers a ping now.
func (pl *pool) fresh(ctx context.Context, c *conn) bool {
	lost := pl.lost.Load()
	if c.checked.Load() >= lost {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, pl.p.opts.ConnectTimeout)
	defer cancel()
	if err := c.cs.Ping(ctx, nil); err != nil {
		return false
	}
	c.checked.Store(lost)
	return true
}

// connect makes a connection for s.
func (pl *pool) connect(ctx context.Context, s *slot) (*conn, error) {
	env := pl.p.env.Load()
	if env == nil {
		return nil, errors.New("mcpclient: the toolkit is not bound")
	}
	ctx, cancel := context.WithTimeout(ctx, pl.p.opts.ConnectTimeout)
	defer cancel()
	t, err := pl.p.opts.Connect(ctx, *env)
	if err != nil {
		return nil, fmt.Errorf("mcpclient: %s: open a transport: %w", pl.p.group, err)
	}
	tasks := false
	if pl.p.opts.Tasks {
		t, tasks = taskTransport(t)
	}
	cs, err := pl.p.client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("mcpclient: %s: connect: %w", pl.p.group, err)
	}
	c := &conn{cs: cs, done: make(chan struct{}), slot: s, tasks: tasks}
	c.checked.Store(pl.lost.Load())
	if !pl.p.spawn(func() {
		_ = cs.Wait()
		close(c.done)
	}) {
		// Close ran while this connection was made.
		_ = cs.Close()
		return nil, errClosed
	}
	s.cur.Store(c)
	if pl.p.closed.Load() {
		// Close ran meanwhile and may not have seen it.
		pl.drop(c)
		return nil, errClosed
	}
	return c, nil
}

// alive reports whether c's session has not ended.
func (c *conn) alive() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// drop closes c and takes it out of its slot, once; the next call on the
// slot reconnects.
func (pl *pool) drop(c *conn) {
	if c.slot.cur.CompareAndSwap(c, nil) {
		pl.lost.Add(1)
		_ = c.cs.Close()
	}
}

// close closes every connection.
func (pl *pool) close() error {
	var errs []error
	for i := range pl.slots {
		if c := pl.slots[i].cur.Swap(nil); c != nil {
			if err := c.cs.Close(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
