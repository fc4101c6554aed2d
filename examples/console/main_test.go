package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun starts the console, uses its JSON API once and checks what it
// shows: the URL and tokens, what waits, the cross-site post refused, the
// one confirmation, the record without the passphrase, the catalog.
func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), &out, false, "127.0.0.1:0"))
	got := out.String()
	for _, want := range []string{
		"The console is at http://127.0.0.1:",
		"Sign in as ana with the token ",
		"200: principal ana, operator false",
		"2 waiting:\n  notes_create  \"Creates a note. (notes_create)\"  {\"title\":\"Team sync\"",
		"notes_delete  \"Delete this note? This cannot be undone. (notes_delete)\"  {\"id\":\"n2\"}",
		"403 cross_site: a request from another site may change nothing here",
		"200: done by ana, outcome ok: note n6 \"Team sync\" created",
		"again: 409 already_decided",
		"  confirmation  notes_create  ok       {\"title\":\"Team sync\"",
		`  call          notes_share   ok       {"id":"n1","passphrase":"[secret]","hours":2}`,
		"13 tools offered to ana:",
		"notes_delete (precomputed true), as Anthropic receives it:\n  {\"name\":\"notes_delete\"",
		"Shut down.",
	} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "open sesame")
}
