// Package mcpclient serves the tools of a remote MCP server as a
// dynamic.Toolkit (runtime/dynamic): a dynamic.Source offers them beside the
// generated registry as GROUP_LOCAL, and the call service runs them under
// the same policy, limits and records as its own.
//
//	p, err := mcpclient.New(mcpclient.Options{
//		Group:      "github",
//		Connect:    mcpclient.HTTP("https://mcp.example.com/mcp", client),
//		RequireEnv: []string{"GITHUB_TOKEN"},
//	})
//
// # Connections
//
// The toolkit talks to the server through the official Go SDK's client,
// over the transport Options.Connect opens: Stdio (a child process),
// HTTP (streamable HTTP) or any mcp.Transport. Calls are spread over a
// small pool of connections (Options.PoolSize, DefaultPoolSize), each made
// on first use. A connection that ends (the process died, the stream
// closed) is made again by the next call that needs it, and a
// reconnection lists the tools again. Once a connection is found lost,
// the others, which reach the same server, are pinged before they carry
// another call: a streamable HTTP connection does not notice a server
// that went away until it sends something, and a call sent then would
// have an unknown outcome, where a ping changes nothing. A listing whose
// connection failed is read again over a new one (listing changes
// nothing); a call is not (see below).
//
// Bind keeps the Env and lists the tools in the background; it does not
// wait for the server. Available is true when every Options.RequireEnv
// credential is set (Env.Getenv) and the last listing succeeded: while a
// credential is missing the whole bundle disappears, and no connection is
// made. A server that cannot be listed stays unavailable for
// Options.RetryDelay before Available tries it again.
//
// # Tools and names
//
// Tools returns the last listing, sorted by local name: the same slice and
// Spec pointers until a listing finds a change, so it costs nothing per
// lookup. The server's notifications/tools/list_changed has the toolkit
// list again in the background.
//
// MCP allows names of up to 128 characters of many kinds ("files.read");
// a full name must match ^[a-zA-Z0-9_-]{1,64}$, the strictest rule of the
// model providers. LocalName maps each remote name to a local one: kept
// when GROUP_NAME fits, else written with '_' for every other character,
// cut, and followed by '_' and 8 hex digits of the SHA-256 of the remote
// name, so that names that merely look alike stay apart. Remote and Local
// give the mapping both ways, and each Spec's Meta holds the remote name
// (MetaRemoteName). Two remote tools that map to one local name are a true
// collision: both are left out, and logged.
//
// A Spec carries the remote tool's title, description and schemas (input
// and output, compact JSON re-encoded from what the SDK decoded). The
// server's annotations are untrusted: every remote tool is an action
// (tool.KindAction) that may destroy and reach the open world, whatever it
// says of itself, unless Options.Trusted. A trusted server's readOnlyHint
// makes a read (tool.KindRead, ReadOnly), and its destructiveHint,
// idempotentHint and openWorldHint are kept, with MCP's defaults when
// absent.
//
// # Calls and their failures
//
// Call sends tools/call once and maps the result: text content joined by
// newlines (other content named in brackets, as "[image content]"), or
// the structured content as structured output when the tool declares an
// output schema. Failures are *tool.Error values with the codes a
// toolkit may return (tool.CodeFailed, tool.CodeInvalidArguments;
// a dynamic.Source turns the runtime's reserved codes into "the tool
// failed"), their causes telling what happened:
//
//   - the remote tool's own error (isError): tool.CodeFailed. From a
//     trusted server (Options.Trusted) the remote text is the Message,
//     as a local tool's tool.ModelError message is: the remote tool's
//     message for the model. An untrusted server's text may quote the
//     arguments or anything else: it stays in the Cause, for logs, and
//     the Message says only that the tool failed. A protocol error's text, by
//     contrast, is the SDK's or the server's about the request (often
//     quoting the arguments): it stays in the Cause, for logs.
//   - a protocol error answered by the server: the tool did not run;
//     tool.CodeInvalidArguments for invalid params, else tool.CodeFailed.
//   - no server reached (it could not be dialled, or it no longer knows the
//     session twice over): nothing ran; tool.CodeFailed, with
//     ErrUnreachable and tool.ErrNotRun in the Cause. A server that
//     restarted and no longer knows a session refused the request, so it
//     is sent once more over a new connection.
//   - the connection lost after the request may have reached the server:
//     the remote tool may or may not have run. The call is never sent
//     again: tool.CodeFailed, its Message saying the outcome is unknown,
//     with ErrConnectionLost and tool.ErrAbandoned in the Cause, which the
//     call service records as an unknown outcome. The connection is
//     dropped, and the next call reconnects.
//   - a result over Options.MaxResultBytes: tool.CodeFailed, the result
//     dropped (the remote tool ran).
//   - the call's deadline (Options.CallTimeout, each Spec's Timeout) or
//     cancellation: the dynamic.Source's runner ends the call as it ends
//     a static tool's (tool.CodeTimeout or tool.CodeCancelled, with
//     tool.ErrAbandoned once the request may have been sent); the SDK
//     tells the server with notifications/cancelled.
//
// # Tasks
//
// With Options.Tasks, a call over streamable HTTP declares MCP's tasks
// extension (ExtensionTasks, io.modelcontextprotocol/tasks) in its
// per-request client capabilities (the _meta
// io.modelcontextprotocol/clientCapabilities of tools/call, tasks/get and
// tasks/cancel, which then declares only that extension). A server may
// then answer tools/call with a task (resultType "task"), and Call
// follows it to its end, so that its caller sees a result as if the call
// had answered it:
//
//   - it polls tasks/get, waiting the task's pollIntervalMs between two
//     polls (DefaultPollInterval when absent, bounded by MinPollInterval
//     and MaxPollInterval), each request naming the task in the Mcp-Name
//     header;
//   - a completed task's result is mapped as a tools/call result (above);
//     a failed task is a protocol error (CodeFailed, the server's text
//     in the Cause); a task the server cancelled is the tool's failure;
//   - when the call's context ends (its timeout, a cancellation), the
//     task is cancelled with tasks/cancel and the call abandoned. One
//     that ends while tools/call itself is in flight is told as any
//     call's is, with the SDK's notifications/cancelled: the task's ID
//     is not known yet, and a server that already made the task may let
//     it run on;
//   - a connection lost while polling is made again and polling goes on
//     (the call is never sent again), up to three times in a row;
//   - a task that asks for input (input_required) fails the call, its
//     outcome unknown (tool.ErrAbandoned), and is left waiting, not
//     cancelled: this client declares no elicitation and has nobody to
//     ask, but the input may come from elsewhere (a toolgen server's
//     propose tool waits so for a person to confirm its proposal in a
//     console; cancelling would reject it). The Message names the task
//     when its ID is a plain identifier;
//   - an unknown status (the task is then cancelled), a missing or
//     changed taskId or a completed task without a result fail the
//     call, its outcome unknown. No value the server sent is in a
//     Message but a status or task ID that is a plain identifier.
//
// The default is off: a toolkit without Tasks declares nothing, and a
// server must not answer it with a task. Stdio and other transports
// never declare the extension. (The SDK decodes a tools/call answer into
// a CallToolResult, which has no room for a task: the HTTP round tripper
// of a Tasks connection hands it over under a _meta key of this package,
// which it also removes from any result a server wrote it into.)
//
// Close closes the connections (stopping Stdio processes) and the
// background listing.
package mcpclient
