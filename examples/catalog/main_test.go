package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun checks what `make run` promises a new user: the tools a person
// is offered, a good call, one error of each kind with its correctable
// message, a proposal confirmed once, and the record of it all.
func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	got := out.String()
	for _, want := range []string{
		"13 tools offered to ana, sorted by name:",
		"ben is offered 8 of them.",
		"notes_search      read     readonly",
		"notes_delete      propose  destructive,idempotent",
		`structured: {"notes":[{"id":"n1"`,
		`error [invalid_arguments] for the model: invalid arguments: /query: must be at least 1 character long; /limit: must be at most 50; /sort: must be one of "relevance", "newest", "oldest"; /colour: unknown property`,
		`error [unknown_tool] for the model: unknown tool "notes_serch"; did you mean notes_search?`,
		`{"status":"proposed","message":"Nothing has run yet: a person must confirm this proposal first.","tool":"notes_delete"`,
		`error [unknown_tool] for the model: unknown tool "notes_delete"; did you mean one of notes_get, notes_outline, notes_render, notes_search? (8 tools available)`,
		"> ana confirms the proposal\nstructured: {\"id\":\"n2\",\"deleted\":true}",
		"error [already_confirmed] for the model: proposal prop_",
		"error [failed] for the model: note n999: not found",
		"The record (14 rows):",
		// The long call's progress, drawn by the service's Observer (not
		// a terminal: the last state, once), to its end and when cancelled.
		"  [####################] 100%  waited 2.0 s of 2.0 s\nstructured: {\"seconds\":2,\"until\":",
		"  [--------------------]   2%  waited 0.5 s of 30.0 s\nerror [cancelled] for the model: the call was cancelled; the tool stopped",
	} {
		assert.Contains(t, got, want)
	}
	// One proposal, announced twice (the repeated call ID), confirmed once.
	ids := regexp.MustCompile(`"proposal":"(prop_[A-Z0-9]+)"`).FindAllStringSubmatch(got, -1)
	require.Len(t, ids, 2)
	assert.Equal(t, ids[0][1], ids[1][1])
	for _, row := range []string{
		`ana  call_8   proposal      notes_delete  ok         -                  {"id":"n2"}`,
		`ana  call_8   replay        notes_delete  ok         -                  {"id":"n2"}`,
		`ben  call_9   refusal       notes_delete  refused    unknown_tool`,
		`ana  call_7   call          notes_share   ok         -                  {"id":"n1","passphrase":"[secret]","hours":2}`,
		`ana  call_8   confirmation  notes_delete  ok         -                  {"id":"n2"}`,
		`ana  call_8   refusal       notes_delete  refused    already_confirmed`,
		`ana  call_10  call          clock_wait    ok         -                  {"seconds":2}`,
		`ana  call_11  call          clock_wait    cancelled  cancelled          {"seconds":30}`,
	} {
		assert.Contains(t, got, row)
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "error [invalid_arguments]") {
			assert.NotContains(t, line, "random", "a bad value must never be echoed back")
			assert.NotContains(t, line, "500")
		}
	}
	assert.NotContains(t, got, "clock_sync", "a tool without its reference clock is not offered")
	record := got[strings.Index(got, "The record"):]
	assert.NotContains(t, record, "correct horse", "a secret argument is never recorded")
}
