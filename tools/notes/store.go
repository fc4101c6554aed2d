package notes

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits the store enforces on what it keeps, so that no sequence of
// calls grows it, or one note, without bound: a model calling
// notes_update in a loop with new attributes once grew a process to
// 740 MB, and the note past what a tool result may hold, so that no call
// could read it again. Each limit is refused with a *ValidationError that
// says what to do.
const (
	MaxTitleLen          = 200      // runes
	MaxBodyLen           = 20000    // runes
	MaxTags              = 10       // per note
	MaxTagLen            = 32       // bytes
	MaxAttributes        = 32       // per note, after an update's changes are merged
	MaxAttributeNameLen  = 64       // bytes
	MaxAttributeValueLen = 1000     // runes
	MaxDataLen           = 16 << 10 // bytes of JSON
	MaxNotes             = 1000     // per store
	// MaxRevision is the last revision a note can reach: Revision is a
	// uint32, which would wrap to 0 past it.
	MaxRevision = math.MaxUint32
)

var (
	// ErrNotFound is in the chain of every error about a note that does
	// not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict is in the chain of the error of an update whose
	// checksum no longer matches the note.
	ErrConflict = errors.New("changed since the given checksum")
)

// ValidationError reports a value the store refuses.
type ValidationError struct {
	Field   string // the field refused, e.g. "title" or "tags[2]"
	Problem string // what is wrong, without repeating the value
}

// Error returns "field: problem".
func (e *ValidationError) Error() string { return e.Field + ": " + e.Problem }

// tagPattern is the form of a tag once normalized.
var tagPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Draft is a new note for [Store.Create].
type Draft struct {
	Title      string
	Body       string
	Tags       []string          // normalized: trimmed, lower case, sorted, duplicates dropped
	Priority   Priority          // zero means DefaultPriority
	Color      *Color            // nil: no color
	Due        *time.Time        // nil: no due date
	Attributes map[string]string // empty values are dropped
	Author     Person
	Data       json.RawMessage // nil: no data; otherwise valid JSON
}

// Patch changes a note in [Store.Update]. Nil fields are left as they are.
type Patch struct {
	Title      *string
	Body       *string
	Priority   *Priority
	Color      *Color
	Attributes map[string]string // merged; an empty value deletes the key
	Data       json.RawMessage   // nil keeps the data; otherwise valid JSON
	// IfChecksum, when set, refuses the update with ErrConflict unless it
	// equals the note's Checksum.
	IfChecksum []byte
}

// Sort orders search results.
type Sort string

// The orders [Store.Search] knows.
const (
	SortRelevance Sort = "relevance" // best score first (the default)
	SortNewest    Sort = "newest"    // most recently updated first
	SortOldest    Sort = "oldest"    // least recently updated first
)

// Query selects notes in [Store.Search].
type Query struct {
	Text  string    // every word (see [Terms]) must appear in the title, body or tags; empty matches every note
	Tags  []string  // every tag must be on the note
	Since time.Time // only notes updated at or after Since; zero for all
	Sort  Sort      // empty means SortRelevance
}

// Match is a note found by [Store.Search] with its relevance score.
type Match struct {
	Note  Note
	Score float64 // higher is better; comparable within one search only
}

// Store is a concurrency-safe in-memory notes store. The zero value is not
// usable; create one with [NewStore] or [NewDemoStore]. Every note it
// returns is a copy the caller may change.
type Store struct {
	now func() time.Time

	mu     sync.RWMutex
	last   uint64 // number of the last ID assigned
	notes  map[NoteID]*Note
	shares map[string]*share // by token (share.go)
}

// NewStore returns an empty store that reads the time from now (nil means
// time.Now).
func NewStore(now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{now: now, notes: make(map[NoteID]*Note), shares: make(map[string]*share)}
}

