package console

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The tool.Meta keys toolgen writes for a tool with an MCP App
// (//tool:ui) or a visibility: runtime/mcpserver's MetaUI,
// MetaUIResource and MetaUIHTML (the console does not link the MCP
// server).
const (
	metaUI         = "io.modelcontextprotocol/ui"
	metaUIResource = "io.modelcontextprotocol/ui/resource"
	metaUIHTML     = "io.modelcontextprotocol/ui/html"
)

// catalogApp is what the catalog shows of a tool's MCP App: its size and
// SHA-256 (the bytes an MCP host renders, embedded by toolgen), the
// resource's _meta.ui (CSP domains, permissions, border) and who may call
// the tool (its _meta.ui visibility; both when unset).
type catalogApp struct {
	// Bytes is the size of the app's HTML.
	Bytes int
	// SHA256 is the HTML's SHA-256, hex.
	SHA256 string
	// Resource is the app resource's _meta.ui, JSON; nil when it declares
	// nothing.
	Resource json.RawMessage
	// Visibility lists who may call the tool: "model", "app".
	Visibility []string
}

// appOf returns the app of spec, nil when it has none and no visibility.
func appOf(spec *tool.Spec) *catalogApp {
	var ui, res, html string
	var hasHTML bool
	for _, kv := range spec.Meta {
		switch kv.Key {
		case metaUI:
			ui = kv.Value
		case metaUIResource:
			res = kv.Value
		case metaUIHTML:
			html, hasHTML = kv.Value, true
		}
	}
	if ui == "" && !hasHTML {
		return nil
	}
	a := &catalogApp{Visibility: []string{"model", "app"}}
	var meta struct {
		Visibility []string `json:"visibility"`
	}
	if json.Unmarshal([]byte(ui), &meta) == nil && meta.Visibility != nil {
		a.Visibility = meta.Visibility
	}
	if hasHTML {
		sum := sha256.Sum256([]byte(html))
		a.Bytes, a.SHA256 = len(html), hex.EncodeToString(sum[:])
		if res != "" && res != "{}" && json.Valid([]byte(res)) {
			a.Resource = json.RawMessage(res)
		}
	}
	return a
}

// apiApp is a tool's app in the JSON API's catalog.
type apiApp struct {
	Bytes      int             `json:"bytes,omitempty"`
	SHA256     string          `json:"sha256,omitempty"`
	Resource   json.RawMessage `json:"resource,omitempty"`
	Visibility []string        `json:"visibility"`
}
