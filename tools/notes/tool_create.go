package notes

import (
	"context"
	"time"
)

// Creates a note. The user confirms the new note before it is saved; the
// result is the note as stored, with its ID.
//
//tool:name notes_create
//tool:kind propose
//tool:title Create note
//tool:verb Creating a note
//tool:permission notes.write
//tool:timeout 5s
type CreateTool struct {
	Store  *Store // where the note is created
	Author Person // whom new notes are attributed to: the signed-in user
}

// CreateInput holds the arguments of notes_create.
type CreateInput struct {
	// Title, one line.
	Title string `json:"title" jsonschema:"minLength=1,maxLength=200"`
	// Body text in Markdown; headings (#, ##...) give it an outline.
	Body string `json:"body,omitempty" jsonschema:"maxLength=20000"`
	// Tags: lower-case letters, digits and '-'.
	Tags []string `json:"tags,omitempty" jsonschema:"maxItems=10,uniqueItems=true,pattern=^[a-z0-9][a-z0-9-]*$"`
	// Priority from 1 (lowest) to 5 (highest); 3 when omitted.
	Priority Priority `json:"priority,omitempty" jsonschema:"default=3"`
	// When the note is due, if ever.
	Due *time.Time `json:"due,omitempty"`
	// Label color.
	Color *Color `json:"color,omitempty"`
	// Free-form attributes, such as "budget" or "location"; at most 32.
	Attributes map[string]string `json:"attributes,omitempty" jsonschema:"maxProperties=32"`
}

// Call creates the note.
func (t CreateTool) Call(ctx context.Context, in CreateInput) (Note, error) {
	n, err := t.Store.Create(Draft{
		Title:      in.Title,
		Body:       in.Body,
		Tags:       in.Tags,
		Priority:   in.Priority,
		Due:        in.Due,
		Color:      in.Color,
		Attributes: in.Attributes,
		Author:     t.Author,
	})
	if err != nil {
		return Note{}, forModel(err)
	}
	return n, nil
}
