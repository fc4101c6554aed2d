package service

import (
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The summary of a proposal: the line a person reads of what confirming
// it does.

// summary says in a line what confirming the proposal does, for the
// person who confirms it: the tool's `//tool:meta confirm-text`, else the
// first sentence of its description ("Creates a note."), else its title,
// each followed by the tool's name in parentheses ("Creates a note.
// (notes_create)"); else the name alone. It never holds the arguments:
// the person sees those beside it, as data.
func summary(spec *tool.Spec) string {
	text := firstSentence(spec.Description)
	if text == "" {
		text = spec.Title
	}
	for _, m := range spec.Meta {
		if m.Key == "confirm-text" {
			text = m.Value
		}
	}
	if text == "" {
		return spec.Name
	}
	return text + " (" + spec.Name + ")"
}

// maxSentence bounds the sentence a summary takes from a description, in
// bytes: a summary is one line a person reads.
const maxSentence = 200

// firstSentence returns the first sentence of a tool's description, as
// go doc's synopsis finds it: the first paragraph, white space runs as
// one space, up to the first period, question or exclamation mark that is
// followed by a space or ends the paragraph and does not follow a single
// capital letter ("J. Smith"). A paragraph with no such end is taken
// whole. Past maxSentence bytes it is cut at a space and ends in "…".
func firstSentence(desc string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(desc), "\n\n")
	text := strings.Join(strings.Fields(para), " ")
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		if i+1 < len(text) && text[i+1] != ' ' {
			continue
		}
		if c == '.' && i >= 1 && isUpper(text[i-1]) && (i == 1 || text[i-2] == ' ') {
			continue
		}
		text = text[:i+1]
		break
	}
	if len(text) <= maxSentence {
		return text
	}
	cut := strings.LastIndexByte(text[:maxSentence], ' ')
	if cut <= 0 {
		cut = maxSentence
		for !utf8.RuneStart(text[cut]) {
			cut--
		}
	}
	return text[:cut] + "…"
}

// isUpper reports whether c is an ASCII capital letter.
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
