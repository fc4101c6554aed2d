package mcpserver

// MCP Apps (the extension io.modelcontextprotocol/ui): a tool declared
// with //tool:ui has an HTML app that an MCP host renders in a sandboxed
// iframe, sends the tool's input and result, and lets call the server's
// tools through the host. toolgen read, checked and embedded the app at
// generate time; its Spec carries it in three reserved Meta pairs
// (MetaUI, MetaUIResource, MetaUIHTML). This file lists the apps
// (resources/list), serves them (resources/read), marks the tools
// (_meta.ui on each tool of tools/list) and applies the extension's
// visibility rule to calls.

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The MCP Apps names the server uses.
const (
	// ExtensionUI is the MCP Apps extension's identifier: the server
	// declares it in its capabilities' extensions when a tool has an app
	// or a visibility.
	ExtensionUI = "io.modelcontextprotocol/ui"
	// AppMIMEType is the MIME type of an app resource.
	AppMIMEType = "text/html;profile=mcp-app"

	// MetaUI is the key of the tool.Meta pair whose value is the tool's
	// _meta.ui as compact JSON, less resourceUri, which the server
	// derives (AppURI). toolgen writes it for a tool with //tool:ui or
	// //tool:visibility.
	MetaUI = "io.modelcontextprotocol/ui"
	// MetaUIResource is the key of the tool.Meta pair whose value is the
	// app resource's _meta.ui as compact JSON: its CSP domains,
	// permissions and border (//tool:uicsp, //tool:uipermission,
	// //tool:uiborder).
	MetaUIResource = "io.modelcontextprotocol/ui/resource"
	// MetaUIHTML is the key of the tool.Meta pair whose value is the
	// app's HTML document (//tool:ui), a constant of the generated
	// package.
	MetaUIHTML = "io.modelcontextprotocol/ui/html"

	// MetaApp is the _meta key of a tools/call request by which a host
	// says that an app made the call, and which: its value is the app's
	// resource URI (AppURI). The MCP Apps extension defines no such mark;
	// a host that proxies an app's tools/call may set it, and the call is
	// then recorded with the URI as its agent (tool.Agent.Name) and never
	// asks the person to confirm from inside the app. A call without it
	// is not known to be an app's: the server cannot tell an app's call
	// from another, since the host carries both.
	MetaApp = "io.github.toolgen-go/app"
)

// Messages of the apps' refusals; they quote nothing of the request.
const (
	msgNoApp         = "no app of that URI is offered to you"
	msgMetaApp       = "the _meta key io.github.toolgen-go/app must hold the resource URI of an app offered to you"
	msgAppOnly       = "this tool is called by its app only, not by the model: the host shows its app to the person"
	msgModelOnly     = "this tool is not callable from an app"
	msgAppNoConfirms = "an app cannot answer a confirmation: the person confirms the proposal through the host or the console, never from inside an app"
)

// appMeta is what a Spec's reserved Meta pairs say of its app.
type appMeta struct {
	tool     string // MetaUI: the tool's _meta.ui less resourceUri; "" for none
	resource string // MetaUIResource
	html     string // MetaUIHTML; "" for a tool without an app
}

// appOf reads the reserved Meta pairs of sp.
func appOf(sp *tool.Spec) appMeta {
	var m appMeta
	for _, kv := range sp.Meta {
		switch kv.Key {
		case MetaUI:
			m.tool = kv.Value
		case MetaUIResource:
			m.resource = kv.Value
		case MetaUIHTML:
			m.html = kv.Value
		}
	}
	return m
}

// visible reports whether the tool's _meta.ui lets who ("model" or "app")
// call it: visibility defaults to both.
func (m appMeta) visible(who string) bool {
	if m.tool == "" {
		return true
	}
	var ui struct {
		Visibility []string `json:"visibility"`
	}
	if json.Unmarshal([]byte(m.tool), &ui) != nil || ui.Visibility == nil {
		return true
	}
	for _, v := range ui.Visibility {
		if v == who {
			return true
		}
	}
	return false
}

// appsOf is what the server needs to know of its tools' apps at start:
// whether any tool has _meta.ui (the extension and, for apps, the
// resources capability are then declared) and whether any is not
// callable by the model or by apps (calls are then checked). It reads the
// tools of a caller that lists them all (a generated registry, the call
// service, a palette); another caller's tools are not known, and the
// server serves no app of theirs.
func appsOf(caller tool.Caller) (ui, apps, restricted bool) {
	all, ok := caller.(interface{ Tools() []*tool.Spec })
	if !ok {
		return false, false, false
	}
	for _, sp := range all.Tools() {
		m := appOf(sp)
		if m.tool == "" {
			continue
		}
		ui = true
		apps = apps || m.html != ""
		restricted = restricted || !m.visible("model") || !m.visible("app")
	}
	return ui, apps, restricted
}

