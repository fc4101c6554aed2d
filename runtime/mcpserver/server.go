package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// DefaultPageSize is the number of tools in a tools/list page when
// Options.PageSize is zero: the SDK's default page size.
const DefaultPageSize = mcp.DefaultPageSize

// Method names the server answers itself.
const (
	methodListTools = "tools/list"
	methodCallTool  = "tools/call"
	// The resources methods, which serve the tools' apps (apps.go).
	methodListResources = "resources/list"
	methodReadResource  = "resources/read"
)

// changeMarker is the name of the one tool registered with the SDK. It is
// never listed or called (tools/list and tools/call are answered before
// the SDK's handlers); re-adding it is how the server has the SDK send
// notifications/tools/list_changed, which the SDK offers no other way to
// send.
const changeMarker = "toolgen_tools_changed"

// Source is a Caller whose offered tools can change (a tool.Notifier): a
// palette that follows a conversation, or the call service whose dynamic
// tools come and go. A Server serving a Source declares the listChanged
// capability and tells its clients when the tools change; it writes its
// tools/list bytes again after each change it is told of, and whenever
// Offer returns other specs than the ones they were written from.
type Source interface {
	tool.Caller
	tool.Notifier
}

// Options configures a Server. The zero value is usable.
type Options struct {
	// Name identifies the server to clients (serverInfo.name); empty means
	// "toolgen".
	Name string
	// Title is the server's display name (serverInfo.title), if any.
	Title string
	// Version is the server's version (serverInfo.version); empty means
	// "devel".
	Version string
	// Instructions tells clients how to use the server, if anything.
	Instructions string
	// PageSize is the largest number of tools in one tools/list page; zero
	// means DefaultPageSize.
	PageSize int
	// Logger receives the cause of every failed call (tool.Error.Cause,
	// which never reaches the client) and the SDK's own log; nil discards.
	Logger *slog.Logger
	// KeepAlive, when positive, pings every session at this interval and
	// closes a session whose client stops answering.
	KeepAlive time.Duration
	// Principal says who a request authenticated with a bearer token is
	// (HTTPOptions.Auth verifies tokens; so may a host's own middleware in
	// front of Handler): the principal its tools/list and tools/call run
	// for. nil means the token's UserID, holding the token's Scopes as its
	// permissions. An error, or a principal without an ID, refuses the
	// request. It is called for every tools/list and tools/call of such a
	// request, and must be safe for concurrent use.
	Principal func(ctx context.Context, info *auth.TokenInfo) (tool.Principal, error)
	// ProgressInterval is the least time between two notifications/progress
	// of one call (see progress.go): the reports a tool makes in between
	// are coalesced, the latest sent. Zero means DefaultProgressInterval;
	// a negative value sends none.
	ProgressInterval time.Duration
	// Confirm, when set, asks the person who made a proposal to confirm it
	// over MCP, where the session allows (see ConfirmOptions); nil answers
	// a propose tool's call with the proposal, for the host to have
	// confirmed. Off by default: a client that can elicit can approve its
	// own actions.
	Confirm *ConfirmOptions
	// Tasks, when set, serves the MCP Tasks extension
	// (io.modelcontextprotocol/tasks, see tasks.go) from the keeper
	// (runtime/servicemcp.Tasks adapts the call service): a client that
	// declares it on a call of a task tool gets a task. nil declares no
	// extension and serves no task.
	Tasks TaskKeeper
}

// Server serves a tool.Caller over MCP: the call service, or a bare
// registry (a tool.Registry). Create it with New; it is safe for concurrent
// use and may serve any number of sessions at once, over Run (stdio,
// in-memory or any other mcp.Transport), Handler or ListenAndServe.
type Server struct {
	caller   tool.Caller
	sdk      *mcp.Server
	log      *slog.Logger
	pageSize int
	changing bool // caller is a Source
	// confirm asks for confirmations (Options.Confirm); nil when off.
	confirm *confirmer
	// tasks keeps the tasks (Options.Tasks); nil when off.
	tasks TaskKeeper
	// serverInfo is the server's Implementation as JSON, which the task
	// layer's results carry in _meta for protocol 2026-07-28, as the
	// SDK's do (SEP-2575).
	serverInfo json.RawMessage
	// principal says who a token is (Options.Principal).
	principal func(ctx context.Context, info *auth.TokenInfo) (tool.Principal, error)
	// perCaller is set when the tools offered may differ from one request
	// to another (per principal, per turn): listings are then private.
	perCaller bool
	// progressEvery is Options.ProgressInterval, its default applied.
	progressEvery time.Duration
	// requests are the HTTP requests under way, whose end cancels the
	// calls they carry.
	requests httpRequests

	// version counts the changes a Source reported; a listing built at
	// another version is stale.
	version atomic.Uint64
	// listings are the tools/list answers, one per distinct offer, each
	// built on first use.
	listings listings

	// ui, apps and restricted say whether a tool has _meta.ui, an app,
	// or a visibility that is not both (apps.go); appHostName is the host
	// of the app URIs.
	ui, apps, restricted bool
	appHostName          string

	closeOnce sync.Once
	cancel    func() // ends the Source subscription; nil for a Caller that is not one
}

