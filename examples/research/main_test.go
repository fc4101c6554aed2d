package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun checks what `make run` promises: the sweep names request_tools
// and the mutating note tools, the remote server's read tools are offered
// (one under a mapped name), the remote tool that mutates and the swept
// ones are refused and recorded, request_skill attaches a skill.
func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	got := out.String()
	for _, want := range []string{
		"swept when the palette was bound read-only: notes_create, notes_delete, notes_share, notes_tag, notes_update, request_tools",
		"offered in turn 1: library_papers_get_55b29e61, library_search, notes_get, notes_outline, notes_render, notes_search, request_skill",
		`library_papers_get_55b29e61 is the remote "papers.get" (read)`,
		"> request_skill {\"names\":[\"note-taking\"]}\n{\"admitted\":[\"note-taking\"],\"rejected\":[]}",
		"p1: Static tool registries for LLM agents (2026)",
		"Prompt caches and byte-stable tool definitions (2025)",
		"> library_retract {\"id\":\"p1\"}\nerror [unknown_tool]: unknown tool \"library_retract\"",
		"> notes_delete {\"id\":\"n1\"}\nerror [unknown_tool]",
		"> request_tools {\"names\":[\"notes_delete\"]}\nerror [unknown_tool]",
		"the conversation's preamble now starts: <active_skills>",
		"The record (9 rows):",
		"t1    offer                                 ok                     {\"tools\":[\"library_papers_get_55b29e61\",\"library_search\",\"notes_get\",\"notes_outline\",\"notes_render\",\"notes_search\",\"request_skill\"],\"read_only\":true}\n",
		"t1    call     request_skill                ok",
		"t2    offer                                 ok",
		"t1    refusal  library_retract              refused  unknown_tool",
		"t1    refusal  request_tools                refused  unknown_tool",
	} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "retracted", "the remote tool that mutates never ran")
}
