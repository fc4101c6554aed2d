// Package kindcheck is a golden case: an argument whose type decodes
// itself (UnmarshalJSON) while its JSONSchema hook publishes a type, so
// that the generated decoder checks the value's JSON kind (Decoder.Kind
// against a jsonlex.Kind) before handing its raw bytes over.
package kindcheck

import (
	"context"
	"errors"

	"github.com/invopop/jsonschema"
)

// Stamp is a date the model writes as a string; it decodes itself.
type Stamp struct{ Text string }

// UnmarshalJSON keeps the string's text; it never sees another kind.
func (s *Stamp) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' {
		return errors.New("a stamp is a string")
	}
	s.Text = string(b[1 : len(b)-1])
	return nil
}

// JSONSchema publishes a stamp as a string.
func (Stamp) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: "A date, such as 2025-03-20."}
}

// EchoInput holds the stamp.
type EchoInput struct {
	At Stamp `json:"at"`
}

// Echoes a stamp.
//
//tool:name kindcheck_echo
//tool:readonly
type Echo struct{}

// Call answers with the stamp's text.
func (Echo) Call(_ context.Context, in EchoInput) (string, error) { return in.At.Text, nil }
