package mcpserver_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestAppURI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ server, want string }{
		{"", "ui://toolgen/notes_render"},
		{"notes", "ui://notes/notes_render"},
		{"Notes Server", "ui://notes-server/notes_render"},
		{"  Ünïcode / Tools!! ", "ui://n-code-tools/notes_render"},
		{"---", "ui://toolgen/notes_render"},
		{"api.example.com", "ui://api.example.com/notes_render"},
	} {
		assert.Equal(t, c.want, mcpserver.AppURI(c.server, "notes_render"), c.server)
	}
}

// The tool object of a tool with an app ends with its _meta.ui, written
// once with the listing: resourceUri first, then what toolgen wrote; a
// tool without _meta.ui is written as before.
func TestListAppToolBytes(t *testing.T) {
	t.Parallel()
	reg := newStatic(t,
		fakeTool{spec: tool.Spec{Name: "card", Kind: tool.KindDisplay, ReadOnly: true, Meta: []tool.Meta{
			{Key: "audit", Value: "low"},
			{Key: mcpserver.MetaUI, Value: `{"visibility":["model","app"]}`},
			{Key: mcpserver.MetaUIResource, Value: `{"prefersBorder":true}`},
			{Key: mcpserver.MetaUIHTML, Value: "<!doctype html>"},
		}}},
		fakeTool{spec: tool.Spec{Name: "plain", Kind: tool.KindRead, ReadOnly: true}},
		fakeTool{spec: tool.Spec{Name: "refresh", Kind: tool.KindRead, ReadOnly: true, Meta: []tool.Meta{{Key: mcpserver.MetaUI, Value: `{"visibility":["app"]}`}}}},
	)
	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "Cards"})
	require.NoError(t, err)
	_, _, raw := listed(t, t.Context(), srv)
	hints := `"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}`
	assert.Contains(t, string(raw), `{"name":"card","inputSchema":`+tool.NoInputSchema+`,`+hints+`,"_meta":{"ui":{"resourceUri":"ui://cards/card","visibility":["model","app"]}}}`)
	assert.Contains(t, string(raw), `{"name":"plain","inputSchema":`+tool.NoInputSchema+`,`+hints+`}`)
	assert.Contains(t, string(raw), `{"name":"refresh","inputSchema":`+tool.NoInputSchema+`,`+hints+`,"_meta":{"ui":{"visibility":["app"]}}}`)
}
