// # MCP Apps
//
// The directives of an app, in a tool type's doc comment:
//
//   - //tool:ui FILE.html: the tool has an MCP App (the extension
//     io.modelcontextprotocol/ui): an HTML document, a file of the tool's
//     package directory, that an MCP host renders in a sandboxed iframe
//     beside the tool's result.
//   - //tool:uicsp KIND ORIGIN...: repeatable; origins the app may reach,
//     by KIND: connect (fetch, XHR, WebSocket: connectDomains), resource
//     (scripts, style sheets, images, fonts, media: resourceDomains),
//     frame (nested iframes: frameDomains) or baseuri (baseUriDomains).
//     An origin is scheme://host[:port], the host possibly *.example.com.
//   - //tool:uipermission camera|microphone|geolocation|clipboardWrite:
//     repeatable; a browser permission the app asks the host for.
//   - //tool:uiborder true|false: whether the app wants the host's border
//     and background (prefersBorder); the host decides when absent.
//   - //tool:visibility model|app|model app: who may call the tool; both
//     when absent. A tool visible to "app" alone is one its app calls
//     (a refresh, a form's submit): MCP hosts keep it from the model, and
//     runtime/mcpserver refuses it when the call names a model's tool
//     call. It needs no //tool:ui of its own.
//
// toolgen reads a //tool:ui file at generate time and fails the build,
// naming the directive's line, when the file is missing, is not valid
// UTF-8, does not start with <!doctype html> (after comments and white
// space), is over 256 KiB, or loads a script (<script src>) or a style
// sheet (<link rel=stylesheet>) from anywhere but an https or http origin
// its //tool:uicsp resource lines declare: a host builds the app's
// Content-Security-Policy from those lines and would block it. A relative
// URL is refused too: the app is one document, served with nothing
// beside it, so its own script and style are inline (which the
// extension's default policy allows).
//
// The file's bytes become a string constant of the generated registry
// package (appNotesRender), which costs a program nothing until served,
// and the tool's Spec carries them in three reserved tool.Meta pairs that
// runtime/mcpserver reads (mcpserver.MetaUI: the tool's _meta.ui less
// resourceUri; MetaUIResource: the resource's _meta.ui, its CSP,
// permissions and border; MetaUIHTML: the HTML). //tool:meta may not use
// those keys. tools.json shows each app under "ui" (file, bytes, sha256,
// the resource's _meta.ui) with the tool's visibility; provider
// definitions never carry it: _meta.ui is MCP's. The resource URI is the
// server's, ui://SERVER/TOOL (mcpserver.AppURI: the MCP server's name as
// a host, and the tool's name), unique on a server and stable across
// starts. -check, the freshness test (TestToolgenFreshApps) and the
// generator's caches all cover the file: editing it makes the output
// stale, and the cache's keys hash the file the directive names (as every
// file the load reads beside Go's own listing).
package main
