package mcpclient_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpclient"
)

// fullName is the strictest provider rule for a tool name.
var fullName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestLocalName(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 100)
	tests := []struct {
		name, group, remote, want string
	}{
		{"kept", "docs", "search", "search"},
		{"kept with hyphen and underscore", "docs", "get-page_2", "get-page_2"},
		{"kept at the limit", "docs", strings.Repeat("b", 59), strings.Repeat("b", 59)},
		{"dot replaced and hashed", "docs", "files.read", "files_read_601e4eb6"},
		{"slash and space replaced", "docs", "a/b c", "a_b_c_" + hashOf("a/b c")},
		{"non-ASCII: one '_' per character", "docs", "résumé", "r_sum__" + hashOf("résumé")},
		{"too long: cut and hashed", "docs", long, strings.Repeat("a", 50) + "_" + hashOf(long)},
		{"one over the limit", "docs", strings.Repeat("b", 60), strings.Repeat("b", 50) + "_" + hashOf(strings.Repeat("b", 60))},
		{"longest group", strings.Repeat("g", mcpclient.MaxGroup), "files.read", "files_read_601e4eb6"},
		{"empty", "docs", "", "_" + hashOf("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := mcpclient.LocalName(tt.group, tt.remote)
			if tt.want != "" {
				assert.Equal(t, tt.want, got)
			}
			assert.Regexp(t, fullName, tt.group+"_"+got)
			assert.Equal(t, got, mcpclient.LocalName(tt.group, tt.remote), "deterministic")
		})
	}
}

// hashOf is the hash suffix LocalName appends for remote.
func hashOf(remote string) string { return sha8(remote) }

func TestLocalNameLookAlikesDiffer(t *testing.T) {
	t.Parallel()
	// Names that map to the same characters differ by their hash; a name
	// that already conforms is kept, so it cannot clash with a hashed one
	// unless it ends in that very hash.
	names := []string{"a.b", "a/b", "a b", "a_b", "a-b", strings.Repeat("x", 80) + "1", strings.Repeat("x", 80) + "2"}
	seen := map[string]string{}
	for _, n := range names {
		got := mcpclient.LocalName("srv", n)
		prev, dup := seen[got]
		require.False(t, dup, "%q and %q both map to %q", prev, n, got)
		seen[got] = n
	}
}

func FuzzLocalName(f *testing.F) {
	for _, s := range []string{"search", "files.read", "a/b", "", strings.Repeat("z", 128), "résumé", "\xff\xfe"} {
		f.Add("docs", s, s+".")
	}
	f.Fuzz(func(t *testing.T, group, a, b string) {
		if len(group) == 0 || len(group) > mcpclient.MaxGroup || strings.Trim(group, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return
		}
		la := mcpclient.LocalName(group, a)
		require.Regexp(t, fullName, group+"_"+la)
		require.Equal(t, la, mcpclient.LocalName(group, a))
		if a == b {
			return
		}
		lb := mcpclient.LocalName(group, b)
		if la == lb {
			// Only a hash collision may map distinct names to one: then
			// both end in the same hash of distinct names, or one is kept
			// and ends in the other's hash.
			assert.True(t, strings.HasSuffix(la, "_"+sha8(a)) || strings.HasSuffix(la, "_"+sha8(b)), "%q and %q map to %q", a, b, la)
			assert.Equal(t, sha8(a) == sha8(b) || la == a || la == b, true)
		}
	})
}
