package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/mcpclient"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// helperEnv names the variable that makes the test binary a stdio MCP
// server (TestMain), and markerEnv the file its blocking tool creates when
// it starts.
const (
	helperEnv = "MCPCLIENT_TEST_SERVER"
	markerEnv = "MCPCLIENT_TEST_MARKER"
)

// waitLimit bounds every wait of the tests.
const waitLimit = 10 * time.Second

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "stdio" {
		srv := newSDKServer(&blocker{marker: os.Getenv(markerEnv)})
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// echoIn is the input of the remote echo tool.
type echoIn struct {
	Text  string `json:"text" jsonschema:"the text to echo"`
	Times int    `json:"times,omitempty" jsonschema:"how many times"`
}

// echoOut is its structured output.
type echoOut struct {
	Echo string `json:"echo"`
}

// pathIn is the input of the remote files.delete tool.
type pathIn struct {
	Path string `json:"path"`
}

// blocker makes the remote wait tool block until released, and tells
// when it started: on started, or by creating marker (a stdio server).
type blocker struct {
	started chan struct{}
	release chan struct{}
	marker  string
}

// longRemote is a remote tool name too long for any provider once
// prefixed.
var longRemote = "reports." + strings.Repeat("quarterly-", 11) + "summary"

// newSDKServer returns a go-sdk server with reflected tools: echo (read
// only, says its annotations), files.delete (fails), wait (blocks) and a
// tool with a long dotted name.
func newSDKServer(b *blocker) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, &mcp.ServerOptions{
		Logger: slog.New(slog.DiscardHandler),
	})
	no := false
	mcp.AddTool(srv, &mcp.Tool{
		Name: "echo", Title: "Echo", Description: "Echoes the text.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		return nil, echoOut{Echo: strings.Repeat(in.Text, max(in.Times, 1))}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "files.delete", Description: "Deletes a file."},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("no such file: " + in.Path)
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "wait", Description: "Waits until released."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if b.marker != "" {
				_ = os.WriteFile(b.marker, nil, 0o600)
			}
			if b.started != nil {
				select {
				case b.started <- struct{}{}:
				case <-ctx.Done():
					return nil, nil, ctx.Err()
				}
			}
			select {
			case <-b.release:
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: longRemote, Description: "Summarizes the quarter."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "fine"}}}, nil, nil
		})
	return srv
}

// memServer serves an SDK server over in-memory transports, one per
// connection, and can take the connections down.
type memServer struct {
	srv      *mcp.Server
	down     atomic.Bool
	connects atomic.Int32 // connections made
	attempts atomic.Int32 // connections asked for
	mu       sync.Mutex
	served   []served       // per connection not yet killed: the server's side
	broken   []*atomic.Bool // per connection: its writes fail
}

// served is the server's side of one connection: its session, and the
// connection it reads and writes.
type served struct {
	ss   *mcp.ServerSession
	conn mcp.Connection
}

// serverSide is the server's in-memory transport; it keeps the
// connection it made, for kill.
type serverSide struct {
	mcp.Transport
	conn mcp.Connection
}

// Connect connects the transport and keeps the connection.
func (t *serverSide) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	t.conn = c
	return c, err
}

// connect is a mcpclient.Connector.
func (m *memServer) connect(ctx context.Context, _ dynamic.Env) (mcp.Transport, error) {
	m.attempts.Add(1)
	if m.down.Load() {
		return nil, errors.New("server down")
	}
	st, ct := mcp.NewInMemoryTransports()
	side := &serverSide{Transport: st}
	ss, err := m.srv.Connect(ctx, side, nil)
	if err != nil {
		return nil, err
	}
	m.connects.Add(1)
	m.mu.Lock()
	m.served = append(m.served, served{ss, side.conn})
	broken := new(atomic.Bool)
	m.broken = append(m.broken, broken)
	m.mu.Unlock()
	return breakable{ct, broken}, nil
}

// breakAll makes every connection made so far fail its writes, as an
// HTTP connection to a server that went away does: the client does not
// notice until it sends something.
func (m *memServer) breakAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range m.broken {
		b.Store(true)
	}
}

