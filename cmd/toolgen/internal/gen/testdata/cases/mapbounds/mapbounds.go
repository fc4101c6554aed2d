// Package mapbounds bounds maps: minProperties and maxProperties in the
// jsonschema tag (toolgen's extension: invopop reads no object keyword
// from the tag, so toolgen publishes them itself) or set by a hook, and
// enforced by the generated map decoders.
package mapbounds

import (
	"context"

	"github.com/invopop/jsonschema"
)

// Label labels things.
//
//tool:name label
type Label struct{}

// Call runs it.
func (Label) Call(ctx context.Context, in In) (int, error) { return len(in.Attrs), nil }

// In holds the arguments of label.
type In struct {
	// Attrs are one to three attributes.
	Attrs map[string]string `json:"attrs" jsonschema:"minProperties=1,maxProperties=3"`
	// Counts are at most two counts.
	Counts *map[string]int `json:"counts,omitempty" jsonschema:"maxProperties=2"`
	// Items each carry labels.
	Items []Item `json:"items,omitempty"`
	// Meta is bounded by the hook of In.
	Meta map[string]string `json:"meta,omitempty"`
}

// Item is one labelled item.
type Item struct {
	// Labels are at most four labels.
	Labels map[string]string `json:"labels" jsonschema:"maxProperties=4"`
}

// JSONSchemaExtend bounds Meta, as a hook may.
func (In) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("meta"); ok {
		n := uint64(5)
		p.MaxProperties = &n
	}
}
