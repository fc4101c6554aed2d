package mcpclient_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/mcpclient"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// notesStatic is a small registry, built as generated code builds one: a
// read-only listing, an action with arguments and structured output, and
// an action that fails with a message for the model.
func notesStatic(t *testing.T) tool.Registry {
	t.Helper()
	specs := []tool.Spec{
		{
			Name: "notes_add", Title: "Add a note", Group: "notes", Kind: tool.KindAction, Destructive: false,
			Description:  "Adds a note.",
			InputSchema:  []byte(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
			OutputSchema: []byte(`{"type":"object","properties":{"id":{"type":"integer"},"text":{"type":"string"}},"required":["id","text"],"additionalProperties":false}`),
		},
		{Name: "notes_fail", Group: "notes", Kind: tool.KindAction, Destructive: true, Description: "Fails."},
		{Name: "notes_list", Group: "notes", Kind: tool.KindRead, ReadOnly: true, Idempotent: true, Description: "Lists the notes."},
	}
	reg, err := tooltest.NewRegistry(specs, func(_ context.Context, name string, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		raw, _ := in.Raw()
		in.End()
		if err := in.Err(); err != nil {
			return 0, toolimpl.InvalidArguments(err)
		}
		if mode != toolimpl.ModeCall {
			return 0, nil
		}
		switch name {
		case "notes_add":
			var args struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(raw, &args); err != nil {
				return 0, toolimpl.InvalidArguments(err)
			}
			out.ObjectStart()
			out.Key("id")
			out.Int(7)
			out.Key("text")
			out.String(args.Text)
			out.ObjectEnd()
			return toolimpl.OutputStructured, nil
		case "notes_fail":
			return 0, tool.Errorf("the note store is locked")
		}
		out.RawText("no notes")
		return toolimpl.OutputText, nil
	})
	require.NoError(t, err)
	return reg
}

func TestOwnServerOverHTTP(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(notesStatic(t), nil)
	require.NoError(t, err)
	h, err := srv.Handler(nil)
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)

	for _, trusted := range []bool{false, true} {
		p := newToolkit(t, mcpclient.Options{Group: "own", Connect: mcpclient.HTTP(ts.URL, ts.Client()), Trusted: trusted}, nil)
		ctx := t.Context()
		require.True(t, p.Available(ctx))
		specs := p.Tools(ctx)
		require.Equal(t, []string{"notes_add", "notes_fail", "notes_list"}, names(specs), "names that fit are kept")

		add, list := find(specs, "notes_add"), find(specs, "notes_list")
		assert.Equal(t, "Add a note", add.Title)
		assert.JSONEq(t, `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`, string(add.InputSchema))
		assert.JSONEq(t, `{"type":"object","properties":{"id":{"type":"integer"},"text":{"type":"string"}},"required":["id","text"],"additionalProperties":false}`, string(add.OutputSchema))
		if trusted {
			assert.Equal(t, tool.KindRead, list.Kind)
			assert.True(t, list.ReadOnly)
			assert.False(t, add.Destructive, "the server's destructiveHint false is kept")
			assert.False(t, add.OpenWorld, "so is its openWorldHint false")
		} else {
			assert.Equal(t, tool.KindAction, list.Kind)
			assert.False(t, list.ReadOnly)
			assert.True(t, add.Destructive)
			assert.True(t, add.OpenWorld)
		}

		res, err := p.Call(ctx, "notes_add", []byte(`{"text":"buy milk"}`))
		require.NoError(t, err)
		assert.True(t, res.Structured)
		assert.JSONEq(t, `{"id":7,"text":"buy milk"}`, res.Text())

		res, err = p.Call(ctx, "notes_list", nil)
		require.NoError(t, err)
		assert.Equal(t, tool.Result{Content: []byte("no notes")}, res)

		_, err = p.Call(ctx, "notes_fail", nil)
		var te *tool.Error
		require.ErrorAs(t, err, &te)
		assert.Equal(t, tool.CodeFailed, te.Code)
		if trusted {
			assert.Equal(t, "the note store is locked", te.Message)
		} else {
			assert.Equal(t, "tool own_notes_fail failed: the MCP server reported an error", te.Message)
		}
	}
}

