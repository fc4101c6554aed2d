package skill_test

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/toolgen-go/toolgen/runtime/skill"
)

// A program selects skills from the registry's set (generated.Skills() in
// a program; a literal table here), admits them to a conversation and
// puts the preamble in the system prompt.
func ExamplePatterns_Select() {
	set := skill.NewTable([]skill.Skill{
		{Name: "note-taking", Description: "Keeps the user's notes tidy.", AllowedTools: []string{"notes_search"}, Body: "Search before you create a note.\n"},
		{Name: "notes-review", Description: "Reviews old notes.", Body: "Oldest first.\n"},
	})
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	chosen, missing := skill.Patterns{"note-taking", "travel-*"}.Select(set, logger)
	fmt.Println("missing:", missing)

	var conv skill.Admitted
	conv.Admit(chosen...)
	fmt.Print(conv.Preamble())
	// Output:
	// level=WARN msg="skill patterns: no skill matches the pattern; skipped" pattern=travel-* skills=2
	// missing: [travel-*]
	// <active_skills>
	// <skill>
	// <name>note-taking</name>
	// <description>Keeps the user's notes tidy.</description>
	// <allowed_tools>notes_search</allowed_tools>
	// <instructions>
	// Search before you create a note.
	// </instructions>
	// </skill>
	// </active_skills>
}
