package notes

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStoreCreate(t *testing.T) {
	t.Parallel()
	due := time.Date(2025, time.May, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		draft     Draft
		wantField string // non-empty: the *ValidationError's field
		check     func(t *testing.T, n Note)
	}{
		{
			name:  "defaults",
			draft: Draft{Title: "  Plain  "},
			check: func(t *testing.T, n Note) {
				assert.Equal(t, "Plain", n.Title)
				assert.Equal(t, DefaultPriority, n.Priority)
				assert.NotNil(t, n.Tags)
				assert.Empty(t, n.Tags)
				assert.Nil(t, n.Attributes)
				assert.Nil(t, n.Color)
				assert.Nil(t, n.Due)
			},
		},
		{
			name: "everything",
			draft: Draft{
				Title: "Full", Body: "text", Tags: []string{" Work", "go", "work"}, Priority: 5,
				Color: &Color{R: 1, G: 2, B: 3}, Due: &due,
				Attributes: map[string]string{"room": "B2", "gone": ""},
				Author:     Person{Name: "Ada"}, Data: json.RawMessage(`{"k":1}`),
			},
			check: func(t *testing.T, n Note) {
				assert.Equal(t, []string{"go", "work"}, n.Tags)
				assert.Equal(t, Priority(5), n.Priority)
				assert.Equal(t, &Color{R: 1, G: 2, B: 3}, n.Color)
				assert.Equal(t, &due, n.Due)
				assert.Equal(t, map[string]string{"room": "B2"}, n.Attributes)
				assert.Equal(t, "Ada", n.Author.Name)
				assert.JSONEq(t, `{"k":1}`, string(n.Data))
			},
		},
		{name: "empty title", draft: Draft{Title: " \t"}, wantField: "title"},
		{name: "two-line title", draft: Draft{Title: "a\nb"}, wantField: "title"},
		{name: "long title", draft: Draft{Title: strings.Repeat("é", MaxTitleLen+1)}, wantField: "title"},
		{name: "long body", draft: Draft{Title: "t", Body: strings.Repeat("x", MaxBodyLen+1)}, wantField: "body"},
		{name: "bad tag", draft: Draft{Title: "t", Tags: []string{"ok", "no spaces"}}, wantField: "tags[1]"},
		{name: "too many tags", draft: Draft{Title: "t", Tags: strings.Fields("a b c d e f g h i j k")}, wantField: "tags"},
		{name: "priority too high", draft: Draft{Title: "t", Priority: 6}, wantField: "priority"},
		{name: "invalid data", draft: Draft{Title: "t", Data: json.RawMessage(`{`)}, wantField: "data"},
		{name: "empty attribute name", draft: Draft{Title: "t", Attributes: map[string]string{" ": "v"}}, wantField: "attributes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := newTestClock()
			s := NewStore(clock.Now)
			n, err := s.Create(tt.draft)
			if tt.wantField != "" {
				var verr *ValidationError
				require.ErrorAs(t, err, &verr)
				assert.Equal(t, tt.wantField, verr.Field)
				assert.Zero(t, s.Len())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, NoteID("n1"), n.ID)
			assert.Equal(t, uint32(1), n.Revision)
			assert.Equal(t, clock.Now(), n.Created)
			assert.Equal(t, clock.Now(), n.Updated)
			assert.Len(t, n.Checksum, 32)
			tt.check(t, n)
			got, err := s.Get(n.ID)
			require.NoError(t, err)
			assert.Equal(t, n, got)
		})
	}
}

func TestStoreCreateAssignsSequentialIDs(t *testing.T) {
	t.Parallel()
	s := NewStore(nil)
	for i := 1; i <= 12; i++ {
		n, err := s.Create(Draft{Title: "t"})
		require.NoError(t, err)
		assert.Equal(t, NoteID(fmt.Sprintf("n%d", i)), n.ID)
	}
	ids := make([]NoteID, 0, 12)
	for _, n := range s.List() {
		ids = append(ids, n.ID)
	}
	assert.Equal(t, NoteID("n10"), ids[9], "List orders IDs by number, not as strings")
	assert.Equal(t, 12, s.Len())
}

