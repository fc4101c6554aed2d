package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun plays the session and checks what it shows: the refusal of a
// request without a token, the two listings, ben's refusal, ana's
// proposal and its one confirmation, and the record (the listings are its
// offers).
func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), &out))
	got := out.String()
	for _, want := range []string{
		"401 Unauthorized\nWWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1:",
		"/.well-known/oauth-protected-resource/mcp\"\nbody: Unauthorized: a valid bearer token is required\n",
		"> ana: tools/list\n11 tools (cacheScope private): clock_now clock_wait clock_zones notes_create notes_get notes_outline notes_render notes_search notes_tag notes_update weather_forecast\n",
		"> ben: tools/list\n8 tools (cacheScope private): clock_now clock_wait clock_zones notes_get notes_outline notes_render notes_search weather_forecast\n",
		`protocol error: unknown tool "notes_update"; did you mean one of notes_get, notes_outline, notes_render, notes_search? (8 tools available)`,
		`structured: status "proposed", summary "Creates a note. (notes_create)", proposal prop_`,
		"refused [unknown_proposal]: no proposal prop_",
		"ran: note n6 \"Team sync\" created\n",
		"refused [already_confirmed]: nothing ran\n",
		"ben reads note n6 \"Team sync\"\n",
		"The record (8 rows):",
	} {
		assert.Contains(t, got, want)
	}
	rows := regexp.MustCompile(`(?m)^\d+s\s+(\w+)\s+(\S+)\s+(\S+)\s+(\w+)\s+(\S+)\s+(\w+)\s+(\S+)`).FindAllStringSubmatch(got, -1)
	var record []string
	for _, r := range rows {
		record = append(record, strings.Join(r[1:], " "))
	}
	assert.Equal(t, []string{
		"ana - - offer - ok -", // tools/list: what each was offered
		"ben - - offer - ok -",
		"ben - - refusal notes_update refused unknown_tool",
		"ana team-chat call_1 proposal notes_create ok -",
		"ben - - refusal notes_create refused unknown_proposal",
		"ana team-chat call_1 confirmation notes_create ok -",
		"ana team-chat call_1 refusal notes_create refused already_confirmed",
		"ben - - call notes_get ok -",
	}, record)
	assert.NotRegexp(t, `[0-9a-f]{32}`, got, "the tokens are never shown")
}
