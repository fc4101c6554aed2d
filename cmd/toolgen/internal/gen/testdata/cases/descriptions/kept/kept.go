// Package kept publishes its descriptions as written: the Go identifier a
// doc comment starts with stays.
//
//tool:keepnames
package kept

import "context"

// Lookup looks a word up.
//
//tool:name lookup
type Lookup struct{}

// Call runs it.
func (Lookup) Call(ctx context.Context, in Input) (Entry, error) { return Entry{}, nil }

// Input holds the arguments of lookup.
type Input struct {
	// Word is the word to look up.
	Word string `json:"word"`
}

// Entry is the dictionary's entry for the word.
type Entry struct {
	// Meaning says what the word means.
	Meaning string `json:"meaning"`
}
