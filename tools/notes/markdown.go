package notes

import (
	"iter"
	"strings"
)

// markdownLine is one line of a note's body, classified.
type markdownLine struct {
	Text    string // the line without its line break
	Number  int    // 1-based
	Level   int    // 1 to 6 for an ATX heading ("## Title"), else 0
	Heading string // the heading's text, without #s
}

// markdownLines yields the lines of body, recognizing ATX headings
// outside fenced code blocks (``` or ~~~).
func markdownLines(body string) iter.Seq[markdownLine] {
	return func(yield func(markdownLine) bool) {
		fence := ""
		number := 0
		for line := range strings.Lines(body) {
			number++
			l := markdownLine{Text: strings.TrimRight(line, "\r\n"), Number: number}
			trimmed := strings.TrimLeft(l.Text, " ")
			switch {
			case fence != "":
				if strings.HasPrefix(trimmed, fence) {
					fence = ""
				}
			case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
				fence = trimmed[:3]
			case len(l.Text)-len(trimmed) <= 3: // more is an indented code block
				l.Level, l.Heading = atxHeading(trimmed)
			}
			if !yield(l) {
				return
			}
		}
	}
}

// atxHeading returns the level and text of a heading line such as
// "## Goals ##", or 0 when s is not one.
func atxHeading(s string) (int, string) {
	level := len(s) - len(strings.TrimLeft(s, "#"))
	if level < 1 || level > 6 {
		return 0, ""
	}
	rest := s[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "" // "#hashtag" is not a heading
	}
	text := strings.TrimSpace(rest)
	if t := strings.TrimRight(text, "#"); t == "" || strings.HasSuffix(t, " ") {
		text = strings.TrimSpace(t) // closing #s
	}
	return level, text
}
