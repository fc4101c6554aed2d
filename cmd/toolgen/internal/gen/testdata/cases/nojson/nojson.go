// Package nojson is a golden case: tools whose packages use no
// encoding/json, so that the registry generated from them links no
// encoding/json at all (internal/layout checks it with go list -deps).
package nojson

import (
	"context"
	"time"
)

// Reminder is one reminder.
type Reminder struct {
	// What to be reminded of.
	Text string `json:"text" jsonschema:"minLength=1,maxLength=200"`
	// When, in RFC 3339.
	At time.Time `json:"at"`
	// Labels, at most four.
	Labels []string `json:"labels,omitempty" jsonschema:"maxItems=4"`
}

// AddInput holds a new reminder.
type AddInput struct {
	Reminder Reminder          `json:"reminder"`
	Notes    map[string]string `json:"notes,omitempty"`
	Repeat   int               `json:"repeat,omitempty" jsonschema:"minimum=0,maximum=10"`
}

// AddOutput says what was stored.
type AddOutput struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

// Adds a reminder.
//
//tool:name nojson_add
type AddTool struct{}

// Call stores nothing and answers with an id.
func (AddTool) Call(_ context.Context, in AddInput) (AddOutput, error) {
	return AddOutput{ID: "r1", Count: 1 + in.Repeat}, nil
}

// Says hello.
//
//tool:name nojson_hello
//tool:readonly
type HelloTool struct{}

// Call answers with plain text.
func (HelloTool) Call(context.Context) (string, error) { return "hello", nil }
