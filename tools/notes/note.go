package notes

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// NoteID identifies a note: "n" followed by a number without leading
// zeros, such as "n12". The store assigns IDs in creation order.
type NoteID string

// Valid reports whether id has the form the store assigns.
func (id NoteID) Valid() bool {
	s := string(id)
	if len(s) < 2 || len(s) > 20 || s[0] != 'n' || s[1] == '0' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// compareIDs orders IDs by creation: by number, as a shorter valid ID has
// a smaller number.
func compareIDs(a, b NoteID) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(string(a), string(b))
}

// Priority ranks a note from 1 (lowest) to 5 (highest); 3 is the default.
type Priority int

// The priorities a note can have.
const (
	MinPriority     Priority = 1
	DefaultPriority Priority = 3
	MaxPriority     Priority = 5
)

// Color is an RGB label color. In JSON it is a string "#rrggbb", through
// its MarshalText and UnmarshalText methods.
type Color struct {
	R, G, B uint8
}

// String returns the color as "#rrggbb" in lower case.
func (c Color) String() string {
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// MarshalText returns the color as "#rrggbb".
func (c Color) MarshalText() ([]byte, error) {
	return []byte(c.String()), nil
}

// errColorSyntax is the error of UnmarshalText; it does not repeat the
// text it refused, which may be anything a model sent.
var errColorSyntax = errors.New(`a color is written "#rrggbb" with six hexadecimal digits`)

// UnmarshalText parses "#rrggbb" (hexadecimal digits in either case).
func (c *Color) UnmarshalText(text []byte) error {
	if len(text) != 7 || text[0] != '#' {
		return errColorSyntax
	}
	var rgb [3]byte
	if _, err := hex.Decode(rgb[:], text[1:]); err != nil {
		return errColorSyntax
	}
	*c = Color{R: rgb[0], G: rgb[1], B: rgb[2]}
	return nil
}

// Person is the author of a note.
type Person struct {
	// Display name.
	Name string `json:"name"`
	// Email address, when known.
	Email string `json:"email,omitempty"`
}

// Timestamps records when a note was created and last changed.
type Timestamps struct {
	// When the note was created.
	Created time.Time `json:"created"`
	// When the note last changed.
	Updated time.Time `json:"updated"`
}

// Note is a note as the store keeps it and notes_get returns it.
type Note struct {
	// The note's ID.
	ID NoteID `json:"id"`
	// Title, one line.
	Title string `json:"title"`
	// Body text; Markdown headings (#, ##...) structure it.
	Body string `json:"body"`
	// Tags in lower case, sorted.
	Tags []string `json:"tags"`
	// Priority from 1 (lowest) to 5 (highest).
	Priority Priority `json:"priority"`
	// Label color, if any.
	Color *Color `json:"color,omitempty"`
	// Due date, if any.
	Due *time.Time `json:"due,omitempty"`
	// Free-form attributes, such as "budget" or "location".
	Attributes map[string]string `json:"attributes,omitempty"`
	// Who wrote the note.
	Author Person `json:"author"`
	// Counts the changes since creation, starting at 1.
	Revision uint32 `json:"revision"`
	// SHA-256 of the title and body; pass it back to notes_update to
	// refuse the update if the text changed in between.
	Checksum []byte `json:"checksum"`
	// JSON data a client keeps with the note, returned verbatim.
	Data json.RawMessage `json:"data,omitempty"`
	Timestamps
}
