package servicemcp_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// The app fixture's tools, in name order: notes_card (display, an app,
// notes.read), notes_delete (propose, notes.write), notes_editor (action,
// an app, notes.write) and notes_refresh (read, for apps only,
// notes.read). ana holds both permissions, ben only notes.read.
const (
	aCard = iota
	aDelete
	aEditor
	aRefresh
)

const (
	cardHTML      = "<!doctype html><p>card</p>"
	editorHTML    = "<!doctype html><p>editor</p>"
	cardResource  = `{"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":true}`
	serverName    = "Notes Server"
	cardURI       = "ui://notes-server/notes_card"
	editorURI     = "ui://notes-server/notes_editor"
	modelCallMeta = "io.github.toolgen-go/call-id"
)

// appFixture is a registry of tools with apps, as toolgen generates their
// Specs (the reserved Meta pairs); runs counts what each ran.
type appFixture struct {
	reg  tool.Registry
	runs [aRefresh + 1]atomic.Int64
}

func newAppFixture(t *testing.T) *appFixture {
	t.Helper()
	f := &appFixture{}
	obj := []byte(`{"type":"object","properties":{"id":{"type":"integer"}}}`)
	specs := []*tool.Spec{
		aCard: {Name: "notes_card", Title: "Note card", Kind: tool.KindDisplay, ReadOnly: true, Permissions: []string{"notes.read"}, InputSchema: obj,
			Meta: []tool.Meta{{Key: mcpserver.MetaUI, Value: "{}"}, {Key: mcpserver.MetaUIResource, Value: cardResource}, {Key: mcpserver.MetaUIHTML, Value: cardHTML}}},
		aDelete: {Name: "notes_delete", Kind: tool.KindPropose, Destructive: true, Permissions: []string{"notes.write"}, InputSchema: obj},
		aEditor: {Name: "notes_editor", Kind: tool.KindAction, Permissions: []string{"notes.write"}, InputSchema: obj,
			Meta: []tool.Meta{{Key: mcpserver.MetaUI, Value: "{}"}, {Key: mcpserver.MetaUIResource, Value: "{}"}, {Key: mcpserver.MetaUIHTML, Value: editorHTML}}},
		aRefresh: {Name: "notes_refresh", Kind: tool.KindRead, ReadOnly: true, Permissions: []string{"notes.read"}, InputSchema: obj,
			Meta: []tool.Meta{{Key: mcpserver.MetaUI, Value: `{"visibility":["app"]}`}}},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, func(_ context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
			return 0, err
		}
		f.runs[i].Add(1)
		out.RawText("ran " + specs[i].Name)
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(t, err)
	f.reg = reg
	return f
}

// newAppInstance serves f through a service, named serverName, asking
// for confirmations.
func newAppInstance(t *testing.T, f *appFixture) *instance {
	t.Helper()
	svc, err := service.New(f.reg, nil)
	require.NoError(t, err)
	srv, err := mcpserver.New(svc, &mcpserver.Options{Name: serverName, Confirm: &mcpserver.ConfirmOptions{Key: key, Confirmer: servicemcp.Confirmer(svc)}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return &instance{svc: svc, srv: srv}
}

// The server declares the extension and resources, marks its tools with
// _meta.ui, and lists and serves to each person the apps of the tools
// they are offered, and only those.
func TestAppsServedPerPrincipal(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			t.Parallel()
			in := newAppInstance(t, newAppFixture(t))
			ctx := t.Context()
			anaS := dialMemory(t, in, ana, protocol, nil)
			benS := dialMemory(t, in, ben, protocol, nil)

			if init := anaS.InitializeResult(); init != nil {
				caps := init.Capabilities
				require.NotNil(t, caps.Resources, "resources declared")
				assert.Equal(t, map[string]any{"mimeTypes": []any{mcpserver.AppMIMEType}}, caps.Extensions[mcpserver.ExtensionUI])
			}

			tools, err := anaS.ListTools(ctx, nil)
			require.NoError(t, err)
			meta := map[string]any{}
			for _, tl := range tools.Tools {
				meta[tl.Name] = tl.Meta["ui"]
			}
			assert.Equal(t, map[string]any{
				"notes_card":    map[string]any{"resourceUri": cardURI},
				"notes_delete":  nil,
				"notes_editor":  map[string]any{"resourceUri": editorURI},
				"notes_refresh": map[string]any{"visibility": []any{"app"}},
			}, meta)

			uris := func(cs *mcp.ClientSession) []string {
				res, err := cs.ListResources(ctx, nil)
				require.NoError(t, err)
				var out []string
				for _, r := range res.Resources {
					assert.Equal(t, mcpserver.AppMIMEType, r.MIMEType)
					out = append(out, r.URI)
				}
				return out
			}
			assert.Equal(t, []string{cardURI, editorURI}, uris(anaS))
			assert.Equal(t, []string{cardURI}, uris(benS), "ben is not offered notes_editor: nor its app")

			res, err := benS.ReadResource(ctx, &mcp.ReadResourceParams{URI: cardURI})
			require.NoError(t, err)
			require.Len(t, res.Contents, 1)
			c := res.Contents[0]
			assert.Equal(t, cardURI, c.URI)
			assert.Equal(t, mcpserver.AppMIMEType, c.MIMEType)
			assert.Equal(t, cardHTML, c.Text)
			ui, err := json.Marshal(c.Meta["ui"])
			require.NoError(t, err)
			assert.JSONEq(t, cardResource, string(ui))

			for _, uri := range []string{editorURI, "ui://other/notes_card", "ui://notes-server/notes_delete", "https://example.com"} {
				_, err = benS.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
				var we *jsonrpc.Error
				require.ErrorAs(t, err, &we, uri)
				assert.Equal(t, int64(mcp.CodeResourceNotFound), we.Code, uri)
				assert.NotContains(t, we.Message, "ui://", "the URI is not quoted back")
			}
			_, err = anaS.ReadResource(ctx, &mcp.ReadResourceParams{URI: editorURI})
			require.NoError(t, err, "ana is offered notes_editor")
		})
	}
}

