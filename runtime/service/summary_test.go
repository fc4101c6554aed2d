package service

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// A proposal's summary is the tool's confirm-text, else the first
// sentence of its description, else its title, with the tool's name; else
// the name alone.
func TestSummary(t *testing.T) {
	t.Parallel()
	confirm := []tool.Meta{{Key: "audit", Value: "high"}, {Key: "confirm-text", Value: "Delete this note?"}}
	tests := []struct {
		name string
		spec tool.Spec
		want string
	}{
		{"confirm-text first", tool.Spec{Name: "notes_delete", Title: "Delete note", Description: "Deletes a note.", Meta: confirm}, "Delete this note? (notes_delete)"},
		{"description's first sentence", tool.Spec{Name: "notes_create", Title: "Create note", Description: "Creates a note. The user confirms the new note before it is saved."}, "Creates a note. (notes_create)"},
		{"title without a description", tool.Spec{Name: "vault_open", Title: "Open vault"}, "Open vault (vault_open)"},
		{"name alone", tool.Spec{Name: "vault_open"}, "vault_open"},
		{"white space only", tool.Spec{Name: "vault_open", Title: "Open vault", Description: " \n "}, "Open vault (vault_open)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, summary(&tt.spec))
		})
	}
}

// firstSentence ends a sentence as go doc's synopsis does, within the
// first paragraph, and bounds it.
func TestFirstSentence(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 60)
	tests := []struct{ name, in, want string }{
		{"one sentence", "Creates a note.", "Creates a note."},
		{"two sentences", "Creates a note. Then it is saved.", "Creates a note."},
		{"question", "Is the clock right? It asks a reference.", "Is the clock right?"},
		{"exclamation", "Deletes everything! Careful.", "Deletes everything!"},
		{"period inside a word", "Reads config.json and answers.", "Reads config.json and answers."},
		{"initial", "Calls J. Smith at home. Then hangs up.", "Calls J. Smith at home."},
		{"no end", "Creates a note", "Creates a note"},
		{"first paragraph only", "Creates a note\n\nThen saves it.", "Creates a note"},
		{"lines joined", "Creates a\nnote.\tThen saves it.", "Creates a note."},
		{"empty", "", ""},
		{"long, cut at a space", long, strings.TrimSuffix(long[:200], " ") + "…"},
		{"long, no space", strings.Repeat("é", 150), strings.Repeat("é", 100) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, firstSentence(tt.in))
		})
	}
}