// breakable is a transport whose connection's writes fail once broken.
type breakable struct {
	mcp.Transport
	broken *atomic.Bool
}

// Connect connects the transport.
func (t breakable) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return breakableConn{c, t.broken}, nil
}

// breakableConn is a connection whose writes fail once broken.
type breakableConn struct {
	mcp.Connection
	broken *atomic.Bool
}

// Write writes msg, or fails once the connection is broken.
func (c breakableConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if c.broken.Load() {
		return errors.New("broken pipe")
	}
	return c.Connection.Write(ctx, msg)
}

// kill takes the server down as a process that dies does: the server's
// side of every connection is closed at once, so that its client reads
// the end of the stream, and the SDK cancels the server's handlers in
// flight (their reads failed) instead of waiting for them. It reports
// an error unless every session ended within waitLimit.
//
// ServerSession.Close is no death: it is a graceful shutdown that waits
// for the handlers in flight before it closes the stream. A handler
// blocked until its context ends (the wait tool) then ends only by
// accident: when Close cancels the session's subscriptions/listen and
// that handler's answer is written after Close began, the SDK takes the
// refused write for a broken connection and cancels every handler. When
// the answer is written first (rarely, but it happens on a loaded
// machine), nothing cancels the wait tool and Close waits for it
// forever.
func (m *memServer) kill() error {
	m.mu.Lock()
	dying := m.served
	m.served = nil
	m.mu.Unlock()
	for _, s := range dying {
		_ = s.conn.Close()
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for _, s := range dying {
			_ = s.ss.Wait()
		}
	}()
	select {
	case <-ended:
		return nil
	case <-time.After(waitLimit):
		return errors.New("a session of the killed server did not end: a handler in flight was not cancelled")
	}
}

// env is an Env whose Getenv reads vars.
func env(vars map[string]string) dynamic.Env {
	return dynamic.Env{
		Logger: slog.New(slog.DiscardHandler),
		Getenv: func(k string) string { return vars[k] },
	}
}

// newToolkit returns a bound toolkit, closed at the end of the test.
func newToolkit(t *testing.T, opts mcpclient.Options, vars map[string]string) *mcpclient.Toolkit {
	t.Helper()
	p, err := mcpclient.New(opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	require.NoError(t, p.Bind(t.Context(), env(vars)))
	return p
}

// stdioServer runs the test binary as a stdio server; it remembers the
// processes it started.
type stdioServer struct {
	marker string
	mu     sync.Mutex
	cmds   []*exec.Cmd
}

// newStdioServer returns a stdio server whose wait tool creates a marker
// file in a temporary directory.
func newStdioServer(t *testing.T) *stdioServer {
	return &stdioServer{marker: filepath.Join(t.TempDir(), "started")}
}

// command builds the command of one connection.
func (s *stdioServer) command(dynamic.Env) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=stdio", markerEnv+"="+s.marker)
	s.mu.Lock()
	s.cmds = append(s.cmds, cmd)
	s.mu.Unlock()
	return cmd
}

// started returns how many processes were started.
func (s *stdioServer) started() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cmds)
}

// kill kills the last process started.
func (s *stdioServer) kill(t *testing.T) {
	s.mu.Lock()
	cmd := s.cmds[len(s.cmds)-1]
	s.mu.Unlock()
	require.NoError(t, cmd.Process.Kill())
}

// viaSource registers p in a new dynamic.Source and returns a function calling
// its tool of that local name as the call service does: looked up in the
// Source, validated, run under the Source's Runner (Spec.Timeout, ctx).
func viaSource(t *testing.T, p *mcpclient.Toolkit) func(ctx context.Context, local string, args []byte) (tool.Result, error) {
	t.Helper()
	set, err := dynamic.New(nil, nil)
	require.NoError(t, err)
	require.NoError(t, set.Register(t.Context(), p))
	return func(ctx context.Context, local string, args []byte) (tool.Result, error) {
		d, ok := set.Lookup(ctx, p.Group()+"_"+local)
		require.True(t, ok, "%s is not served", local)
		return d.Call(ctx, args)
	}
}
