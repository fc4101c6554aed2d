package tool

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		s    string
		n    int
		want string
	}{
		{"short", "abc", 64, "abc"},
		{"exact", strings.Repeat("a", 64), 64, strings.Repeat("a", 64)},
		{"long", strings.Repeat("a", 65), 64, strings.Repeat("a", 64)},
		{"rune boundary", strings.Repeat("a", 63) + "é", 64, strings.Repeat("a", 63)},
		{"three-byte rune", "ab€", 3, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, truncate(tt.s, tt.n))
		})
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "notes_search", normalize("Notes-Search"))
	assert.Equal(t, "notes_search", normalize("notes.search"))
	assert.Equal(t, "notes_search", normalize("NOTES/SEARCH"))
	assert.Equal(t, "ünïcode_x", normalize("ünïcode x"), "non-ASCII letters are kept as they are")
}

func FuzzUnknownTool(f *testing.F) {
	var offered []*Spec
	for _, n := range []string{
		"calendar_today", "mail_send", "notes_archive", "notes_create", "notes_delete", "notes_get",
		"notes_list", "notes_search", "notes_update", "tags_add", "tags_list", "web_fetch",
	} {
		offered = append(offered, &Spec{Name: n, Kind: KindRead})
	}
	for _, seed := range []string{"", "notes", "notes_serch", "Notes-Search", "a\xffb", strings.Repeat("é", 40)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		e := unknownTool(offered, name)
		assert.Equal(t, CodeUnknownTool, e.Code)
		assert.True(t, utf8.ValidString(e.Message), "the message is valid UTF-8")
		assert.True(t, strings.HasSuffix(e.Message, " (12 tools available)"), e.Message)
		assert.LessOrEqual(t, len(suggest(offered, truncate(name, maxQuotedName))), maxSuggestions)
		// The quoted name is at most 64 bytes before escaping (4 bytes per
		// escaped byte), the suggestions at most five names.
		assert.Less(t, len(e.Message), 64*4+5*len("calendar_today, ")+100)
	})
}