// Create stores a new note and returns it with its ID, revision 1 and
// timestamps. It refuses invalid drafts with a *ValidationError.
func (s *Store) Create(d Draft) (Note, error) {
	title, err := checkTitle(d.Title)
	if err != nil {
		return Note{}, err
	}
	if err := checkBody(d.Body); err != nil {
		return Note{}, err
	}
	tags, err := normalizeTags("tags", d.Tags)
	if err != nil {
		return Note{}, err
	}
	if len(tags) > MaxTags {
		return Note{}, &ValidationError{Field: "tags", Problem: fmt.Sprintf("a note has at most %d tags", MaxTags)}
	}
	prio := d.Priority
	if prio == 0 {
		prio = DefaultPriority
	}
	if err := checkPriority(prio); err != nil {
		return Note{}, err
	}
	if err := checkData(d.Data); err != nil {
		return Note{}, err
	}
	attrs, err := mergeAttributes(nil, d.Attributes)
	if err != nil {
		return Note{}, err
	}
	n := &Note{
		Title:      title,
		Body:       d.Body,
		Tags:       tags,
		Priority:   prio,
		Color:      clonePtr(d.Color),
		Due:        clonePtr(d.Due),
		Attributes: attrs,
		Author:     d.Author,
		Revision:   1,
		Data:       bytes.Clone(d.Data),
	}
	n.Checksum = checksum(n.Title, n.Body)

	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.notes) >= MaxNotes {
		return Note{}, &ValidationError{Field: "notes", Problem: fmt.Sprintf("the store holds at most %d notes; delete notes that are no longer needed (notes_delete) before creating more", MaxNotes)}
	}
	s.last++
	n.ID = NoteID("n" + strconv.FormatUint(s.last, 10))
	now := s.now()
	n.Created, n.Updated = now, now
	s.notes[n.ID] = n
	return clone(n), nil
}

// Get returns the note with the given ID, or an error wrapping ErrNotFound.
func (s *Store) Get(id NoteID) (Note, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n, ok := s.notes[id]
	if !ok {
		return Note{}, notFound(id)
	}
	return clone(n), nil
}

// List returns every note in creation order.
func (s *Store) List() []Note {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Note, 0, len(s.notes))
	for _, n := range s.notes {
		out = append(out, clone(n))
	}
	slices.SortFunc(out, func(a, b Note) int { return compareIDs(a.ID, b.ID) })
	return out
}

// Len returns the number of notes.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.notes)
}

// Search returns every note the query selects, in the query's order; ties
// go to the most recently updated note, then to the oldest ID.
func (s *Store) Search(q Query) ([]Match, error) {
	order := q.Sort
	switch order {
	case "":
		order = SortRelevance
	case SortRelevance, SortNewest, SortOldest:
	default:
		return nil, &ValidationError{Field: "sort", Problem: `must be "relevance", "newest" or "oldest"`}
	}
	tags, err := normalizeTags("tags", q.Tags)
	if err != nil {
		return nil, err
	}
	terms := Terms(q.Text)

	s.mu.RLock()
	var out []Match
	for _, n := range s.notes {
		if !q.Since.IsZero() && n.Updated.Before(q.Since) {
			continue
		}
		if !hasTags(n.Tags, tags) {
			continue
		}
		score, ok := scoreNote(n, terms)
		if !ok {
			continue
		}
		out = append(out, Match{Note: clone(n), Score: score})
	}
	s.mu.RUnlock()

	slices.SortFunc(out, func(a, b Match) int {
		var c int
		switch order {
		case SortRelevance:
			c = cmp.Compare(b.Score, a.Score)
		case SortOldest:
			c = a.Note.Updated.Compare(b.Note.Updated)
		}
		return cmp.Or(c, b.Note.Updated.Compare(a.Note.Updated), compareIDs(a.Note.ID, b.Note.ID))
	})
	return out, nil
}

