// A test MCP Apps host: the official host side (AppBridge of
// @modelcontextprotocol/ext-apps) over the TypeScript SDK v2 client,
// connected to the toolgen MCP server that serves this page. It calls a
// tool as a model would, renders the tool's app in a sandboxed iframe
// under the CSP its resource declares (as the extension's host must),
// sends it the tool's input and result, and carries the app's own
// tools/call to the server, marked as the app's. apps_browser_test.go
// drives it with chromedp.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const APP_MARK = "io.github.toolgen-go/app"; // mcpserver.MetaApp
const log = [];
window.host = { log };

// csp is the Content-Security-Policy the extension's host builds from an
// app resource's declared domains (SEP-1865, "CSP Construction from
// Metadata").
function csp(declared) {
  const d = declared || {};
  const res = (d.resourceDomains || []).join(" ");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${res}`,
    `style-src 'self' 'unsafe-inline' ${res}`,
    `connect-src 'self' ${(d.connectDomains || []).join(" ")}`,
    `img-src 'self' data: ${res}`,
    `font-src 'self' ${res}`,
    `media-src 'self' data: ${res}`,
    `frame-src ${(d.frameDomains || []).join(" ") || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(d.baseUriDomains || []).join(" ") || "'self'"}`,
  ].join("; ");
}

// withCSP puts the policy first in the document's head.
function withCSP(html, policy) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, "&quot;")}">`;
  const m = /<head[^>]*>/i.exec(html);
  return m ? html.slice(0, m.index + m[0].length) + meta + html.slice(m.index + m[0].length) : meta + html;
}

let client;
const bridges = [];

// connect opens the MCP session with the person's token.
async function connect(token) {
  client = new Client({ name: "toolgen-apphost", version: "1.0.0" }, {
    capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href), {
    requestInit: { headers: { Authorization: "Bearer " + token } },
  }));
  log.push({ event: "connected" });
}

// render calls tool with args as the model would and renders its app.
async function render({ token, tool, args, theme }) {
  if (!client) {
    await connect(token);
  }
  const { tools } = await client.listTools();
  const t = tools.find((x) => x.name === tool);
  const uri = t && t._meta && t._meta.ui && t._meta.ui.resourceUri;
  if (!uri) {
    throw new Error("no app for " + tool);
  }
  const read = await client.readResource({ uri });
  const content = read.contents[0];
  const ui = (content._meta && content._meta.ui) || {};
  const result = await client.callTool({ name: tool, arguments: args });
  log.push({ event: "called", tool });

  const frame = document.createElement("iframe");
  frame.id = "app-" + tool;
  frame.title = tool;
  frame.setAttribute("sandbox", "allow-scripts");
  frame.className = ui.prefersBorder ? "app border" : "app";
  document.getElementById("apps").appendChild(frame);

  const hostContext = { theme, displayMode: "inline", availableDisplayModes: ["inline"], platform: "web", locale: "en-US" };
  const bridge = new AppBridge(null, { name: "toolgen test host", version: "1.0.0" }, { serverTools: {} }, { hostContext });
  bridge.oncalltool = async (params) => {
    log.push({ event: "app-call", tool: params.name, app: uri });
    return client.callTool({ ...params, _meta: { ...(params._meta || {}), [APP_MARK]: uri } });
  };
  bridge.onsizechange = ({ height }) => {
    if (height) {
      frame.style.height = Math.ceil(height) + "px";
    }
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  bridges.push({ bridge, hostContext });
  frame.srcdoc = withCSP(content.text, csp(ui.csp));
  await initialized;
  log.push({ event: "initialized", tool });
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
  log.push({ event: "sent", tool });
  return frame.id;
}

window.renderApp = (opts) => render(opts);

// setTheme tells every app the host's theme changed
// (ui/notifications/host-context-changed).
window.setTheme = (theme) => {
  for (const b of bridges) {
    b.hostContext = { ...b.hostContext, theme };
    b.bridge.setHostContext(b.hostContext);
  }
};
