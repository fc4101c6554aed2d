package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Progress and cancellation of tools/call.
//
// Progress. A tool reports its progress with tool.Progress. When a
// tools/call request names a progress token (_meta.progressToken: a
// string of at most MaxProgressTokenLen bytes, or a number), the server
// installs a listener in the call's context (tool.WithProgress) that
// sends the reports to the client as notifications/progress against that
// token, in the order they were made, coalesced: at most one per
// Options.ProgressInterval (DefaultProgressInterval, 100 ms: ten a
// second), the first at once, and of the reports made in between only
// the latest, at the end of the interval. The last report is sent before
// the call's result (unless the call was cancelled: then the client
// expects nothing more). A report whose progress does not exceed the
// previous one's is dropped (MCP requires progress to increase), and a
// message is cut to MaxProgressMessageLen bytes. The notifications go
// from a goroutine of the call's own, so that a tool never waits for a
// slow client: one that never reads its stream blocks that goroutine's
// write, while the tool's reports replace the one report waiting (memory
// stays bounded: no queue), the tool returns and its call is recorded;
// the answer waits behind the blocked write until the client reads or
// goes away. Without a token nothing is sent, and nothing is installed.
// Over HTTP, they are events of the request's stream (with
// HTTPOptions.JSONResponse, the session's GET stream, if it has one).
//
// Cancellation. A client's notifications/cancelled cancels the call's
// context (the SDK does that, over stdio and in stateful HTTP sessions).
// An HTTP client that goes away before the answer (its connection closed,
// its request aborted) cancels it too, in stateful and stateless sessions
// alike: the server keeps no event store, so an answer nobody waits for
// can never be delivered. A stateless session cannot receive a
// cancellation (each request is a session of its own): there the client
// cancels by closing its request. The tool sees its context done; the
// Caller decides what follows (tool.Static and the call service give the
// tool until its deadline, tool.CancelGrace at most, to stop, and report
// a tool that stops as cancelled, one that does not as abandoned, its
// outcome unknown).

// DefaultProgressInterval is the least time between two
// notifications/progress of one call when Options.ProgressInterval is
// zero.
const DefaultProgressInterval = 100 * time.Millisecond

// MaxProgressTokenLen is the longest string progress token the server
// sends notifications against, in bytes; a call with a longer one gets
// none.
const MaxProgressTokenLen = 256

// MaxProgressMessageLen is the longest message of a notification, in
// bytes: a tool's longer message is cut (at a character boundary).
const MaxProgressMessageLen = 1024

// errClientGone is the cause of the cancellation of a call whose HTTP
// client went away.
var errClientGone = errors.New("mcp server: the HTTP client went away before the call's answer")

// requestKeyHeader carries, from the HTTP layer to tools/call, the key of
// the HTTP request the call came in: a header of the server's own (any
// value a client sends is removed), the one thing of the request that the
// SDK hands on to the method handler.
const requestKeyHeader = "Toolgen-Internal-Request-Key"

// httpRequests are the HTTP requests being served that may carry calls,
// by key, so that a call can follow its request's context.
type httpRequests struct {
	next atomic.Uint64
	m    sync.Map // key string -> context.Context
}

// track wraps h (the SDK's streamable handler): each POST is served with
// a key of its own in requestKeyHeader, under which its context is kept
// while it is served.
func (hr *httpRequests) track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			if r.Header.Get(requestKeyHeader) != "" {
				r = r.Clone(r.Context())
				r.Header.Del(requestKeyHeader)
			}
			h.ServeHTTP(w, r)
			return
		}
		key := strconv.FormatUint(hr.next.Add(1), 36)
		r = r.Clone(r.Context()) // a handler does not change the request it is given
		r.Header.Set(requestKeyHeader, key)
		hr.m.Store(key, r.Context())
		defer hr.m.Delete(key)
		h.ServeHTTP(w, r)
	})
}

