// Package bom publishes a byte order mark (U+FEFF) in a description and in
// an enum value: Go source cannot hold one outside an escape, so the
// generated literals escape it.
package bom

import (
	"context"

	"github.com/invopop/jsonschema"
)

// Echo returns its input.
//
//tool:name echo
type Echo struct{}

// Call runs it.
func (Echo) Call(ctx context.Context, in In) (string, error) { return in.Mode, nil }

// In holds the arguments of echo.
type In struct {
	// Mode is the mode.
	Mode string "json:\"mode\" jsonschema:\"enum=plain,enum=\ufeffmarked\""
}

// JSONSchemaExtend gives the mode a description holding a byte order mark.
func (In) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("mode"); ok {
		p.Description = "\ufeffThe mode, after a byte order mark."
	}
}
