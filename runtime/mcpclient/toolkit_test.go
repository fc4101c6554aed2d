package mcpclient_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/mcpclient"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// names returns the specs' names.
func names(specs []*tool.Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// find returns the spec of that name, or nil.
func find(specs []*tool.Spec, name string) *tool.Spec {
	for _, s := range specs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// memToolkit returns a toolkit of an in-memory SDK server, listed.
func memToolkit(t *testing.T, m *memServer, opts mcpclient.Options) *mcpclient.Toolkit {
	t.Helper()
	opts.Connect = m.connect
	if opts.Group == "" {
		opts.Group = "remote"
	}
	p := newToolkit(t, opts, nil)
	require.True(t, p.Available(t.Context()))
	return p
}

func TestNewRefusesBadOptions(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	tests := []struct {
		name string
		opts mcpclient.Options
		want string
	}{
		{"no group", mcpclient.Options{Connect: m.connect}, "group"},
		{"upper-case group", mcpclient.Options{Group: "Docs", Connect: m.connect}, "lower-case"},
		{"underscore in group", mcpclient.Options{Group: "my_docs", Connect: m.connect}, "lower-case"},
		{"long group", mcpclient.Options{Group: strings.Repeat("g", mcpclient.MaxGroup+1), Connect: m.connect}, "1 to 32"},
		{"no connector", mcpclient.Options{Group: "docs"}, "Connect is required"},
		{"negative pool", mcpclient.Options{Group: "docs", Connect: m.connect, PoolSize: -1}, "must not be negative"},
		{"empty credential name", mcpclient.Options{Group: "docs", Connect: m.connect, RequireEnv: []string{""}}, "empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := mcpclient.New(tt.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestSDKServerListAndCall(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote"})
	ctx := t.Context()

	specs := p.Tools(ctx)
	deleteName := "files_delete_" + sha8("files.delete")
	longName := mcpclient.LocalName("remote", longRemote)
	assert.Equal(t, []string{"echo", deleteName, longName, "wait"}, names(specs))
	assert.Len(t, "remote_"+longName, 64, "the long name is cut to fit, with its hash")
	for local, remote := range map[string]string{"echo": "echo", deleteName: "files.delete", longName: longRemote} {
		got, ok := p.Remote(local)
		assert.True(t, ok)
		assert.Equal(t, remote, got)
		back, ok := p.Local(remote)
		assert.True(t, ok)
		assert.Equal(t, local, back)
	}
	_, ok := p.Remote("files.delete")
	assert.False(t, ok, "a remote name is not a local name")

	echo := find(specs, "echo")
	require.NotNil(t, echo)
	assert.Equal(t, "Echo", echo.Title)
	assert.Equal(t, "Echoes the text.", echo.Description)
	assert.Equal(t, "remote", echo.Group)
	assert.Contains(t, string(echo.InputSchema), `"text":{"description":"the text to echo","type":"string"}`)
	assert.NotContains(t, string(echo.InputSchema), `": `, "compact")
	assert.NotContains(t, string(echo.InputSchema), `, "`, "compact")
	assert.Contains(t, string(echo.OutputSchema), `"echo"`)
	assert.Equal(t, []tool.Meta{{Key: mcpclient.MetaRemoteName, Value: "echo"}}, echo.Meta)
	assert.Nil(t, find(specs, deleteName).OutputSchema)

	res, err := p.Call(ctx, "echo", []byte(`{"text":"ab","times":2}`))
	require.NoError(t, err)
	assert.True(t, res.Structured)
	assert.JSONEq(t, `{"echo":"abab"}`, res.Text())

	res, err = p.Call(ctx, longName, nil)
	require.NoError(t, err)
	assert.Equal(t, tool.Result{Content: []byte("fine")}, res)
}

func TestRemoteErrors(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote"})
	ctx := t.Context()
	deleteName := "files_delete_" + sha8("files.delete")

	// An untrusted server's error text (here quoting the arguments) stays
	// in the cause: the model reads that the tool failed.
	res, err := p.Call(ctx, deleteName, []byte(`{"path":"notes.txt"}`))
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeFailed, te.Code)
	assert.Equal(t, "remote_"+deleteName, te.Tool)
	want := "tool remote_" + deleteName + " failed: the MCP server reported an error"
	assert.Equal(t, want, te.Message)
	assert.Equal(t, tool.Result{Content: []byte(want), IsError: true}, res)
	assert.NotContains(t, res.Text(), "notes.txt")
	assert.ErrorContains(t, te.Cause, "no such file: notes.txt")

	// A trusted server's error text is its message for the model.
	trusted := memToolkit(t, &memServer{srv: newSDKServer(&blocker{})}, mcpclient.Options{Group: "remote", Trusted: true})
	res, err = trusted.Call(ctx, deleteName, []byte(`{"path":"notes.txt"}`))
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "no such file: notes.txt", te.Message)
	assert.Equal(t, tool.Result{Content: []byte("no such file: notes.txt"), IsError: true}, res)

	// The SDK server reports arguments its schema refuses as the tool's
	// own error (the Source validates them before Call in practice).
	_, err = p.Call(ctx, "echo", []byte(`{"text":"a","times":"many"}`))
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeFailed, te.Code)

	// A protocol error: its text (which may quote the arguments) stays in
	// the cause.
	m.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if params, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == "tools/call" && params.Name == "wait" {
				code := int64(jsonrpc.CodeInvalidParams)
				if strings.Contains(string(params.Arguments), "internal") {
					code = jsonrpc.CodeInternalError
				}
				return nil, &jsonrpc.Error{Code: code, Message: "bad value " + string(params.Arguments)}
			}
			return next(ctx, method, req)
		}
	})
	res, err = p.Call(ctx, "wait", []byte(`{"secret":"s3cr3t"}`))
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeInvalidArguments, te.Code)
	assert.Equal(t, "the MCP server refused the arguments (code -32602)", te.Message)
	assert.NotContains(t, res.Text(), "s3cr3t")
	assert.Contains(t, te.Cause.Error(), "s3cr3t", "kept for logs")
	_, err = p.Call(ctx, "wait", []byte(`{"internal":"s3cr3t"}`))
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeFailed, te.Code)
	assert.Equal(t, "the MCP server refused the call (code -32603)", te.Message)
	assert.NotErrorIs(t, err, tool.ErrAbandoned, "the server answered: the outcome is known")

	tests := []struct {
		name, local, want string
	}{
		{"unknown identifier", "nope", "no tool named nope is served by remote; nothing was run"},
		{"remote name is not local", "files.delete", "no tool named files.delete is served by remote; nothing was run"},
		{"not an identifier", "drop table; --", "no tool of that name is served by remote; nothing was run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Call(ctx, tt.local, nil)
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tool.CodeFailed, te.Code, "a toolkit returns no reserved code")
			assert.Equal(t, tt.want, te.Message)
			assert.ErrorIs(t, err, tool.ErrNotRun)
		})
	}

	// Through a dynamic.Source, as the call service calls: arguments that are
	// no JSON object never reach the server, and the value is not echoed.
	call := viaSource(t, p)
	for _, args := range []string{`{"text":`, `["a"]`, ` "s3cr3t"`} {
		res, err := call(ctx, "echo", []byte(args))
		require.ErrorAs(t, err, &te)
		assert.Equal(t, tool.CodeInvalidArguments, te.Code)
		assert.NotContains(t, res.Text(), "s3cr3t")
	}
	_, err = call(ctx, "echo", []byte(" \n{\"text\":\"spaced\"}"))
	require.NoError(t, err, "white space before the object")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = call(cancelled, "echo", []byte(`{"text":"a"}`))
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeCancelled, te.Code)
	assert.ErrorIs(t, err, tool.ErrNotRun)
}

