// Package comments is a fixture for reading doc comments the way invopop's
// AddGoComments reads them.
package comments

import "time"

// Store keeps [Note] values in memory. This second sentence is not part of
// the synopsis.
type Store struct {
	// Notes are the stored notes,
	// in creation order.
	//
	// A second paragraph.
	Notes []Note
	Limit int // Limit caps the number of notes.
	// A, B share this comment.
	A, B   string
	hidden int // hidden is unexported.
	// Nested is an anonymous struct; its fields are recorded under Store.
	Nested struct {
		// Inner is inside an anonymous struct.
		Inner string
	}
}

// The declaration's comment describes the first type without its own.
type (
	// Note is one note.
	Note struct {
		Title string // Title is the title.
	}
	Grouped struct{}
	Later   struct{}
)

// Started is when the package was loaded; this comment is not carried over
// to the next type.
var Started = time.Now()

type Undocumented struct {
	Field string
}

// unexported is not recorded.
type unexported struct {
	// Field is not recorded either.
	Field string
}

// Copyright notices make an empty synopsis, as go/doc rules.
type Old struct{}

var _ = unexported{}
