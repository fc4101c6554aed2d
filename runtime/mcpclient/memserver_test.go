package mcpclient_test

import (
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// TestKillEndsCallsInFlight checks the test server's death: it ends a
// call in flight, whatever else its session does. This client opens no
// subscriptions/listen (it has no ToolListChangedHandler), so nothing
// but the death ends the wait tool; a kill that waits for the handlers
// in flight (ServerSession.Close) hangs here every time, where the
// toolkit tests hung only when the listen's answer won a race.
func TestKillEndsCallsInFlight(t *testing.T) {
	t.Parallel()
	b := &blocker{started: make(chan struct{}), release: make(chan struct{})}
	m := &memServer{srv: newSDKServer(b)}
	ctx := t.Context()
	tr, err := m.connect(ctx, env(nil))
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, nil).Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	called := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		called <- err
	}()
	select {
	case <-b.started:
	case <-time.After(waitLimit):
		t.Fatal("the remote tool did not start")
	}
	killed := make(chan error, 1)
	go func() { killed <- m.kill() }()
	select {
	case err := <-killed:
		require.NoError(t, err)
	case <-time.After(2 * waitLimit):
		t.Fatal("kill waits for the handler in flight")
	}
	select {
	case err := <-called:
		require.Error(t, err, "the call in flight fails: the server died")
	case <-time.After(waitLimit):
		t.Fatal("the call hangs after the server died")
	}
}