func TestAnnotationsTrustedOnlyWhenSaid(t *testing.T) {
	t.Parallel()
	deleteName := "files_delete_" + sha8("files.delete")
	type flags struct {
		kind                                      tool.Kind
		readOnly, destructive, idempotent, openWo bool
	}
	tests := []struct {
		name    string
		trusted bool
		local   string
		want    flags
	}{
		{"untrusted read-only hint", false, "echo", flags{tool.KindAction, false, true, false, true}},
		{"untrusted no hints", false, deleteName, flags{tool.KindAction, false, true, false, true}},
		{"trusted read-only hint", true, "echo", flags{tool.KindRead, true, false, true, false}},
		{"trusted no hints: MCP defaults", true, deleteName, flags{tool.KindAction, false, true, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := &memServer{srv: newSDKServer(&blocker{})}
			p := memToolkit(t, m, mcpclient.Options{Group: "remote", Trusted: tt.trusted})
			s := find(p.Tools(t.Context()), tt.local)
			require.NotNil(t, s)
			assert.Equal(t, tt.want, flags{s.Kind, s.ReadOnly, s.Destructive, s.Idempotent, s.OpenWorld})
		})
	}
}

func TestListChanged(t *testing.T) {
	t.Parallel()
	srv := newSDKServer(&blocker{})
	m := &memServer{srv: srv}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote"})
	ctx := t.Context()

	before := p.Tools(ctx)
	again := p.Tools(ctx)
	require.NotEmpty(t, before)
	assert.Same(t, &before[0], &again[0], "the same slice while nothing changed")

	mcp.AddTool(srv, &mcp.Tool{Name: "added", Description: "Added later."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "new"}}}, nil, nil
		})
	require.Eventually(t, func() bool { return find(p.Tools(ctx), "added") != nil }, waitLimit, 5*time.Millisecond)
	after := p.Tools(ctx)
	assert.Same(t, find(before, "echo"), find(after, "echo"), "an unchanged tool keeps its Spec")
	res, err := p.Call(ctx, "added", nil)
	require.NoError(t, err)
	assert.Equal(t, "new", res.Text())

	srv.RemoveTools("echo")
	require.Eventually(t, func() bool { return find(p.Tools(ctx), "echo") == nil }, waitLimit, 5*time.Millisecond)
	_, err = p.Call(ctx, "echo", []byte(`{"text":"a"}`))
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.ErrorIs(t, err, tool.ErrNotRun)
}

