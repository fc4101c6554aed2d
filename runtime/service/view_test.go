package service_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// viewPIN is the secret member of vault_open's arguments in the tests.
const viewPIN = "4711-never-shown"

// newViewService returns a service over one propose tool, vault_open,
// whose "pin" member is secret, with the policy given and a settable
// clock.
func newViewService(t *testing.T, policy service.Policy) (*service.Service, *service.MemoryStore, *clock) {
	t.Helper()
	specs := []*tool.Spec{{
		Name: "vault_open", Kind: tool.KindPropose, Title: "Open vault", Secrets: []string{"/pin"},
		InputSchema: []byte(`{"type":"object","properties":{"vault":{"type":"string"},"pin":{"type":"string"}}}`),
	}}
	dispatch := func(_ context.Context, _ int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		if in.Object("object") {
			for {
				k, ok := in.Key()
				if !ok {
					break
				}
				in.Push(string(k))
				_, _ = in.String("string")
				in.Pop()
			}
		}
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil {
			return 0, err
		}
		if mode == toolimpl.ModeCall {
			out.RawText("opened")
			return toolimpl.OutputText, nil
		}
		return 0, nil
	}
	reg, err := toolimpl.NewRegistry(specs, nil, dispatch, nil)
	require.NoError(t, err)
	st := service.NewMemoryStore()
	c := &clock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	s, err := service.New(reg, &service.Options{Store: st, Policy: policy, Now: c.now})
	require.NoError(t, err)
	return s, st, c
}

// proposeVault proposes vault_open as who and returns the proposal's ID.
func proposeVault(t *testing.T, s *service.Service, who tool.Principal) string {
	t.Helper()
	p, err := s.Propose(as(who, ""), "vault_open", []byte(`{"vault":"v1","pin":"`+viewPIN+`"}`))
	require.NoError(t, err)
	return p.ID
}

func TestViewProposalRedactsSecrets(t *testing.T) {
	t.Parallel()
	s, st, _ := newViewService(t, nil)
	id := proposeVault(t, s, alice)

	v, err := s.ViewProposal(t.Context(), id, alice)
	require.NoError(t, err)
	assert.JSONEq(t, `{"vault":"v1","pin":"[secret]"}`, string(v.Args))
	assert.NotContains(t, string(v.Args), viewPIN)
	p, err := st.Proposal(t.Context(), id)
	require.NoError(t, err)
	assert.Contains(t, string(p.Args), viewPIN, "the stored proposal keeps what the tool runs with")
	assert.Equal(t, service.ProposalView{
		ID: id, Principal: "alice", Conversation: "c1", Turn: "t1", Tool: "vault_open", Summary: "Open vault (vault_open)",
		Args: v.Args, Digest: p.Digest, Created: p.Created, Expires: p.Expires, State: service.StatePending, Decidable: true,
	}, *v)
	assert.Len(t, records(t, st), 1, "viewing records nothing")
}

func TestViewProposalWho(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		policy    service.Policy
		who       tool.Principal
		visible   bool
		decidable bool
	}{
		{"the proposer", nil, alice, true, true},
		{"another person", nil, bob, false, false},
		{"a confirmer", &service.Rules{ConfirmPermission: "confirm.any"}, admin, true, true},
		{"the proposer under four eyes", &service.Rules{ConfirmPermission: "confirm.any", OthersOnly: true}, alice, true, false},
		{"no one", nil, tool.Principal{}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _, _ := newViewService(t, tt.policy)
			id := proposeVault(t, s, alice)
			v, err := s.ViewProposal(t.Context(), id, tt.who)
			list, lerr := s.ViewProposals(t.Context(), tt.who, service.ProposalQuery{State: service.StatePending})
			require.NoError(t, lerr)
			if !tt.visible {
				assert.Equal(t, tool.CodeUnknownProposal, tool.CodeOf(err))
				assert.Nil(t, v)
				assert.Empty(t, list)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.decidable, v.Decidable)
			require.Len(t, list, 1)
			assert.Equal(t, *v, list[0])
		})
	}
}

func TestViewProposalUnknownIDs(t *testing.T) {
	t.Parallel()
	s, _, _ := newViewService(t, nil)
	for _, id := range []string{"", "prop_NOSUCH", "<script>alert(1)</script>"} {
		_, err := s.ViewProposal(t.Context(), id, alice)
		require.Error(t, err)
		assert.Equal(t, tool.CodeUnknownProposal, tool.CodeOf(err))
		assert.NotContains(t, err.Error(), "<script>", "a value that is no identifier is not echoed")
	}
}

func TestViewProposalStates(t *testing.T) {
	t.Parallel()
	s, _, c := newViewService(t, nil)
	done := proposeVault(t, s, alice)
	_, err := s.Confirm(t.Context(), done, alice)
	require.NoError(t, err)
	rejected := proposeVault(t, s, alice)
	require.NoError(t, s.Reject(t.Context(), rejected, alice))
	late := proposeVault(t, s, alice)
	c.add(service.DefaultProposalTTL)

	for id, want := range map[string]service.State{done: service.StateDone, rejected: service.StateRejected, late: service.StateExpired} {
		v, err := s.ViewProposal(t.Context(), id, alice)
		require.NoError(t, err)
		assert.Equal(t, want, v.State, id)
	}
	v, err := s.ViewProposal(t.Context(), done, alice)
	require.NoError(t, err)
	assert.Equal(t, "alice", v.DecidedBy)
	assert.False(t, v.Decided.IsZero())

	list, err := s.ViewProposals(t.Context(), alice, service.ProposalQuery{})
	require.NoError(t, err)
	require.Len(t, list, 3, "oldest first")
	assert.Equal(t, []string{done, rejected, late}, []string{list[0].ID, list[1].ID, list[2].ID})
}

// TestViewProposalGoneTool checks that a proposal whose tool is no longer
// served shows the arguments its record kept, never the stored ones.
func TestViewProposalGoneTool(t *testing.T) {
	t.Parallel()
	s, st, _ := newViewService(t, nil)
	id := proposeVault(t, s, alice)
	p, err := st.Proposal(t.Context(), id)
	require.NoError(t, err)

	// Another service sharing the store, whose registry lacks the tool.
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{Name: "other", Kind: tool.KindRead}}, nil,
		func(context.Context, int, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
			return 0, nil
		}, nil)
	require.NoError(t, err)
	other, err := service.New(reg, &service.Options{Store: st, Now: func() time.Time { return p.Created }})
	require.NoError(t, err)
	v, err := other.ViewProposal(t.Context(), id, alice)
	require.NoError(t, err)
	var args map[string]string
	require.NoError(t, json.Unmarshal(v.Args, &args))
	assert.Equal(t, map[string]string{"vault": "v1", "pin": "[secret]"}, args)

	// Without the record either, no arguments at all.
	_, err = st.Purge(t.Context(), p.Created.Add(time.Second))
	require.NoError(t, err)
	v, err = other.ViewProposal(t.Context(), id, alice)
	require.NoError(t, err)
	assert.Nil(t, v.Args, "the stored arguments are never shown")
}
