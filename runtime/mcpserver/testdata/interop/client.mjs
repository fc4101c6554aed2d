// Drives the sample MCP server (examples/mcpserver) with the official
// TypeScript client (@modelcontextprotocol/sdk):
//
//   node client.mjs stdio <command> [args...]   starts the server and speaks stdio
//   node client.mjs http <url> [token]          connects to a running server (with a bearer token)
//   node client.mjs auth <url> <token> <reader-token>
//                                               the bearer-token checks of a server started with -tokens
//   node client.mjs confirm <command> [args...] starts a server with -confirm and answers its questions
//   node client.mjs progress abort stdio <command> [args...]
//   node client.mjs progress abort http <url>
//   node client.mjs progress close http <url>  a long-running tool's progress, and a call cancelled mid-run
//
// stdio and http list every tool (following the pagination cursor), compile
// every inputSchema and outputSchema with Ajv (JSON Schema draft 2020-12,
// strict mode, formats checked), call every tool with good arguments
// (checking structuredContent against the outputSchema, and that the text
// block holds the same JSON) and with bad ones (checking that the published
// schema and the server agree, and that the message never echoes the value
// sent), and call an unknown tool (the protocol's invalid params error).
// auth checks that a request without a valid token is refused with 401, a
// bearer challenge and nothing echoed, and that the reader's token lists
// fewer tools and cannot call a write tool. confirm checks that a proposal
// is put to the person (elicitation) and that accepting runs it, declining
// rejects it, each answer valid against the outputSchema. progress calls
// clock_wait with onprogress: the notifications come in order, each
// greater than the last, coalesced to about ten a second, the last one
// (the whole wait) before the result; then it cancels a 30-second wait
// after its third notification, with an AbortSignal (abort: the client
// sends notifications/cancelled) or by closing the client (close: its HTTP
// requests end, as a stateless session's must), and, after abort, goes on
// calling. What the server made of the cancellation (the tool stopped, the
// record says cancelled) is in the server's log, which interop_test.go
// reads. Each prints every failure and exits 1 if there was one.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { isDeepStrictEqual } from "node:util";

// A value no bad call's error message may contain.
const SECRET = "sekrit-value-4711";

// Good arguments for every sample tool, and what the result must be.
// A tool listed by the server but missing here is a failure: add it.
const goodCalls = {
  clock_now: [{}],
  clock_sync: [{}],
  clock_wait: [{ seconds: 0.2 }],
  clock_zones: [{}, { prefix: "Europe/" }],
  notes_create: [{ title: "From TypeScript", tags: ["interop"] }],
  notes_delete: [{ id: "n2" }],
  notes_get: [{ id: "n1" }],
  notes_outline: [{ id: "n1" }],
  notes_render: [{ id: "n1" }, { id: "n1", format: "plain" }],
  notes_search: [{ query: "go" }, { query: "go", limit: 2, sort: "newest", tags: ["go"] }],
  notes_share: [{ id: "n1", passphrase: SECRET, hours: 2 }],
  notes_tag: [{ id: "n1", add: ["interop"], remove: ["draft"] }],
  notes_update: [{ id: "n3", title: "Renamed from TypeScript", priority: 2, data: { any: ["json", 1] } }],
  weather_forecast: [
    { place: "Lisbon" },
    { place: { lat: 38.72, lon: -9.14 }, days: 2, units: "imperial" },
  ],
};

// Propose tools run nothing: through the call service, their call stores a
// proposal for a person to confirm and answers with it, as structured
// content valid against the published outputSchema (the proposal's).
const proposeTools = new Set(["notes_create", "notes_delete"]);

// Bad arguments with the JSON Pointers the message must name.
const badCalls = [
  { tool: "notes_search", args: { query: "", limit: 500, sort: SECRET }, pointers: ["/query", "/limit", "/sort"] },
  { tool: "notes_get", args: { id: SECRET }, pointers: ["/id"] },
  { tool: "notes_get", args: {}, pointers: ["/id"] },
  { tool: "notes_create", args: { title: "x", tags: ["Not Valid", SECRET], priority: 9 }, pointers: ["/tags/0", "/priority"] },
  { tool: "weather_forecast", args: { place: { lat: 100, lon: 0 }, days: 0 }, pointers: ["/days"] },
  { tool: "clock_zones", args: { prefix: 7 }, pointers: ["/prefix"] },
  { tool: "clock_wait", args: { seconds: SECRET }, pointers: ["/seconds"] },
];

