package notes

import "context"

// Lists the headings of a note as a tree of sections, to find one's way
// around a long note without reading all of it.
//
//tool:name notes_outline
//tool:readonly
//tool:title Outline note
//tool:verb Outlining the note
//tool:permission notes.read
//tool:defer
type OutlineTool struct {
	Store *Store // the notes outlined
}

// OutlineInput holds the arguments of notes_outline.
type OutlineInput struct {
	// The note's ID.
	ID NoteID `json:"id" jsonschema:"pattern=^n[1-9][0-9]*$"`
}

// Outline is the result of notes_outline.
type Outline struct {
	// The note's ID.
	ID NoteID `json:"id"`
	// The note's title.
	Title string `json:"title"`
	// The top-level sections; empty when the body has no headings.
	Sections []Section `json:"sections"`
}

// Section is a heading of a note with the sections nested under it.
type Section struct {
	// The heading's text.
	Heading string `json:"heading"`
	// The heading's level, from 1 ("#") to 6 ("######").
	Level int `json:"level"`
	// The heading's line in the body, from 1.
	Line int `json:"line"`
	// The sections under this one.
	Sections []Section `json:"sections,omitempty"`
}

// Call outlines the note.
func (t OutlineTool) Call(ctx context.Context, in OutlineInput) (Outline, error) {
	n, err := t.Store.Get(in.ID)
	if err != nil {
		return Outline{}, forModel(err)
	}
	var flat []Section
	for line := range markdownLines(n.Body) {
		if line.Level > 0 {
			flat = append(flat, Section{Heading: line.Heading, Level: line.Level, Line: line.Number})
		}
	}
	sections, _ := nest(flat, 0)
	if sections == nil {
		sections = []Section{}
	}
	return Outline{ID: n.ID, Title: n.Title, Sections: sections}, nil
}

// nest builds the tree of the headings in flat that come before the first
// one at level parent or above, and returns it with the rest of flat.
// A heading nests under the closest preceding heading of a lower level, so
// a skipped level ("#" then "###") still nests.
func nest(flat []Section, parent int) ([]Section, []Section) {
	var out []Section
	for len(flat) > 0 && flat[0].Level > parent {
		s := flat[0]
		s.Sections, flat = nest(flat[1:], s.Level)
		out = append(out, s)
	}
	return out, flat
}
