// Package keywords publishes keywords toolgen cannot enforce.
package keywords

import "context"

// In has unenforceable keywords.
type In struct {
	Email string            `json:"email" jsonschema:"format=email"`
	Code  string            `json:"code" jsonschema:"pattern=^(?=a)$"`
	Attrs map[string]string `json:"attrs" jsonschema_extras:"minProperties=1"`
	Kind  string            `json:"kind" jsonschema:"type=integer"`
	Pairs []map[string]int  `json:"pairs" jsonschema:"uniqueItems=true"`
}

// Tool has them.
//
//tool:name keywords
type Tool struct{}

// Call runs it.
func (Tool) Call(ctx context.Context, in In) (string, error) { return "", nil }