// The toolkit tells its subscribers (a dynamic.Source, and through it an
// MCP server's clients) when the server's list changed.
func TestListChangedIsTold(t *testing.T) {
	t.Parallel()
	srv := newSDKServer(&blocker{})
	p := memToolkit(t, &memServer{srv: srv}, mcpclient.Options{Group: "remote"})
	ctx := t.Context()
	require.True(t, p.Available(ctx))
	set, err := dynamic.New(nil, nil)
	require.NoError(t, err)
	var n atomic.Int64
	cancel := set.Subscribe(func() { n.Add(1) })
	defer cancel()
	require.NoError(t, set.Register(ctx, p))
	require.Equal(t, int64(1), n.Load(), "registered")

	mcp.AddTool(srv, &mcp.Tool{Name: "added", Description: "Added later."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	require.Eventually(t, func() bool { return n.Load() >= 2 }, waitLimit, 5*time.Millisecond, "an added tool is told")
	assert.NotNil(t, find(p.Tools(ctx), "added"), "told after the new list is in place")

	told := n.Load()
	srv.RemoveTools("added")
	require.Eventually(t, func() bool { return n.Load() > told }, waitLimit, 5*time.Millisecond, "a removed tool is told")
	assert.Nil(t, find(p.Tools(ctx), "added"))

	set.Unregister(p)
	told = n.Load()
	mcp.AddTool(srv, &mcp.Tool{Name: "later", Description: "Added after."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	require.Eventually(t, func() bool { return find(p.Tools(ctx), "later") != nil }, waitLimit, 5*time.Millisecond)
	assert.Equal(t, told, n.Load(), "an unregistered toolkit's changes reach nobody")
}

func TestServerDiesMidCall(t *testing.T) {
	t.Parallel()
	b := &blocker{started: make(chan struct{}), release: make(chan struct{})}
	m := &memServer{srv: newSDKServer(b)}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote", PoolSize: 1})
	ctx := t.Context()
	call := viaSource(t, p) // the message reaches the model through the Source

	type answer struct {
		res tool.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := call(ctx, "wait", nil)
		done <- answer{res, err}
	}()
	select {
	case <-b.started:
	case <-time.After(waitLimit):
		t.Fatal("the remote tool did not start")
	}
	require.NoError(t, m.kill())
	var got answer
	select {
	case got = <-done:
	case <-time.After(waitLimit):
		t.Fatal("the call hangs after the server died")
	}
	var te *tool.Error
	require.ErrorAs(t, got.err, &te)
	assert.Equal(t, tool.CodeFailed, te.Code)
	assert.Equal(t, "the connection to the MCP server of remote was lost during the call: its outcome is unknown, and it was not sent again", te.Message)
	assert.ErrorIs(t, got.err, mcpclient.ErrConnectionLost)
	assert.ErrorIs(t, got.err, tool.ErrAbandoned, "the call service records the outcome as unknown")
	assert.True(t, got.res.IsError)

	// The server is back: the next call reconnects.
	res, err := p.Call(ctx, "echo", []byte(`{"text":"back"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"echo":"back"}`, res.Text())
	assert.Equal(t, int32(2), m.connects.Load())
	assert.True(t, p.Available(ctx))
}

func TestStaleConnectionsArePinged(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote", PoolSize: 2})
	ctx := t.Context()
	for range 2 { // both connections of the pool
		_, err := p.Call(ctx, "echo", []byte(`{"text":"a"}`))
		require.NoError(t, err)
	}
	require.Equal(t, int32(2), m.connects.Load())

	// Both connections break without noticing. The first call finds out
	// (its outcome is unknown: it may have been sent); the other
	// connection, made before that loss, is pinged before it carries a
	// call, and made again.
	m.breakAll()
	_, err := p.Call(ctx, "echo", []byte(`{"text":"a"}`))
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	res, err := p.Call(ctx, "echo", []byte(`{"text":"b"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"echo":"b"}`, res.Text())
	assert.GreaterOrEqual(t, m.connects.Load(), int32(3), "made again")
}

func TestServerUnreachable(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote", PoolSize: 1, RetryDelay: time.Hour})
	ctx := t.Context()

	m.down.Store(true)
	require.NoError(t, m.kill())
	require.Eventually(t, func() bool {
		_, err := p.Call(ctx, "echo", []byte(`{"text":"a"}`))
		return errors.Is(err, mcpclient.ErrUnreachable)
	}, waitLimit, 5*time.Millisecond)
	_, err := p.Call(ctx, "echo", []byte(`{"text":"a"}`))
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeFailed, te.Code)
	assert.Equal(t, "the MCP server of remote is unreachable; nothing was run", te.Message)
	assert.ErrorIs(t, err, tool.ErrNotRun)

	m.down.Store(false)
	res, err := p.Call(ctx, "echo", []byte(`{"text":"up"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"echo":"up"}`, res.Text())
}

func TestUnreachableRetriedAfterRetryDelay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		delay time.Duration
		back  bool // available again once the server is up
	}{
		{"within the delay: unavailable, not retried", time.Hour, false},
		{"after the delay: retried", 20 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := &memServer{srv: newSDKServer(&blocker{})}
			m.down.Store(true)
			p := newToolkit(t, mcpclient.Options{Group: "remote", Connect: m.connect, RetryDelay: tt.delay}, nil)
			ctx := t.Context()
			for range 20 {
				assert.False(t, p.Available(ctx))
			}
			assert.Nil(t, p.Tools(ctx))
			m.down.Store(false)
			if tt.back {
				require.Eventually(t, func() bool { return p.Available(ctx) }, waitLimit, 5*time.Millisecond)
				assert.NotEmpty(t, p.Tools(ctx))
				return
			}
			assert.False(t, p.Available(ctx))
			assert.Equal(t, int32(1), m.attempts.Load(), "one attempt (Bind's, or Available's) within the delay")
		})
	}
}

func TestMissingCredentials(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	var token atomic.Value
	token.Store("")
	p, err := mcpclient.New(mcpclient.Options{Group: "remote", Connect: m.connect, RequireEnv: []string{"REMOTE_TOKEN"}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	e := env(nil)
	e.Getenv = func(k string) string {
		if k == "REMOTE_TOKEN" {
			return token.Load().(string)
		}
		return ""
	}
	ctx := t.Context()
	assert.False(t, p.Available(ctx), "not bound yet")
	require.NoError(t, p.Bind(ctx, e))
	assert.False(t, p.Available(ctx), "the credential is missing")
	assert.Equal(t, int32(0), m.connects.Load(), "no connection without credentials")
	token.Store("t0ken")
	assert.True(t, p.Available(ctx))
	token.Store("")
	assert.False(t, p.Available(ctx), "the whole bundle disappears again")
}

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	b := &blocker{release: make(chan struct{})}
	m := &memServer{srv: newSDKServer(b)}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote", CallTimeout: 50 * time.Millisecond})
	assert.Equal(t, 50*time.Millisecond, find(p.Tools(t.Context()), "wait").Timeout)
	call := viaSource(t, p) // whose Runner applies the Timeout
	for range 5 {           // one timer, one answer
		_, err := call(t.Context(), "wait", nil)
		var te *tool.Error
		require.ErrorAs(t, err, &te)
		assert.Equal(t, tool.CodeTimeout, te.Code)
		assert.Equal(t, "the tool timed out after 50ms", te.Message)
		assert.ErrorIs(t, err, tool.ErrAbandoned, "sent: its outcome is unknown")
	}
	res, err := call(t.Context(), "echo", []byte(`{"text":"x"}`))
	require.NoError(t, err, "the connection survives a timeout")
	assert.JSONEq(t, `{"echo":"x"}`, res.Text())
}

func TestCancelledWhileRunning(t *testing.T) {
	t.Parallel()
	b := &blocker{started: make(chan struct{}), release: make(chan struct{})}
	m := &memServer{srv: newSDKServer(b)}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote"})
	call := viaSource(t, p)
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-b.started
		cancel()
	}()
	_, err := call(ctx, "wait", nil)
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeCancelled, te.Code)
	assert.ErrorIs(t, err, tool.ErrAbandoned)

	// Called directly, Call reports the end of its context as an
	// abandoned call, for the Runner to name.
	ctx2, cancel2 := context.WithCancel(t.Context())
	go func() {
		<-b.started
		cancel2()
	}()
	_, err = p.Call(ctx2, "wait", nil)
	assert.ErrorIs(t, err, tool.ErrAbandoned)
	assert.ErrorIs(t, err, context.Canceled)

	expired, stop := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer stop()
	_, err = call(expired, "echo", []byte(`{"text":"a"}`))
	assert.Equal(t, tool.CodeTimeout, tool.CodeOf(err))
	assert.ErrorIs(t, err, tool.ErrNotRun)
}

func TestStdioCommandMissing(t *testing.T) {
	t.Parallel()
	p := newToolkit(t, mcpclient.Options{Group: "local", Connect: mcpclient.Stdio(func(dynamic.Env) *exec.Cmd { return nil })}, nil)
	assert.False(t, p.Available(t.Context()))
	assert.Nil(t, p.Tools(t.Context()))
}

func TestResultCap(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote", MaxResultBytes: 16})
	_, err := p.Call(t.Context(), "echo", []byte(`{"text":"abcdefgh","times":4}`))
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeFailed, te.Code)
	assert.Equal(t, "the tool's result exceeds 16 bytes", te.Message)
}

func TestCollisionsAreLeftOut(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, nil)
	handler := func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	}
	// "a.b" maps to a_b_HASH; a remote tool literally named so collides
	// with it. "a/b" looks alike but has its own hash.
	clash := "a_b_" + sha8("a.b")
	for _, n := range []string{"a.b", clash, "a/b", "plain"} {
		mcp.AddTool(srv, &mcp.Tool{Name: n}, handler)
	}
	m := &memServer{srv: srv}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote"})
	assert.Equal(t, []string{"a_b_" + sha8("a/b"), "plain"}, names(p.Tools(t.Context())))
	_, ok := p.Local("a.b")
	assert.False(t, ok)
	_, err := p.Call(t.Context(), clash, nil)
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.ErrorIs(t, err, tool.ErrNotRun)
}

