package palette_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// A palette tells its subscribers when what it offers changes: a grant,
// Add, the read-only binding, a skill attached; not when nothing changed.
func TestPaletteTellsOfChanges(t *testing.T) {
	_, reg, svc, _ := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read"), &palette.Options{
		Requestable:       palette.Names("e_clock", "f_act"),
		Skills:            testSkills(),
		RequestableSkills: skill.Patterns{"note*"},
	})
	require.NoError(t, err)
	var n atomic.Int64
	cancel := p.Subscribe(func() { n.Add(1) })

	_, err = p.Call(asAna(), palette.RequestTools, []byte(`{"names":["e_clock"]}`))
	require.NoError(t, err)
	assert.Equal(t, int64(1), n.Load(), "a grant")
	_, err = p.Call(asAna(), palette.RequestTools, []byte(`{"names":["e_clock","c_show"]}`))
	require.NoError(t, err)
	assert.Equal(t, int64(1), n.Load(), "already present, and a rejection: nothing changed")

	require.NoError(t, p.Add("c_show"))
	assert.Equal(t, int64(2), n.Load(), "Add")
	require.NoError(t, p.Add("c_show"))
	assert.Equal(t, int64(2), n.Load(), "Add of what is there")

	res, err := p.Call(asAna(), palette.RequestSkill, []byte(`{"names":["note-taking"]}`))
	require.NoError(t, err, res.Text())
	assert.Equal(t, int64(3), n.Load(), "a skill attached: request_skill's catalog shrank")
	_, err = p.Call(asAna(), palette.RequestSkill, []byte(`{"names":["note-taking"]}`))
	require.NoError(t, err)
	assert.Equal(t, int64(3), n.Load(), "attached already")

	p.BindReadOnly()
	assert.Equal(t, int64(4), n.Load(), "bound read-only")
	p.BindReadOnly()
	assert.Equal(t, int64(4), n.Load(), "bound already")

	cancel()
	require.NoError(t, p.Add("e_clock"))
	assert.Equal(t, int64(4), n.Load(), "cancelled")
}

// Cancelling a palette's subscription also cancels the one it took on
// its caller: a toolkit unregistered afterwards reaches nobody.
func TestPaletteSubscriptionCancelsTheCallers(t *testing.T) {
	_, reg, _, _ := newFixture(t)
	src, err := dynamic.New(reg.Tools(), nil)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{Dynamic: src})
	require.NoError(t, err)
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read"), nil)
	require.NoError(t, err)
	var n atomic.Int64
	cancel := p.Subscribe(func() { n.Add(1) })
	crm := &crmToolkit{}
	require.NoError(t, src.Register(t.Context(), crm))
	assert.Equal(t, int64(1), n.Load(), "the caller's change, passed on")
	cancel()
	src.Unregister(crm)
	assert.Equal(t, int64(1), n.Load(), "cancelled, on the caller too")
}

// Served over MCP, a palette's grant reaches the client as
// notifications/tools/list_changed, and so does a toolkit
// registered with the service behind it; the next tools/list has the
// new tools.
func TestPaletteOverMCPNotifiesClients(t *testing.T) {
	_, reg, _, _ := newFixture(t)
	src, err := dynamic.New(reg.Tools(), nil)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{Dynamic: src})
	require.NoError(t, err)
	p, err := palette.New(service.As(svc, &tool.Invocation{Principal: ana}), reg.Tools(),
		palette.Union(palette.Names("a_read"), palette.Groups("crm")), &palette.Options{Requestable: palette.Names("e_clock")})
	require.NoError(t, err)
	srv, err := mcpserver.New(p, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })

	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	notified := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { notified <- struct{}{} },
	})
	cs, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	require.True(t, cs.InitializeResult().Capabilities.Tools.ListChanged)

	list := func() []string {
		res, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	wait := func(what string) {
		select {
		case <-notified:
		case <-time.After(30 * time.Second):
			t.Fatal("no notifications/tools/list_changed after " + what)
		}
	}
	assert.Equal(t, []string{"a_read", "request_tools"}, list())

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: palette.RequestTools, Arguments: json.RawMessage(`{"names":["e_clock"]}`)})
	require.NoError(t, err)
	require.False(t, res.IsError)
	wait("a grant")
	assert.Equal(t, []string{"a_read", "e_clock"}, list(), "granted; request_tools has nothing left to admit")

	crm := &crmToolkit{}
	require.NoError(t, src.Register(ctx, crm))
	wait("a toolkit registered")
	assert.Equal(t, []string{"a_read", "crm_find", "e_clock"}, list())
}

// crmToolkit is a toolkit of one read tool.
type crmToolkit struct{}

func (*crmToolkit) Group() string                           { return "crm" }
func (*crmToolkit) Bind(context.Context, dynamic.Env) error { return nil }
func (*crmToolkit) Available(context.Context) bool          { return true }
func (*crmToolkit) Tools(context.Context) []*tool.Spec      { return crmTools }
func (*crmToolkit) Call(context.Context, string, []byte) (tool.Result, error) {
	return tool.Result{Content: []byte("found")}, nil
}

var crmTools = []*tool.Spec{{Name: "find", Kind: tool.KindRead, ReadOnly: true, Description: "Finds a contact.", InputSchema: []byte(tool.NoInputSchema)}}
