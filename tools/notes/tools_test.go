package notes

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// assertModelError checks that err is meant for the model (a
// *tool.ModelError) and that its message contains want.
func assertModelError(t *testing.T, err error, want string) {
	t.Helper()
	var me *tool.ModelError
	require.ErrorAs(t, err, &me)
	assert.Contains(t, me.Message, want)
}

func TestForModel(t *testing.T) {
	t.Parallel()
	plain := errors.New("disk on fire")
	tests := []struct {
		name      string
		err       error
		wantModel string // "": not a model error
		wantIs    error
	}{
		{name: "not found", err: notFound("n7"), wantModel: "note n7: not found; notes_search finds notes", wantIs: ErrNotFound},
		{name: "conflict", err: errors.Join(ErrConflict), wantModel: "read it again with notes_get", wantIs: ErrConflict},
		{name: "validation", err: &ValidationError{Field: "title", Problem: "must not be empty"}, wantModel: "invalid title: must not be empty"},
		{name: "other", err: plain, wantIs: plain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := forModel(tt.err)
			if tt.wantModel == "" {
				var me *tool.ModelError
				assert.False(t, errors.As(got, &me), "a plain error must not reach the model")
			} else {
				assertModelError(t, got, tt.wantModel)
			}
			if tt.wantIs != nil {
				assert.ErrorIs(t, got, tt.wantIs)
			}
		})
	}
}

func TestSearchTool(t *testing.T) {
	t.Parallel()
	since := time.Date(2025, time.March, 12, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		in        SearchInput
		wantIDs   []NoteID
		wantTotal int
		wantTags  map[string]int
		wantErr   string // a model error containing this
	}{
		{
			name:      "relevance",
			in:        SearchInput{Query: "go"},
			wantIDs:   []NoteID{"n1", "n4", "n5"},
			wantTotal: 3,
			wantTags:  map[string]int{"go": 2, "reference": 1, "work": 1, "books": 1},
		},
		{
			name:      "limit keeps the total and the tag counts",
			in:        SearchInput{Query: "go", Limit: 1},
			wantIDs:   []NoteID{"n1"},
			wantTotal: 3,
			wantTags:  map[string]int{"go": 2, "reference": 1, "work": 1, "books": 1},
		},
		{
			name:      "tags",
			in:        SearchInput{Query: "go", Tags: []string{"work"}},
			wantIDs:   []NoteID{"n4"},
			wantTotal: 1,
			wantTags:  map[string]int{"go": 1, "work": 1},
		},
		{
			name:      "since and oldest first",
			in:        SearchInput{Query: "go", Since: &since, Sort: SortOldest},
			wantIDs:   []NoteID{"n4", "n5"},
			wantTotal: 2,
			wantTags:  map[string]int{"go": 1, "work": 1, "books": 1},
		},
		{
			name:      "nothing found",
			in:        SearchInput{Query: "kubernetes"},
			wantIDs:   []NoteID{},
			wantTotal: 0,
			wantTags:  map[string]int{},
		},
		{name: "no words", in: SearchInput{Query: "?!"}, wantErr: "the query has no words"},
		{name: "bad tag", in: SearchInput{Query: "go", Tags: []string{"not a tag"}}, wantErr: "invalid tags[0]"},
		{name: "bad sort", in: SearchInput{Query: "go", Sort: "random"}, wantErr: "invalid sort"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestStore(t)
			out, err := SearchTool{Store: s}.Call(context.Background(), tt.in)
			if tt.wantErr != "" {
				assertModelError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			ids := []NoteID{}
			for _, n := range out.Notes {
				ids = append(ids, n.ID)
			}
			assert.Equal(t, tt.wantIDs, ids)
			assert.Equal(t, tt.wantTotal, out.Total)
			assert.Equal(t, tt.wantTags, out.TagCounts)
		})
	}
}

