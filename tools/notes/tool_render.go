package notes

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Shows a note to the user, formatted as Markdown (the default) or plain
// text, with its tags, priority and due date.
//
//tool:name notes_render
//tool:readonly
//tool:kind display
//tool:title Show note
//tool:verb Rendering the note
//tool:permission notes.read
//tool:defer
//tool:ui notes_card.html
//tool:uiborder false
type RenderTool struct {
	Store *Store // the notes shown
}

// RenderInput holds the arguments of notes_render.
type RenderInput struct {
	// The note's ID.
	ID NoteID `json:"id" jsonschema:"pattern=^n[1-9][0-9]*$"`
	// Output format.
	Format string `json:"format,omitempty" jsonschema:"enum=markdown,enum=plain,default=markdown"`
}

// Call renders the note.
func (t *RenderTool) Call(ctx context.Context, in RenderInput) (string, error) {
	n, err := t.Store.Get(in.ID)
	if err != nil {
		return "", forModel(err)
	}
	var b strings.Builder
	if in.Format == "plain" {
		b.WriteString(n.Title + "\n" + strings.Repeat("=", utf8.RuneCountInString(n.Title)) + "\n")
		b.WriteString(details(n) + "\n\n")
		b.WriteString(strings.TrimRight(n.Body, "\n") + "\n")
		return b.String(), nil
	}
	b.WriteString("# " + n.Title + "\n\n")
	b.WriteString("*" + details(n) + "*\n\n")
	if body := strings.TrimRight(n.Body, "\n"); body != "" {
		// Demote the body's headings one level below the title.
		for line := range markdownLines(body) {
			if line.Level > 0 && line.Level < 6 {
				b.WriteString("#")
			}
			b.WriteString(line.Text + "\n")
		}
		b.WriteString("\n")
	}
	if len(n.Attributes) > 0 {
		b.WriteString("| attribute | value |\n|---|---|\n")
		for _, k := range slices.Sorted(maps.Keys(n.Attributes)) {
			fmt.Fprintf(&b, "| %s | %s |\n", cell(k), cell(n.Attributes[k]))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "— %s, %s (revision %d)\n", n.Author.Name, n.Updated.Format("2 Jan 2006 15:04 MST"), n.Revision)
	return b.String(), nil
}

// details is the line under a rendered title: priority, due date, tags.
func details(n Note) string {
	parts := []string{fmt.Sprintf("priority %d", n.Priority)}
	if n.Due != nil {
		parts = append(parts, "due "+n.Due.Format("2 Jan 2006"))
	}
	if len(n.Tags) > 0 {
		parts = append(parts, "tags: "+strings.Join(n.Tags, ", "))
	}
	return strings.Join(parts, " · ")
}

// cell escapes a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
