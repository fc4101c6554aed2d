package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun checks what the example shows: the palette's offer before and
// after request_tools, the catalog shrinking by what was granted and
// stable within a turn, the bound argument hidden and not overridable, the reasons for the
// names refused (the one that is not an identifier never echoed), the
// action run and the proposal confirmed, and the grant recorded like any
// call.
func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	got := out.String()
	assert.Contains(t, got, "not offered to ana, so never in her catalog: notes_delete (needs notes.write, notes.delete)\n")
	assert.Contains(t, got, "not offered to ana, so never in her catalog: notes_share (needs notes.share)\n")
	t1, t2, ok := strings.Cut(got, "== turn t2")
	require.True(t, ok, "two turns")
	for _, want := range []string{
		"offered: notes_get, notes_search, request_tools\n",
		"request_tools catalog (1147 bytes of schema): notes_create, notes_outline, notes_render, notes_tag, notes_update\n",
		"asked twice this turn, same bytes: true, same spec: true\n",
		`notes_search's schema has a sort property: false`,
		"error [invalid_arguments]: invalid arguments: /sort: unknown property (additional properties are not allowed)\n",
		"n5 \"Reading list\" updated 2025-03-21T07:00:00Z\nn4 \"Quarterly review\"",
		`{"admitted":["notes_update","notes_create"],"rejected":[{"name":"clock_now","reason":"not in this agent's catalog"},{"name":"an unknown name","reason":"unknown tool"}]}`,
		"specs projected at run time so far: 2 ",
	} {
		assert.Contains(t, t1, want)
	}
	for _, want := range []string{
		"offered: notes_create, notes_get, notes_search, notes_update, request_tools\n",
		"request_tools catalog (726 bytes of schema): notes_outline, notes_render, notes_tag\n",
		"schema changed since the last turn: true; gone from the catalog, now in the palette: notes_create, notes_update\n",
		"asked twice this turn, same bytes: true, same spec: true\n",
		"specs projected at run time so far: 3 ",
		`note n1 "Go generics, a cheat sheet", revision 2`,
		"proposed: Nothing has run yet",
		"> ana confirms the proposal\nnote n6 \"Generics talk outline\", revision 1",
	} {
		assert.Contains(t, t2, want)
	}
	_, answer, ok := strings.Cut(t1, "> model: request_tools ")
	require.True(t, ok)
	_, answer, _ = strings.Cut(answer, "\n") // the line after the model's call
	assert.NotContains(t, answer, "bogus", "a requested name that is not an identifier is never echoed")
	record := got[strings.Index(got, "The record"):]
	for _, row := range []string{
		"The record (8 rows):",
		"ana  t1    -       offer         -              ok       -\nana  t1    call_1  refusal       notes_search   refused  invalid_arguments",
		"ana  t1    call_2  call          notes_search   ok       -",
		"ana  t1    call_3  call          request_tools  ok       -",
		"ana  t1    call_3  call          request_tools  ok       -\nana  t2    -       offer         -              ok       -\nana  t2    call_4  call          notes_update   ok       -",
		"ana  t2    call_5  proposal      notes_create   ok       -",
		"ana  t2    call_5  confirmation  notes_create   ok       -",
	} {
		assert.Contains(t, record, row)
	}
}
