// Package mcpserver serves a tool.Caller (the call service, or a bare
// registry: a tool.Registry is one) to MCP clients through the official Go
// SDK (github.com/modelcontextprotocol/go-sdk), over stdio or streamable
// HTTP.
//
//	reg, err := generated.New([]generated.Tools{notestools.Tools{...}, ...})
//	if err != nil {
//		return err
//	}
//	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "notes"})
//	if err != nil {
//		return err
//	}
//	defer srv.Close()
//	return srv.Run(ctx, &mcp.StdioTransport{}) // or srv.ListenAndServe(ctx, "127.0.0.1:8080", nil)
//
// A server for people serves the call service (runtime/service) behind
// bearer tokens: each request runs for its token's principal, is listed
// that principal's tools, and is recorded:
//
//	svc, err := service.New(reg, nil)
//	srv, err := mcpserver.New(svc, &mcpserver.Options{
//		Name: "my-tools",
//		// Optional, off by default: ask the person to confirm each proposal over MCP.
//		Confirm: &mcpserver.ConfirmOptions{Confirmer: servicemcp.Confirmer(svc), Key: key},
//	})
//	err = srv.ListenAndServe(ctx, "0.0.0.0:8080", &mcpserver.HTTPOptions{
//		AllowedHosts: []string{"mcp.example.com"}, // behind a TLS proxy passing the Host
//		Auth: &mcpserver.Auth{
//			Verifier: verify, // TokenInfo.UserID is the principal, its Scopes the permissions
//			Metadata: &oauthex.ProtectedResourceMetadata{
//				Resource:             "https://mcp.example.com/mcp",
//				AuthorizationServers: []string{"https://auth.example.com"},
//			},
//		},
//	})
//
// The package's examples run both, over the SDK's in-memory transports
// and over HTTP with StaticTokens; examples/mcpserver and examples/mcpteam
// are the programs.
//
// # How requests are answered
//
// The SDK's tool registration (the generic mcp.AddTool, and even the
// low-level Server.AddTool) decodes every schema into Go values when a tool
// is added: for a thousand tools that is most of a server's start-up time
// and memory. A registry already holds the exact schema bytes, so Server
// registers no tool with the SDK: it declares the tools capability and
// answers tools/list and tools/call itself, in a receiving middleware of the
// SDK server, before the SDK's own handlers. Everything else (the
// handshake, protocol versions, sessions, transports, cancellation, ping)
// is the SDK's.
//
// tools/list lists what Caller.Offer returns for the request's context. It
// is answered from bytes written once per version of the tool set, on the
// first listing that needs them, by concatenating the tools' fields and
// their schema bytes as they are: no schema is decoded, inferred or
// resolved, at start or per request. The bytes are written once per
// distinct offer (the same specs, compared pointer by pointer, in any
// slice) and kept, up to 64 offers: each principal is listed the same
// bytes on every request. When the offer may differ per caller (a Caller
// other than a generated tool.Registry, a registry with a tool that
// decides its own offer, or a Source), the listing's cacheScope is
// "private". The tools come sorted
// by name, in pages of Options.PageSize with an opaque cursor; each
// carries its title, description, inputSchema, outputSchema (only when the
// tool has one) and the four annotations, readOnlyHint, destructiveHint,
// idempotentHint and openWorldHint, always published as true or false.
//
// tools/call hands the raw arguments to Caller.Call, with the request's
// context, and maps its Result: a structured result becomes
// structuredContent and the same JSON in a text block; any other output a
// text block. Every *tool.Error becomes a result with isError set and the
// error's Message, which is written for the model (invalid arguments list
// every problem, never the value sent, so that the model can correct its
// call); only an unknown tool is a protocol error (JSON-RPC invalid
// params), as the MCP specification asks. A panic or a timeout is an
// isError result and the server keeps serving. The error's Cause goes to
// Options.Logger, never to the client.
//
// # Progress and cancellation
//
// A tool reports its progress with tool.Progress. A client that names a
// progress token in a tools/call (_meta.progressToken) gets
// notifications/progress against it, coalesced to at most one per
// Options.ProgressInterval (DefaultProgressInterval: ten a second), in
// order, the last one before the result; a client that names none gets
// none, and its calls carry no listener. A client's
// notifications/cancelled cancels the call's context, and so does an HTTP
// client that goes away before the answer (stateful or stateless: the
// server keeps no event store, so nobody could fetch the answer later);
// the tool sees its context done, and the call service records a tool
// that stops as cancelled. See progress.go.
//
// # Who calls
//
// Before tools/list and tools/call reach the Caller, the request's context
// gets a tool.Invocation (invocation.go): the principal of its bearer
// token, when it has one (Options.Principal; by default the token's UserID
// holding its Scopes), and the call ID, conversation and turn its _meta
// names (MCP has no such fields). The principal the token gives replaces
// any the context carried; in a stateful session, whose context is the
// first request's, each request still gets its own token's. A request
// without a token keeps what its context carries: over stdio, the context
// of Run.
//
// Over HTTP, HTTPOptions.Auth requires a valid token of every request
// (auth.go: the SDK's auth.RequireBearerToken), checked before anything
// else (no session is opened, no limit is spent). Without a valid one the
// answer is 401 with WWW-Authenticate: Bearer resource_metadata="..." (RFC
// 9728, as the MCP authorization specification asks) and a fixed body:
// nothing of the request, and nothing of the verifier's error, is echoed.
// A token lacking one of Auth.Scopes gets 403. The verifier must set the
// token's UserID (the SDK binds each stateful session to it: another
// token's holder gets 403 on it) and its Expiration. Serve serves the
// protected-resource metadata at WellKnownMetadataPath; a host mounting
// Handler mounts MetadataHandler too. StaticTokens verifies tokens the
// host configures (looked up by SHA-256), for small deployments, tests
// and examples.
//
// Without Auth, only requests that reached loopback are served, and Serve
// refuses a listener on any other address (ErrNoAuth), even with
// AllowedHosts: a caller off this machine must be someone. A reverse proxy
// on the same machine reaches loopback. A call service offers a caller with
// no principal nothing unless the host names one: service.As, or an
// Invocation in the context of Run.
//
// The _meta keys each hold a string of 1 to MaxMetaLen bytes of printable
// text; anything else is refused (invalid params, naming the key, quoting
// nothing):
//
//   - MetaCallID ("io.github.toolgen-go/call-id") sets Invocation.CallID:
//     a call repeated with the same principal, conversation and call ID
//     runs once, and repeats get the recorded answer. Without it the call
//     service does not deduplicate: a call sent twice runs twice.
//   - MetaConversation sets Invocation.Conversation (records, proposals,
//     deduplication), and MetaTurn Invocation.Turn; without them the
//     context's, if any.
//
// # MCP Apps
//
// A tool declared with //tool:ui has an MCP App (the extension
// io.modelcontextprotocol/ui, ExtensionUI): an HTML document toolgen
// checked and embedded, which the tool's Spec carries in three reserved
// Meta pairs (MetaUI, MetaUIResource, MetaUIHTML; apps.go). When a tool
// of the Caller has one (a generated registry, the call service and a
// palette list their tools; another Caller's apps are not served), the
// server declares the extension (mimeTypes text/html;profile=mcp-app) and
// the resources capability, and:
//
//   - tools/list gives the tool _meta.ui: resourceUri, ui://SERVER/TOOL
//     (AppURI: Options.Name as a host), and its visibility. A server whose
//     tools have no _meta.ui declares and lists what it always did.
//   - resources/list lists the app of every tool offered to the caller,
//     with its _meta.ui (CSP domains, permissions, border) for a host to
//     review; resources/read answers one of them, text/html;profile=mcp-app
//     with the same _meta.ui. An app of a tool the caller is not offered is
//     neither listed nor read ("resource not found", quoting nothing).
//     Resources added to SDK() are listed after the apps and read by the
//     SDK.
//   - The visibility rule: a tool visible to apps only is listed with
//     visibility ["app"] for the host to keep from the model, and a call of
//     it that names a model's tool call (MetaCallID) without the app mark
//     below is refused, with isError. The server cannot tell more: the
//     host carries an app's calls as its own, so an unmarked call without
//     a call ID may be either, and is served.
//   - A host may mark the tools/call it carries for an app with MetaApp
//     ("io.github.toolgen-go/app", the app's resource URI; the extension
//     defines no such mark). The URI must be that of an app the caller is
//     offered (else invalid params) and the tool visible to apps (else
//     isError). The call then goes to the Caller as any call does (through
//     the call service: policy, permissions, limits, a palette's read-only
//     latch, the record), with tool.Agent.Name set to the app's URI, which
//     the record keeps as its Agent.
//   - A propose tool called by an app is proposed, never confirmed from
//     inside the app: the server does not ask the person in answer to an
//     app's call (an input_required result, or an elicitation tied to the
//     request, would reach the app, which could answer it itself: an app
//     is the server's page running in the host, and a click in it is not
//     a person's confirmation the server can check), and it refuses an
//     app's call carrying a confirmation's answer. The proposal waits for
//     the person's own channels: the console, a task, or the question the
//     host shows the person when its model proposes.
//
// An app's bytes are a string constant of the generated package: nothing
// is read or built at start-up, and they are written to a client only
// when it reads the resource.
//
// # Proposals
//
// A propose tool's call answers with the proposal the Caller stored, for
// the host to have confirmed. With Options.Confirm (off by default: a
// client that can elicit can approve its own actions) the server asks the
// person at once where the session allows (confirm.go): through
// elicitation/create before protocol 2026-07-28, with an input_required
// result and an HMAC-bound requestState on 2026-07-28; the person's answer
// is carried out through a Confirmer (runtime/servicemcp adapts the call
// service), which runs a proposal at most once.
//
// The proposal's answer is structured content conforming to
// tool.ProposalOutputSchema (status "proposed", the proposal's ID and
// summary, its expiry), which the server publishes as the tool's
// outputSchema. How the person is asked, with Options.Confirm:
//
//   - protocol before 2026-07-28, a stateful session (stdio, in memory,
//     stateful HTTP), a client declaring form elicitation:
//     elicitation/create within the call;
//   - protocol 2026-07-28 (stateless HTTP), a client declaring elicitation:
//     tools/call answers resultType "input_required" with the question and
//     a requestState, and the client retries with the answer and the state;
//   - otherwise (stateless HTTP before 2026-07-28, a client that does not
//     elicit, a request with no principal): not asked; the proposal waits
//     for the host.
//
// The question shows the summary, the arguments as the record keeps them
// (secrets replaced), the proposal's ID and expiry. Accept confirms it
// (the call answers status "confirmed" with the tool's output in result),
// decline rejects it ("rejected": it never runs), cancel leaves it pending
// ("proposed"). The requestState is base64url(version, expiry,
// HMAC-SHA256, proposal ID), the HMAC under ConfirmOptions.Key (MinKeyLen
// bytes or more) binding the proposal's ID, its digest (tool and canonical
// arguments), the person's principal ID and the expiry (DefaultStateTTL,
// never past the proposal's). A state altered, expired, presented by
// another person or for another tool is refused before anything runs; a
// state replayed after its acceptance runs nothing (the service refuses
// the second confirmation with already_confirmed, and records it).
// Instances sharing the service's store and the key resume each other's
// states. The person's answer is carried out even when the call's request
// ends as it arrives (a connection closed, a proxy's timeout): until the
// confirmed tool has started, the call's cancellation is ignored; once it
// runs, a cancellation reaches it as it reaches any call.
//
// # Tasks
//
// With Options.Tasks (a TaskKeeper: runtime/servicemcp.Tasks adapts the
// call service, whose store keeps the tasks) the server declares the MCP
// Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) and serves
// it: a client that declares the extension in a request's _meta, calling
// a task tool (a propose tool, or one whose //tool:timeout is at least a
// minute, such as clock_wait), gets a CreateTaskResult once the task is
// stored, then polls tasks/get, answers tasks/update and sends
// tasks/cancel to any instance sharing the store, on any connection.
// Result bytes are written from the store alone: alike on every instance.
// A propose tool's task waits input_required with an elicitation input
// request showing what the console shows; a person's accept runs it once,
// decline rejects it, and a confirmation anywhere else moves it on. Only
// the principal who started a task can see, update or cancel it. A client
// that does not declare the extension is answered exactly as without
// Options.Tasks. The wire shapes, error codes and the choices the
// specification leaves open are listed at the top of tasks.go.
//
// # Changing tool sets
//
// A Caller whose tools can change implements Source: the server then
// declares listChanged, listens for changes while it is open, and sends
// notifications/tools/list_changed to every session when the source
// reports one (through the SDK, which debounces bursts of changes and
// routes the notification for each protocol version).
//
// # HTTP
//
// Handler returns the streamable HTTP handler behind a guard of who may
// call (guard.go, and auth.go for bearer tokens): the Host of every request must be a loopback name on
// loopback or one of HTTPOptions.AllowedHosts (without them, a request
// reaching any other address is refused), a browser's Origin must be
// allowed (AllowedOrigins, an allowed host, or a loopback host on the
// port reached, never merely the request's own Host), CORS preflights
// from allowed origins are answered (cors.go); and behind a wire layer
// (wire.go, sanitize.go) that rewrites every error so that nothing of a
// request but a plain identifier reaches the client. ListenAndServe binds
// 127.0.0.1 unless the address names another host, serves the handler at
// HTTPOptions.Path, and shuts down gracefully when its context ends (for
// SIGINT and SIGTERM, pass a context from signal.NotifyContext). Behind a
// reverse proxy, no forwarded header is trusted (X-Forwarded-Host,
// Forwarded): the proxy passes the original Host (nginx's proxy_set_header
// Host $host; Caddy and Traefik do by default) and AllowedHosts lists the
// public name, whose browser pages (https://mcp.example.com) are then
// allowed origins. The server speaks plain HTTP: terminate TLS in the
// proxy. A body over HTTPOptions.MaxRequestBytes (DefaultMaxRequestBytes)
// gets 413. HTTPOptions.Validate checks every option at once, before
// anything is served or announced.
//
// Preflights from allowed origins get 204 with Access-Control-Allow-Origin
// (the allowed origin), -Methods (POST, GET, DELETE, OPTIONS), -Headers
// (Content-Type, Accept, Authorization, Mcp-Session-Id,
// Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID),
// -Expose-Headers (Mcp-Session-Id, WWW-Authenticate), -Max-Age and Vary:
// Origin; responses to allowed origins carry Access-Control-Allow-Origin,
// others none.
//
// The SDK answers malformed requests (bad params, unknown methods, bad
// headers) before the server's middleware runs, with messages quoting
// params, method names and headers. The wire layer keeps each JSON-RPC
// error's code and replaces its message with the code's fixed one (the
// server's own messages, which quote nothing but plain identifiers, pass),
// drops its data, keeps its id only when it is a plain identifier (64 of
// [A-Za-z0-9_.-]), and replaces every non-2xx body with a fixed text; every
// error is at most 1 KiB. It reads event streams and JSON bodies as they
// are written, without buffering. Run wraps its transport the same way for
// stdio (there the id is kept as sent).
//
// # Limits
//
// Every limit has a default, so that a server started with nil options
// holds up against clients that open sessions, connections or batches
// without end (each can be changed in HTTPOptions; a negative value lifts
// it):
//
//   - A session that sends no request for DefaultSessionTimeout (10
//     minutes) is closed; a request under way pauses the clock, an open
//     GET event stream does not, so an abandoned stream ends with its
//     session.
//   - At most DefaultMaxSessions (1024) sessions live at once: past the
//     cap a request that would open one gets 503 and a JSON-RPC error;
//     no session is closed to make room.
//   - A JSON-RPC batch (accepted by the SDK from clients of protocol
//     2025-03-26 or announcing no version) holds at most DefaultMaxBatch
//     (16) messages; a larger one gets 413 before anything in it runs.
//     Without a cap, one 4 MiB batch ran 40,000 calls and its session
//     kept every decoded request alive (the SDK's queue of incoming
//     requests keeps its backing array until the session's next request).
//   - Serve reads a request within DefaultReadTimeout (30 seconds; net/http
//     lifts the deadline once the body is read, so event streams are not
//     cut; no write timeout is set, as it would cut them), closes
//     keep-alive connections idle for DefaultIdleTimeout (60 seconds),
//     refuses headers over DefaultMaxHeaderBytes (64 KiB) and holds at
//     most DefaultMaxConns (2048) connections, answering the ones past the
//     cap 503 and closing them.
//
// Refusals name the limit, never anything the client sent. The event
// store is left unset: no session buffers its events for replay.
//
// # Interoperability
//
// interop_test.go drives examples/mcpserver with the official TypeScript
// client (testdata/interop, its lock file committed) over stdio and HTTP:
// every schema compiled with Ajv 2020-12, good and bad calls,
// structuredContent checked against outputSchema; over HTTP with bearer
// tokens (401 without one, a reader's token listed fewer tools and refused
// a write tool); over stdio with confirmation (accept, decline, cancel);
// and the generic server scenarios of @modelcontextprotocol/conformance.
package mcpserver
