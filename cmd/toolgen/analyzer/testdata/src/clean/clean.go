// want package:`\) tools clean_tool}$`

// Package clean declares a correct tool: the analyzer reports nothing.
package clean

import (
	"context"
	"time"
)

// In is the input.
type In struct {
	Query string            `json:"query" jsonschema:"minLength=1"`
	When  time.Time         `json:"when,omitzero"`
	Tags  map[string]string `json:"tags,omitempty"`
	Raw   []byte            `json:"raw,omitempty"`
	Any   any               `json:"any,omitempty"`
	Next  *In               `json:"next,omitempty"`
	Skip  chan int          `json:"-"`
}

// Out is the output.
type Out struct {
	Count int `json:"count"`
}

// Tool does nothing wrong.
//
//tool:name clean_tool
//tool:readonly
//tool:timeout 30s
type Tool struct{}

// Call runs it.
func (*Tool) Call(ctx context.Context, in In) (Out, error) { return Out{}, nil }

// Available says it can run.
func (*Tool) Available() error { return nil }
