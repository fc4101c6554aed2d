// Drives the sample MCP server (examples/mcpserver) with the official
// TypeScript client (@modelcontextprotocol/sdk):
//
//   node client.mjs stdio <command> [args...]   starts the server and speaks stdio
//   node client.mjs http <url>                  connects to a running server
//
// It lists every tool (following the pagination cursor), compiles every
// inputSchema and outputSchema with Ajv (JSON Schema draft 2020-12, strict
// mode, formats checked), calls every tool with good arguments (checking
// structuredContent against the outputSchema, and that the text block holds
// the same JSON) and with bad ones (checking that the published schema and
// the server agree, and that the message never echoes the value sent), and
// calls an unknown tool (the protocol's invalid params error). It prints
// every failure and exits 1 if there was one.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
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

async function connect(mode, rest) {
  const client = new Client({ name: "toolgen-interop", version: "1.0.0" });
  let transport;
  if (mode === "stdio") {
    if (rest.length < 1) throw new Error("stdio needs a command");
    transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
  } else if (mode === "http") {
    if (rest.length !== 1) throw new Error("http needs a URL");
    transport = new StreamableHTTPClientTransport(new URL(rest[0]));
  } else {
    throw new Error(`unknown mode ${mode}: use stdio or http`);
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

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
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
  if (failures.length > 0) {
    for (const f of failures) console.error(`FAIL ${f}`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(`FAIL ${e?.stack ?? e}`);
  process.exit(1);
});