// New returns a Server serving caller: tools/list answers with what its
// Offer returns and tools/call calls its Call, each with the request's
// context. A tool.Registry (what a generated package's New returns) is a
// Caller, and so is the call service. When caller is a Source, the server
// subscribes to its changes until Close.
func New(caller tool.Caller, opts *Options) (*Server, error) {
	if caller == nil {
		return nil, errors.New("new mcp server: nil caller")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.PageSize < 0 {
		return nil, fmt.Errorf("new mcp server: negative page size %d", o.PageSize)
	}
	if o.PageSize == 0 {
		o.PageSize = DefaultPageSize
	}
	if o.Name == "" {
		o.Name = "toolgen"
	}
	if o.Version == "" {
		o.Version = "devel"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	var conf *confirmer
	if o.Confirm != nil {
		c, err := newConfirmer(o.Confirm)
		if err != nil {
			return nil, fmt.Errorf("new mcp server: %w", err)
		}
		conf = c
	}
	src, changing := caller.(Source)
	s := &Server{caller: caller, log: o.Logger, pageSize: o.PageSize, changing: changing, perCaller: changing || perCaller(caller)}
	s.listings.seed = maphash.MakeSeed()
	s.principal, s.confirm, s.tasks = o.Principal, conf, o.Tasks
	info, err := json.Marshal(&mcp.Implementation{Name: o.Name, Title: o.Title, Version: o.Version})
	if err != nil {
		return nil, fmt.Errorf("new mcp server: %w", err)
	}
	s.serverInfo = info
	s.progressEvery = o.ProgressInterval
	if s.progressEvery == 0 {
		s.progressEvery = DefaultProgressInterval
	}
	if s.principal == nil {
		s.principal = defaultPrincipal
	}
	s.ui, s.apps, s.restricted = appsOf(caller)
	s.appHostName = appHost(o.Name)
	s.sdk = mcp.NewServer(
		&mcp.Implementation{Name: o.Name, Title: o.Title, Version: o.Version},
		&mcp.ServerOptions{
			Instructions: o.Instructions,
			Logger:       o.Logger,
			KeepAlive:    o.KeepAlive,
			PageSize:     o.PageSize,
			// Only the tools capability, with their apps (apps.go) and the
			// tasks extension (Options.Tasks): the caller's tools are all
			// this server offers.
			Capabilities: s.capabilities(changing),
		})
	s.sdk.AddReceivingMiddleware(s.middleware)
	if changing {
		s.cancel = src.Subscribe(s.changed)
	}
	return s, nil
}

// SDK returns the underlying SDK server, to connect transports of one's
// own or add prompts and resources. Tools added to it are not served:
// tools/list and tools/call answer from the Caller.
func (s *Server) SDK() *mcp.Server { return s.sdk }

// Run serves one session over t (&mcp.StdioTransport{} for stdio) until
// the client disconnects or ctx ends; it returns ctx's error in the
// latter case. Error responses are rewritten so that they quote nothing of
// a request but plain identifiers, as over HTTP (sessions connected
// through SDK().Connect are not).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	if err := s.sdk.Run(ctx, scrubTransport{Transport: t, srv: s}); err != nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

// Close ends the subscription to a Source's changes. Sessions are not
// closed: Run and ListenAndServe end theirs when their context ends.
// Close is idempotent.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		if s.cancel != nil {
			s.cancel()
		}
	})
	return nil
}

// changed is a Source's change callback: it makes the next listing be
// rebuilt and has the SDK notify every session (debounced, so that a
// burst of changes sends one notification).
func (s *Server) changed() {
	s.version.Add(1)
	s.sdk.AddTool(&mcp.Tool{
		Name:        changeMarker,
		Description: "Never listed or called; re-added to announce a change of the tool list.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, markerHandler)
}

// markerHandler would answer calls of the change marker, were they not
// answered by the middleware first.
func markerHandler(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, errors.New("mcpserver: the change marker is not a tool")
}

// middleware answers tools/list and tools/call from the Caller, with the
// request's context (what a host's HTTP middleware or the session put in
// it reaches Offer and Call) carrying the request's Invocation (see
// invocation.go), and hands every other method to the SDK.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodListTools:
			if r, ok := req.(*mcp.ListToolsRequest); ok {
				var meta mcp.Meta
				if r.Params != nil {
					meta = r.Params.Meta
				}
				ctx, err := s.invocation(ctx, r.Extra, meta)
				if err != nil {
					return nil, err
				}
				return s.list(ctx, r.Params)
			}
		case methodCallTool:
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				ctx, err := s.invocation(ctx, r.Extra, r.Params.Meta)
				if err != nil {
					return nil, err
				}
				ctx, refused, err := s.appCall(ctx, r.Params.Name, r.Params.Meta)
				if refused != nil || err != nil {
					return refused, err
				}
				ctx, end := s.callContext(ctx, r)
				defer end() // the last progress goes before the result
				return s.callTool(ctx, r)
			}
		case methodListResources:
			if r, ok := req.(*mcp.ListResourcesRequest); ok && s.apps {
				ctx, err := s.invocation(ctx, r.Extra, paramsMeta(r.Params))
				if err != nil {
					return nil, err
				}
				return s.listApps(ctx, r, next)
			}
		case methodReadResource:
			if r, ok := req.(*mcp.ReadResourceRequest); ok && s.apps {
				ctx, err := s.invocation(ctx, r.Extra, paramsMeta(r.Params))
				if err != nil {
					return nil, err
				}
				return s.readApp(ctx, r, next)
			}
		}
		return next(ctx, method, req)
	}
}

// perCaller reports whether what caller offers may differ per request: any
// Caller but a generated registry may decide per principal, and a
// registry does when one of its tools decides itself whether it is
// offered (Spec.DecidesOffer, asked with the request's context).
func perCaller(caller tool.Caller) bool {
	st, ok := registry.Of(caller)
	if !ok {
		return true
	}
	for _, sp := range st.Tools() {
		if sp.DecidesOffer {
			return true
		}
	}
	return false
}
