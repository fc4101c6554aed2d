package service_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// names returns the names of specs.
func names(specs []*tool.Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

func TestInvocationReachesTheTool(t *testing.T) {
	s, _, _, _ := newService(t, nil)
	res, err := s.Call(as(alice, "call-1"), "whoami", nil)
	require.NoError(t, err)
	assert.Equal(t, "alice|c1|t1|call-1|claude-x|1", res.Text(), "principal, conversation, turn, call ID, the agent's model")
}

func TestOfferFollowsPolicyPermissionsAndTheToolItself(t *testing.T) {
	_, reg := newFixture(t)
	all := []string{"act", "block", "echo", "login", "reserved", "slow_propose", "summarized", "wait_ctx", "whoami"}
	cases := []struct {
		name   string
		policy service.Policy
		who    tool.Principal
		want   []string
	}{
		{"bob: no notes.write, hidden declines", nil, bob, slices.Concat(all[:3], all[3:4], []string{"notes_read"}, all[4:])},
		{"alice: everything", nil, alice, []string{"act", "block", "echo", "hidden", "login", "notes_delete", "notes_read", "reserved", "slow_propose", "summarized", "wait_ctx", "whoami"}},
		{"no permissions", nil, tool.Principal{ID: "carol"}, all},
		{"by name", &service.Rules{Tools: []string{"echo", "notes_delete"}}, alice, []string{"echo", "notes_delete"}},
		{"by group", &service.Rules{Groups: []string{"notes"}}, bob, []string{"notes_read"}},
		{"by kind", &service.Rules{Kinds: []tool.Kind{tool.KindPropose}}, alice, []string{"notes_delete", "slow_propose"}},
		{"group and kind", &service.Rules{Groups: []string{"notes"}, Kinds: []tool.Kind{tool.KindRead}}, alice, []string{"notes_read"}},
		{"no principal", nil, tool.Principal{}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := service.New(reg, &service.Options{Policy: c.policy})
			require.NoError(t, err)
			got := s.Offer(as(c.who, ""))
			assert.Equal(t, c.want, append([]string{}, names(got)...))
			for _, spec := range got {
				p, ok := reg.Lookup(spec.Name)
				require.True(t, ok)
				assert.Same(t, p, spec, "the offer hands out the registry's own specs, so their precomputed bytes apply")
			}
		})
	}
	s, err := service.New(reg, nil)
	require.NoError(t, err)
	assert.Empty(t, s.Offer(context.Background()), "a context without an invocation is offered nothing")
}

func TestRefusedCallsReadAsUnknownToolsAndAreRecorded(t *testing.T) {
	s, f, st, _ := newService(t, &service.Options{Policy: &service.Rules{Groups: []string{"notes"}, Tools: []string{"echo", "hidden"}}})
	cases := []struct{ name, tool string }{
		{"unknown", "nope"},
		{"not allowed", "act"},
		{"missing permission", "notes_delete"},
		{"declined by the tool", "hidden"},
		{"empty name", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := s.Call(as(bob, ""), c.tool, []byte(`{"id":1}`))
			require.Error(t, err)
			assert.Equal(t, tool.CodeUnknownTool, codeOf(err))
			assert.True(t, res.IsError)
			assert.Equal(t, err.Error(), res.Text())
			assert.Contains(t, err.Error(), "(2 tools available)", "counts only what bob is offered: echo, notes_read")
			for _, hidden := range []string{"act", "notes_delete", "hidden"} {
				if hidden != c.tool {
					assert.NotContains(t, err.Error(), hidden, "names no tool bob is not offered")
				}
			}
			r := last(t, st)
			assert.Equal(t, service.EventRefusal, r.Event)
			assert.Equal(t, service.OutcomeRefused, r.Outcome)
			assert.Equal(t, tool.CodeUnknownTool, r.Code)
			assert.Equal(t, "bob", r.Principal)
			assert.Equal(t, c.tool, r.Tool)
			assert.Equal(t, err.Error(), r.Error)
		})
	}
	for i := range f.runs {
		assert.Zero(t, f.runs[i].Load(), "nothing ran")
	}
	// The same registry's answer, with suggestions among offered tools only.
	_, err := s.Call(as(bob, ""), "notes_reed", nil)
	assert.Contains(t, err.Error(), "did you mean notes_read?")
}

// switchPolicy allows every tool until off is set.
type switchPolicy struct {
	service.Rules
	off bool
}

func (p *switchPolicy) Allows(ctx context.Context, inv *tool.Invocation, spec *tool.Spec) bool {
	return !p.off && p.Rules.Allows(ctx, inv, spec)
}

func TestPermissionsAreCheckedAgainAtRunTime(t *testing.T) {
	pol := &switchPolicy{}
	s, f, _, _ := newService(t, &service.Options{Policy: pol})
	ctx := as(alice, "")
	require.Contains(t, names(s.Offer(ctx)), "act")
	pol.off = true // the person lost the right between the offer and the call
	_, err := s.Call(ctx, "act", nil)
	assert.Equal(t, tool.CodeUnknownTool, codeOf(err))
	assert.Zero(t, f.runs[tAct].Load())

	// A principal without the permission cannot call the tool by name
	// even though it exists.
	pol.off = false
	_, err = s.Call(as(bob, ""), "notes_delete", []byte(`{"id":1}`))
	assert.Equal(t, tool.CodeUnknownTool, codeOf(err))
}

func TestCallWithoutPrincipalIsRefused(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	_, err := s.Call(context.Background(), "echo", nil)
	assert.Equal(t, tool.CodeUnknownTool, codeOf(err))
	assert.Contains(t, err.Error(), "no tools available")
	assert.Zero(t, f.runs[tEcho].Load())
	assert.Equal(t, service.EventRefusal, last(t, st).Event)
}

func TestReservedCodeFromAToolIsAFailure(t *testing.T) {
	s, _, st, _ := newService(t, nil)
	res, err := s.Call(as(alice, ""), "reserved", nil)
	assert.Equal(t, tool.CodeFailed, codeOf(err))
	assert.Equal(t, "the tool failed", res.Text())
	r := last(t, st)
	assert.Equal(t, service.OutcomeFailed, r.Outcome)
	assert.Equal(t, tool.CodeFailed, r.Code)
}

func TestAsFillsInThePrincipal(t *testing.T) {
	s, _, _, _ := newService(t, nil)
	c := service.As(s, &tool.Invocation{Principal: alice, Conversation: "stdio"})
	assert.Contains(t, names(c.Offer(context.Background())), "hidden")
	res, err := c.Call(tool.WithCallID(context.Background(), "m-1"), "whoami", nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(res.Text(), "alice|stdio||m-1|"), res.Text())
	res, err = c.Call(as(bob, ""), "whoami", nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(res.Text(), "bob|"), "a context's own principal wins")
}
