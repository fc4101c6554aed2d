package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// chattyReports is how many reports chatty makes.
const chattyReports = 10000

// longTools are the tools of the progress tests: chatty reports
// chattyReports times over about half a second; honest reports, waits for
// its context and returns its error; quiet never reports; stubborn
// reports and ignores its context (its deadline is 300 ms); wipe is a
// propose tool whose confirmed run behaves as honest.
type longTools struct {
	started chan string   // the name of each run of honest, stubborn and wipe, as it starts
	stopped chan error    // the cause each run of honest and wipe saw its context done with
	release chan struct{} // ends stubborn
	runs    atomic.Int64  // runs of wipe
}

func newLongTools(t *testing.T) (*longTools, tool.Registry) {
	t.Helper()
	l := &longTools{started: make(chan string, 16), stopped: make(chan error, 16), release: make(chan struct{})}
	t.Cleanup(func() { close(l.release) })
	text := func(s string) func(context.Context, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return func(_ context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			in.Skip()
			in.End()
			out.RawText(s)
			return toolimpl.OutputText, toolimpl.InvalidArguments(in.Err())
		}
	}
	honest := func(name string) func(context.Context, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return func(ctx context.Context, in *codec.Decoder, _ *codec.Encoder) (toolimpl.Output, error) {
			in.Skip()
			in.End()
			if name == "wipe" {
				l.runs.Add(1)
			}
			l.started <- name
			tool.Progress(ctx, 1, 0, "waiting to be cancelled")
			<-ctx.Done()
			l.stopped <- context.Cause(ctx)
			return 0, ctx.Err()
		}
	}
	reg := newStatic(t,
		fakeTool{spec: tool.Spec{Name: "chatty", Kind: tool.KindRead}, run: func(ctx context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			for i := 1; i <= chattyReports; i++ {
				tool.Progress(ctx, float64(i), chattyReports, "step")
				if i%20 == 0 {
					time.Sleep(time.Millisecond)
				}
			}
			return text("done")(ctx, in, out)
		}},
		fakeTool{spec: tool.Spec{Name: "honest", Kind: tool.KindAction}, run: honest("honest")},
		fakeTool{spec: tool.Spec{Name: "quiet", Kind: tool.KindRead}, run: text("quiet")},
		fakeTool{spec: tool.Spec{Name: "stubborn", Kind: tool.KindAction, Timeout: 300 * time.Millisecond}, run: func(ctx context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			l.started <- "stubborn"
			tool.Progress(ctx, 1, 0, "not listening")
			<-l.release
			return text("done")(ctx, in, out)
		}},
		fakeTool{spec: tool.Spec{Name: "wipe", Kind: tool.KindPropose, Title: "Wipe everything"}, run: honest("wipe")},
	)
	return l, reg
}

// recv receives from ch; it turns a hang into a failure.
func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatal("nothing received")
		panic("unreachable")
	}
}

// ends is a service Observer that hands on every record it is told of.
type ends chan service.Record

func (e ends) Start(ctx context.Context, _ string) context.Context { return ctx }
func (e ends) End(_ context.Context, rec *service.Record)          { e <- *rec }

// waitRecord returns the first record of e of the event and tool; it
// turns a hang into a failure.
func waitRecord(t *testing.T, e ends, event service.Event, name string) service.Record {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case r := <-e:
			if r.Event == event && r.Tool == name {
				return r
			}
		case <-timeout:
			t.Fatalf("no %s record of %s", event, name)
		}
	}
}

// longServer serves the long tools through the call service (recording
// into the returned channel) for ana, who holds no permission these tools
// need.
func longServer(t *testing.T, o *mcpserver.Options) (*mcpserver.Server, *longTools, *service.Service, ends) {
	t.Helper()
	l, reg := newLongTools(t)
	rec := make(ends, 256)
	svc, err := service.New(reg, &service.Options{Observer: rec})
	require.NoError(t, err)
	srv, err := mcpserver.New(service.As(svc, &tool.Invocation{Principal: tool.Principal{ID: "ana"}}), o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv, l, svc, rec
}

// progressLog collects the progress notifications a client receives.
type progressLog struct {
	mu  sync.Mutex
	got []*mcp.ProgressNotificationParams
	on  func(*mcp.ProgressNotificationParams) // called with each, if set
}

func (p *progressLog) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	p.got = append(p.got, req.Params)
	on := p.on
	p.mu.Unlock()
	if on != nil {
		on(req.Params)
	}
}