func TestConcurrentCallsThroughThePool(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote", PoolSize: 3})
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Go(func() {
			text := strings.Repeat("x", i%7+1)
			res, err := p.Call(ctx, "echo", []byte(`{"text":"`+text+`"}`))
			if err == nil && res.Text() != `{"echo":"`+text+`"}` {
				err = errors.New("wrong result " + res.Text())
			}
			if err != nil {
				errs <- err
			}
			_ = p.Tools(ctx)
			_ = p.Available(ctx)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	assert.LessOrEqual(t, m.connects.Load(), int32(3), "one connection per slot")
	assert.GreaterOrEqual(t, m.connects.Load(), int32(2), "calls are spread over the pool")
}

func TestClose(t *testing.T) {
	t.Parallel()
	m := &memServer{srv: newSDKServer(&blocker{})}
	p := memToolkit(t, m, mcpclient.Options{Group: "remote"})
	require.NoError(t, p.Close())
	require.NoError(t, p.Close(), "idempotent")
	assert.False(t, p.Available(t.Context()))
	_, err := p.Call(t.Context(), "echo", []byte(`{"text":"a"}`))
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.ErrorIs(t, err, tool.ErrNotRun)
	assert.Error(t, p.Bind(t.Context(), env(nil)))
}

func TestStdioServer(t *testing.T) {
	t.Parallel()
	s := newStdioServer(t)
	p := newToolkit(t, mcpclient.Options{Group: "local", Connect: mcpclient.Stdio(s.command), PoolSize: 1}, nil)
	ctx := t.Context()
	require.True(t, p.Available(ctx))
	assert.Contains(t, names(p.Tools(ctx)), "echo")
	res, err := p.Call(ctx, "echo", []byte(`{"text":"io"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"echo":"io"}`, res.Text())

	// The process dies while the tool runs.
	done := make(chan error, 1)
	go func() {
		_, err := p.Call(ctx, "wait", nil)
		done <- err
	}()
	require.Eventually(t, func() bool { _, err := os.Stat(s.marker); return err == nil }, waitLimit, 5*time.Millisecond)
	s.kill(t)
	select {
	case err = <-done:
	case <-time.After(waitLimit):
		t.Fatal("the call hangs after the process died")
	}
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.ErrorIs(t, err, mcpclient.ErrConnectionLost)

	res, err = p.Call(ctx, "echo", []byte(`{"text":"again"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"echo":"again"}`, res.Text())
	assert.Equal(t, 2, s.started(), "a new process")
}
