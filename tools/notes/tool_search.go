package notes

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Finds the user's notes that contain every word of a query, in their title,
// body or tags, best matches first. It returns short summaries; use
// notes_get for a whole note.
//
//tool:name notes_search
//tool:readonly
//tool:kind read
//tool:title Search notes
//tool:verb Searching notes
//tool:weight 10
//tool:permission notes.read
//tool:ui notes_search.html
//tool:uiborder true
type SearchTool struct {
	Store *Store // the notes searched
}

// SearchInput holds the arguments of notes_search.
type SearchInput struct {
	// Words to look for; a note matches when it contains every word.
	Query string `json:"query" jsonschema:"minLength=1,maxLength=200"`
	// Maximum number of notes to return; 10 when omitted.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50"`
	// Only notes carrying every one of these tags.
	Tags []string `json:"tags,omitempty" jsonschema:"maxItems=10,uniqueItems=true"`
	// Only notes changed at or after this time.
	Since *time.Time `json:"since,omitempty"`
	// Order of the results: best match first, most recently changed first,
	// or least recently changed first.
	Sort Sort `json:"sort,omitempty" jsonschema:"enum=relevance,enum=newest,enum=oldest,default=relevance"`
}

// SearchOutput is the result of notes_search.
type SearchOutput struct {
	// The matching notes, at most limit of them.
	Notes []Summary `json:"notes"`
	// How many notes match in all.
	Total int `json:"total"`
	// How many matching notes carry each tag; narrow a search with them.
	TagCounts map[string]int `json:"tag_counts"`
}

// Summary is a note as search results show it.
type Summary struct {
	// The note's ID, for notes_get and the other tools.
	ID NoteID `json:"id"`
	// The note's title.
	Title string `json:"title"`
	// A few lines of the body around the first match.
	Snippet string `json:"snippet"`
	// The note's tags.
	Tags []string `json:"tags"`
	// Priority from 1 (lowest) to 5 (highest).
	Priority Priority `json:"priority"`
	// Relevance; higher is better, comparable within one search only.
	Score float64 `json:"score"`
	Timestamps
}

// DefaultSearchLimit is the number of notes notes_search returns when the
// limit is omitted.
const DefaultSearchLimit = 10

// snippetLen is the length of a summary's snippet, in runes.
const snippetLen = 120

// Call runs the search.
func (t SearchTool) Call(ctx context.Context, in SearchInput) (SearchOutput, error) {
	terms := Terms(in.Query)
	if len(terms) == 0 {
		return SearchOutput{}, tool.Errorf("the query has no words to search for; use letters or digits")
	}
	q := Query{Text: in.Query, Tags: in.Tags, Sort: in.Sort}
	if in.Since != nil {
		q.Since = *in.Since
	}
	matches, err := t.Store.Search(q)
	if err != nil {
		return SearchOutput{}, forModel(err)
	}
	limit := in.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	out := SearchOutput{
		Notes:     make([]Summary, 0, min(limit, len(matches))),
		Total:     len(matches),
		TagCounts: make(map[string]int),
	}
	for i, m := range matches {
		for _, tag := range m.Note.Tags {
			out.TagCounts[tag]++
		}
		if i >= limit {
			continue
		}
		out.Notes = append(out.Notes, Summary{
			ID:         m.Note.ID,
			Title:      m.Note.Title,
			Snippet:    snippet(m.Note.Body, terms, snippetLen),
			Tags:       m.Note.Tags,
			Priority:   m.Note.Priority,
			Score:      m.Score,
			Timestamps: m.Note.Timestamps,
		})
	}
	return out, nil
}

// snippet returns about n runes of body on one line, starting a little
// before the first occurrence of any term (or at the top), cut at word
// boundaries where it can be, with "…" where text was left out.
func snippet(body string, terms []string, n int) string {
	runes := []rune(strings.Join(strings.Fields(body), " "))
	lower := []rune(strings.ToLower(string(runes))) // rune for rune
	pos, size := -1, 0
	for _, t := range terms {
		tr := []rune(t)
		if i := indexRunes(lower, tr); i >= 0 && (pos < 0 || i < pos) {
			pos, size = i, len(tr)
		}
	}
	start := 0
	if pos > 0 {
		start = max(0, min(pos-n/4, len(runes)-n))
		if start > 0 && !unicode.IsSpace(runes[start-1]) {
			// Drop the partial word, unless that drops the match.
			if next := slices.IndexFunc(runes[start:pos], unicode.IsSpace); next >= 0 {
				start += next + 1
			} else {
				start = pos
			}
		}
	}
	end := min(len(runes), start+n)
	if end < len(runes) {
		// End at a word boundary after the match, if there is one.
		for e := end; e > max(pos+size, start); e-- {
			if unicode.IsSpace(runes[e]) {
				end = e
				break
			}
		}
	}
	out := string(runes[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}

// indexRunes returns the index of the first sub in s, or -1.
func indexRunes(s, sub []rune) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if slices.Equal(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
