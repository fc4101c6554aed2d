// Package mcpserver serves a tool.Caller (the call service, or a bare
// registry: a tool.Registry is one) to MCP clients through the official Go
// SDK (github.com/modelcontextprotocol/go-sdk), over stdio or streamable
// HTTP.
//
//	reg, err := generated.New(generated.Tools{...})
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
// names under MetaCallID, MetaConversation and MetaTurn (MCP has no such
// fields; without a call ID the call service does not deduplicate). A
// request without a token keeps what its context carries: over stdio, the
// context of Run. Over HTTP, HTTPOptions.Auth requires a valid token of
// every request (auth.go: the SDK's auth.RequireBearerToken, 401 with the
// protected-resource metadata's URL in WWW-Authenticate and a fixed body,
// the metadata served by Serve at WellKnownMetadataPath); without Auth,
// only requests that reached loopback are served. StaticTokens verifies
// tokens the host configures.
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
// reverse proxy, no forwarded header is trusted: the proxy passes the
// original Host and AllowedHosts lists the public name.
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
package mcpserver
