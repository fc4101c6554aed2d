package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun checks what `make run` promises a new user: the catalog, a good
// call, and one error of each kind with its correctable message.
func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	got := out.String()
	for _, want := range []string{
		"12 tools, sorted by name:",
		"notes_search      read     readonly",
		"notes_delete      propose  destructive,idempotent",
		`structured: {"notes":[{"id":"n1"`,
		`error [invalid_arguments] for the model: invalid arguments: /query: must be at least 1 character long; /limit: must be at most 50; /sort: must be one of "relevance", "newest", "oldest"; /colour: unknown property`,
		`error [unknown_tool] for the model: unknown tool "notes_serch"; did you mean notes_search?`,
		"error [needs_confirmation] for the model: tool notes_delete needs a person's confirmation; nothing was run",
		"error [failed] for the model: note n999: not found",
	} {
		assert.Contains(t, got, want)
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "error [invalid_arguments]") {
			assert.NotContains(t, line, "random", "a bad value must never be echoed back")
			assert.NotContains(t, line, "500")
		}
	}
	assert.NotContains(t, got, "clock_sync", "a tool without its reference clock is not offered")
}