// A server whose tools have no app declares neither the extension nor
// resources, and its tools carry no _meta.
func TestNoAppsNoExtension(t *testing.T) {
	t.Parallel()
	in := newInstance(t, newFixture(t), nil, false, nil)
	cs := dialMemory(t, in, ana, "2025-11-25", nil)
	caps := cs.InitializeResult().Capabilities
	assert.Nil(t, caps.Resources)
	assert.Nil(t, caps.Extensions)
	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	for _, tl := range tools.Tools {
		assert.Nil(t, tl.Meta, tl.Name)
	}
}

// An app's call (the host's MetaApp mark) goes through the call service
// like any other, recorded with the app as its agent; the visibility
// rule refuses an app-only tool called by the model, and a mark naming
// an app the person is not offered is refused.
func TestAppCalls(t *testing.T) {
	t.Parallel()
	f := newAppFixture(t)
	in := newAppInstance(t, f)
	ctx := t.Context()
	anaS := dialMemory(t, in, ana, "", nil)
	benS := dialMemory(t, in, ben, "", nil)

	// The model calls the app-only tool: refused, nothing ran.
	res, err := anaS.CallTool(ctx, &mcp.CallToolParams{Name: "notes_refresh", Arguments: map[string]any{}, Meta: mcp.Meta{modelCallMeta: "call-1"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "called by its app only")
	assert.Zero(t, f.runs[aRefresh].Load())

	// The app calls it through the host: it runs, recorded as the app's.
	res, err = anaS.CallTool(ctx, &mcp.CallToolParams{Name: "notes_refresh", Arguments: map[string]any{}, Meta: mcp.Meta{mcpserver.MetaApp: cardURI}})
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(res))
	assert.Equal(t, "ran notes_refresh", textOf(res))
	assert.EqualValues(t, 1, f.runs[aRefresh].Load())
	recs, err := in.svc.Records(ctx, service.Query{Tool: "notes_refresh"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, cardURI, recs[0].Agent, "the record names the app")
	assert.Equal(t, "ana", recs[0].Principal)

	// Unmarked and without a model's call ID: the server cannot tell.
	res, err = anaS.CallTool(ctx, &mcp.CallToolParams{Name: "notes_refresh", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.False(t, res.IsError, textOf(res))

	// ben marks a call with the app of a tool he is not offered.
	_, err = benS.CallTool(ctx, &mcp.CallToolParams{Name: "notes_refresh", Arguments: map[string]any{}, Meta: mcp.Meta{mcpserver.MetaApp: editorURI}})
	var we *jsonrpc.Error
	require.ErrorAs(t, err, &we)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code)
	// An app's call of a tool ben is not offered: the service refuses it
	// as it refuses any (unknown to him), and records it.
	_, err = benS.CallTool(ctx, &mcp.CallToolParams{Name: "notes_editor", Arguments: map[string]any{}, Meta: mcp.Meta{mcpserver.MetaApp: cardURI}})
	require.ErrorAs(t, err, &we)
	assert.Zero(t, f.runs[aEditor].Load())
	recs, err = in.svc.Records(ctx, service.Query{Principal: "ben", Tool: "notes_editor"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, cardURI, recs[0].Agent)
	assert.Equal(t, service.OutcomeRefused, recs[0].Outcome)
}

// A propose tool called from an app is proposed, never confirmed there:
// the server does not ask (the question would reach the app, which could
// answer it itself), and refuses an app's call carrying an answer.
func TestAppNeverConfirms(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			t.Parallel()
			f := newAppFixture(t)
			in := newAppInstance(t, f)
			a := &answer{action: "accept"}
			cs := dialMemory(t, in, ana, protocol, clientOptions(a, true))
			ctx := t.Context()

			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_delete", Arguments: map[string]any{"id": 7}, Meta: mcp.Meta{mcpserver.MetaApp: editorURI}})
			require.NoError(t, err)
			assert.Empty(t, res.InputRequests, "no question goes back through the app")
			o := outcomeOf(t, res)
			assert.Equal(t, "proposed", o.Status)
			assert.Empty(t, a.questions(), "no question asked")
			assert.Zero(t, f.runs[aDelete].Load())

			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_delete", Arguments: map[string]any{"id": 7}, Meta: mcp.Meta{mcpserver.MetaApp: editorURI},
				RequestState: "forged", InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, textOf(res), "never from inside an app")
			assert.Zero(t, f.runs[aDelete].Load())

			// The same call from the host's model is asked of the person.
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_delete", Arguments: map[string]any{"id": 7}})
			require.NoError(t, err)
			if protocol == "" {
				assert.NotEmpty(t, res.InputRequests, "the person is asked through the host")
			} else {
				assert.Equal(t, "confirmed", outcomeOf(t, res).Status)
				assert.Len(t, a.questions(), 1)
			}
		})
	}
}

