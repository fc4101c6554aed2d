package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun runs every probe at tiny sizes: the harness works.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a server for a few seconds")
	}
	var out bytes.Buffer
	err := run(t.Context(), []string{
		"-probes", "http,slow,batch,sessions,load",
		"-slow", "3", "-hold", "100ms", "-batch-bytes", "2000",
		"-sessions", "5", "-idle", "10ms", "-load-sessions", "2", "-load-time", "300ms",
	}, &out)
	require.NoError(t, err, out.String())
	for _, want := range []string{"http: 5 MiB body: 413", "slow: after 100ms still open", "batch (2025-03-26)", "sessions: 5 initialize", "load: 2 sessions"} {
		assert.Contains(t, out.String(), want)
	}
}
