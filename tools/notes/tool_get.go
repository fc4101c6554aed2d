package notes

import "context"

// Returns one note with everything it carries: title, body, tags, priority,
// color, due date, attributes, author, revision and timestamps.
//
//tool:name notes_get
//tool:readonly
//tool:title Open note
//tool:verb Opening the note
//tool:permission notes.read
type GetTool struct {
	Store *Store // the notes read
}

// GetInput holds the arguments of notes_get.
type GetInput struct {
	// The note's ID, as notes_search returns it.
	ID NoteID `json:"id" jsonschema:"pattern=^n[1-9][0-9]*$"`
}

// Call returns the note.
func (t *GetTool) Call(ctx context.Context, in GetInput) (*Note, error) {
	n, err := t.Store.Get(in.ID)
	if err != nil {
		return nil, forModel(err)
	}
	return &n, nil
}
