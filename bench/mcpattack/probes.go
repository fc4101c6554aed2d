package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol versions the probes announce.
const (
	protoBatch  = "2025-03-26" // the last version with JSON-RPC batches
	protoLegacy = "2025-06-18"
)

// mem is one reading of the process's memory.
type mem struct {
	goroutines int
	heap       uint64 // live heap after a collection (HeapAlloc)
	rss, hwm   uint64 // resident set size now and at its peak (VmRSS, VmHWM)
}

// readMem collects garbage twice and reads goroutines, heap and RSS.
func readMem() mem {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := mem{goroutines: runtime.NumGoroutine(), heap: ms.HeapAlloc}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			switch k {
			case "VmRSS":
				m.rss = n << 10
			case "VmHWM":
				m.hwm = n << 10
			}
		}
	}
	return m
}

func (m mem) String() string {
	return fmt.Sprintf("goroutines %d, live heap %s, RSS %s (peak %s)", m.goroutines, mib(m.heap), mib(m.rss), mib(m.hwm))
}

// mib formats a byte count in MiB.
func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// httpClient returns a client of its own, so that its connections can be
// closed when the probe ends.
func httpClient(conns int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns},
		Timeout:   60 * time.Second,
	}
}

// closeClient closes the client's idle connections.
func closeClient(c *http.Client) { c.Transport.(*http.Transport).CloseIdleConnections() }

// reply is what the server answered.
type reply struct {
	status  int
	session string
	body    []byte
}

// post sends one JSON-RPC body, with the session and protocol headers when
// not empty, and reads the whole answer.
func (t *target) post(ctx context.Context, c *http.Client, body []byte, session, protocol string) (reply, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", protocol)
	}
	resp, err := c.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	return reply{status: resp.StatusCode, session: resp.Header.Get("Mcp-Session-Id"), body: b}, err
}

// initialize opens a session announcing protocol.
func (t *target) initialize(ctx context.Context, c *http.Client, protocol string) (reply, error) {
	return t.post(ctx, c, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+protocol+
		`","capabilities":{},"clientInfo":{"name":"mcpattack","version":"1"}}}`), "", "")
}

// open initializes a session and sends notifications/initialized.
func (t *target) open(ctx context.Context, c *http.Client, protocol string) (string, error) {
	r, err := t.initialize(ctx, c, protocol)
	if err != nil {
		return "", err
	}
	if r.status != http.StatusOK || r.session == "" {
		return "", fmt.Errorf("initialize: status %d: %.200s", r.status, r.body)
	}
	if _, err := t.post(ctx, c, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), r.session, protocol); err != nil {
		return "", err
	}
	return r.session, nil
}

// remove ends a session with DELETE.
func (t *target) remove(ctx context.Context, c *http.Client, session string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", session)
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
	}
}

// probeHTTP sends a few malformed or oversized requests and reports the
// answers.
func (t *target) probeHTTP(ctx context.Context) error {
	c := httpClient(4)
	defer closeClient(c)
	status := func(r reply, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%d (%d bytes)", r.status, len(r.body))
	}
	t.printf("http: initialize (%s): %s", protoLegacy, status(t.initialize(ctx, c, protoLegacy)))
	big := append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`), bytes.Repeat([]byte("a"), 5<<20)...), `"}}`...)
	t.printf("http: 5 MiB body: %s", status(t.post(ctx, c, big, "", "")))
	t.printf("http: unknown session: %s", status(t.post(ctx, c, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), "nosuchsession", protoLegacy)))
	// A request whose header is 200 KiB.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, strings.NewReader(`{}`))
	if err != nil {
		return err
	}
	req.Header.Set("X-Padding", strings.Repeat("p", 200<<10))
	if resp, err := c.Do(req); err != nil {
		t.printf("http: 200 KiB header: error: %v", err)
	} else {
		resp.Body.Close()
		t.printf("http: 200 KiB header: %d", resp.StatusCode)
	}
	return nil
}