// appHost is the host part of the server's app URIs: the server's name
// in lower case, each run of characters other than letters, digits, '.'
// and '-' replaced by '-' ("toolgen" when nothing is left).
func appHost(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' || r == '-' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	h := strings.Trim(b.String(), "-.")
	if h == "" {
		return "toolgen"
	}
	return h
}

// AppURI is the resource URI of the app of the tool named toolName on a
// server named serverName (Options.Name; "" for the default):
// ui://HOST/TOOL, HOST the server's name as a host (lower case, other
// characters than letters, digits, '.' and '-' as '-'). Tool names are
// unique on a server, so the URI is; it is the same for every session and
// every start of a server of the same name.
func AppURI(serverName, toolName string) string {
	if serverName == "" {
		serverName = "toolgen"
	}
	return "ui://" + appHost(serverName) + "/" + toolName
}

// uiToolMeta writes the tool's _meta member of tools/list when it has
// _meta.ui: resourceUri first (when it has an app), then what toolgen
// wrote.
func (s *Server) encodeToolMeta(e *codec.Encoder, sp *tool.Spec) {
	if !s.ui {
		return
	}
	m := appOf(sp)
	if m.tool == "" {
		return
	}
	e.Key("_meta")
	e.ObjectStart()
	e.Key("ui")
	e.JSON([]byte(s.toolUI(sp.Name, m)), nil)
	e.ObjectEnd()
}

// toolUI is the tool's _meta.ui: resourceUri, when it has an app, before
// the members toolgen wrote.
func (s *Server) toolUI(name string, m appMeta) string {
	if m.html == "" {
		return m.tool
	}
	uri, _ := json.Marshal(s.appURI(name))
	rest := strings.TrimPrefix(m.tool, "{")
	if rest != "}" {
		rest = "," + rest
	}
	return `{"resourceUri":` + string(uri) + rest
}

// appURI is the URI of the app of the tool named name on this server.
func (s *Server) appURI(name string) string { return "ui://" + s.appHostName + "/" + name }

// offeredApp returns the spec of the tool offered to the caller of ctx
// whose app has the given URI.
func (s *Server) offeredApp(ctx context.Context, uri string) (*tool.Spec, appMeta, bool) {
	name, ok := strings.CutPrefix(uri, "ui://"+s.appHostName+"/")
	if !ok {
		return nil, appMeta{}, false
	}
	sp, ok := s.offeredTool(ctx, name)
	if !ok {
		return nil, appMeta{}, false
	}
	m := appOf(sp)
	return sp, m, m.html != ""
}

// offeredTool returns the spec of the tool named name if it is offered to
// the caller of ctx.
func (s *Server) offeredTool(ctx context.Context, name string) (*tool.Spec, bool) {
	tools := s.caller.Offer(ctx)
	i := sort.Search(len(tools), func(i int) bool { return tools[i].Name >= name })
	if i < len(tools) && tools[i].Name == name {
		return tools[i], true
	}
	return nil, false
}

// listApps answers resources/list: the app of every tool offered to the
// caller of ctx, in the tools' order, each with its _meta.ui (the CSP,
// permissions and border a host reviews before it renders one), then the
// resources added to SDK(), which next lists. Nobody is listed an app of a
// tool they are not offered. The apps are on the first page; a later page
// (a cursor of the SDK's) is the SDK's alone.
func (s *Server) listApps(ctx context.Context, req *mcp.ListResourcesRequest, next mcp.MethodHandler) (mcp.Result, error) {
	if req.Params != nil && req.Params.Cursor != "" {
		return next(ctx, methodListResources, req)
	}
	res := &mcp.ListResourcesResult{}
	if r, err := next(ctx, methodListResources, req); err != nil {
		return nil, err
	} else if own, ok := r.(*mcp.ListResourcesResult); ok && own != nil {
		res = own
	}
	var apps []*mcp.Resource
	for _, sp := range s.caller.Offer(ctx) {
		m := appOf(sp)
		if m.html == "" {
			continue
		}
		r := &mcp.Resource{
			URI:         s.appURI(sp.Name),
			Name:        sp.Name,
			Title:       sp.Title,
			Description: "The app of the tool " + sp.Name + ".",
			MIMEType:    AppMIMEType,
			Size:        int64(len(m.html)),
		}
		if m.resource != "" && m.resource != "{}" {
			r.Meta = mcp.Meta{"ui": json.RawMessage(m.resource)}
		}
		apps = append(apps, r)
	}
	res.Resources = append(apps, res.Resources...)
	if res.Resources == nil {
		res.Resources = []*mcp.Resource{}
	}
	if s.perCaller {
		res.CacheScope = "private" // the apps are the caller's offer's
	}
	return res, nil
}

