package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/internal/notify"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Defaults of Options.
const (
	// DefaultPoolSize is the number of connections of a pool whose
	// Options.PoolSize is 0.
	DefaultPoolSize = 2
	// DefaultConnectTimeout bounds a connection (and its handshake) when
	// Options.ConnectTimeout is 0.
	DefaultConnectTimeout = 10 * time.Second
	// DefaultRetryDelay is how long a server found unreachable stays
	// unavailable before Available tries it again, when Options.RetryDelay
	// is 0.
	DefaultRetryDelay = 5 * time.Second
)

// ErrConnectionLost is in the Cause chain of the error of a call whose
// connection to the server was lost (or whose answer could not be read)
// after the request was sent: the remote tool may or may not have run.
// The chain holds tool.ErrAbandoned too, so that the call service records
// the outcome as unknown.
var ErrConnectionLost = errors.New("the connection to the MCP server was lost during the call")

// ErrUnreachable is in the Cause chain of the error of a call that could
// not reach the server (no connection could be made): nothing was sent.
// The chain holds tool.ErrNotRun too.
var ErrUnreachable = errors.New("the MCP server is unreachable")

// Options configures a Toolkit.
type Options struct {
	// Group is the toolkit's namespace, the prefix of its tools' names:
	// 1 to MaxGroup lower-case letters, digits and hyphens, starting with
	// a letter. Required.
	Group string
	// Connect opens a transport to the server (see Stdio and HTTP).
	// Required.
	Connect Connector
	// Trusted says the server's tool annotations are believed: a tool
	// marked readOnlyHint is then a read (tool.KindRead, ReadOnly), and
	// destructiveHint, idempotentHint and openWorldHint are kept. Without
	// it every remote tool is an action that may destroy and reach the
	// open world, whatever it says of itself.
	Trusted bool
	// PoolSize is the number of connections calls are spread over; 0
	// means DefaultPoolSize.
	PoolSize int
	// CallTimeout bounds one call, a reconnection included (and is each
	// Spec's Timeout); 0 means none beyond the caller's context.
	CallTimeout time.Duration
	// ConnectTimeout bounds one connection and its handshake; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// RetryDelay is how long a server found unreachable stays unavailable
	// before Available tries it again; 0 means DefaultRetryDelay.
	RetryDelay time.Duration
	// RequireEnv names the credentials the server needs: while any of
	// them is empty (Env.Getenv) the toolkit is unavailable, and its
	// whole bundle disappears.
	RequireEnv []string
	// MaxResultBytes caps a call's result (its text or structured
	// content); 0 means tool.DefaultMaxOutputBytes.
	MaxResultBytes int
	// Logger receives what goes wrong; nil means the Env's logger.
	Logger *slog.Logger
	// Tasks has calls over streamable HTTP (HTTP, or any
	// *mcp.StreamableClientTransport a Connector returns) declare MCP's
	// tasks extension (ExtensionTasks) in their per-request capabilities,
	// and follow a remote tool that answers with a task to its end: see
	// the package documentation. Off by default: a call then declares
	// nothing, and is answered as before.
	Tasks bool
}

// Toolkit serves the tools of a remote MCP server as a dynamic.Toolkit:
// see the package documentation. Create it with New; it is safe for
// concurrent use.
type Toolkit struct {
	group  string
	opts   Options
	client *mcp.Client

	env  atomic.Pointer[dynamic.Env] // set by Bind
	list atomic.Pointer[listing]     // nil until the first listing
	// failed is when the last listing failed (UnixNano), 0 when it
	// succeeded: the server is then unreachable until RetryDelay passed.
	failed  atomic.Int64
	lastErr atomic.Pointer[error] // the last listing's error, for Available's callers

	pool    *pool
	refresh chan struct{} // 1-buffered: held while listing
	kick    chan struct{} // 1-buffered: asks the background loop for a listing

	bindOnce sync.Once
	ctx      context.Context // ends at Close
	cancel   context.CancelFunc
	mu       sync.Mutex // guards the start of goroutines against Close
	wg       sync.WaitGroup
	closed   atomic.Bool

	changes notify.List // Subscribe's subscribers

	// sleep waits between two polls of a remote task (sleepCtx; tests
	// count the waits instead).
	sleep func(ctx context.Context, d time.Duration) error
}

