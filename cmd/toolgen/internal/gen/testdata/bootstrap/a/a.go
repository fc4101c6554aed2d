// Package a is a bootstrap fixture: tool types with tags, hooks, recursion
// and values of any shape. Its init prints to standard output, which must
// not disturb the bootstrap program's results.
package a

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/bootstrap/internal/hidden"
)

func init() {
	fmt.Println(`[{"schema":{"type":"object"}}] printed by init`)
}

// Item is package a's item.
type Item struct {
	// Name names the item.
	Name string `json:"name"`
}

// SearchInput is a simple input with tags.
type SearchInput struct {
	// Query is what to look for.
	Query string     `json:"query" jsonschema:"minLength=1,maxLength=200"`
	Limit int        `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50"`
	Sort  string     `json:"sort,omitempty" jsonschema:"enum=relevance,enum=newest"`
	Since *time.Time `json:"since,omitempty"`
}

// SearchOutput is a structured output.
type SearchOutput struct {
	Items []Item `json:"items"`
	Total int    `json:"total"`
}

// Priority is refined by a hook.
type Priority int

// JSONSchemaExtend restricts priorities to 1..3.
func (Priority) JSONSchemaExtend(s *jsonschema.Schema) { s.Enum = []any{1, 2, 3} }

// Color has a custom schema.
type Color string

// JSONSchema describes a color.
func (Color) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: "^#[0-9a-f]{6}$"}
}

// HookInput uses the hooks.
type HookInput struct {
	Priority Priority `json:"priority"`
	Color    Color    `json:"color"`
}

// Boom's hook panics.
type Boom struct{}

// JSONSchemaExtend panics.
func (Boom) JSONSchemaExtend(*jsonschema.Schema) { panic("boom from a hook") }

// BoomInput refers to Boom.
type BoomInput struct {
	B Boom `json:"b"`
}

// Tree is recursive.
type Tree struct {
	Name     string `json:"name"`
	Children []Tree `json:"children,omitempty"`
}

// LooseInput holds values of any shape.
type LooseInput struct {
	Any any             `json:"any"`
	Raw json.RawMessage `json:"raw"`
}

// Word's custom schema is not an object, so it cannot be an input.
type Word struct{}

// JSONSchema describes a word.
func (Word) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }

// Secret comes from an internal package.
type Secret struct {
	Value hidden.Value `json:"value"`
}