// waitFor returns the notifications once one of progress done has come;
// it turns a hang into a failure.
func (p *progressLog) waitFor(t *testing.T, done float64) []*mcp.ProgressNotificationParams {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		got := p.list()
		if len(got) > 0 && got[len(got)-1].Progress == done {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("no notification of progress %v", done)
		}
		time.Sleep(time.Millisecond)
	}
}

func (p *progressLog) list() []*mcp.ProgressNotificationParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), p.got...)
}

// withToken returns params asking for progress against token.
func withToken(name, token string) *mcp.CallToolParams {
	p := &mcp.CallToolParams{Name: name, Arguments: map[string]any{}}
	p.SetProgressToken(token)
	return p
}

// TestProgressNotifications: a tool that reports ten thousand times over
// half a second gets a few notifications to the client, at most one per
// interval and the last one before the result, each greater than the one
// before; a client that asks for none gets none.
func TestProgressNotifications(t *testing.T) {
	t.Parallel()
	for _, protocol := range protocols {
		t.Run(protocolName(protocol), func(t *testing.T) {
			t.Parallel()
			srv, _, _, _ := longServer(t, nil)
			var log progressLog
			cs := connect(t, srv, protocol, &mcp.ClientOptions{ProgressNotificationHandler: log.handle})

			start := time.Now()
			res, err := cs.CallTool(t.Context(), withToken("chatty", "tok-1"))
			elapsed := time.Since(start)
			require.NoError(t, err)
			require.False(t, res.IsError)
			// The SDK's client hands notifications to their handler on a
			// goroutine of their own, so the last may be handled after the
			// result is (TestProgressTokens checks the order on the wire).
			got := log.waitFor(t, chattyReports)
			require.GreaterOrEqual(t, len(got), 2, "the first report at once, the last before the result")
			limit := int(elapsed/mcpserver.DefaultProgressInterval) + 2
			assert.LessOrEqual(t, len(got), limit, "at most one per interval, and the last")
			for i, n := range got {
				assert.Equal(t, "tok-1", n.ProgressToken)
				assert.Equal(t, float64(chattyReports), n.Total)
				assert.Equal(t, "step", n.Message)
				if i > 0 {
					assert.Greater(t, n.Progress, got[i-1].Progress, "in order, increasing")
				}
			}
			assert.Equal(t, float64(chattyReports), got[len(got)-1].Progress, "the last report is sent")

			// Without a token, or for a tool that never reports: none.
			n := len(got)
			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "chatty", Arguments: map[string]any{}})
			require.NoError(t, err)
			_, err = cs.CallTool(t.Context(), withToken("quiet", "tok-2"))
			require.NoError(t, err)
			assert.Len(t, log.list(), n)
		})
	}
}

func TestProgressNotificationsOff(t *testing.T) {
	t.Parallel()
	srv, _, _, _ := longServer(t, &mcpserver.Options{ProgressInterval: -1})
	var log progressLog
	cs := connect(t, srv, protocolLegacy, &mcp.ClientOptions{ProgressNotificationHandler: log.handle})
	_, err := cs.CallTool(t.Context(), withToken("chatty", "tok"))
	require.NoError(t, err)
	assert.Empty(t, log.list())
}