const failures = [];
let checks = 0;

function check(ok, what, detail) {
  checks++;
  if (!ok) {
    failures.push(detail === undefined ? what : `${what}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
  return ok;
}

function textOf(result) {
  const blocks = result.content ?? [];
  return blocks.filter((b) => b.type === "text").map((b) => b.text).join("");
}

// bearer returns the transport options sending token.
function bearer(token) {
  return token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } };
}

async function connect(mode, rest, options = {}) {
  const client = new Client({ name: "toolgen-interop", version: "1.0.0" }, options);
  let transport;
  if (mode === "stdio" || mode === "confirm") {
    if (rest.length < 1) throw new Error(`${mode} needs a command`);
    transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
  } else if (mode === "http") {
    if (rest.length < 1 || rest.length > 2) throw new Error("http needs a URL and an optional token");
    transport = new StreamableHTTPClientTransport(new URL(rest[0]), bearer(rest[1]));
  } else {
    throw new Error(`unknown mode ${mode}: use stdio, http, auth or confirm`);
  }
  await client.connect(transport);
  return client;
}

async function listAll(client) {
  const tools = [];
  let cursor;
  let pages = 0;
  do {
    const res = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...res.tools);
    cursor = res.nextCursor;
    pages++;
  } while (cursor && pages < 1000);
  check(!cursor, "listing ends");
  return tools;
}

function checkListing(tools) {
  check(tools.length > 0, "the server lists tools");
  const names = tools.map((t) => t.name);
  check(isDeepStrictEqual(names, [...names].sort()), "tools sorted by name", names);
  check(new Set(names).size === names.length, "tool names unique", names);
  for (const t of tools) {
    check(typeof t.description === "string" && t.description.length > 0, `${t.name}: description`);
    check(typeof t.title === "string" && t.title.length > 0, `${t.name}: title`);
    check(t.inputSchema?.type === "object", `${t.name}: inputSchema is an object schema`, t.inputSchema);
    const a = t.annotations ?? {};
    for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
      check(typeof a[hint] === "boolean", `${t.name}: annotations.${hint} published explicitly`, a);
    }
    check(!(a.readOnlyHint && a.destructiveHint), `${t.name}: not both read-only and destructive`, a);
  }
}

function compileSchemas(ajv, tools) {
  const validators = {};
  for (const t of tools) {
    const v = { input: null, output: null };
    try {
      v.input = ajv.compile(t.inputSchema);
    } catch (e) {
      check(false, `${t.name}: inputSchema compiles with Ajv 2020-12`, e.message);
    }
    if (t.outputSchema !== undefined) {
      try {
        v.output = ajv.compile(t.outputSchema);
      } catch (e) {
        check(false, `${t.name}: outputSchema compiles with Ajv 2020-12`, e.message);
      }
    }
    checks++;
    validators[t.name] = v;
  }
  return validators;
}

async function goodCall(client, tool, v, args) {
  const what = `${tool.name} ${JSON.stringify(args)}`;
  if (v.input && !check(v.input(args), `${what}: good arguments valid against the published inputSchema`, v.input.errors)) {
    return;
  }
  let res;
  try {
    res = await client.callTool({ name: tool.name, arguments: args });
  } catch (e) {
    check(false, `${what}: call`, e.message);
    return;
  }
  if (!check(res.isError !== true, `${what}: succeeds`, textOf(res))) return;
  check(!textOf(res).includes(SECRET), `${what}: the result never holds the secret sent`, textOf(res));
  if (proposeTools.has(tool.name)) {
    check(res.structuredContent?.status === "proposed", `${what}: a propose tool answers with a proposal`, res);
    check(/confirm/.test(res.structuredContent?.message ?? ""), `${what}: says a person must confirm it`, res);
    check(/^prop_/.test(res.structuredContent?.proposal ?? ""), `${what}: names the proposal`, res);
  }
  const blocks = res.content ?? [];
  check(blocks.length === 1 && blocks[0].type === "text", `${what}: one text block`, blocks);
  if (tool.outputSchema !== undefined) {
    if (!check(res.structuredContent !== undefined, `${what}: structuredContent`, res)) return;
    if (v.output) {
      check(v.output(res.structuredContent), `${what}: structuredContent valid against outputSchema`, v.output.errors);
    }
    let parsed;
    try {
      parsed = JSON.parse(textOf(res));
    } catch (e) {
      check(false, `${what}: the text block is JSON`, e.message);
      return;
    }
    check(isDeepStrictEqual(parsed, res.structuredContent), `${what}: the text block holds the structuredContent`);
  } else {
    check(res.structuredContent === undefined, `${what}: no structuredContent without an outputSchema`, res.structuredContent);
    check(textOf(res).length > 0, `${what}: text`);
  }
}

async function badCall(client, tool, v, args, pointers) {
  const what = `${tool.name} ${JSON.stringify(args)}`;
  if (v.input) {
    check(!v.input(args), `${what}: bad arguments invalid against the published inputSchema too`);
  }
  let res;
  try {
    res = await client.callTool({ name: tool.name, arguments: args });
  } catch (e) {
    check(false, `${what}: bad arguments come back as a tool result, not a protocol error`, e.message);
    return;
  }
  check(res.isError === true, `${what}: isError`, res);
  check(res.structuredContent === undefined, `${what}: no structuredContent on error`);
  const msg = textOf(res);
  check(!msg.includes(SECRET), `${what}: the message never echoes the value sent`, msg);
  for (const p of pointers) {
    check(msg.includes(p), `${what}: the message names ${p}`, msg);
  }
}

// auth checks a server started with -tokens: refusals without a valid
// token, and a reader's narrower offer.
async function auth(url, token, readerToken) {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: SECRET, version: "1" } },
  });
  for (const authorization of [undefined, `Bearer ${SECRET}`, `Basic ${SECRET}`]) {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Echo": SECRET };
    if (authorization !== undefined) headers.Authorization = authorization;
    const res = await fetch(url, { method: "POST", headers, body: initialize });
    const body = await res.text();
    const what = `a request with ${authorization === undefined ? "no token" : "a bad token"}`;
    check(res.status === 401, `${what}: 401`, res.status);
    check(/^Bearer( |$)/.test(res.headers.get("www-authenticate") ?? ""), `${what}: a bearer challenge`, res.headers.get("www-authenticate"));
    check(!body.includes(SECRET), `${what}: the body echoes nothing`, body);
    for (const [k, v] of res.headers) check(!v.includes(SECRET), `${what}: header ${k} echoes nothing`, v);
    check(res.headers.get("mcp-session-id") === null, `${what}: no session`);
  }
  let refused = false;
  try {
    const c = new Client({ name: "toolgen-interop", version: "1.0.0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    await c.close();
  } catch (e) {
    refused = true;
  }
  check(refused, "the client cannot connect without a token");

  const writer = await connect("http", [url, token]);
  const reader = await connect("http", [url, readerToken]);
  try {
    const all = (await listAll(writer)).map((t) => t.name);
    const read = (await listAll(reader)).map((t) => t.name);
    check(read.length > 0 && read.length < all.length, "the reader is offered fewer tools", { all, read });
    check(read.every((n) => all.includes(n)), "the reader's tools are among the writer's", { all, read });
    const write = all.find((n) => !read.includes(n) && goodCalls[n] !== undefined);
    check(write !== undefined, "a tool only the writer may call", { all, read });
    if (write !== undefined) {
      try {
        await reader.callTool({ name: write, arguments: goodCalls[write][0] });
        check(false, `the reader's call of ${write} is refused`);
      } catch (e) {
        check(e instanceof McpError && e.code === ErrorCode.InvalidParams, `the reader's call of ${write} is an unknown tool`, `${e.code} ${e.message}`);
        check(/unknown tool/.test(e.message), `the reader's call of ${write} says unknown tool`, e.message);
      }
      const res = await writer.callTool({ name: write, arguments: goodCalls[write][0] });
      check(res.isError !== true, `the writer calls ${write}`, textOf(res));
    }
    console.log(`auth: writer ${all.length} tools, reader ${read.length}, ${checks} checks, ${failures.length} failures`);
  } finally {
    await writer.close();
    await reader.close();
  }
}

