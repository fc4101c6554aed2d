// Package hookpanic has a schema hook that panics.
package hookpanic

import (
	"context"

	"github.com/invopop/jsonschema"
)

// In panics while its schema is reflected.
type In struct {
	A string `json:"a"`
}

// JSONSchemaExtend panics.
func (In) JSONSchemaExtend(s *jsonschema.Schema) { panic("refiner exploded") }

// Tool has the panicking input.
//
//tool:name hook_panic
type Tool struct{}

// Call runs it.
func (Tool) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Fine is unaffected.
//
//tool:name fine
type Fine struct{}

// FineIn is fine.
type FineIn struct {
	B string `json:"b"`
}

// Call runs it.
func (Fine) Call(ctx context.Context, in FineIn) (string, error) { return "", nil }
