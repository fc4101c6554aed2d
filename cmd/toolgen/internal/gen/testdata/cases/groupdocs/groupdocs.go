// Package groupdocs holds the mistakes with group descriptions that only
// toolgen, which sees every tools package of a run, can tell: a deferred
// tool whose group no package describes, a description of a group no tool
// is in, and a group described twice.
//
//tool:groupdoc archive Old notes, kept for reference.
//tool:groupdoc archiv Misspelled: no tool is in this group.
package groupdocs

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

// Undescribed is deferred but its group, the package's, has no description.
//
//tool:name undescribed
//tool:defer
type Undescribed struct{}

// Call runs it.
func (Undescribed) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Archived is deferred in a described group.
//
//tool:name archived
//tool:group archive
//tool:defer
type Archived struct{}

// Call runs it.
func (Archived) Call(ctx context.Context, in In) (string, error) { return "", nil }
