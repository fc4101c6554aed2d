package console_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// The catalog shows each tool's MCP App: the sample tools' apps, their
// size and SHA-256 (the bytes of their HTML files), their CSP and
// permissions, and who may call the tool; a tool without one shows none.
func TestCatalogApps(t *testing.T) {
	t.Parallel()
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	require.NoError(t, err)
	svc, err := service.New(reg, nil)
	require.NoError(t, err)
	c, err := console.New(svc, &console.Options{
		Principal: console.BearerTokens(map[string]tool.Principal{anaToken: {ID: "ana", Permissions: []string{"notes.read"}}}),
		Key:       key,
	})
	require.NoError(t, err)
	e := &env{url: mount(t, c)}

	r := e.get(t, "api/catalog", anaToken)
	require.Equal(t, http.StatusOK, r.status)
	var cat struct {
		Tools []struct {
			Name string `json:"name"`
			App  *struct {
				Bytes      int             `json:"bytes"`
				SHA256     string          `json:"sha256"`
				Resource   json.RawMessage `json:"resource"`
				Visibility []string        `json:"visibility"`
			} `json:"app"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.body), &cat))
	files := map[string]string{"notes_render": "notes_card.html", "notes_search": "notes_search.html"}
	seen := 0
	for _, tl := range cat.Tools {
		file, ok := files[tl.Name]
		if !ok {
			assert.Nil(t, tl.App, tl.Name)
			continue
		}
		seen++
		require.NotNil(t, tl.App, tl.Name)
		data, err := os.ReadFile(filepath.Join("..", "..", "tools", "notes", file))
		require.NoError(t, err)
		sum := sha256.Sum256(data)
		assert.Equal(t, hex.EncodeToString(sum[:]), tl.App.SHA256, tl.Name)
		assert.Equal(t, len(data), tl.App.Bytes, tl.Name)
		assert.Equal(t, []string{"model", "app"}, tl.App.Visibility)
		assert.NotEmpty(t, tl.App.Resource, "%s declares its border", tl.Name)
	}
	assert.Equal(t, 2, seen)

	page := e.get(t, "catalog", anaToken).body
	assert.Contains(t, page, `<div class="app" data-app="html">`)
	assert.Contains(t, page, "Called by the model and its app.")
}

// The console reads the keys runtime/mcpserver reads.
func TestAppKeysAgree(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{mcpserver.MetaUI, mcpserver.MetaUIResource, mcpserver.MetaUIHTML}, console.AppMetaKeys())
}
