package servicemcp_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// TestListerListsAsTheServer checks that a Lister gives each tool's
// object byte for byte as an MCP server over HTTP sends it.
func TestListerListsAsTheServer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := newInstance(t, f, nil, false, nil)
	l, err := servicemcp.NewLister()
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })

	ctx := tool.WithInvocation(t.Context(), &tool.Invocation{Principal: ana})
	offer := in.svc.Offer(ctx)
	require.Len(t, offer, 3)
	got, err := l.List(t.Context(), offer)
	require.NoError(t, err)
	require.Len(t, got, 3)

	// What ana's MCP client receives.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, serveHTTP(t, in, true),
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+anaToken)
	req.Header.Set("Mcp-Protocol-Version", legacy)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)

	for i, spec := range offer {
		assert.True(t, bytes.Contains(body, got[i]), "%s is listed as the server lists it", spec.Name)
		var obj struct {
			Name         string          `json:"name"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		require.NoError(t, json.Unmarshal(got[i], &obj))
		assert.Equal(t, spec.Name, obj.Name)
		if spec.Kind == tool.KindPropose {
			assert.JSONEq(t, tool.ProposalOutputSchema, string(obj.OutputSchema))
		}
	}

	none, err := l.List(t.Context(), nil)
	require.NoError(t, err)
	assert.Empty(t, none)
	assert.Zero(t, f.runs[tRead].Load()+f.runs[tDelete].Load()+f.runs[tUpdate].Load(), "listing runs nothing")
}