// confirm checks a server started with -confirm over stdio: a proposal is
// put to the person, whose answer decides.
async function confirm(rest) {
  let answer = "accept";
  const asked = [];
  const client = await connect("confirm", rest, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
  });
  try {
    const tools = await listAll(client);
    const del = tools.find((t) => t.name === "notes_delete");
    if (!check(del !== undefined, "notes_delete is listed")) return;
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const valid = ajv.compile(del.outputSchema);
    for (const [id, action, status] of [["n2", "accept", "confirmed"], ["n3", "decline", "rejected"], ["n1", "cancel", "proposed"]]) {
      answer = action;
      const before = asked.length;
      const res = await client.callTool({ name: "notes_delete", arguments: { id } });
      const what = `notes_delete ${id}, the person answering ${action}`;
      check(res.isError !== true, `${what}: succeeds`, textOf(res));
      check(asked.length === before + 1 && /Delete this note\?/.test(asked[asked.length - 1] ?? ""), `${what}: the person is asked`, asked);
      check(res.structuredContent?.status === status, `${what}: ${status}`, res.structuredContent);
      check(valid(res.structuredContent), `${what}: structuredContent valid against outputSchema`, valid.errors);
    }
    const gone = await client.callTool({ name: "notes_get", arguments: { id: "n2" } });
    check(gone.isError === true, "the confirmed deletion ran", textOf(gone));
    const kept = await client.callTool({ name: "notes_get", arguments: { id: "n3" } });
    check(kept.isError !== true, "the rejected deletion did not run", textOf(kept));
    console.log(`confirm: ${asked.length} questions, ${checks} checks, ${failures.length} failures`);
  } finally {
    await client.close();
  }
}

