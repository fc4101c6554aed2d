// Drives servers of examples/mcpserver (stateless HTTP, sharing one
// store) with the official Tasks requester, @modelcontextprotocol/ext-tasks
// (its client export), over the TypeScript SDK's v2 client
// (@modelcontextprotocol/client), on protocol 2026-07-28:
//
//   node tasks.mjs resume <url1> <url2>   clock_wait as a task on the first server; the client
//                                         disconnects, reconnects to the second and polls it to
//                                         completion, reading the result there
//   node tasks.mjs cancel <url1> <url2>   clock_wait (30 s) as a task on the first server, cancelled
//                                         through the second; the task ends cancelled (that the
//                                         tool's context ended in the first is in its log, which
//                                         interop_test.go reads)
//   node tasks.mjs propose <url>          a propose tool (notes_create) as a task: input_required,
//                                         the person accepts (tasks/update), completed
//   node tasks.mjs console <url>          the same, but nobody answers here: the script prints
//                                         "WAITING <taskId>" once the task is input_required, and
//                                         polls it to completion while the proposal is confirmed
//                                         elsewhere (the console, in Chromium, by interop_test.go)
//
// The server advertises the extension (io.modelcontextprotocol/tasks) in
// server/discover, so ext-tasks drives its tasks itself (generation v2):
// tools/call and tasks/* go through rawDispatch below, as the package's
// documentation asks of a host (the SDK's codecs do not know the task
// shapes), each request naming the task in Mcp-Name. Each mode prints
// every failure and exits 1 if there was one.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  DispatchError,
  createTaskSessionFromClient,
} from "@modelcontextprotocol/ext-tasks/client";

// The protocol revision the extension's tasks need.
const PROTOCOL = "2026-07-28";

// The endpoint: the same service behind both URLs (one store), as behind a
// load balancer.
const ENDPOINT = "toolgen-interop-tasks";

const CLIENT_INFO = { name: "toolgen-interop-tasks", version: "1.0.0" };

// Bounds every wait of the script; it only turns a hang into a failure.
const LIMIT_MS = 60_000;

const failures = [];
let checks = 0;

// check records a failure when ok is false.
function check(ok, what, detail) {
  checks++;
  if (!ok) {
    failures.push(what);
    console.error(`FAIL: ${what}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`);
  }
  return ok;
}

// sleep waits ms milliseconds.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let nextId = 1;

// readMessage returns the JSON-RPC answer of id from a response, JSON or
// an event stream.
async function readMessage(res, id) {
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return res.json();
  if (!type.startsWith("text/event-stream")) throw new DispatchError(`unexpected content type ${type}`);
  const text = await res.text();
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data === "") continue;
    const msg = JSON.parse(data);
    if (msg.id === id && ("result" in msg || "error" in msg)) return msg;
  }
  throw new DispatchError("the event stream ended without the answer");
}

// rawDispatcher is the host's request path for tools/call and tasks/*: it
// owns request IDs and matches the answer, and names the task (or tool)
// in Mcp-Name as the extension requires of streamable HTTP.
function rawDispatcher(url, seen) {
  return async (request, options = {}) => {
    const id = nextId++;
    const body = { jsonrpc: "2.0", id, ...request };
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": request.method,
      ...(options.context?.headers ?? {}),
    };
    if (request.method.startsWith("tasks/")) headers["mcp-name"] = request.params.taskId;
    else if (request.method === "tools/call") headers["mcp-name"] = request.params.name;
    seen.push(request);
    let res;
    try {
      res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: options.signal });
    } catch (error) {
      throw new DispatchError("the request failed", true, { cause: error });
    }
    if (!res.ok) throw new DispatchError(`HTTP ${res.status}`, res.status >= 500);
    const msg = await readMessage(res, id);
    return msg.error !== undefined ? { kind: "error", error: msg.error } : { kind: "result", result: msg.result };
  };
}

