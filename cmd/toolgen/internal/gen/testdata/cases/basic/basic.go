// Package basic is a golden case: tools of every shape toolgen supports.
package basic

import (
	"context"
	"encoding/json"
	"time"

	"github.com/invopop/jsonschema"
)

// Level is a named integer with its enum declared by a hook.
type Level int

// JSONSchemaExtend publishes the levels.
func (Level) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Enum = []any{1, 2, 3}
}

// Code is decoded from text.
type Code string

// UnmarshalText accepts codes of two to eight characters.
func (c *Code) UnmarshalText(b []byte) error {
	if len(b) < 2 || len(b) > 8 {
		return errBadCode
	}
	*c = Code(b)
	return nil
}

// MarshalText writes the code.
func (c Code) MarshalText() ([]byte, error) { return []byte(c), nil }

type codeError struct{}

func (codeError) Error() string { return "bad code" }

var errBadCode error = codeError{}

// Item is one entry.
type Item struct {
	// Name names the item.
	Name  string            `json:"name" jsonschema:"minLength=1,maxLength=40,pattern=^[a-z]+$"`
	Count uint8             `json:"count,omitempty" jsonschema:"maximum=10"`
	Tags  []string          `json:"tags,omitempty" jsonschema:"uniqueItems=true,maxItems=4"`
	Attrs map[string]string `json:"attrs,omitempty"`
}

// Tree is recursive.
type Tree struct {
	Label    string `json:"label"`
	Children []Tree `json:"children,omitempty"`
}

// Input exercises the supported shapes.
type Input struct {
	// Query is required.
	Query  string          `json:"query" jsonschema:"minLength=1"`
	Limit  int             `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50"`
	Ratio  float64         `json:"ratio,omitempty" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
	Step   int64           `json:"step,omitempty" jsonschema:"multipleOf=5"`
	Sort   string          `json:"sort,omitempty" jsonschema:"enum=asc,enum=desc"`
	Level  Level           `json:"level,omitempty"`
	Since  *time.Time      `json:"since,omitempty"`
	When   time.Time       `json:"when"`
	Wait   time.Duration   `json:"wait,omitempty"`
	Items  []Item          `json:"items,omitempty" jsonschema:"minItems=1"`
	Pair   [2]int          `json:"pair,omitempty"`
	Tree   *Tree           `json:"tree,omitempty"`
	Extra  any             `json:"extra,omitempty"`
	Raw    json.RawMessage `json:"raw,omitempty"`
	Code   Code            `json:"code,omitempty"`
	Blob   []byte          `json:"blob,omitempty"`
	Flag   bool            `json:"flag,omitempty"`
	Short  string          `json:"short,omitempty" jsonschema:"minLength=2,maxLength=3"`
	Maybe  *string         `json:"maybe" jsonschema:"nullable"`
	Nested struct {
		On bool `json:"on"`
	} `json:"nested,omitempty"`
	Embedded
	Weight float32 `json:"weight,omitempty" jsonschema:"minimum=0.1,maximum=2"`
}

// Embedded is flattened into Input.
type Embedded struct {
	Note string `json:"note,omitempty"`
}

// Output is structured.
type Output struct {
	Items []Item         `json:"items"`
	Total int            `json:"total"`
	Next  *string        `json:"next,omitempty"`
	At    time.Time      `json:"at"`
	Meta  map[string]any `json:"meta"`
	Code  Code           `json:"code"`
	Tree  Tree           `json:"tree"`
	Score float32        `json:"score"`
}

// Search searches everything.
//
// It is the golden case's main tool.
//
//tool:name basic_search
//tool:readonly
//tool:title Search
//tool:verb Searching
//tool:weight 3
//tool:timeout 2s
//tool:permission basic.read
//tool:meta team search
type Search struct{ Prefix string }

// Call runs the search.
func (s *Search) Call(ctx context.Context, in Input) (Output, error) {
	return Output{Items: in.Items, Total: len(in.Items), At: in.When, Tree: Tree{Label: s.Prefix + in.Query}}, nil
}

// Ping answers pong.
//
//tool:name basic_ping
//tool:kind display
//tool:idempotent
type Ping struct{}

// Call answers.
func (Ping) Call(ctx context.Context) (string, error) { return "pong", nil }

// Delete deletes an item.
//
//tool:name basic_delete
//tool:kind propose
//tool:destructive
//tool:openworld
//tool:group danger
type Delete struct{}

// DeleteInput names the item.
type DeleteInput struct {
	Name string `json:"name"`
}

// Call deletes.
func (*Delete) Call(ctx context.Context, in DeleteInput) ([]string, error) {
	return []string{in.Name}, nil
}

// Remote needs a key.
//
//tool:name basic_remote
//tool:readonly
type Remote struct{ Key string }

// Available reports a missing key.
func (r *Remote) Available() error {
	if r.Key == "" {
		return errBadCode
	}
	return nil
}

// Call returns a pointer output.
func (r *Remote) Call(ctx context.Context, in DeleteInput) (*Item, error) {
	return &Item{Name: in.Name}, nil
}
