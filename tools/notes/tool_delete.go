package notes

import (
	"context"
	"errors"
)

// Deletes a note for good. The user confirms before anything is deleted.
// Deleting a note that does not exist succeeds with deleted set to false, so
// repeating a deletion is safe.
//
//tool:name notes_delete
//tool:kind propose
//tool:destructive
//tool:idempotent
//tool:title Delete note
//tool:verb Deleting the note
//tool:permission notes.write
//tool:permission notes.delete
//tool:meta audit high
//tool:meta confirm-text Delete this note? This cannot be undone.
type DeleteTool struct {
	Store *Store // the notes deleted from
}

// DeleteInput holds the arguments of notes_delete.
type DeleteInput struct {
	// The note's ID.
	ID NoteID `json:"id" jsonschema:"pattern=^n[1-9][0-9]*$"`
}

// DeleteOutput is the result of notes_delete.
type DeleteOutput struct {
	// The note's ID.
	ID NoteID `json:"id"`
	// Whether a note was deleted; false when there was none with this ID.
	Deleted bool `json:"deleted"`
}

// Call deletes the note.
func (t *DeleteTool) Call(ctx context.Context, in DeleteInput) (DeleteOutput, error) {
	err := t.Store.Delete(in.ID)
	switch {
	case errors.Is(err, ErrNotFound):
		return DeleteOutput{ID: in.ID}, nil
	case err != nil:
		return DeleteOutput{}, forModel(err)
	}
	return DeleteOutput{ID: in.ID, Deleted: true}, nil
}