// TestProgressTokens: the tokens MCP allows get notifications, the last
// before the result on the wire, others none, and nothing breaks.
func TestProgressTokens(t *testing.T) {
	t.Parallel()
	srv, _, _, _ := longServer(t, nil)
	c := dialRaw(t, srv.SDK())
	for _, tt := range []struct {
		token string
		ok    bool
	}{
		{`"abc"`, true},
		{`42`, true},
		{`1.5`, false},
		{`{"a":1}`, false},
		{`""`, false},
		{`"` + strings.Repeat("x", mcpserver.MaxProgressTokenLen+1) + `"`, false},
	} {
		out, err := c.callCollect(t.Context(), "tools/call", `{"name":"chatty","arguments":{},"_meta":{"progressToken":`+tt.token+`}}`)
		require.NoError(t, err, tt.token)
		if !tt.ok {
			assert.Empty(t, out.progress, tt.token)
			continue
		}
		require.NotEmpty(t, out.progress, tt.token)
		assert.Equal(t, float64(chattyReports), out.progress[len(out.progress)-1].Progress, "%s: the last report before the result", tt.token)
		for _, p := range out.progress {
			assert.JSONEq(t, tt.token, string(p.ProgressToken), "the token sent back as it came")
		}
	}
}

// rawProgress is a notifications/progress as it came.
type rawProgress struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
}

// collected is a response and the progress notifications before it.
type collected struct {
	result   json.RawMessage
	progress []rawProgress
}

// callCollect is call, keeping the progress notifications.
func (c *rawClient) callCollect(ctx context.Context, method, params string) (collected, error) {
	var out collected
	c.next++
	id, err := jsonrpc.MakeID(fmt.Sprintf("raw-%d", c.next))
	if err != nil {
		return out, err
	}
	if err := c.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}); err != nil {
		return out, err
	}
	for {
		msg, err := c.conn.Read(ctx)
		if err != nil {
			return out, err
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			if m.Method == "notifications/progress" {
				var p rawProgress
				if err := json.Unmarshal(m.Params, &p); err != nil {
					return out, err
				}
				out.progress = append(out.progress, p)
			}
		case *jsonrpc.Response:
			if m.ID == id {
				out.result = m.Result
				if m.Error != nil {
					return out, m.Error
				}
				return out, nil
			}
		}
	}
}

// TestCancelledOverMCP: a client's notifications/cancelled cancels the
// tool's context; the tool stops, and the record says cancelled.
func TestCancelledOverMCP(t *testing.T) {
	t.Parallel()
	for _, protocol := range protocols {
		t.Run(protocolName(protocol), func(t *testing.T) {
			t.Parallel()
			srv, l, _, recs := longServer(t, nil)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			log := progressLog{on: func(*mcp.ProgressNotificationParams) { cancel() }} // cancel once it has started
			cs := connect(t, srv, protocol, &mcp.ClientOptions{ProgressNotificationHandler: log.handle})
			_, err := cs.CallTool(ctx, withToken("honest", "tok"))
			require.ErrorIs(t, err, context.Canceled)
			assert.ErrorIs(t, recv(t, l.stopped), context.Canceled, "the tool saw its context cancelled")
			r := waitRecord(t, recs, service.EventCall, "honest")
			assert.Equal(t, service.OutcomeCancelled, r.Outcome)
			assert.Equal(t, tool.CodeCancelled, r.Code)

			// The session goes on.
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "quiet", Arguments: map[string]any{}})
			require.NoError(t, err)
			assert.False(t, res.IsError)
		})
	}
}

// TestStubbornToolOverMCP: a tool that ignores the cancellation is
// abandoned at its deadline, its outcome unknown.
func TestStubbornToolOverMCP(t *testing.T) {
	t.Parallel()
	srv, _, _, recs := longServer(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	log := progressLog{on: func(*mcp.ProgressNotificationParams) { cancel() }}
	cs := connect(t, srv, protocolLegacy, &mcp.ClientOptions{ProgressNotificationHandler: log.handle})
	start := time.Now()
	_, err := cs.CallTool(ctx, withToken("stubborn", "tok"))
	require.ErrorIs(t, err, context.Canceled)
	r := waitRecord(t, recs, service.EventCall, "stubborn")
	assert.Equal(t, service.OutcomeUnknown, r.Outcome, "abandoned: whether it did its work is unknown")
	assert.Equal(t, tool.CodeCancelled, r.Code)
	assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond, "abandoned at its deadline")
}

