// Package descriptions shows what the model reads of doc comments: tool
// and field descriptions reflowed and without the Go identifier they
// start with when it is the sentence's subject ("Outline lists" is
// published as "Lists", "Section is one heading" as "One heading"), and
// an input type's own doc comment left out of its schema's root. Package
// kept keeps the identifiers (//tool:keepnames).
package descriptions

import (
	"context"

	"github.com/invopop/jsonschema"
)

// Outline lists the sections of a document as a tree, to find one's way
// around a long document without reading all of it.
//
// Each section gives:
//   - its heading, as written;
//   - its depth, from 1 for a top-level heading.
//
// For example, a document starting with
//
//	# Intro
//	## Scope
//
// has one section with one child.
//
//tool:name outline
type Outline struct{}

// Call runs it.
func (Outline) Call(ctx context.Context, in Section) (Section, error) { return in, nil }

// Section is one heading and the sections below it. Its doc comment is
// not the root description of outline's input, but it stays on the
// "$defs" entry the children refer to.
type Section struct {
	// Heading is the heading's text, as written in the document, without
	// the leading '#' characters.
	//
	// It may be empty.
	Heading string `json:"heading"`
	// Children are the sections one level
	// below this one.
	Children []Section `json:"children,omitempty"`
}

// Find finds documents by words.
//
//tool:name find
type Find struct{}

// Call runs it.
func (Find) Call(ctx context.Context, in FindInput) (Result, error) { return Result{}, nil }

// FindInput holds the arguments of find. Its hook gives the root a
// description of its own, which is published.
type FindInput struct {
	// Words must all appear.
	Words []string `json:"words"`
}

// JSONSchemaExtend sets the root description the model reads.
func (FindInput) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Description = "Only documents holding every word match."
}

// Result is what find returns: the names of the matching documents, best
// match first. An output keeps its type's doc comment.
type Result struct {
	// Names of the matching documents.
	Names []string `json:"names"`
	// Best match, a plain word where the field's name is not a subject:
	// kept.
	Best string `json:"best,omitempty"`
}