// follow returns ctx cancelled once the HTTP request that carried a call
// ends (at once when it already has), and the function that stops
// following it; ctx as it is for a call that came another way.
func (hr *httpRequests) follow(ctx context.Context, extra *mcp.RequestExtra) (context.Context, func()) {
	if extra == nil || extra.Header == nil {
		return ctx, func() {}
	}
	key := extra.Header.Get(requestKeyHeader)
	if key == "" {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	v, ok := hr.m.Load(key)
	if !ok {
		// The request this call came in was served and is gone.
		cancel(errClientGone)
		return ctx, func() { cancel(nil) }
	}
	stop := context.AfterFunc(v.(context.Context), func() { cancel(errClientGone) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}

// callContext returns the context a tools/call runs with: ctx following
// its HTTP request, with a progress listener when the client asked for
// progress; end must be called, before the call's result is returned,
// once the call is done.
func (s *Server) callContext(ctx context.Context, r *mcp.CallToolRequest) (_ context.Context, end func()) {
	ctx, unfollow := s.requests.follow(ctx, r.Extra)
	if s.progressEvery < 0 || r.Session == nil {
		return ctx, unfollow
	}
	token, ok := progressToken(r.Params.GetProgressToken())
	if !ok {
		return ctx, unfollow
	}
	ps := &progressSender{ss: r.Session, token: token, ctx: ctx, every: s.progressEvery, log: s.log}
	return tool.WithProgress(ctx, ps), func() {
		ps.close(ctx.Err() == nil)
		unfollow()
	}
}

// progressToken returns the token a notification names, or false for a
// token MCP does not allow (a string or an integer) or a string longer
// than MaxProgressTokenLen.
func progressToken(t any) (any, bool) {
	switch v := t.(type) {
	case string:
		return v, v != "" && len(v) <= MaxProgressTokenLen
	case float64:
		return v, v == float64(int64(v))
	case int, int32, int64:
		return v, true
	case json.Number:
		_, err := v.Int64()
		return v, err == nil
	}
	return nil, false
}

// progressSender sends one call's progress reports as notifications,
// coalesced (see above): the tool hands it reports, a goroutine of its
// own sends them.
type progressSender struct {
	ss    *mcp.ServerSession
	token any
	ctx   context.Context // the request's: it routes the notifications to its stream
	every time.Duration
	log   *slog.Logger

	mu       sync.Mutex
	pending  tool.ProgressReport // the latest report not sent yet
	has      bool                // pending holds one
	last     float64             // the progress of the latest report taken
	taken    bool                // a report was taken
	closed   bool
	started  bool          // the goroutine was started
	wake     chan struct{} // a report waits (buffered)
	stop     chan struct{} // closed by close
	finished chan struct{} // closed when the goroutine ends
}

// Progress implements tool.ProgressListener: it keeps the report as the
// next to send, and wakes the sending goroutine (starting it on the first
// report).
func (ps *progressSender) Progress(_ context.Context, p tool.ProgressReport) {
	ps.mu.Lock()
	if ps.closed || ps.taken && p.Done <= ps.last {
		ps.mu.Unlock()
		return
	}
	ps.last, ps.taken = p.Done, true
	p.Message = cutMessage(p.Message)
	ps.pending, ps.has = p, true
	if !ps.started {
		ps.started = true
		ps.wake, ps.stop, ps.finished = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
		go ps.loop()
	}
	wake := ps.wake
	ps.mu.Unlock()
	select {
	case wake <- struct{}{}:
	default: // already woken: it will send this report
	}
}

// loop sends the waiting report at once, then rests an interval before
// the next, until close.
func (ps *progressSender) loop() {
	defer close(ps.finished)
	rest := time.NewTimer(ps.every)
	rest.Stop()
	for {
		select {
		case <-ps.wake:
		case <-ps.stop:
			return
		}
		ps.flush()
		rest.Reset(ps.every)
		select {
		case <-rest.C:
		case <-ps.stop:
			rest.Stop()
			return
		}
	}
}

// flush sends the waiting report, if there is one.
func (ps *progressSender) flush() {
	ps.mu.Lock()
	p, has := ps.pending, ps.has
	ps.has = false
	ps.mu.Unlock()
	if !has {
		return
	}
	err := ps.ss.NotifyProgress(ps.ctx, &mcp.ProgressNotificationParams{
		ProgressToken: ps.token, Progress: p.Done, Total: p.Total, Message: p.Message,
	})
	if err != nil {
		ps.log.LogAttrs(ps.ctx, slog.LevelDebug, "mcp server: send a progress notification", slog.String("error", err.Error()))
	}
}

// close takes no more reports, stops the goroutine and, with last, sends
// the report still waiting: the call's last word before its result.
func (ps *progressSender) close(last bool) {
	ps.mu.Lock()
	ps.closed = true
	started := ps.started
	ps.mu.Unlock()
	if !started {
		return
	}
	close(ps.stop)
	<-ps.finished
	if last {
		ps.flush()
	}
}

// cutMessage returns msg cut to MaxProgressMessageLen bytes, at a
// character boundary.
func cutMessage(msg string) string {
	if len(msg) <= MaxProgressMessageLen {
		return msg
	}
	cut := MaxProgressMessageLen
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut]
}