func TestStoreReturnsCopies(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	n, err := s.Get("n3")
	require.NoError(t, err)
	n.Tags[0] = "changed"
	n.Attributes["budget"] = "0"
	n.Color.R = 99
	*n.Due = time.Time{}
	n.Checksum[0]++
	n.Data[0] = '['

	again, err := s.Get("n3")
	require.NoError(t, err)
	assert.Equal(t, []string{"travel"}, again.Tags)
	assert.Equal(t, "1200 EUR", again.Attributes["budget"])
	assert.Equal(t, uint8(0), again.Color.R)
	assert.False(t, again.Due.IsZero())
	assert.NotEqual(t, n.Checksum, again.Checksum)
	assert.True(t, json.Valid(again.Data))
}

func TestStoreGetMissing(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	_, err := s.Get("n99")
	require.ErrorIs(t, err, ErrNotFound)
	assert.EqualError(t, err, "note n99: not found")
}

func TestStoreUpdate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		id          NoteID
		patch       func(old Note) Patch
		wantErr     error  // in the chain
		wantField   string // *ValidationError field
		wantChanged bool
		check       func(t *testing.T, n Note)
	}{
		{
			name:        "title and body",
			id:          "n2",
			patch:       func(Note) Patch { return Patch{Title: ptr(" Shopping "), Body: ptr("- tea\n")} },
			wantChanged: true,
			check: func(t *testing.T, n Note) {
				assert.Equal(t, "Shopping", n.Title)
				assert.Equal(t, "- tea\n", n.Body)
			},
		},
		{
			name: "priority, color, data and attributes",
			id:   "n3",
			patch: func(Note) Patch {
				return Patch{
					Priority:   ptr(Priority(1)),
					Color:      &Color{R: 255},
					Data:       json.RawMessage(`[1,2]`),
					Attributes: map[string]string{"budget": "", "hotel": "Alfama"},
				}
			},
			wantChanged: true,
			check: func(t *testing.T, n Note) {
				assert.Equal(t, Priority(1), n.Priority)
				assert.Equal(t, "#ff0000", n.Color.String())
				assert.Equal(t, `[1,2]`, string(n.Data))
				assert.Equal(t, map[string]string{"flight": "TP 1351", "hotel": "Alfama"}, n.Attributes)
			},
		},
		{
			name:  "same values change nothing",
			id:    "n1",
			patch: func(old Note) Patch { return Patch{Title: &old.Title, Priority: &old.Priority} },
		},
		{
			name:        "matching checksum",
			id:          "n1",
			patch:       func(old Note) Patch { return Patch{Body: ptr("new"), IfChecksum: old.Checksum} },
			wantChanged: true,
		},
		{
			name:    "stale checksum",
			id:      "n1",
			patch:   func(old Note) Patch { return Patch{Body: ptr("new"), IfChecksum: make([]byte, 32)} },
			wantErr: ErrConflict,
		},
		{name: "missing", id: "n42", patch: func(Note) Patch { return Patch{Body: ptr("x")} }, wantErr: ErrNotFound},
		{name: "empty title", id: "n1", patch: func(Note) Patch { return Patch{Title: ptr("")} }, wantField: "title"},
		{name: "long body", id: "n1", patch: func(Note) Patch { return Patch{Body: ptr(strings.Repeat("x", MaxBodyLen+1))} }, wantField: "body"},
		{name: "priority zero", id: "n1", patch: func(Note) Patch { return Patch{Priority: ptr(Priority(0))} }, wantField: "priority"},
		{name: "bad data", id: "n1", patch: func(Note) Patch { return Patch{Data: json.RawMessage(`nope`)} }, wantField: "data"},
		{name: "bad attribute", id: "n1", patch: func(Note) Patch { return Patch{Attributes: map[string]string{"": "x"}} }, wantField: "attributes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, clock := newTestStore(t)
			old, _ := s.Get(tt.id) // zero for a missing note
			n, err := s.Update(tt.id, tt.patch(old))
			switch {
			case tt.wantErr != nil:
				require.ErrorIs(t, err, tt.wantErr)
			case tt.wantField != "":
				var verr *ValidationError
				require.ErrorAs(t, err, &verr)
				assert.Equal(t, tt.wantField, verr.Field)
			default:
				require.NoError(t, err)
				if tt.wantChanged {
					assert.Equal(t, old.Revision+1, n.Revision)
					assert.Equal(t, clock.Now(), n.Updated)
					assert.Equal(t, checksum(n.Title, n.Body), n.Checksum)
				} else {
					assert.Equal(t, old, n)
				}
				if tt.check != nil {
					tt.check(t, n)
				}
			}
			after, _ := s.Get(tt.id)
			if err != nil || !tt.wantChanged {
				assert.Equal(t, old, after, "a refused or empty update leaves the note as it was")
			} else {
				assert.Equal(t, n, after)
			}
		})
	}
}

func TestStoreTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		id          NoteID
		add, remove []string
		want        []string
		wantChanged bool
		wantErr     error
		wantField   string
	}{
		{name: "add", id: "n1", add: []string{"Generics", "go"}, want: []string{"generics", "go", "reference"}, wantChanged: true},
		{name: "remove", id: "n1", remove: []string{"reference", "absent"}, want: []string{"go"}, wantChanged: true},
		{name: "in both lists is removed", id: "n2", add: []string{"x"}, remove: []string{"x", "home"}, want: []string{}, wantChanged: true},
		{name: "no change", id: "n2", add: []string{"home"}, want: []string{"home"}},
		{name: "bad tag", id: "n2", add: []string{"ok", "-bad"}, wantField: "add[1]"},
		{name: "bad removed tag", id: "n2", remove: []string{"a b"}, wantField: "remove[0]"},
		{name: "too many", id: "n2", add: strings.Fields("a b c d e f g h i j"), wantField: "add"},
		{name: "missing", id: "n9", add: []string{"x"}, wantErr: ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, clock := newTestStore(t)
			old, _ := s.Get(tt.id)
			n, err := s.Tag(tt.id, tt.add, tt.remove)
			switch {
			case tt.wantErr != nil:
				require.ErrorIs(t, err, tt.wantErr)
				return
			case tt.wantField != "":
				var verr *ValidationError
				require.ErrorAs(t, err, &verr)
				assert.Equal(t, tt.wantField, verr.Field)
				after, _ := s.Get(tt.id)
				assert.Equal(t, old, after)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, n.Tags)
			if tt.wantChanged {
				assert.Equal(t, old.Revision+1, n.Revision)
				assert.Equal(t, clock.Now(), n.Updated)
			} else {
				assert.Equal(t, old, n)
			}
		})
	}
}

func TestStoreDelete(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	require.NoError(t, s.Delete("n2"))
	_, err := s.Get("n2")
	require.ErrorIs(t, err, ErrNotFound)
	assert.ErrorIs(t, s.Delete("n2"), ErrNotFound)
	assert.Equal(t, 4, s.Len())

	n, err := s.Create(Draft{Title: "after"})
	require.NoError(t, err)
	assert.Equal(t, NoteID("n6"), n.ID, "IDs are never reused")
}