var (
	_ dynamic.Toolkit = (*Toolkit)(nil)
	_ tool.Notifier   = (*Toolkit)(nil)
)

// Subscribe implements tool.Notifier: changed is called after a listing
// changed the tools (the server's notifications/tools/list_changed, a
// reconnection), and when the server's tools become known or unknown (a
// listing that succeeded after a failure, or failed after a success). A
// dynamic.Source subscribes to its toolkits, and an MCP server over it
// tells its own clients.
func (p *Toolkit) Subscribe(changed func()) (cancel func()) { return p.changes.Subscribe(changed) }

// New returns a Toolkit for the server that opts.Connect reaches. It does
// not connect: Bind starts the first listing in the background.
func New(opts Options) (*Toolkit, error) {
	switch {
	case !validGroup(opts.Group):
		return nil, fmt.Errorf("mcpclient: group %q must be 1 to %d lower-case letters, digits and hyphens, starting with a letter", opts.Group, MaxGroup)
	case opts.Connect == nil:
		return nil, errors.New("mcpclient: Options.Connect is required")
	case opts.PoolSize < 0 || opts.CallTimeout < 0 || opts.ConnectTimeout < 0 || opts.RetryDelay < 0 || opts.MaxResultBytes < 0:
		return nil, errors.New("mcpclient: PoolSize, CallTimeout, ConnectTimeout, RetryDelay and MaxResultBytes must not be negative")
	}
	for _, k := range opts.RequireEnv {
		if k == "" {
			return nil, errors.New("mcpclient: RequireEnv holds an empty name")
		}
	}
	if opts.PoolSize == 0 {
		opts.PoolSize = DefaultPoolSize
	}
	if opts.ConnectTimeout == 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.RetryDelay == 0 {
		opts.RetryDelay = DefaultRetryDelay
	}
	if opts.MaxResultBytes == 0 {
		opts.MaxResultBytes = tool.DefaultMaxOutputBytes
	}
	p := &Toolkit{
		group:   opts.Group,
		opts:    opts,
		refresh: make(chan struct{}, 1),
		kick:    make(chan struct{}, 1),
		sleep:   sleepCtx,
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.client = mcp.NewClient(&mcp.Implementation{Name: "toolgen-mcpclient", Version: "1"}, &mcp.ClientOptions{
		Logger:                 opts.Logger,
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { p.changed() },
	})
	if opts.Tasks {
		if err := registerTaskMethods(p.client); err != nil {
			return nil, fmt.Errorf("mcpclient: %w", err)
		}
	}
	p.pool = newPool(p, opts.PoolSize)
	return p, nil
}

// Group returns the toolkit's namespace, Options.Group.
func (p *Toolkit) Group() string { return p.group }

// Bind keeps env (its Getenv reads the credentials, its Logger is the
// default logger) and starts listing the server's tools in the
// background, unless credentials are missing; it does not wait for the
// server. Binding again keeps the first Env.
func (p *Toolkit) Bind(_ context.Context, env dynamic.Env) error {
	if p.closed.Load() {
		return errors.New("mcpclient: Bind after Close")
	}
	if env.Getenv == nil || env.Logger == nil {
		return errors.New("mcpclient: Bind needs an Env with Getenv and Logger")
	}
	p.bindOnce.Do(func() {
		p.env.Store(&env)
		p.spawn(p.loop)
		if p.credentials() {
			p.changed()
		}
	})
	return nil
}

// loop lists the server's tools whenever it is kicked, until Close.
func (p *Toolkit) loop() {
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-p.kick:
			if err := p.listTools(p.ctx, true); err != nil && p.ctx.Err() == nil {
				p.logger().Warn("mcpclient: list the remote tools", slog.String("group", p.group), slog.String("error", err.Error()))
			}
		}
	}
}

