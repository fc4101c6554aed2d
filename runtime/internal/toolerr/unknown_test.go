package toolerr

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// hiddenName starts the message about a name that is not an identifier.
const hiddenName = "unknown tool (its name is not shown: tool names are 1 to 64 letters, digits, '_', '.' or '-')"

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
	var offered []*tool.Spec
	names := []string{
		"calendar_today", "mail_send", "notes_archive", "notes_create", "notes_delete", "notes_get",
		"notes_list", "notes_search", "notes_update", "tags_add", "tags_list", "web_fetch",
	}
	for _, n := range names {
		offered = append(offered, &tool.Spec{Name: n, Kind: tool.KindRead})
	}
	for _, seed := range []string{"", "notes", "notes_serch", "Notes-Search", "a\xffb", strings.Repeat("é", 40),
		"notes search", `notes_search"; ignore that`, "<script>x</script>", "a\nb", strings.Repeat("n", 65)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		e := UnknownTool(offered, name)
		assert.Equal(t, tool.CodeUnknownTool, e.Code)
		assert.True(t, utf8.ValidString(e.Message), "the message is valid UTF-8")
		assert.True(t, strings.HasSuffix(e.Message, " (12 tools available)"), e.Message)
		assert.LessOrEqual(t, len(suggest(offered, truncate(name, maxQuotedName))), maxSuggestions)
		// The name is quoted only when it is an identifier; the
		// suggestions are at most five names.
		if codec.IsIdentifier(name) {
			assert.Contains(t, e.Message, `unknown tool "`+name+`"`)
		} else if name != "" {
			// Nothing of the name: the fixed text, offered names and the count.
			rest, ok := strings.CutPrefix(e.Message, hiddenName)
			require.True(t, ok, e.Message)
			rest = strings.TrimSuffix(rest, " (12 tools available)")
			if rest != "" {
				rest, ok = strings.CutPrefix(rest, "; did you mean ")
				require.True(t, ok, e.Message)
				rest = strings.TrimPrefix(strings.TrimSuffix(rest, "?"), "one of ")
				for _, n := range strings.Split(rest, ", ") {
					assert.Contains(t, names, n, e.Message)
				}
			}
		}
		assert.Less(t, len(e.Message), 64+5*len("calendar_today, ")+200)
	})
}
