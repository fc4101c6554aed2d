// Package notes has tools with mistakes, for the go vet test.
package notes

import "context"

// SearchInput is the input of Search.
type SearchInput struct {
	Query string   `json:"query"`
	Seen  chan int `json:"seen"`
}

// Search finds notes.
//
//tool:name notes_search
//tool:readnoly
type Search struct{}

// Call searches.
func (Search) Call(ctx context.Context, in SearchInput) ([]string, error) { return nil, nil }

// Delete removes a note.
//
//tool:name notes_delete
//tool:kind read
//tool:destructive
type Delete struct{}

// Call deletes.
func (Delete) Call(in SearchInput) (string, error) { return "", nil }