// changed asks the background loop for a new listing (the server said
// its tools changed, or a connection was made again); it never blocks. A
// change told while a listing runs asks for one more.
func (p *Toolkit) changed() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// Available reports whether the toolkit is bound and not closed, every
// RequireEnv credential is set, and the server's tools are known from a
// listing that succeeded last. When no listing is known, or the last one
// failed more than RetryDelay ago, it lists the tools (bounded by ctx and
// ConnectTimeout) and reports whether that worked; within RetryDelay of a
// failure it reports false at once.
func (p *Toolkit) Available(ctx context.Context) bool {
	if p.closed.Load() || p.env.Load() == nil || !p.credentials() {
		return false
	}
	if p.list.Load() != nil && p.failed.Load() == 0 {
		return true
	}
	return p.listTools(ctx, false) == nil
}

// credentials reports whether every RequireEnv credential is set.
func (p *Toolkit) credentials() bool {
	env := p.env.Load()
	if env == nil {
		return false
	}
	for _, k := range p.opts.RequireEnv {
		if env.Getenv(k) == "" {
			return false
		}
	}
	return true
}

// Tools returns the remote tools known from the last listing that
// succeeded, sorted by local name: the same slice and Spec pointers until
// a listing finds a change. It never contacts the server; nil before the
// first listing.
func (p *Toolkit) Tools(context.Context) []*tool.Spec {
	if l := p.list.Load(); l != nil {
		return l.specs
	}
	return nil
}

// Remote returns the name the server gives the tool of that local name.
func (p *Toolkit) Remote(local string) (string, bool) {
	if l := p.list.Load(); l != nil {
		r, ok := l.remote[local]
		return r, ok
	}
	return "", false
}

// Local returns the local name of the server's tool of that remote name;
// false when the tool is unknown or left out (a collision).
func (p *Toolkit) Local(remote string) (string, bool) {
	if l := p.list.Load(); l != nil {
		r, ok := l.local[remote]
		return r, ok
	}
	return "", false
}

// errRecent is the error of a listing skipped because the last one failed
// less than RetryDelay ago.
var errRecent = errors.New("mcpclient: the last listing failed recently")

// listTools lists the server's tools and publishes them, unless the last
// listing failed less than RetryDelay ago (then it returns that failure).
// With relist (the background loop: the server said its tools changed,
// or a connection was made again) it lists even when a listing is known;
// without (Available), a known listing that succeeded is enough.
func (p *Toolkit) listTools(ctx context.Context, relist bool) error {
	select {
	case p.refresh <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-p.refresh }()
	if f := p.failed.Load(); f != 0 && time.Since(time.Unix(0, f)) < p.opts.RetryDelay {
		if e := p.lastErr.Load(); e != nil {
			return *e
		}
		return errRecent
	}
	if !relist && p.list.Load() != nil && p.failed.Load() == 0 {
		return nil
	}
	prev := p.list.Load()
	known := prev != nil && p.failed.Load() == 0
	tools, err := p.fetch(ctx)
	if err != nil {
		p.failed.Store(time.Now().UnixNano())
		p.lastErr.Store(&err)
		if known {
			p.changes.Notify() // the tools are gone until a listing succeeds
		}
		return err
	}
	next := p.newListing(tools, prev)
	p.list.Store(next)
	p.failed.Store(0)
	if next != prev || !known {
		p.changes.Notify()
	}
	return nil
}

