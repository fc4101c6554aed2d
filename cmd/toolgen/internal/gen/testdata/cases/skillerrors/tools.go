// Package skillerrors is a golden case: skills beside it whose SKILL.md
// breaks each rule of the Agent Skills format, one rule per folder.
package skillerrors

import "context"

// Finds notes by a word.
//
//tool:name notes_search
//tool:readonly
type Search struct{}

// Call runs it.
func (Search) Call(ctx context.Context) (string, error) { return "", nil }
