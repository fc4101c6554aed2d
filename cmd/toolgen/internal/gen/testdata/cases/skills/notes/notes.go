// Package notes is the notes half of the skills case: tools that skills
// beside them (skills/note-taking, skills/notes-review) pre-approve.
package notes

import "context"

// Finds notes by a word.
//
//tool:name notes_search
//tool:readonly
type Search struct{}

// SearchInput holds the arguments of notes_search.
type SearchInput struct {
	Query string `json:"query"`
}

// Call runs it.
func (Search) Call(ctx context.Context, in SearchInput) (string, error) {
	return "found " + in.Query, nil
}

// Creates a note.
//
//tool:name notes_create
type Create struct{}

// CreateInput holds the arguments of notes_create.
type CreateInput struct {
	Title string `json:"title"`
}

// Call runs it.
func (Create) Call(ctx context.Context, in CreateInput) (string, error) {
	return "created " + in.Title, nil
}