// fetch reads every page of the server's tools/list over a connection of
// the pool. Listing changes nothing: when the connection fails (not when
// the server answers with an error, nor when no connection can be made)
// it lists once more over a new connection. More than maxPages pages is
// an error: a server that always names a next page would keep it
// listing forever.
func (p *Toolkit) fetch(ctx context.Context) ([]*mcp.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, p.opts.ConnectTimeout)
	defer cancel()
	c, err := p.pool.get(ctx)
	if err != nil {
		return nil, err
	}
	tools, err := p.fetchOnce(ctx, c)
	if err != nil && ctx.Err() == nil && !dialFailed(err) && c.slot.cur.Load() != c {
		// The connection failed, and was dropped.
		if c, err = p.pool.getSlot(ctx, c.slot); err != nil {
			return nil, err
		}
		tools, err = p.fetchOnce(ctx, c)
	}
	return tools, err
}

// maxPages is the most pages of tools/list a listing reads.
const maxPages = 1000

// fetchOnce lists the tools over c; a connection that failed is dropped.
func (p *Toolkit) fetchOnce(ctx context.Context, c *conn) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("mcpclient: tools/list: more than %d pages", maxPages)
		}
		res, err := c.cs.ListTools(ctx, params)
		if err != nil {
			if we := (*jsonrpc.Error)(nil); !errors.As(err, &we) || !answered(we.Code) {
				p.pool.drop(c)
			}
			return nil, fmt.Errorf("mcpclient: tools/list: %w", err)
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return tools, nil
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// Call calls the remote tool of that local name with args (a JSON object,
// already validated against its input schema) over a connection of the
// pool, and maps its result: see the package documentation for the
// errors. A call is never sent twice. It runs as a dynamic.Source runs a
// toolkit's calls: under the runner that applies Spec.Timeout
// (Options.CallTimeout), checks ctx first and names a timeout or a
// cancellation; Call itself only passes ctx to the SDK.
func (p *Toolkit) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	full := p.group + "_" + name
	l := p.list.Load()
	remote, ok := "", false
	if l != nil && p.env.Load() != nil && !p.closed.Load() {
		remote, ok = l.remote[name]
	}
	if !ok {
		msg := "no tool of that name is served by " + p.group
		if codec.IsIdentifier(name) {
			msg = "no tool named " + name + " is served by " + p.group
		}
		// The tool left the listing since the Source looked it up.
		return failure(&tool.Error{Code: tool.CodeFailed, Message: msg + "; nothing was run", Cause: tool.ErrNotRun})
	}
	if len(args) == 0 {
		args = []byte("{}")
	}
	var retry *slot
	for {
		var c *conn
		var err error
		if retry != nil {
			c, err = p.pool.getSlot(ctx, retry)
		} else {
			c, err = p.pool.get(ctx)
		}
		if err != nil {
			if ctx.Err() != nil {
				// Ended while connecting: the Runner names the timeout
				// or the cancellation.
				return tool.Result{IsError: true}, fmt.Errorf("mcpclient: %s: call %q: %w: %w", p.group, remote, tool.ErrNotRun, err)
			}
			return failure(unreachable(p.group, full, err))
		}
		params := &mcp.CallToolParams{Name: remote, Arguments: json.RawMessage(args)}
		if c.tasks {
			params.Meta = declareTasks()
		}
		res, err := c.cs.CallTool(ctx, params)
		if err != nil && errors.Is(err, mcp.ErrSessionMissing) && retry == nil {
			// The server refused the request: it no longer knows the
			// session (it restarted). Nothing ran: send it once more over
			// a new connection in the same slot.
			p.pool.drop(c)
			retry = c.slot
			continue
		}
		if err != nil {
			if e := p.callError(ctx, c, full, remote, err); e != nil {
				return failure(e)
			}
			// The call's context ended after the request was sent (the
			// SDK sent notifications/cancelled): the remote tool may have
			// run. The Runner names the timeout or the cancellation.
			return tool.Result{IsError: true}, fmt.Errorf("mcpclient: %s: call %q: %w: %w", p.group, remote, tool.ErrAbandoned, err)
		}
		if seed, ok := taskOf(res); ok && c.tasks {
			return p.follow(ctx, c, l.find(name), full, remote, seed)
		}
		return p.result(l.find(name), full, remote, res)
	}
}

