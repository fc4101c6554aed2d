// Package embedded is a golden case: structs embedded by pointer, whose
// fields are promoted as encoding/json promotes them.
package embedded

import "context"

// Audit is embedded by pointer: its fields are optional.
type Audit struct {
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
	*Origin
}

// Origin is embedded by pointer in Audit, and named in Input.
type Origin struct {
	Host string `json:"host,omitempty"`
}

// Signed is embedded by pointer: its field is required.
type Signed struct {
	Signer string `json:"signer"`
}

// Labels has a label that Input and Output shadow.
type Labels struct {
	Label string `json:"label,omitempty"`
	Color string `json:"color,omitempty"`
}

// Input holds embedded pointers.
type Input struct {
	Query string `json:"query"`
	*Audit
	*Signed
	*Labels
	// Label shadows Labels.Label: encoding/json decodes it, and invopop
	// publishes it, since it is declared after Labels.
	Label string `json:"label,omitempty"`
	// Origin has a JSON name, so it is a property, not promoted.
	*Origin `json:"origin,omitempty"`
	// Unsigned asks the tool to return an output without its Signed.
	Unsigned bool `json:"unsigned,omitempty"`
}

// Output holds embedded pointers too.
type Output struct {
	Query string `json:"query"`
	*Audit
	*Signed
	*Labels
	Label string `json:"label,omitempty"`
}

// Echo returns what it was given.
//
//tool:name embedded_echo
type Echo struct{}

// Call echoes the input.
func (Echo) Call(ctx context.Context, in Input) (Output, error) {
	out := Output{Query: in.Query, Audit: in.Audit, Signed: in.Signed, Labels: in.Labels, Label: in.Label}
	if in.Unsigned {
		out.Signed = nil
	}
	return out, nil
}