// open connects a v2 client to url and makes a Tasks session over it.
async function open(url, sessionOptions = {}) {
  const capabilities = {};
  // Pinned: the extension's tasks need the 2026-07-28 era, which only
  // server/discover negotiates (no fallback to the legacy handshake).
  const client = new Client(CLIENT_INFO, { capabilities, versionNegotiation: { mode: { pin: PROTOCOL } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  check(client.getProtocolEra() === "modern", `${url}: the connection negotiated ${PROTOCOL} (server/discover)`, client.getNegotiatedProtocolVersion());
  const ext = client.getServerCapabilities()?.extensions?.["io.modelcontextprotocol/tasks"];
  check(ext !== undefined, `${url}: the server advertises io.modelcontextprotocol/tasks`, client.getServerCapabilities());
  const seen = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: ENDPOINT,
    rawDispatch: rawDispatcher(url, seen),
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo: CLIENT_INFO, clientCapabilities: capabilities },
    onError: (error) => check(false, "the session reports no error", String(error)),
    ...sessionOptions,
  });
  return {
    client,
    session,
    seen,
    async close() {
      await session.close();
      await client.close();
    },
    // disconnect drops the connection without closing the Tasks session,
    // whose close would cancel the tasks it still holds (ext-tasks closes
    // an unsettled execution by cancelling it, even after a handoff): the
    // client just goes away, as a crashed or moved one does.
    async disconnect() {
      await client.close();
    },
  };
}