// blockingStatic is a registry of one action that tells started when it
// runs and blocks until released or its context ends, and one that
// answers "ok".
func blockingStatic(t *testing.T, started chan<- struct{}, release <-chan struct{}) tool.Registry {
	t.Helper()
	specs := []tool.Spec{
		{Name: "block", Kind: tool.KindAction, Description: "Blocks."},
		{Name: "ping", Kind: tool.KindRead, ReadOnly: true, Description: "Answers ok."},
	}
	reg, err := tooltest.NewRegistry(specs, func(ctx context.Context, name string, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		in.End()
		if mode != toolimpl.ModeCall {
			return 0, toolimpl.InvalidArguments(in.Err())
		}
		if name == "block" {
			started <- struct{}{}
			select {
			case <-release:
				return 0, tool.Errorf("released")
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		}
		out.RawText("ok")
		return toolimpl.OutputText, nil
	})
	require.NoError(t, err)
	return reg
}

func TestOwnServerDiesMidCallOverHTTP(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}, 1), make(chan struct{})
	serve := func(addr string) *httptest.Server {
		srv, err := mcpserver.New(blockingStatic(t, started, release), nil)
		require.NoError(t, err)
		h, err := srv.Handler(nil)
		require.NoError(t, err)
		ts := httptest.NewUnstartedServer(h)
		if addr != "" {
			require.NoError(t, ts.Listener.Close())
			ts.Listener, err = net.Listen("tcp", addr)
			require.NoError(t, err)
		}
		ts.Start()
		return ts
	}
	ts := serve("")
	addr := ts.Listener.Addr().String()
	p := newToolkit(t, mcpclient.Options{Group: "own", Connect: mcpclient.HTTP(ts.URL, nil), PoolSize: 2}, nil)
	ctx := t.Context()
	require.True(t, p.Available(ctx))
	for range 2 { // both connections of the pool
		_, err := p.Call(ctx, "ping", nil)
		require.NoError(t, err)
	}

	done := make(chan error, 1)
	go func() {
		_, err := p.Call(ctx, "block", nil)
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(waitLimit):
		t.Fatal("the tool did not start")
	}
	// The server stops taking connections, and those it has die with the
	// tool still running.
	require.NoError(t, ts.Listener.Close())
	ts.CloseClientConnections()
	var err error
	select {
	case err = <-done:
	case <-time.After(waitLimit):
		t.Fatal("the call hangs after the server died")
	}
	close(release)
	ts.Close()
	assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
	assert.ErrorIs(t, err, mcpclient.ErrConnectionLost)
	assert.ErrorIs(t, err, tool.ErrAbandoned)

	// While the server is down, calls reach nothing and say so, on every
	// connection of the pool: the other one is pinged before it is used.
	for range 2 {
		_, err = p.Call(ctx, "ping", nil)
		assert.ErrorIs(t, err, mcpclient.ErrUnreachable)
		assert.ErrorIs(t, err, tool.ErrNotRun)
	}

	// Back on the same address: every connection of the pool works again.
	ts = serve(addr)
	t.Cleanup(func() {
		// The toolkit's connections hold streams open: close them first.
		_ = p.Close()
		ts.Close()
	})
	for range 4 {
		res, err := p.Call(ctx, "ping", nil)
		require.NoError(t, err)
		assert.Equal(t, "ok", res.Text())
	}
}

func TestStatefulServerRestartedBetweenCalls(t *testing.T) {
	t.Parallel()
	serve := func(addr string) *httptest.Server {
		srv := newSDKServer(&blocker{})
		ts := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
		if addr != "" {
			require.NoError(t, ts.Listener.Close())
			var err error
			ts.Listener, err = net.Listen("tcp", addr)
			require.NoError(t, err)
		}
		ts.Start()
		return ts
	}
	ts := serve("")
	p := newToolkit(t, mcpclient.Options{Group: "sdk", Connect: mcpclient.HTTP(ts.URL, nil), PoolSize: 2}, nil)
	ctx := t.Context()
	require.True(t, p.Available(ctx))
	for range 2 {
		_, err := p.Call(ctx, "echo", []byte(`{"text":"a"}`))
		require.NoError(t, err)
	}
	addr := ts.Listener.Addr().String()
	ts.CloseClientConnections()
	ts.Close()

	// The new server knows none of the sessions and refuses their
	// requests: nothing ran, so each is sent again over a new connection.
	ts = serve(addr)
	t.Cleanup(func() {
		_ = p.Close()
		ts.Close()
	})
	for range 4 {
		res, err := p.Call(ctx, "echo", []byte(`{"text":"b"}`))
		require.NoError(t, err)
		assert.JSONEq(t, `{"echo":"b"}`, res.Text())
	}
}
