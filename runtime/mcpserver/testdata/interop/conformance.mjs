// Runs the generic server scenarios of the MCP conformance suite
// (@modelcontextprotocol/conformance) against a streamable HTTP server:
//
//   node conformance.mjs <url>
//
// The suite is pinned to 0.1.13: 0.1.14 and later import fs.globSync,
// which Node 22 added, and this repository's CI has Node 20.
//
// The scenarios left out exercise the fixtures of the suite's reference
// server (tools named test_simple_text, test_error_handling..., prompts,
// resources, completion, sampling and elicitation), which a server of
// one's own tools does not have.
//
// It prints each scenario's checks when one fails and exits 1 if any did;
// warnings (SHOULD-level advice) are printed but do not fail.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const scenarios = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
  "server-sse-polling",
];

const cli = fileURLToPath(new URL("./node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url));

function runScenario(url, scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "server", "--url", url, "--scenario", scenario], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    // Strip the colors the suite prints whatever the environment says.
    child.on("close", (code) => resolve({ code, out: out.replace(/\x1b\[[0-9;]*m/g, "") }));
  });
}

async function main() {
  const url = process.argv[2];
  if (!url) {
    console.error("usage: node conformance.mjs <url>");
    process.exit(2);
  }
  let failed = 0;
  for (const scenario of scenarios) {
    const { code, out } = await runScenario(url, scenario);
    const summary = out.match(/Passed: .*/)?.[0] ?? "no summary";
    const warnings = out.split("\n").filter((l) => /WARNING/.test(l));
    if (code !== 0 || !/ 0 failed/.test(summary)) {
      failed++;
      console.error(`FAIL ${scenario} (exit ${code}): ${summary}\n${out}`);
      continue;
    }
    console.log(`ok   ${scenario}: ${summary}`);
    for (const w of warnings) console.log(`     ${w.trim()}`);
  }
  if (failed > 0) {
    console.error(`${failed} of ${scenarios.length} conformance scenarios failed`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(`FAIL ${e?.stack ?? e}`);
  process.exit(1);
});
