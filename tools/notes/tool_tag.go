package notes

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Adds tags to a note and removes tags from it, and returns the note's tags.
// Adding a tag the note has, or removing one it lacks, is not an error.
//
//tool:name notes_tag
//tool:kind action
//tool:idempotent
//tool:title Tag note
//tool:verb Tagging the note
//tool:permission notes.write
type TagTool struct {
	Store *Store // the notes tagged
}

// TagInput holds the arguments of notes_tag.
type TagInput struct {
	// The note's ID.
	ID NoteID `json:"id" jsonschema:"pattern=^n[1-9][0-9]*$"`
	// Tags to add: lower-case letters, digits and '-'.
	Add []string `json:"add,omitempty" jsonschema:"maxItems=10,uniqueItems=true,pattern=^[a-z0-9][a-z0-9-]*$"`
	// Tags to remove; a tag in both lists is removed.
	Remove []string `json:"remove,omitempty" jsonschema:"maxItems=10,uniqueItems=true"`
}

// TagOutput is the result of notes_tag.
type TagOutput struct {
	// The note's ID.
	ID NoteID `json:"id"`
	// The note's tags now, sorted.
	Tags []string `json:"tags"`
	// The note's revision now; unchanged when no tag changed.
	Revision uint32 `json:"revision"`
}

// Call changes the tags.
func (t TagTool) Call(ctx context.Context, in TagInput) (TagOutput, error) {
	if len(in.Add) == 0 && len(in.Remove) == 0 {
		return TagOutput{}, tool.Errorf("nothing to do: give tags to add or to remove")
	}
	n, err := t.Store.Tag(in.ID, in.Add, in.Remove)
	if err != nil {
		return TagOutput{}, forModel(err)
	}
	return TagOutput{ID: n.ID, Tags: n.Tags, Revision: n.Revision}, nil
}