func TestSearchToolSummary(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	out, err := SearchTool{Store: s}.Call(context.Background(), SearchInput{Query: "nata"})
	require.NoError(t, err)
	require.Len(t, out.Notes, 1)
	got := out.Notes[0]
	want, err := s.Get("n3")
	require.NoError(t, err)
	assert.Equal(t, want.ID, got.ID)
	assert.Equal(t, want.Title, got.Title)
	assert.Equal(t, want.Tags, got.Tags)
	assert.Equal(t, want.Priority, got.Priority)
	assert.Equal(t, want.Timestamps, got.Timestamps)
	assert.Equal(t, 1.0, got.Score)
	assert.Contains(t, got.Snippet, "pastéis de nata")
	assert.NotContains(t, got.Snippet, "\n")
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("lorem ipsum ", 30) // 360 runes
	tests := []struct {
		name  string
		body  string
		terms []string
		n     int
		want  string
	}{
		{name: "short body", body: "Buy\n  milk", terms: []string{"milk"}, n: 20, want: "Buy milk"},
		{name: "no match starts at the top", body: "abcdefghij", terms: []string{"zzz"}, n: 4, want: "abcd…"},
		{name: "match after the start", body: "one two three four five six seven", terms: []string{"five"}, n: 16, want: "…five six seven"},
		{name: "cut at words on both sides", body: "aaaa bbbb cccc dddd eeee ffff gggg", terms: []string{"cccc"}, n: 12, want: "…cccc dddd…"},
		{name: "match near the end", body: "aaaa bbbb cccc", terms: []string{"cccc"}, n: 8, want: "…cccc"},
		{name: "earliest term wins", body: "one two three four", terms: []string{"four", "two"}, n: 12, want: "…two three…"},
		{name: "case folding beyond ASCII", body: "ÉTÉ à Paris; l'été est chaud", terms: []string{"été"}, n: 12, want: "ÉTÉ à Paris;…"},
		{name: "long", body: long, terms: []string{"lorem"}, n: 11, want: "lorem ipsum…"},
		{name: "empty", body: "", terms: []string{"x"}, n: 10, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, snippet(tt.body, tt.terms, tt.n))
		})
	}
}

func TestGetTool(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	get := &GetTool{Store: s}
	tests := []struct {
		name    string
		id      NoteID
		wantErr string
	}{
		{name: "found", id: "n3"},
		{name: "missing", id: "n99", wantErr: "note n99: not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n, err := get.Call(context.Background(), GetInput{ID: tt.id})
			if tt.wantErr != "" {
				assertModelError(t, err, tt.wantErr)
				assert.ErrorIs(t, err, ErrNotFound)
				assert.Nil(t, n)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, n)
			assert.Equal(t, "Trip to Lisbon", n.Title)
			assert.Equal(t, "#008080", n.Color.String())
			assert.Equal(t, "TP 1351", n.Attributes["flight"])
			assert.Equal(t, "Ada Example", n.Author.Name)
			assert.JSONEq(t, `{"bookings":["hotel","flight"]}`, string(n.Data))
		})
	}
}

func TestRenderTool(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	fenced, err := s.Create(Draft{Title: "Shell", Body: "# Setup\n\n```sh\n# not a heading\n```\n", Author: Person{Name: "Ada"}})
	require.NoError(t, err)
	render := &RenderTool{Store: s}
	tests := []struct {
		name    string
		in      RenderInput
		want    []string // substrings, in order
		notWant []string
		wantErr string
	}{
		{
			name: "markdown",
			in:   RenderInput{ID: "n3"},
			want: []string{
				"# Trip to Lisbon\n\n",
				"*priority 2 · due 28 Mar 2025 · tags: travel*\n\n",
				"## Plan\n\n### Day 1\n",
				"| attribute | value |\n|---|---|\n| budget | 1200 EUR |\n| flight | TP 1351 |\n",
				"— Ada Example, 12 Mar 2025 21:00 UTC (revision 1)\n",
			},
		},
		{
			name:    "plain",
			in:      RenderInput{ID: "n2", Format: "plain"},
			want:    []string{"Groceries\n=========\npriority 3 · tags: home\n\n- oat milk\n"},
			notWant: []string{"*", "|", "—"},
		},
		{
			name:    "code blocks keep their lines",
			in:      RenderInput{ID: fenced.ID},
			want:    []string{"## Setup\n", "```sh\n# not a heading\n```\n"},
			notWant: []string{"| attribute"},
		},
		{name: "missing", in: RenderInput{ID: "n42"}, wantErr: "note n42: not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := render.Call(context.Background(), tt.in)
			if tt.wantErr != "" {
				assertModelError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			rest := out
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				require.GreaterOrEqual(t, i, 0, "missing %q (in order) in:\n%s", w, out)
				rest = rest[i+len(w):]
			}
			for _, w := range tt.notWant {
				assert.NotContains(t, out, w)
			}
		})
	}
}