// withLimit races p against LIMIT_MS.
async function withLimit(p, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${LIMIT_MS} ms`)), LIMIT_MS);
  });
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}

// startTask calls a tool on a session and checks the server made a task.
async function startTask(conn, name, args, options) {
  const execution = await conn.session.callTool(name, args, options);
  check(execution.kind === "task", `${name}: the server answers with a task`, execution.kind);
  const call = conn.seen.find((r) => r.method === "tools/call");
  const declared = call?.params?._meta?.["io.modelcontextprotocol/clientCapabilities"]?.extensions?.["io.modelcontextprotocol/tasks"];
  check(declared !== undefined, `${name}: the call declares the extension`, call);
  return execution;
}

// resume: a task started on url1 is finished and read on url2.
async function resume(url1, url2) {
  const first = await open(url1);
  let reference;
  try {
    const execution = await startTask(first, "clock_wait", { seconds: 2 });
    if (execution.kind !== "task") return;
    // The requester's way to resume elsewhere: persist the reference,
    // release the task (the task goes on).
    await execution.handoff((r) => {
      reference = JSON.parse(JSON.stringify(r));
    });
    check(typeof reference?.taskId === "string" && reference.taskId.length >= 16, "the task ID is long enough to be unguessable", reference?.taskId);
  } finally {
    await first.disconnect();
  }
  if (reference === undefined) return;
  const second = await open(url2);
  try {
    const execution = await second.session.resumeTask(reference);
    const events = [];
    const { outcome } = await withLimit(execution.settle({ onEvent: (e) => events.push(e) }), "resume");
    check(outcome.status === "completed", "the task completes, polled on the second server", outcome);
    const result = outcome.result ?? {};
    check(result.isError !== true, "clock_wait succeeded", result);
    check(result.structuredContent?.seconds >= 2, "the result is clock_wait's, read from the second server", result.structuredContent);
    check(second.seen.some((r) => r.method === "tasks/get" && r.params.taskId === reference.taskId), "the second server was polled with tasks/get");
    console.log(`resume: task ${reference.taskId} completed via the second server after ${events.length} events`);
  } finally {
    await second.close();
  }
}

// cancel: a task started on url1 is cancelled through url2.
async function cancel(url1, url2) {
  const first = await open(url1);
  let taskId;
  try {
    const execution = await startTask(first, "clock_wait", { seconds: 30 });
    if (execution.kind !== "task") return;
    taskId = execution.handle.taskId;
    await execution.detach();
  } finally {
    await first.disconnect();
  }
  const second = await open(url2);
  try {
    const controller = second.session.task(taskId);
    const before = await controller.snapshot();
    check(before.status === "working", "the task is working before the cancellation", before.status);
    await controller.cancel();
    let view = before;
    const deadline = Date.now() + LIMIT_MS;
    while (view.status === "working" && Date.now() < deadline) {
      await sleep(200);
      view = await controller.snapshot();
    }
    check(view.status === "cancelled", "the task ends cancelled", view.status);
    const outcome = await withLimit(controller.result(), "result");
    check(outcome.status === "cancelled", "its outcome is cancelled", outcome.status);
    console.log(`cancel: task ${taskId} cancelled via the second server`);
  } finally {
    await second.close();
  }
}

// propose: a propose tool's task asks the person, who accepts.
async function propose(url) {
  const asked = [];
  const conn = await open(url, {
    onInputRequest: async (request, context) => {
      asked.push({ request, context });
      return { action: "accept", content: {} };
    },
  });
  try {
    const execution = await startTask(conn, "notes_create", { title: "From the Tasks requester", tags: ["interop"] });
    const { outcome } = await withLimit(execution.settle(), "propose");
    check(asked.length === 1, "the person is asked once", asked.length);
    const q = asked[0];
    check(q?.request.kind === "elicitation", "the question is an elicitation", q?.request);
    check(q?.context.scope === "task" && q?.context.delivery === "task-update", "it came with the task (input_required), answered by tasks/update", q?.context);
    check(conn.seen.some((r) => r.method === "tasks/update"), "the answer went as tasks/update");
    check(outcome.status === "completed", "the task completes", outcome);
    check(outcome.result?.isError !== true, "the confirmation succeeded", outcome.result);
    check(outcome.result?.structuredContent?.status === "confirmed", "the proposal was confirmed", outcome.result?.structuredContent);
    console.log(`propose: confirmed after ${asked.length} question(s)`);
  } finally {
    await conn.close();
  }
}

// consoleConfirmed: a propose tool's task waits while the proposal is
// confirmed elsewhere; the requester is never asked to answer it here.
async function consoleConfirmed(url) {
  let waiting;
  const waited = new Promise((resolve) => {
    waiting = resolve;
  });
  const conn = await open(url, {
    // Nobody answers here: the handler holds the question until the
    // execution is detached (its signal ends), so that ext-tasks sends no
    // answer of its own.
    onInputRequest: (request, context) => {
      waiting(context.taskId);
      return new Promise((_, reject) => context.signal?.addEventListener("abort", () => reject(new Error("detached"))));
    },
  });
  try {
    const execution = await startTask(conn, "notes_create", { title: "Confirmed in the console", tags: ["interop"] });
    if (execution.kind !== "task") return;
    const taskId = await withLimit(waited, "input_required");
    check(taskId === execution.handle.taskId, "the question is the task's", taskId);
    console.log(`WAITING ${taskId}`);
    const controller = conn.session.task(taskId);
    let view = await controller.snapshot();
    const deadline = Date.now() + LIMIT_MS;
    // input_required until the console's confirmation, then working while
    // the confirmed tool runs, then completed.
    while ((view.status === "input_required" || view.status === "working") && Date.now() < deadline) {
      await sleep(200);
      view = await controller.snapshot();
    }
    await execution.detach();
    check(view.status === "completed", "the task completes once the console confirmed", view.status);
    const outcome = await withLimit(controller.result(), "result");
    check(outcome.status === "completed" && outcome.result?.structuredContent?.status === "confirmed", "the proposal was confirmed", outcome);
    check(!conn.seen.some((r) => r.method === "tasks/update"), "the requester sent no answer");
    console.log(`console: task ${taskId} completed`);
  } finally {
    await conn.close();
  }
}

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  switch (mode) {
    case "resume":
      await resume(rest[0], rest[1]);
      break;
    case "cancel":
      await cancel(rest[0], rest[1]);
      break;
    case "propose":
      await propose(rest[0]);
      break;
    case "console":
      await consoleConfirmed(rest[0]);
      break;
    default:
      console.error("usage: node tasks.mjs resume|cancel <url1> <url2> | propose|console <url>");
      process.exit(2);
  }
  console.log(`${mode}: ${checks} checks, ${failures.length} failures`);
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(`FAIL: ${error?.stack ?? error}`);
  process.exit(1);
});