// TestHTTPClientGoneCancels: an HTTP client that closes its request
// before the answer cancels the call, in stateful and stateless sessions
// and with JSON answers; the Go SDK's client, cancelling, too.
func TestHTTPClientGoneCancels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts *mcpserver.HTTPOptions
	}{
		{"stateful", nil},
		{"stateless", &mcpserver.HTTPOptions{Stateless: true}},
		{"json", &mcpserver.HTTPOptions{JSONResponse: true}},
		{"stateless json", &mcpserver.HTTPOptions{Stateless: true, JSONResponse: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, l, _, recs := longServer(t, nil)
			ts := httpServer(t, srv, tc.opts)
			header := map[string]string{}
			if tc.opts == nil || !tc.opts.Stateless {
				resp := post(t, ts.URL, initializeBody, nil)
				_, _ = io.Copy(io.Discard, resp.Body)
				require.Equal(t, http.StatusOK, resp.StatusCode)
				header["Mcp-Session-Id"] = resp.Header.Get("Mcp-Session-Id")
				header["Mcp-Protocol-Version"] = "2025-06-18"
				resp = post(t, ts.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, header)
				require.Equal(t, http.StatusAccepted, resp.StatusCode)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			body := `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"honest","arguments":{},"_meta":{"progressToken":"tok"}}}`
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL, strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range header {
				req.Header.Set(k, v)
			}
			// A JSON answer's header comes with the answer: the request
			// is made on a goroutine of its own, and an event stream read
			// up to its first progress event.
			progressed := make(chan bool, 1)
			go func() {
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					progressed <- false
					return
				}
				defer resp.Body.Close()
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					if strings.Contains(sc.Text(), "notifications/progress") {
						progressed <- true
						return
					}
				}
				progressed <- false
			}()
			assert.Equal(t, "honest", recv(t, l.started))
			if tc.opts == nil || !tc.opts.JSONResponse {
				assert.True(t, <-progressed, "the request's stream carries the progress")
			}
			cancel() // the client goes away
			assert.ErrorContains(t, recv(t, l.stopped), "the HTTP client went away")
			r := waitRecord(t, recs, service.EventCall, "honest")
			assert.Equal(t, service.OutcomeCancelled, r.Outcome)
		})
	}

	// The Go SDK's client, over stateless HTTP: its cancellation reaches
	// the call as its request closing.
	srv, l, _, recs := longServer(t, nil)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{Stateless: true})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	log := progressLog{on: func(*mcp.ProgressNotificationParams) { cancel() }}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{ProgressNotificationHandler: log.handle}).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	require.NoError(t, err)
	defer cs.Close()
	_, err = cs.CallTool(ctx, withToken("honest", "tok"))
	require.Error(t, err)
	assert.Error(t, recv(t, l.stopped))
	assert.Equal(t, service.OutcomeCancelled, waitRecord(t, recs, service.EventCall, "honest").Outcome)
}

// TestForgedRequestKeyIgnored: a client cannot name another request's
// key: the server sets its own.
func TestForgedRequestKeyIgnored(t *testing.T) {
	t.Parallel()
	srv, _, _, _ := longServer(t, nil)
	ts := httpServer(t, srv, &mcpserver.HTTPOptions{Stateless: true})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"quiet","arguments":{}}}`
	resp := post(t, ts.URL, body, map[string]string{"Toolgen-Internal-Request-Key": "1"})
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"text":"quiet"`, "served, not cancelled")
}