func TestOutlineTool(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	tricky, err := s.Create(Draft{Title: "Tricky", Body: strings.Join([]string{
		"intro",
		"### Deep first",       // 2: deeper than what follows
		"# One #",              // 3: closing hashes
		"#hashtag",             // not a heading
		"    # indented code",  // not a heading
		"~~~",                  //
		"# fenced",             // not a heading
		"~~~",                  //
		"### Skipped a level",  // 9
		"## C#",                // 10: a '#' that belongs to the text
		"####### seven hashes", // not a heading
		"# Two",                // 12
	}, "\n")})
	require.NoError(t, err)
	outline := OutlineTool{Store: s}
	tests := []struct {
		name    string
		id      NoteID
		want    []Section
		wantErr string
	}{
		{
			name: "demo note",
			id:   "n1",
			want: []Section{
				{Heading: "Type parameters", Level: 1, Line: 1, Sections: []Section{
					{Heading: "Constraints", Level: 2, Line: 5},
					{Heading: "Inference", Level: 2, Line: 9},
				}},
				{Heading: "Pitfalls", Level: 1, Line: 13},
			},
		},
		{name: "no headings", id: "n2", want: []Section{}},
		{
			name: "tricky",
			id:   tricky.ID,
			want: []Section{
				{Heading: "Deep first", Level: 3, Line: 2},
				{Heading: "One", Level: 1, Line: 3, Sections: []Section{
					{Heading: "Skipped a level", Level: 3, Line: 9},
					{Heading: "C#", Level: 2, Line: 10},
				}},
				{Heading: "Two", Level: 1, Line: 12},
			},
		},
		{name: "missing", id: "n77", wantErr: "note n77: not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := outline.Call(context.Background(), OutlineInput{ID: tt.id})
			if tt.wantErr != "" {
				assertModelError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.id, out.ID)
			assert.Equal(t, tt.want, out.Sections)
		})
	}
}

func TestCreateTool(t *testing.T) {
	t.Parallel()
	due := time.Date(2025, time.June, 1, 9, 0, 0, 0, time.UTC)
	author := Person{Name: "Signed In", Email: "me@example.com"}
	tests := []struct {
		name    string
		in      CreateInput
		check   func(t *testing.T, n Note)
		wantErr string
	}{
		{
			name: "minimal",
			in:   CreateInput{Title: "Call the plumber"},
			check: func(t *testing.T, n Note) {
				assert.Equal(t, DefaultPriority, n.Priority)
				assert.Empty(t, n.Body)
			},
		},
		{
			name: "full",
			in: CreateInput{
				Title: "Dentist", Body: "Bring the form.", Tags: []string{"health"}, Priority: 4,
				Due: &due, Color: &Color{R: 0xff}, Attributes: map[string]string{"where": "Main St"},
			},
			check: func(t *testing.T, n Note) {
				assert.Equal(t, []string{"health"}, n.Tags)
				assert.Equal(t, Priority(4), n.Priority)
				assert.True(t, due.Equal(*n.Due))
				assert.Equal(t, "#ff0000", n.Color.String())
				assert.Equal(t, "Main St", n.Attributes["where"])
			},
		},
		{name: "blank title", in: CreateInput{Title: "   "}, wantErr: "invalid title: must not be empty"},
		{name: "bad priority", in: CreateInput{Title: "x", Priority: 9}, wantErr: "invalid priority: must be from 1 to 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, clock := newTestStore(t)
			n, err := CreateTool{Store: s, Author: author}.Call(context.Background(), tt.in)
			if tt.wantErr != "" {
				assertModelError(t, err, tt.wantErr)
				assert.Equal(t, 5, s.Len())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, NoteID("n6"), n.ID)
			assert.Equal(t, author, n.Author)
			assert.Equal(t, clock.Now(), n.Created)
			tt.check(t, n)
			stored, err := s.Get(n.ID)
			require.NoError(t, err)
			assert.Equal(t, n, stored)
		})
	}
}

func TestUpdateTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        func(old Note) UpdateInput
		check     func(t *testing.T, old, n Note)
		wantModel string // a model error containing this
		wantPlain bool   // a plain error
	}{
		{
			name: "title and data",
			in: func(Note) UpdateInput {
				return UpdateInput{ID: "n3", Title: ptr("Lisbon, May"), Data: map[string]any{"bookings": []any{"hotel"}, "paid": true}}
			},
			check: func(t *testing.T, old, n Note) {
				assert.Equal(t, "Lisbon, May", n.Title)
				assert.JSONEq(t, `{"bookings":["hotel"],"paid":true}`, string(n.Data))
				assert.Equal(t, old.Revision+1, n.Revision)
				assert.NotEqual(t, old.Checksum, n.Checksum)
			},
		},
		{
			name: "omitted data is kept",
			in:   func(Note) UpdateInput { return UpdateInput{ID: "n3", Priority: ptr(Priority(5)), Color: &Color{B: 1}} },
			check: func(t *testing.T, old, n Note) {
				assert.Equal(t, old.Data, n.Data)
				assert.Equal(t, Priority(5), n.Priority)
				assert.Equal(t, Color{B: 1}, *n.Color)
			},
		},
		{
			name: "checksum matches",
			in: func(old Note) UpdateInput {
				return UpdateInput{ID: "n1", Body: ptr("rewritten"), IfChecksum: old.Checksum}
			},
			check: func(t *testing.T, _, n Note) { assert.Equal(t, "rewritten", n.Body) },
		},
		{
			name:      "checksum stale",
			in:        func(Note) UpdateInput { return UpdateInput{ID: "n1", Body: ptr("x"), IfChecksum: []byte("old")} },
			wantModel: "note n1: changed since the given checksum",
		},
		{
			name:      "missing",
			in:        func(Note) UpdateInput { return UpdateInput{ID: "n404", Body: ptr("x")} },
			wantModel: "note n404: not found",
		},
		{
			name:      "bad attribute",
			in:        func(Note) UpdateInput { return UpdateInput{ID: "n1", Attributes: map[string]string{"": "x"}} },
			wantModel: "invalid attributes",
		},
		{
			name:      "data that is not JSON",
			in:        func(Note) UpdateInput { return UpdateInput{ID: "n1", Data: func() {}} },
			wantPlain: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestStore(t)
			in := tt.in(Note{})
			old, _ := s.Get(in.ID)
			in = tt.in(old)
			n, err := UpdateTool{Store: s}.Call(context.Background(), in)
			switch {
			case tt.wantModel != "":
				assertModelError(t, err, tt.wantModel)
			case tt.wantPlain:
				require.Error(t, err)
				var me *tool.ModelError
				assert.False(t, errors.As(err, &me))
			default:
				require.NoError(t, err)
				tt.check(t, old, n)
				return
			}
			after, _ := s.Get(in.ID)
			assert.Equal(t, old, after, "a failed update changes nothing")
		})
	}
}

func TestTagTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      TagInput
		want    TagOutput
		wantErr string
	}{
		{name: "add", in: TagInput{ID: "n2", Add: []string{"weekly"}}, want: TagOutput{ID: "n2", Tags: []string{"home", "weekly"}, Revision: 2}},
		{name: "remove", in: TagInput{ID: "n1", Remove: []string{"go"}}, want: TagOutput{ID: "n1", Tags: []string{"reference"}, Revision: 2}},
		{name: "already there", in: TagInput{ID: "n2", Add: []string{"home"}}, want: TagOutput{ID: "n2", Tags: []string{"home"}, Revision: 1}},
		{name: "nothing to do", in: TagInput{ID: "n2"}, wantErr: "nothing to do"},
		{name: "bad tag", in: TagInput{ID: "n2", Add: []string{"x y"}}, wantErr: "invalid add[0]"},
		{name: "missing", in: TagInput{ID: "n8", Add: []string{"x"}}, wantErr: "note n8: not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestStore(t)
			out, err := TagTool{Store: s}.Call(context.Background(), tt.in)
			if tt.wantErr != "" {
				assertModelError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, out)
			again, err := TagTool{Store: s}.Call(context.Background(), tt.in)
			require.NoError(t, err)
			assert.Equal(t, out, again, "tagging is idempotent")
		})
	}
}

func TestDeleteTool(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	del := &DeleteTool{Store: s}
	steps := []struct {
		id   NoteID
		want DeleteOutput
	}{
		{"n2", DeleteOutput{ID: "n2", Deleted: true}},
		{"n2", DeleteOutput{ID: "n2", Deleted: false}}, // repeating is safe
		{"n99", DeleteOutput{ID: "n99", Deleted: false}},
	}
	for _, st := range steps {
		out, err := del.Call(context.Background(), DeleteInput{ID: st.id})
		require.NoError(t, err)
		assert.Equal(t, st.want, out)
	}
	assert.Equal(t, 4, s.Len())
	_, err := s.Get("n2")
	assert.ErrorIs(t, err, ErrNotFound)
}

// TestToolsAreJSONReady checks that tool outputs hold no nil slices where
// the schema promises an array, so they encode as [] rather than null.
func TestToolsAreJSONReady(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	ctx := context.Background()
	created, err := CreateTool{Store: s}.Call(ctx, CreateInput{Title: "bare"})
	require.NoError(t, err)
	search, err := SearchTool{Store: s}.Call(ctx, SearchInput{Query: "nothing-matches-this"})
	require.NoError(t, err)
	tagged, err := TagTool{Store: s}.Call(ctx, TagInput{ID: created.ID, Remove: []string{"x"}})
	require.NoError(t, err)
	outline, err := OutlineTool{Store: s}.Call(ctx, OutlineInput{ID: created.ID})
	require.NoError(t, err)
	for name, v := range map[string]any{"note": created, "search": search, "tag": tagged, "outline": outline} {
		b, err := json.Marshal(v)
		require.NoError(t, err, name)
		assert.NotContains(t, string(b), "null", name)
	}
}

// FuzzSnippet checks that snippet never panics, keeps to its length, and
// shows the first match whenever the match is short enough to fit.
func FuzzSnippet(f *testing.F) {
	f.Add("Alfama, tram 28, dinner in Bairro Alto.", "tram")
	f.Add("ÉTÉ à Paris; l'été est chaud", "été")
	f.Add("\xff\xfe bad \xc3 utf8 İstanbul", "istanbul")
	f.Add("", "x")
	const n = 40
	f.Fuzz(func(t *testing.T, body, query string) {
		terms := Terms(query)
		got := snippet(body, terms, n)
		runes := []rune(got)
		require.LessOrEqual(t, len(runes), n+2, "at most n runes and two ellipses")
		assert.NotContains(t, got, "\n")
		lower := []rune(strings.ToLower(strings.Join(strings.Fields(body), " ")))
		first, size := -1, 0
		for _, term := range terms {
			if i := indexRunes(lower, []rune(term)); i >= 0 && (first < 0 || i < first) {
				first, size = i, len([]rune(term))
			}
		}
		if first >= 0 && size <= 3*n/4 {
			shown := strings.ToLower(strings.Trim(got, "…"))
			assert.Contains(t, shown, string(lower[first:first+size]))
		}
	})
}