// probeSlow opens n connections of each kind and counts, after hold, how
// many the server still holds open: slow (a POST whose body comes at one
// byte a second), keep-alive (one request answered, then nothing) and
// silent (nothing at all).
func (t *target) probeSlow(ctx context.Context, n int, hold time.Duration) error {
	before := readMem()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var slow, alive, silent []net.Conn
	defer func() {
		for _, c := range slices.Concat(slow, alive, silent) {
			c.Close()
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for range n {
		c, err := t.dial(ctx)
		if err != nil {
			return err
		}
		slow = append(slow, c)
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{", "/mcp", t.addr)
		wg.Go(func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				_ = c.SetWriteDeadline(time.Now().Add(time.Second))
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
			}
		})
	}
	for range n {
		c, err := t.dial(ctx)
		if err != nil {
			return err
		}
		alive = append(alive, c)
		fmt.Fprintf(c, "GET /none HTTP/1.1\r\nHost: %s\r\n\r\n", t.addr)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	for range n {
		c, err := t.dial(ctx)
		if err != nil {
			return err
		}
		silent = append(silent, c)
	}
	during := readMem()
	t.printf("slow: %d slow-body, %d keep-alive and %d silent connections; %s", n, n, n, during)
	select {
	case <-time.After(hold):
	case <-ctx.Done():
		return ctx.Err()
	}
	count := func(cs []net.Conn) (open int) {
		for _, c := range cs {
			if isOpen(c) {
				open++
			}
		}
		return open
	}
	t.printf("slow: after %s still open: slow-body %d/%d, keep-alive %d/%d, silent %d/%d; %s",
		hold, count(slow), n, count(alive), n, count(silent), n, readMem())
	_ = before
	return nil
}

// probeBatch sends one JSON-RPC batch of tools/call requests of about
// size bytes in a session announcing protoBatch, once with the protocol
// header and once without, and reports the time, the answer and what the
// session keeps afterwards.
func (t *target) probeBatch(ctx context.Context, size int) error {
	for _, header := range []string{protoBatch, ""} {
		c := httpClient(2)
		base := readMem()
		session, err := t.open(ctx, c, protoBatch)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		b.WriteByte('[')
		k := 0
		for b.Len() < size {
			if k > 0 {
				b.WriteByte(',')
			}
			k++
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"notes_get","arguments":{"id":"n1"}}}`, k)
		}
		b.WriteByte(']')
		start := time.Now()
		r, err := t.post(ctx, c, b.Bytes(), session, header)
		elapsed := time.Since(start)
		name := header
		if name == "" {
			name = "no version header"
		}
		if err != nil {
			t.printf("batch (%s): %d calls, %s: error after %s: %v", name, k, mib(uint64(b.Len())), elapsed.Round(time.Millisecond), err)
		} else {
			t.printf("batch (%s): %d calls, %s: status %d, %s answered in %s, %.80q", name, k, mib(uint64(b.Len())), r.status, mib(uint64(len(r.body))), elapsed.Round(time.Millisecond), firstLine(r.body))
		}
		b = bytes.Buffer{}
		r = reply{}
		closeClient(c)
		kept := readMem()
		t.printf("batch (%s): session open: %s; heap kept %s", name, kept, mib(sub(kept.heap, base.heap)))
		if t.heapProfile != "" {
			if err := writeHeapProfile(t.heapProfile); err != nil {
				return err
			}
		}
		t.remove(ctx, c, session)
		closeClient(c)
		t.printf("batch (%s): session deleted: %s", name, readMem())
	}
	return nil
}

// writeHeapProfile writes the live heap to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// firstLine returns the start of an answer, for the report.
func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return string(line)
}

// sub returns a-b, or 0.
func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// probeSessions sends n initialize requests, 16 at a time, keeps the
// sessions and reports what the server holds right away and after idle.
func (t *target) probeSessions(ctx context.Context, n int, idle time.Duration) error {
	const workers = 16
	c := httpClient(workers)
	base := readMem()
	var ok, refused, failed atomic.Int64
	statuses := sync.Map{}
	next := make(chan struct{})
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for range next {
				r, err := t.initialize(ctx, c, protoLegacy)
				switch {
				case err != nil:
					failed.Add(1)
				case r.status == http.StatusOK && r.session != "":
					ok.Add(1)
				default:
					refused.Add(1)
					statuses.Store(r.status, firstLine(r.body))
				}
			}
		})
	}
	for range n {
		select {
		case next <- struct{}{}:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)
	closeClient(c)
	var refusals []string
	statuses.Range(func(k, v any) bool {
		refusals = append(refusals, fmt.Sprintf("%d %.60q", k, v))
		return true
	})
	now := readMem()
	t.printf("sessions: %d initialize in %s: %d sessions, %d refused %v, %d failed; %s; per session %s",
		n, elapsed.Round(time.Millisecond), ok.Load(), refused.Load(), refusals, failed.Load(), now, perSession(now, base, ok.Load()))
	select {
	case <-time.After(idle):
	case <-ctx.Done():
		return ctx.Err()
	}
	later := readMem()
	t.printf("sessions: after %s idle: %s", idle, later)
	return nil
}

// perSession divides what was added between two readings by n.
func perSession(now, base mem, n int64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f goroutines, %.1f KiB heap", float64(now.goroutines-base.goroutines)/float64(n), float64(sub(now.heap, base.heap))/float64(n)/1024)
}

// probeLoad runs sessions SDK clients calling notes_get in a loop for d
// and reports the rate, the latencies and what is left after they close.
func (t *target) probeLoad(ctx context.Context, sessions int, d time.Duration) error {
	base := readMem()
	c := httpClient(2 * sessions)
	defer closeClient(c)
	var mu sync.Mutex
	var lat []time.Duration
	var errs atomic.Int64
	var firstErr atomic.Value
	lctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var wg sync.WaitGroup
	for range sessions {
		wg.Go(func() {
			client := mcp.NewClient(&mcp.Implementation{Name: "mcpattack", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: t.url, HTTPClient: c, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: protoLegacy})
			if err != nil {
				errs.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
				return
			}
			defer cs.Close()
			var mine []time.Duration
			for lctx.Err() == nil {
				start := time.Now()
				res, err := cs.CallTool(lctx, &mcp.CallToolParams{Name: "notes_get", Arguments: map[string]any{"id": "n1"}})
				if lctx.Err() != nil {
					break
				}
				if err != nil || res.IsError {
					errs.Add(1)
					if err != nil {
						firstErr.CompareAndSwap(nil, err.Error())
					}
					continue
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(p*float64(len(lat)-1))].Round(time.Microsecond)
	}
	fe, _ := firstErr.Load().(string)
	t.printf("load: %d sessions × %s: %d calls, %.0f calls/s, p50 %s, p99 %s, %d errors %.80q",
		sessions, d, len(lat), float64(len(lat))/d.Seconds(), pct(0.5), pct(0.99), errs.Load(), fe)
	closeClient(c)
	time.Sleep(2 * time.Second)
	after := readMem()
	t.printf("load: 2s after the clients closed: %s (before: %d goroutines, %s heap)", after, base.goroutines, mib(base.heap))
	return nil
}
