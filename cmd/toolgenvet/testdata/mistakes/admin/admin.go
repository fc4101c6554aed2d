// Package admin imports notes and declares one of its tool names again.
package admin

import (
	"context"

	"github.com/toolgen-go/toolgen/cmd/toolgenvet/testdata/mistakes/notes"
)

// Purge deletes every note.
//
//tool:name notes_search
type Purge struct{ Notes notes.Search }

// Call purges.
func (Purge) Call(ctx context.Context) (string, error) { return "", nil }