func TestStoreSearch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		query     Query
		want      []NoteID
		wantField string
	}{
		{name: "one word", query: Query{Text: "go"}, want: []NoteID{"n1", "n4", "n5"}},
		{name: "every word must match", query: Query{Text: "Go generics"}, want: []NoteID{"n1"}},
		{name: "no match", query: Query{Text: "kubernetes"}, want: nil},
		{name: "tag filter", query: Query{Text: "go", Tags: []string{"WORK"}}, want: []NoteID{"n4"}},
		{name: "empty text lists by recency", query: Query{}, want: []NoteID{"n5", "n4", "n3", "n1", "n2"}},
		{name: "oldest", query: Query{Sort: SortOldest}, want: []NoteID{"n2", "n1", "n3", "n4", "n5"}},
		{name: "newest with text", query: Query{Text: "go", Sort: SortNewest}, want: []NoteID{"n5", "n4", "n1"}},
		{
			name:  "since is inclusive",
			query: Query{Since: time.Date(2025, time.March, 14, 17, 0, 0, 0, time.UTC)},
			want:  []NoteID{"n5", "n4"},
		},
		{name: "unknown sort", query: Query{Sort: "random"}, wantField: "sort"},
		{name: "bad tag", query: Query{Tags: []string{"a b"}}, wantField: "tags[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestStore(t)
			got, err := s.Search(tt.query)
			if tt.wantField != "" {
				var verr *ValidationError
				require.ErrorAs(t, err, &verr)
				assert.Equal(t, tt.wantField, verr.Field)
				return
			}
			require.NoError(t, err)
			var ids []NoteID
			for _, m := range got {
				ids = append(ids, m.Note.ID)
			}
			assert.Equal(t, tt.want, ids)
		})
	}
}

func TestStoreSearchScores(t *testing.T) {
	t.Parallel()
	s := NewStore(nil)
	_, err := s.Create(Draft{Title: "Go Go", Body: "go", Tags: []string{"go"}}) // 3*2 + 1 + 2
	require.NoError(t, err)
	_, err = s.Create(Draft{Title: "Other", Body: "ago"}) // a substring counts
	require.NoError(t, err)
	got, err := s.Search(Query{Text: "GO!"})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, 9.0, got[0].Score)
	assert.Equal(t, 1.0, got[1].Score)
}

func TestTerms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"  ,;! ", nil},
		{"Go generics", []string{"go", "generics"}},
		{"go, GO, Go?", []string{"go"}},
		{"Pastéis de nata 2025", []string{"pastéis", "de", "nata", "2025"}},
		{"C++/Rust", []string{"c", "rust"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Terms(tt.text), "Terms(%q)", tt.text)
	}
}

func TestStoreConcurrentUse(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	const workers, rounds = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				n, err := s.Create(Draft{Title: fmt.Sprintf("w%d note %d", w, i), Tags: []string{"load"}})
				if err != nil {
					errs <- err
					continue
				}
				if _, err := s.Tag(n.ID, []string{fmt.Sprintf("w%d", w)}, nil); err != nil {
					errs <- err
				}
				if _, err := s.Update("n1", Patch{Body: ptr(fmt.Sprintf("w%d %d", w, i))}); err != nil {
					errs <- err
				}
				if _, err := s.Search(Query{Text: "note", Tags: []string{"load"}}); err != nil {
					errs <- err
				}
				_ = s.List()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, 5+workers*rounds, s.Len())
	got, err := s.Search(Query{Tags: []string{"load"}})
	require.NoError(t, err)
	assert.Len(t, got, workers*rounds)
	ids := make(map[NoteID]bool)
	for _, m := range got {
		assert.False(t, ids[m.Note.ID], "duplicate ID %s", m.Note.ID)
		ids[m.Note.ID] = true
	}
	n1, err := s.Get("n1")
	require.NoError(t, err)
	assert.Equal(t, uint32(1+workers*rounds), n1.Revision)
}

func TestNewDemoStore(t *testing.T) {
	t.Parallel()
	s := NewDemoStore()
	notes := s.List()
	require.Len(t, notes, 5)
	for i, n := range notes {
		assert.Equal(t, NoteID(fmt.Sprintf("n%d", i+1)), n.ID)
		assert.False(t, n.Updated.Before(n.Created), "%s updated before created", n.ID)
		assert.Equal(t, 2025, n.Created.Year())
	}
	n, err := s.Create(Draft{Title: "now"})
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), n.Created, time.Hour, "new notes use the real clock")
	_, err = s.Get("n3")
	require.NoError(t, err)
}

func TestErrorsMatch(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	_, err := s.Update("n1", Patch{Body: ptr("x"), IfChecksum: []byte{1}})
	assert.True(t, errors.Is(err, ErrConflict))
	assert.False(t, errors.Is(err, ErrNotFound))
	assert.EqualError(t, err, "note n1: changed since the given checksum")
}