// progress checks a long-running tool's progress notifications and a call
// cancelled mid-run (see the top of the file); how is abort or close.
async function progress(how, mode, rest) {
  if (how !== "abort" && how !== "close") throw new Error(`progress: unknown way ${how}: use abort or close`);
  const client = await connect(mode, rest);
  // The messages as they come off the wire: the SDK hands a notification
  // to onprogress a tick later than a response arriving in the same read
  // (and drops it once the response has come), so the order the server
  // sent them in is checked here.
  const wire = [];
  const transport = client.transport;
  const onmessage = transport.onmessage;
  transport.onmessage = (msg, extra) => {
    wire.push(msg);
    onmessage?.(msg, extra);
  };
  let open = true;
  try {
    // To its end: every notification in order, the last before the result.
    const seen = [];
    const res = await client.callTool({ name: "clock_wait", arguments: { seconds: 1 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    check(res.isError !== true, "clock_wait 1 s succeeds", textOf(res));
    check(res.structuredContent?.seconds === 1, "clock_wait waited 1 s", res.structuredContent);
    check(seen.length >= 2, "progress notifications arrive", seen);
    check(seen.length <= 13, "coalesced: about ten a second at most, and the last", seen.length);
    check(seen.every((p, i) => i === 0 || p.progress > seen[i - 1].progress), "in order, each greater than the last", seen);
    check(seen.every((p) => p.total === 1 && typeof p.message === "string"), "total and message", seen);
    const answered = wire.findIndex((m) => m.result?.structuredContent?.seconds === 1);
    const token = wire[answered]?.id;
    const sent = wire.map((m, i) => ({ m, i })).filter(({ m }) => m.method === "notifications/progress" && m.params?.progressToken === token);
    check(answered >= 0 && sent.length >= seen.length, "every notification handled came off the wire", { answered, sent: sent.length, seen: seen.length });
    const last = sent[sent.length - 1];
    check(last?.m.params.progress === 1 && last.i < answered, "the last notification, the whole wait, comes before the result", last?.m);

    // Cancelled mid-run.
    const ac = new AbortController();
    const mid = [];
    let rejected;
    try {
      await client.callTool({ name: "clock_wait", arguments: { seconds: 30 } }, undefined, {
        signal: ac.signal,
        timeout: 120000,
        onprogress: (p) => {
          mid.push(p);
          if (mid.length !== 3) return;
          if (how === "abort") {
            ac.abort("the person stopped it");
          } else {
            open = false;
            client.close(); // its requests end: the server sees the client go away
          }
        },
      });
    } catch (e) {
      rejected = e;
    }
    check(rejected !== undefined, "the cancelled call is rejected on the client");
    check(mid.length >= 3, "the cancelled call reported progress first", mid);
    if (how === "abort") {
      const after = await client.callTool({ name: "clock_now", arguments: {} });
      check(after.isError !== true, "calls still work after the cancellation", textOf(after));
    }
    console.log(`progress ${how} ${mode}: ${seen.length} notifications for 1 s, cancelled after ${mid.length}, ${checks} checks, ${failures.length} failures`);
  } finally {
    if (open) await client.close();
  }
}

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode === "progress") {
    if (rest.length < 3) throw new Error("progress needs abort or close, a mode and a target");
    await progress(rest[0], rest[1], rest.slice(2));
    report();
    return;
  }
  if (mode === "auth") {
    if (rest.length !== 3) throw new Error("auth needs a URL, a token and a reader's token");
    await auth(...rest);
    report();
    return;
  }
  if (mode === "confirm") {
    await confirm(rest);
    report();
    return;
  }
  const client = await connect(mode, rest);
  try {
    const caps = client.getServerCapabilities();
    check(caps?.tools !== undefined, "the server declares the tools capability", caps);
    const info = client.getServerVersion();
    check(info?.name === "toolgen-sample", "serverInfo.name", info);

    const tools = await listAll(client);
    checkListing(tools);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validators = compileSchemas(ajv, tools);

    let calls = 0;
    for (const tool of tools) {
      const good = goodCalls[tool.name];
      if (!check(good !== undefined, `${tool.name}: add good arguments for it to interop/client.mjs`)) continue;
      for (const args of good) {
        await goodCall(client, tool, validators[tool.name], args);
        calls++;
      }
      // Every sample input schema refuses unknown properties.
      if (tool.inputSchema.additionalProperties === false) {
        await badCall(client, tool, validators[tool.name], { unexpected: SECRET }, ["/unexpected"]);
        calls++;
      }
    }
    for (const bad of badCalls) {
      const tool = tools.find((t) => t.name === bad.tool);
      if (!check(tool !== undefined, `${bad.tool} is listed`)) continue;
      await badCall(client, tool, validators[tool.name], bad.args, bad.pointers);
      calls++;
    }

    // An unknown tool is the protocol's error, with a suggestion.
    try {
      await client.callTool({ name: "notes_serch", arguments: { query: "go" } });
      check(false, "an unknown tool is a protocol error");
    } catch (e) {
      check(e instanceof McpError && e.code === ErrorCode.InvalidParams, "an unknown tool is invalid params", `${e.code} ${e.message}`);
      check(/notes_search/.test(e.message), "the unknown tool's error suggests notes_search", e.message);
    }
    // The session goes on.
    const after = await client.callTool({ name: "clock_now", arguments: {} });
    check(after.isError !== true, "calls still work after the errors");

    console.log(`${mode}: ${tools.length} tools, ${calls} calls, ${checks} checks, ${failures.length} failures`);
  } finally {
    await client.close();
  }
  report();
}

// report prints the failures and exits 1 if there was one.
function report() {
  if (failures.length > 0) {
    for (const f of failures) console.error(`FAIL ${f}`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(`FAIL ${e?.stack ?? e}`);
  process.exit(1);
});
