package notes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Changes a note's title, body, priority, color, attributes or data; what is
// omitted stays as it is. Pass the checksum from notes_get to refuse the
// update if someone changed the text in between.
//
//tool:name notes_update
//tool:kind action
//tool:title Update note
//tool:verb Updating the note
//tool:permission notes.write
type UpdateTool struct {
	Store *Store // the notes changed
}

// UpdateInput holds the arguments of notes_update.
type UpdateInput struct {
	// The note's ID.
	ID NoteID `json:"id" jsonschema:"pattern=^n[1-9][0-9]*$"`
	// New title.
	Title *string `json:"title,omitempty" jsonschema:"minLength=1,maxLength=200"`
	// New body, replacing the whole body.
	Body *string `json:"body,omitempty" jsonschema:"maxLength=20000"`
	// New priority.
	Priority *Priority `json:"priority,omitempty"`
	// New label color.
	Color *Color `json:"color,omitempty"`
	// Attributes to set; an empty value removes the attribute. A note has at most 32.
	Attributes map[string]string `json:"attributes,omitempty" jsonschema:"maxProperties=32"`
	// Any JSON value to keep with the note, replacing its data.
	Data any `json:"data,omitempty"`
	// The checksum the note had when last read; the update is refused if
	// it no longer matches.
	IfChecksum []byte `json:"if_checksum,omitempty"`
}

// Call applies the update and returns the note.
func (t UpdateTool) Call(ctx context.Context, in UpdateInput) (Note, error) {
	p := Patch{
		Title:      in.Title,
		Body:       in.Body,
		Priority:   in.Priority,
		Color:      in.Color,
		Attributes: in.Attributes,
		IfChecksum: in.IfChecksum,
	}
	if in.Data != nil {
		data, err := json.Marshal(in.Data)
		if err != nil {
			return Note{}, fmt.Errorf("notes_update: encode data: %w", err)
		}
		p.Data = data
	}
	n, err := t.Store.Update(in.ID, p)
	if err != nil {
		return Note{}, forModel(err)
	}
	return n, nil
}

// LogArgs is the form of the arguments that records of notes_update keep:
// the note's ID and the names of the fields the update sets, never their
// values (a body holds whatever the user wrote), such as
// "n3: title, body".
func (t UpdateTool) LogArgs(in UpdateInput) string {
	id := string(in.ID)
	if !in.ID.Valid() {
		id = "(invalid ID)"
	}
	var set []string
	for _, f := range []struct {
		name string
		on   bool
	}{
		{"title", in.Title != nil},
		{"body", in.Body != nil},
		{"priority", in.Priority != nil},
		{"color", in.Color != nil},
		{"attributes", len(in.Attributes) > 0},
		{"data", in.Data != nil},
		{"if_checksum", in.IfChecksum != nil},
	} {
		if f.on {
			set = append(set, f.name)
		}
	}
	if len(set) == 0 {
		return id + ": nothing set"
	}
	return id + ": " + strings.Join(set, ", ")
}
