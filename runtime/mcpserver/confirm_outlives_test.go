package mcpserver_test

import (
	"context"
	"sync/atomic"
	"testing"

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

// hangUpKey carries, in the session's context, the cancellation of the
// requests it serves.
type hangUpKey struct{}

// hangUp is a Confirmer whose caller hangs up as the person's yes
// arrives: it cancels the request's context, then confirms.
type hangUp struct{ mcpserver.Confirmer }

func (h hangUp) Confirm(ctx context.Context, id string, who tool.Principal) (tool.Result, error) {
	if cancel, ok := ctx.Value(hangUpKey{}).(context.CancelFunc); ok {
		cancel()
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
			srv, err := mcpserver.New(svc, &mcpserver.Options{Confirm: &mcpserver.ConfirmOptions{Confirmer: hangUp{servicemcp.Confirmer(svc)}, Key: key}})
			require.NoError(t, err)
			ana := tool.Principal{ID: "ana"}
			opts := &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept"}, nil
				},
				MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			}
			sctx, cancel := context.WithCancel(tool.WithInvocation(t.Context(), &tool.Invocation{Principal: ana}))
			defer cancel()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.SDK().Connect(context.WithValue(sctx, hangUpKey{}, cancel), st, nil)
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
			_, _ = cs.CallTool(t.Context(), call) // the answer may not reach the client: its request is gone
			r := waitRecord(t, recs, service.EventConfirmation, "purge")
			assert.Equal(t, service.OutcomeOK, r.Outcome, "the person's yes ran")
			assert.Equal(t, int64(1), runs.Load())
			p, err := svc.Proposal(t.Context(), r.Proposal, ana)
			require.NoError(t, err)
			assert.Equal(t, service.StateDone, p.State)
		})
	}
}
