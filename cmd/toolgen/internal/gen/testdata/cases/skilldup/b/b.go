// Package b holds another tool and another skill named shared-skill.
package b

import "context"

// Says goodbye.
//
//tool:name b_goodbye
type Goodbye struct{}

// Call runs it.
func (Goodbye) Call(ctx context.Context) (string, error) { return "goodbye", nil }