// TestCancelledConfirmationNeverReruns: the person confirms a proposal
// over MCP and the client cancels the call while the tool runs: the run
// is recorded cancelled and its proposal settled, so that confirming it
// again (by the host, or by resuming the same requestState) runs
// nothing.
func TestCancelledConfirmationNeverReruns(t *testing.T) {
	t.Parallel()
	key := []byte("0123456789abcdef0123456789abcdef")
	for _, protocol := range protocols {
		t.Run(protocolName(protocol), func(t *testing.T) {
			t.Parallel()
			l, reg := newLongTools(t)
			recs := make(ends, 256)
			svc, err := service.New(reg, &service.Options{Observer: recs})
			require.NoError(t, err)
			srv, err := mcpserver.New(svc, &mcpserver.Options{Confirm: &mcpserver.ConfirmOptions{Confirmer: servicemcp.Confirmer(svc), Key: key}})
			require.NoError(t, err)
			ana := tool.Principal{ID: "ana"}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			log := progressLog{on: func(*mcp.ProgressNotificationParams) { cancel() }}
			opts := &mcp.ClientOptions{
				ProgressNotificationHandler: log.handle,
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept"}, nil
				},
				MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.SDK().Connect(tool.WithInvocation(t.Context(), &tool.Invocation{Principal: ana}), st, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = ss.Close() })
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
			require.NoError(t, err)
			t.Cleanup(func() { _ = cs.Close() })

			call := withToken("wipe", "tok")
			var state string
			if protocol == protocolLatest {
				// 2026-07-28: the first round asks; the retry carries the answer.
				first, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{}})
				require.NoError(t, err)
				require.True(t, first.NeedsInput())
				state = first.RequestState
				call.RequestState = state
				call.InputResponses = mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}
			}
			_, err = cs.CallTool(ctx, call)
			require.ErrorIs(t, err, context.Canceled)
			assert.ErrorIs(t, recv(t, l.stopped), context.Canceled)
			r := waitRecord(t, recs, service.EventConfirmation, "wipe")
			assert.Equal(t, service.OutcomeCancelled, r.Outcome)

			if state != "" {
				again := withToken("wipe", "tok-2")
				again.RequestState = state
				again.InputResponses = mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}
				res, err := cs.CallTool(t.Context(), again)
				require.NoError(t, err)
				assert.True(t, res.IsError)
				assert.Contains(t, textOfResult(res), "was already confirmed and ran; it is not run again")
			}
			_, err = svc.Confirm(t.Context(), r.Proposal, ana)
			assert.Equal(t, tool.CodeAlreadyConfirmed, tool.CodeOf(err), "never run again")
			assert.Equal(t, int64(1), l.runs.Load(), "the tool ran once")
		})
	}
}

// textOfResult is the text of a result's blocks.
func textOfResult(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestProgressAndCancellationRace: calls whose tool reports as fast as
// it can from several goroutines, cancelled by their client mid-run, for
// the race detector.
func TestProgressAndCancellationRace(t *testing.T) {
	t.Parallel()
	stopped := make(chan struct{}, 64)
	reg := newStatic(t, fakeTool{spec: tool.Spec{Name: "storm", Kind: tool.KindRead}, run: func(ctx context.Context, in *codec.Decoder, _ *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		in.End()
		var wg sync.WaitGroup
		var n atomic.Int64
		for range 4 {
			wg.Go(func() {
				for ctx.Err() == nil {
					tool.Progress(ctx, float64(n.Add(1)), 0, "storm")
				}
			})
		}
		wg.Wait()
		stopped <- struct{}{}
		return 0, ctx.Err()
	}})
	srv, err := mcpserver.New(reg, &mcpserver.Options{ProgressInterval: time.Millisecond})
	require.NoError(t, err)
	var heard atomic.Int64
	var cancelNow atomic.Pointer[context.CancelFunc]
	cs := connect(t, srv, protocolLegacy, &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
		if heard.Add(1)%3 == 0 {
			if c := cancelNow.Load(); c != nil {
				(*c)()
			}
		}
	}})
	for i := range 8 {
		ctx, cancel := context.WithCancel(t.Context())
		cancelNow.Store(&cancel)
		_, err := cs.CallTool(ctx, withToken("storm", "tok-"+string(rune('a'+i))))
		assert.True(t, errors.Is(err, context.Canceled), "%v", err)
		<-stopped
		cancel()
	}
	assert.Positive(t, heard.Load())
}