// Update applies p to the note with the given ID and returns the result.
// A patch that changes something increments the revision and sets
// Updated; one that changes nothing returns the note as it is. It fails
// with an error wrapping ErrNotFound or ErrConflict, or a
// *ValidationError.
func (s *Store) Update(id NoteID, p Patch) (Note, error) {
	var title string
	if p.Title != nil {
		t, err := checkTitle(*p.Title)
		if err != nil {
			return Note{}, err
		}
		title = t
	}
	if p.Body != nil {
		if err := checkBody(*p.Body); err != nil {
			return Note{}, err
		}
	}
	if p.Priority != nil {
		if err := checkPriority(*p.Priority); err != nil {
			return Note{}, err
		}
	}
	if err := checkData(p.Data); err != nil {
		return Note{}, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.notes[id]
	if !ok {
		return Note{}, notFound(id)
	}
	if p.IfChecksum != nil && !bytes.Equal(p.IfChecksum, n.Checksum) {
		return Note{}, fmt.Errorf("note %s: %w", id, ErrConflict)
	}
	attrs, err := mergeAttributes(n.Attributes, p.Attributes)
	if err != nil {
		return Note{}, err
	}
	next := clone(n)
	if p.Title != nil {
		next.Title = title
	}
	if p.Body != nil {
		next.Body = *p.Body
	}
	if p.Priority != nil {
		next.Priority = *p.Priority
	}
	if p.Color != nil {
		next.Color = clonePtr(p.Color)
	}
	if p.Data != nil {
		next.Data = bytes.Clone(p.Data)
	}
	next.Attributes = attrs
	if equalNotes(&next, n) {
		return next, nil
	}
	if n.Revision >= MaxRevision {
		return Note{}, &ValidationError{Field: "revision", Problem: fmt.Sprintf("note %s has reached its last revision (%d); create a new note with its content", id, uint32(MaxRevision))}
	}
	next.Checksum = checksum(next.Title, next.Body)
	next.Revision++
	next.Updated = s.now()
	*n = next
	return clone(n), nil
}

// Tag adds and removes tags (normalized like [Draft.Tags]; a tag in both
// lists is removed) and returns the note. A change increments the revision
// and sets Updated. It fails with an error wrapping ErrNotFound or a
// *ValidationError, also when the note would carry more than MaxTags tags.
func (s *Store) Tag(id NoteID, add, remove []string) (Note, error) {
	add, err := normalizeTags("add", add)
	if err != nil {
		return Note{}, err
	}
	remove, err = normalizeTags("remove", remove)
	if err != nil {
		return Note{}, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.notes[id]
	if !ok {
		return Note{}, notFound(id)
	}
	tags := slices.DeleteFunc(slices.Concat(n.Tags, add), func(t string) bool {
		_, found := slices.BinarySearch(remove, t)
		return found
	})
	slices.Sort(tags)
	tags = slices.Compact(tags)
	if slices.Equal(tags, n.Tags) {
		return clone(n), nil
	}
	if len(tags) > MaxTags {
		return Note{}, &ValidationError{Field: "add", Problem: fmt.Sprintf("a note has at most %d tags", MaxTags)}
	}
	if n.Revision >= MaxRevision {
		return Note{}, &ValidationError{Field: "revision", Problem: fmt.Sprintf("note %s has reached its last revision (%d); create a new note with its content", id, uint32(MaxRevision))}
	}
	n.Tags = tags
	n.Revision++
	n.Updated = s.now()
	return clone(n), nil
}

// Delete removes the note with the given ID, and its shares, or fails
// with an error wrapping ErrNotFound.
func (s *Store) Delete(id NoteID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.notes[id]; !ok {
		return notFound(id)
	}
	delete(s.notes, id)
	s.dropShares(id)
	return nil
}

// Terms splits text into the lower-case words Search looks for: runs of
// letters and digits, duplicates dropped, in order of first appearance.
func Terms(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	var out []string
	for _, w := range words {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// scoreNote scores n for terms: three points per occurrence in the title,
// one per occurrence in the body and two for a tag equal to the term. A
// note matches when every term scores; no terms match every note with 0.
func scoreNote(n *Note, terms []string) (float64, bool) {
	if len(terms) == 0 {
		return 0, true
	}
	title, body := strings.ToLower(n.Title), strings.ToLower(n.Body)
	total := 0
	for _, t := range terms {
		score := 3*strings.Count(title, t) + strings.Count(body, t)
		if slices.Contains(n.Tags, t) {
			score += 2
		}
		if score == 0 {
			return 0, false
		}
		total += score
	}
	return float64(total), true
}

func hasTags(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

func notFound(id NoteID) error {
	return fmt.Errorf("note %s: %w", id, ErrNotFound)
}

func checkTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return "", &ValidationError{Field: "title", Problem: "must not be empty"}
	case strings.ContainsAny(title, "\r\n"):
		return "", &ValidationError{Field: "title", Problem: "must be a single line"}
	case utf8.RuneCountInString(title) > MaxTitleLen:
		return "", &ValidationError{Field: "title", Problem: fmt.Sprintf("must have at most %d characters", MaxTitleLen)}
	}
	return title, nil
}

func checkBody(body string) error {
	if utf8.RuneCountInString(body) > MaxBodyLen {
		return &ValidationError{Field: "body", Problem: fmt.Sprintf("must have at most %d characters", MaxBodyLen)}
	}
	return nil
}

func checkPriority(p Priority) error {
	if p < MinPriority || p > MaxPriority {
		return &ValidationError{Field: "priority", Problem: fmt.Sprintf("must be from %d to %d", MinPriority, MaxPriority)}
	}
	return nil
}

func checkData(data json.RawMessage) error {
	if data != nil && !json.Valid(data) {
		return &ValidationError{Field: "data", Problem: "must be valid JSON"}
	}
	if len(data) > MaxDataLen {
		return &ValidationError{Field: "data", Problem: fmt.Sprintf("must be at most %d bytes of JSON", MaxDataLen)}
	}
	return nil
}

// normalizeTags trims and lower-cases tags, checks their form, sorts them
// and drops duplicates. field names the list in errors.
func normalizeTags(field string, tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	for i, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if len(t) > MaxTagLen || !tagPattern.MatchString(t) {
			return nil, &ValidationError{
				Field:   fmt.Sprintf("%s[%d]", field, i),
				Problem: fmt.Sprintf("a tag has 1 to %d letters a-z, digits or '-', and starts with a letter or digit", MaxTagLen),
			}
		}
		out = append(out, t)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// mergeAttributes returns a copy of old with changes applied (an empty
// value deletes the key), or nil when no attribute is left. The result
// holds at most MaxAttributes attributes: the merge, not each call, is
// bounded, or repeated updates would grow a note without limit.
func mergeAttributes(old, changes map[string]string) (map[string]string, error) {
	out := maps.Clone(old)
	for k, v := range changes {
		switch {
		case strings.TrimSpace(k) == "":
			return nil, &ValidationError{Field: "attributes", Problem: "names must not be empty"}
		case len(k) > MaxAttributeNameLen:
			return nil, &ValidationError{Field: "attributes", Problem: fmt.Sprintf("names must have at most %d bytes", MaxAttributeNameLen)}
		case utf8.RuneCountInString(v) > MaxAttributeValueLen:
			return nil, &ValidationError{Field: "attributes", Problem: fmt.Sprintf("values must have at most %d characters", MaxAttributeValueLen)}
		}
		if v == "" {
			delete(out, k)
			continue
		}
		if out == nil {
			out = make(map[string]string)
		}
		out[k] = v
	}
	if len(out) > MaxAttributes {
		return nil, &ValidationError{Field: "attributes", Problem: fmt.Sprintf("a note has at most %d attributes (this change would leave %d); remove some by setting their value to \"\"", MaxAttributes, len(out))}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func checksum(title, body string) []byte {
	h := sha256.New()
	h.Write([]byte(title))
	h.Write([]byte{0})
	h.Write([]byte(body))
	return h.Sum(nil)
}

// clone returns a deep copy of n. Tags is never nil, so it encodes as [].
func clone(n *Note) Note {
	c := *n
	c.Tags = append(make([]string, 0, len(n.Tags)), n.Tags...)
	c.Color = clonePtr(n.Color)
	c.Due = clonePtr(n.Due)
	c.Attributes = maps.Clone(n.Attributes)
	c.Checksum = bytes.Clone(n.Checksum)
	c.Data = bytes.Clone(n.Data)
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// equalNotes compares the fields Update can change.
func equalNotes(a, b *Note) bool {
	return a.Title == b.Title && a.Body == b.Body && a.Priority == b.Priority &&
		equalPtr(a.Color, b.Color) && bytes.Equal(a.Data, b.Data) &&
		maps.Equal(a.Attributes, b.Attributes)
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
