package generated_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// TestSampleApps serves the sample tools over MCP and reads their apps:
// notes_render's note card and notes_search's result list, each the bytes
// of its HTML file in tools/notes (so this test also fails when an app
// was edited and go generate not run), with the tool's _meta.ui naming it.
// Provider definitions never carry _meta.ui: it is MCP's.
func TestSampleApps(t *testing.T) {
	srv, err := mcpserver.New(registry(t), &mcpserver.Options{Name: "notes"})
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(t.Context(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	apps := map[string]string{"notes_render": "notes_card.html", "notes_search": "notes_search.html"}
	res, err := cs.ListResources(t.Context(), nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	assert.Equal(t, []string{"ui://notes/notes_render", "ui://notes/notes_search"}, uris)

	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	for _, tl := range tools.Tools {
		file, ok := apps[tl.Name]
		if !ok {
			assert.Nil(t, tl.Meta, "%s has no app", tl.Name)
			continue
		}
		ui, _ := tl.Meta["ui"].(map[string]any)
		uri := mcpserver.AppURI("notes", tl.Name)
		assert.Equal(t, uri, ui["resourceUri"], tl.Name)
		read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join("..", "tools", "notes", file))
		require.NoError(t, err)
		require.Len(t, read.Contents, 1)
		assert.Equal(t, string(want), read.Contents[0].Text, "%s is stale: run go generate ./tools/...", file)
		assert.Equal(t, mcpserver.AppMIMEType, read.Contents[0].MIMEType)
		// Light and dark from the host's context, and no external load.
		assert.Contains(t, read.Contents[0].Text, `data-theme="dark"`, file)
		assert.NotContains(t, read.Contents[0].Text, "<script src", file)
	}
	defs, err := providers.NewDefinitions(registry(t))
	require.NoError(t, err)
	for _, all := range [][]byte{defs.OpenAIChat(), defs.OpenAIResponses(), defs.Anthropic(), defs.Gemini()} {
		assert.NotContains(t, string(all), "ui://")
		assert.NotContains(t, string(all), "modelcontextprotocol/ui")
		assert.NotContains(t, string(all), "<!doctype")
	}
	for name := range apps {
		sp, ok := registry(t).Lookup(name)
		require.True(t, ok)
		var n int
		for _, m := range sp.Meta {
			if strings.HasPrefix(m.Key, mcpserver.MetaUI) {
				n++
			}
		}
		assert.Equal(t, 3, n, "%s carries its app in three reserved Meta pairs", name)
		assert.NotEqual(t, tool.KindPropose, sp.Kind)
	}
}