// readApp answers resources/read of an app offered to the caller of ctx:
// its HTML as text, with its _meta.ui. Another URI of the server's apps
// (ui://HOST/...) is not found, whether no tool has it or the caller is
// not offered the tool; any other URI is the SDK's (next): a resource
// added to SDK().
func (s *Server) readApp(ctx context.Context, req *mcp.ReadResourceRequest, next mcp.MethodHandler) (mcp.Result, error) {
	params := req.Params
	if params == nil || !strings.HasPrefix(params.URI, "ui://"+s.appHostName+"/") {
		return next(ctx, methodReadResource, req)
	}
	sp, m, ok := s.offeredApp(ctx, params.URI)
	if !ok {
		return nil, &jsonrpc.Error{Code: mcp.CodeResourceNotFound, Message: msgNoApp}
	}
	c := &mcp.ResourceContents{URI: s.appURI(sp.Name), MIMEType: AppMIMEType, Text: m.html}
	if m.resource != "" && m.resource != "{}" {
		c.Meta = mcp.Meta{"ui": json.RawMessage(m.resource)}
	}
	res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}
	res.CacheScope = "public"
	if s.perCaller {
		res.CacheScope = "private"
	}
	return res, nil
}

// appKey is the context key of the URI of the app that made a call.
type appKey struct{}

// appFrom returns the URI of the app that made the call of ctx, if a host
// said one did (MetaApp).
func appFrom(ctx context.Context) (string, bool) {
	uri, ok := ctx.Value(appKey{}).(string)
	return uri, ok
}

// appCall reads the host's mark of an app's call (MetaApp) and applies
// the extension's visibility rule to the call of the tool named name:
//
//   - marked as an app's: the URI must be that of an app offered to the
//     caller, and the tool must be visible to apps; the call's Invocation
//     then names the app as its agent (the record's Agent), and ctx says
//     the call is an app's (appFrom);
//   - naming a model's tool call (MetaCallID) and not marked: the call
//     came from the model, and a tool visible to apps only is refused;
//   - neither: the server cannot tell who made it (the host carries the
//     app's calls as its own) and serves it as any call.
//
// A refusal is a tool result with isError (res), for the model or the
// app to read; an invalid mark is a protocol error.
func (s *Server) appCall(ctx context.Context, name string, meta mcp.Meta) (_ context.Context, res mcp.Result, err error) {
	_, marked := meta[MetaApp]
	if !marked && !s.restricted {
		return ctx, nil, nil
	}
	if !marked {
		if _, fromModel := meta[MetaCallID]; !fromModel {
			return ctx, nil, nil
		}
		if sp, ok := s.offeredTool(ctx, name); ok && !appOf(sp).visible("model") {
			return ctx, errorResult(msgAppOnly), nil
		}
		return ctx, nil, nil
	}
	uri, ok := meta[MetaApp].(string)
	if !ok || uri == "" || len(uri) > MaxMetaLen || !printable(uri) {
		return ctx, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgMetaApp}
	}
	if _, _, ok := s.offeredApp(ctx, uri); !ok {
		return ctx, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgMetaApp}
	}
	if sp, ok := s.offeredTool(ctx, name); ok && !appOf(sp).visible("app") {
		return ctx, errorResult(msgModelOnly), nil
	}
	var inv tool.Invocation
	if cur, ok := tool.InvocationFrom(ctx); ok {
		inv = *cur
	}
	inv.Agent = tool.Agent{Name: uri}
	ctx = tool.WithInvocation(ctx, &inv)
	return context.WithValue(ctx, appKey{}, uri), nil, nil
}

// capabilities is what the server declares: tools; and when a tool has
// _meta.ui, the MCP Apps extension, with resources when a tool has an app.
// A server whose tools have none declares what it always did.
func (s *Server) capabilities(changing bool) *mcp.ServerCapabilities {
	c := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: changing}}
	if s.tasks != nil {
		c.AddExtension(ExtensionTasks, map[string]any{})
	}
	if s.ui {
		c.AddExtension(ExtensionUI, map[string]any{"mimeTypes": []string{AppMIMEType}})
	}
	if s.apps {
		c.Resources = &mcp.ResourceCapabilities{}
	}
	return c
}

// paramsMeta is the _meta of a resources request's params, nil for none.
func paramsMeta[P mcp.ListResourcesParams | mcp.ReadResourceParams](p *P) mcp.Meta {
	switch p := any(p).(type) {
	case *mcp.ListResourcesParams:
		if p != nil {
			return p.Meta
		}
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.Meta
		}
	}
	return nil
}
