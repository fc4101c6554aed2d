package toolerr

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/editdist"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

const (
	// maxQuotedName bounds how many bytes of a requested name a message
	// repeats, and how many take part in matching.
	maxQuotedName = 64
	// maxSuggestions bounds how many names an unknown-tool message offers.
	maxSuggestions = 5
)

// UnknownTool returns the error a call reports for a name no tool of
// offered has: a correctable message that names at most maxSuggestions
// close matches among offered and says how many tools there are, never
// listing the whole catalog. The registry, the call service and the
// layers in front of it (a palette, a tool search) report every name they
// do not offer with it, so that a refusal reads the same wherever it is
// made. It repeats the
// name only when it is an identifier (codec.IsIdentifier): any other text
// may carry quotes, newlines or markup aimed at whoever reads the message,
// so it is described instead.
func UnknownTool(offered []*tool.Spec, name string) *tool.Error {
	q := truncate(name, maxQuotedName)
	var b strings.Builder
	b.WriteString("unknown tool")
	switch {
	case name == "":
		b.WriteString("; the call must name a tool")
	case codec.IsIdentifier(name):
		b.WriteString(" \"")
		b.WriteString(name)
		b.WriteString("\"")
	default:
		b.WriteString(" (its name is not shown: tool names are 1 to 64 letters, digits, '_', '.' or '-')")
	}
	var names []string
	if q != "" {
		names = suggest(offered, q)
	}
	if len(names) > 0 {
		b.WriteString("; did you mean ")
		if len(names) > 1 {
			b.WriteString("one of ")
		}
		b.WriteString(strings.Join(names, ", "))
		b.WriteString("?")
	}
	switch len(offered) {
	case 0:
		b.WriteString(" (no tools available)")
	case 1:
		b.WriteString(" (1 tool available)")
	default:
		b.WriteString(" (")
		b.WriteString(strconv.Itoa(len(offered)))
		b.WriteString(" tools available)")
	}
	return &tool.Error{Code: tool.CodeUnknownTool, Message: b.String()}
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Match tiers, best first.
const (
	tierSame      = iota // equal after normalising case and separators
	tierClose            // small edit distance, or the same words reordered
	tierSubstring        // one name contains the other
	tierPrefix           // a long shared prefix, e.g. the same group
	tierNone
)

// match is one candidate with its rank.
type match struct {
	name       string
	tier, dist int
}

// suggest returns the names among offered closest to q, best first, at
// most maxSuggestions. When some name is a near miss (equal but for case
// and separators, a small edit distance, reordered words) only near misses
// are offered; otherwise names that contain q or are contained in it, then
// names sharing a long prefix with it. The order is deterministic: by tier,
// then edit distance, then name.
func suggest(offered []*tool.Spec, q string) []string {
	nq := normalize(q)
	var found []match
	for _, s := range offered {
		nc := normalize(s.Name)
		d := editdist.Distance(nq, nc)
		if t := tier(nq, nc, d); t != tierNone {
			found = append(found, match{name: s.Name, tier: t, dist: d})
		}
	}
	slices.SortFunc(found, func(a, b match) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.dist, b.dist), strings.Compare(a.name, b.name))
	})
	// A near miss is the answer: do not bury it among looser relatives.
	if i := slices.IndexFunc(found, func(m match) bool { return m.tier > tierClose }); i > 0 {
		found = found[:i]
	}
	names := make([]string, 0, min(len(found), maxSuggestions))
	for _, m := range found[:min(len(found), maxSuggestions)] {
		names = append(names, m.name)
	}
	return names
}

// tier ranks candidate c against query q (both normalised) whose edit
// distance is d.
func tier(q, c string, d int) int {
	shorter := min(len(q), len(c))
	switch {
	case q == c:
		return tierSame
	case d <= max(1, shorter/4), sameWords(q, c):
		return tierClose
	case len(q) >= 3 && strings.Contains(c, q), len(c) >= 3 && strings.Contains(q, c):
		return tierSubstring
	}
	if p := commonPrefix(q, c); p >= 3 && 2*p >= shorter {
		return tierPrefix
	}
	return tierNone
}

// normalize lower-cases ASCII letters and maps '-', '.', ' ' and '/' to '_',
// so that "Notes-Search" compares equal to "notes_search".
func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + ('a' - 'A')
		case r == '-', r == '.', r == ' ', r == '/':
			return '_'
		}
		return r
	}, s)
}

// sameWords reports whether q and c hold the same '_'-separated words in
// another order, as in "search_notes" for "notes_search".
func sameWords(q, c string) bool {
	if len(q) != len(c) || !strings.Contains(q, "_") {
		return false
	}
	qw, cw := strings.Split(q, "_"), strings.Split(c, "_")
	slices.Sort(qw)
	slices.Sort(cw)
	return slices.Equal(qw, cw)
}

// commonPrefix returns the length in bytes of the prefix a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