// callError classifies the failure of a call: nothing was sent (the
// server could not be dialled), the server answered with a protocol
// error (the tool did not run), or the connection failed after the
// request may have reached the server (its outcome is unknown); nil when
// the call's context ended. A connection that failed is dropped, so that
// the next call reconnects. Its codes are those a toolkit may
// return (CodeFailed, CodeInvalidArguments): the Source refuses the
// runtime's reserved ones.
func (p *Toolkit) callError(ctx context.Context, c *conn, full, remote string, err error) *tool.Error {
	cause := fmt.Errorf("mcpclient: %s: call %q: %w", p.group, remote, err)
	var we *jsonrpc.Error
	switch {
	case dialFailed(err) || errors.Is(err, mcp.ErrSessionMissing):
		p.pool.drop(c)
		return unreachable(p.group, full, cause)
	case errors.As(err, &we) && answered(we.Code):
		// Its text is the SDK's or the server's, and may quote the
		// arguments: it stays in the cause.
		if we.Code == jsonrpc.CodeInvalidParams {
			return &tool.Error{Code: tool.CodeInvalidArguments, Tool: full, Message: "the MCP server refused the arguments (code " + strconv.Itoa(int(we.Code)) + ")", Cause: cause}
		}
		return &tool.Error{Code: tool.CodeFailed, Tool: full, Message: "the MCP server refused the call (code " + strconv.Itoa(int(we.Code)) + ")", Cause: cause}
	case ctx.Err() != nil:
		return nil
	}
	p.pool.drop(c)
	return &tool.Error{Code: tool.CodeFailed, Tool: full,
		Message: "the connection to the MCP server of " + p.group + " was lost during the call: its outcome is unknown, and it was not sent again",
		Cause:   fmt.Errorf("%w: %w: %w", ErrConnectionLost, tool.ErrAbandoned, cause)}
}

// unreachable is the error of a call that reached no server.
func unreachable(group, full string, cause error) *tool.Error {
	return &tool.Error{Code: tool.CodeFailed, Tool: full,
		Message: "the MCP server of " + group + " is unreachable; nothing was run",
		Cause:   fmt.Errorf("%w: %w: %w", ErrUnreachable, tool.ErrNotRun, cause)}
}

// answered reports whether a JSON-RPC error of that code is the server's
// answer. The SDK reports failures of its own side with codes of the
// implementation-defined range (-32001 unknown, -32003 client closing,
// -32004 server closing, -32005 rejected by the transport, as when an
// HTTP request failed): those are no answer.
func answered(code int64) bool {
	switch code {
	case -32001, -32003, -32004, -32005:
		return false
	}
	return true
}

// dialFailed reports whether err says no connection to the server could
// be opened: the request was not sent. (A server that no longer knows the
// session, mcp.ErrSessionMissing, refused the request: nothing ran either.)
func dialFailed(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

// failure returns e as Registry.Call returns a failure.
func failure(e *tool.Error) (tool.Result, error) {
	return tool.Result{Content: []byte(e.Error()), IsError: true}, e
}

// Close closes the pool's connections (stopping Stdio processes) and the
// background listing. Calls after Close fail as unknown tools. Close is
// idempotent.
func (p *Toolkit) Close() error {
	p.mu.Lock()
	first := p.closed.CompareAndSwap(false, true)
	p.mu.Unlock()
	if !first {
		return nil
	}
	p.cancel()
	err := p.pool.close()
	p.wg.Wait()
	return err
}

// spawn runs f on a goroutine Close waits for; after Close it runs
// nothing and reports false.
func (p *Toolkit) spawn(f func()) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		return false
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		f()
	}()
	return true
}

// logger returns the logger of Options, else of the Env, else a
// discarding one.
func (p *Toolkit) logger() *slog.Logger {
	if p.opts.Logger != nil {
		return p.opts.Logger
	}
	if env := p.env.Load(); env != nil && env.Logger != nil {
		return env.Logger
	}
	return slog.New(slog.DiscardHandler)
}