// An app's call meets what any call meets in front of the service: a
// read-only palette offers neither the mutating tool nor its app, and
// refuses the app's call of it, which never runs.
func TestAppCallsThroughReadOnlyPalette(t *testing.T) {
	t.Parallel()
	f := newAppFixture(t)
	svc, err := service.New(f.reg, nil)
	require.NoError(t, err)
	p, err := palette.New(svc, f.reg.Tools(), palette.Names("notes_card", "notes_delete", "notes_editor", "notes_refresh"), &palette.Options{ReadOnly: true})
	require.NoError(t, err)
	srv, err := mcpserver.New(p, &mcpserver.Options{Name: serverName})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	cs := dialMemory(t, &instance{svc: svc, srv: srv}, ana, "", nil)
	ctx := t.Context()

	res, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	require.Len(t, res.Resources, 1)
	assert.Equal(t, cardURI, res.Resources[0].URI, "the read-only palette sweeps notes_editor, and its app")

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_editor", Arguments: map[string]any{}, Meta: mcp.Meta{mcpserver.MetaApp: cardURI}})
	require.Error(t, err, "not in the palette: unknown")
	assert.Zero(t, f.runs[aEditor].Load())

	out, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_refresh", Arguments: map[string]any{}, Meta: mcp.Meta{mcpserver.MetaApp: cardURI}})
	require.NoError(t, err)
	assert.False(t, out.IsError, textOf(out))
	recs, err := svc.Records(ctx, service.Query{Tool: "notes_refresh"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, cardURI, recs[0].Agent)
}

// Resources added to SDK() are served beside the apps: listed after them,
// and read by the SDK.
func TestAppsBesideSDKResources(t *testing.T) {
	t.Parallel()
	in := newAppInstance(t, newAppFixture(t))
	in.srv.SDK().AddResource(&mcp.Resource{URI: "file:///notes/README", Name: "readme", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///notes/README", MIMEType: "text/plain", Text: "read me"}}}, nil
		})
	cs := dialMemory(t, in, ben, "", nil)
	ctx := t.Context()
	res, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	assert.Equal(t, []string{cardURI, "file:///notes/README"}, uris)
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///notes/README"})
	require.NoError(t, err)
	assert.Equal(t, "read me", read.Contents[0].Text)
	read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: cardURI})
	require.NoError(t, err)
	assert.Equal(t, cardHTML, read.Contents[0].Text)
}
