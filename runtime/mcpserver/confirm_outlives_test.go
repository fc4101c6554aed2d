package mcpserver_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// hangUp is a Confirmer whose client hangs up as the person's yes
// arrives: it cancels the client's call (notifications/cancelled), then
// confirms once the call's context has ended, or after a second (when
// the confirmation is detached from it, it never ends).
type hangUp struct {
	mcpserver.Confirmer
	cancel *atomic.Pointer[context.CancelFunc]
}

func (h hangUp) Confirm(ctx context.Context, id string, who tool.Principal) (tool.Result, error) {
	if cancel := h.cancel.Load(); cancel != nil {
		(*cancel)()
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	return h.Confirmer.Confirm(ctx, id, who)
}

// TestConfirmOutlivesTheRequest: the person accepts, and the request is
// cancelled as the answer is carried out (a connection closed, a proxy's
// timeout): the proposal still runs, once, and its run is recorded. The
// yes is not lost, and the proposal is not spent without a run.
func TestConfirmOutlivesTheRequest(t *testing.T) {
	t.Parallel()
	key := []byte("0123456789abcdef0123456789abcdef")
	for _, protocol := range protocols {
		t.Run(protocolName(protocol), func(t *testing.T) {
			t.Parallel()
			var runs atomic.Int64
			reg := newStatic(t, fakeTool{spec: tool.Spec{Name: "purge", Kind: tool.KindPropose, Title: "Purge"},
				run: func(ctx context.Context, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
					in.Skip()
					in.End()
					runs.Add(1)
					out.RawText("purged")
					return toolimpl.OutputText, nil
				}})
			recs := make(ends, 256)
			svc, err := service.New(reg, &service.Options{Observer: recs})
			require.NoError(t, err)
			var hang atomic.Pointer[context.CancelFunc]
			srv, err := mcpserver.New(svc, &mcpserver.Options{Confirm: &mcpserver.ConfirmOptions{Confirmer: hangUp{servicemcp.Confirmer(svc), &hang}, Key: key}})
			require.NoError(t, err)
			ana := tool.Principal{ID: "ana"}
			opts := &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept"}, nil
				},
				MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.SDK().Connect(tool.WithInvocation(t.Context(), &tool.Invocation{Principal: ana}), st, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = ss.Close() })
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
			require.NoError(t, err)
			t.Cleanup(func() { _ = cs.Close() })

			call := &mcp.CallToolParams{Name: "purge", Arguments: map[string]any{}}
			if protocol == protocolLatest {
				first, err := cs.CallTool(t.Context(), call)
				require.NoError(t, err)
				require.True(t, first.NeedsInput())
				call.RequestState = first.RequestState
				call.InputResponses = mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			hang.Store(&cancel)
			_, _ = cs.CallTool(ctx, call) // cancelled: the answer does not reach the client
			r := confirmationOf(t, recs)
			assert.Equal(t, service.EventConfirmation, r.Event, "not refused: %s", r.Error)
			assert.Equal(t, service.OutcomeOK, r.Outcome, "the person's yes ran")
			assert.Equal(t, int64(1), runs.Load())
			p, err := svc.Proposal(t.Context(), r.Proposal, ana)
			require.NoError(t, err)
			assert.Equal(t, service.StateDone, p.State)
		})
	}
}

// confirmationOf returns the first record of e that confirms a proposal,
// or refuses to; it turns a hang into a failure.
func confirmationOf(t *testing.T, e ends) service.Record {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case r := <-e:
			if r.Event == service.EventConfirmation || r.Event == service.EventRefusal && r.Proposal != "" {
				return r
			}
		case <-timeout:
			t.Fatal("no confirmation recorded")
		}
	}
}
