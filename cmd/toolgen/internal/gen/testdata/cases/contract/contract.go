// Package contract is a golden case: arguments whose checks only some
// schemas call for, so that generated code uses every name of
// runtime/toolimpl it can: a string of format date-time (IsDateTime), a
// number whose multipleOf is not an integer (MultipleOf), a type that
// decodes itself while its JSONSchema hook publishes a type (the JSON
// kinds), and a uniqueItems array (HasDuplicates).
package contract

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

// In holds the arguments of contract_check.
type In struct {
	// When is a date-time kept as text.
	When string `json:"when" jsonschema:"format=date-time"`
	// Ratio is a multiple of a half.
	Ratio float64 `json:"ratio,omitempty" jsonschema:"multipleOf=0.5"`
	// At is a stamp.
	At Stamp `json:"at"`
	// Tags are distinct.
	Tags []string `json:"tags,omitempty" jsonschema:"uniqueItems=true"`
}

// Checks its arguments and answers with the date-time.
//
//tool:name contract_check
//tool:readonly
type Check struct{}

// Call answers with the date-time and the stamp.
func (Check) Call(_ context.Context, in In) (string, error) { return in.When + " " + in.At.Text, nil }
