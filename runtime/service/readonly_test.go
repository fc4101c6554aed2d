package service_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// ro returns the context of a call for p marked read-only.
func ro(p tool.Principal, callID string) context.Context {
	return tool.WithReadOnly(as(p, callID))
}

func TestReadOnlyContextIsOfferedOnlyReadOnlyTools(t *testing.T) {
	s, _, _, _ := newService(t, nil)
	assert.Equal(t, []string{"echo"}, names(s.Offer(ro(alice, ""))), "echo is the fixture's one //tool:readonly tool")
	assert.Equal(t, []string{"echo"}, names(s.AppendOffer(ro(alice, ""), nil)))
	assert.Len(t, s.Offer(as(alice, "")), 12, "unmarked, alice is offered everything")
}

func TestReadOnlyContextRefusesMutatingCallsAtRunTime(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	for _, name := range []string{"act", "notes_read", "notes_delete", "whoami"} {
		t.Run(name, func(t *testing.T) {
			res, err := s.Call(ro(alice, ""), name, []byte(`{"id":1}`))
			require.Error(t, err)
			assert.Equal(t, tool.CodeUnknownTool, codeOf(err), "refused as an unknown tool")
			assert.True(t, res.IsError)
			assert.Contains(t, res.Text(), "(1 tool available)", "counts only the offered tool, echo")
			rec := last(t, st)
			assert.Equal(t, service.EventRefusal, rec.Event)
			assert.Equal(t, service.OutcomeRefused, rec.Outcome)
			assert.Equal(t, name, rec.Tool)
		})
	}
	for i := range f.runs {
		assert.Zero(t, f.runs[i].Load(), "tool %d ran", i)
	}
	_, err := s.Propose(ro(alice, ""), "notes_delete", []byte(`{"id":1}`))
	assert.Equal(t, tool.CodeUnknownTool, codeOf(err), "Propose is refused too")

	res, err := s.Call(ro(alice, ""), "echo", []byte(`{"text":"hi"}`))
	require.NoError(t, err)
	assert.Contains(t, res.Text(), "hi")
}

func TestReadOnlyMarkCannotBeCleared(t *testing.T) {
	s, f, _, _ := newService(t, nil)
	ctx := ro(alice, "")
	// Later layers replace the Invocation, set a call ID, derive contexts:
	// the mark stays.
	ctx = tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c2"})
	ctx = tool.WithCallID(ctx, "call-9")
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	assert.True(t, tool.IsReadOnly(ctx))
	_, err := s.Call(ctx, "act", nil)
	assert.Equal(t, tool.CodeUnknownTool, codeOf(err))
	assert.Zero(t, f.runs[tAct].Load())
}

// unmarking is an Observer that tries to clear the mark: it hands the
// call a fresh context with the Invocation but without the mark.
type unmarking struct{}

func (unmarking) Start(ctx context.Context, _ string) context.Context {
	inv, _ := tool.InvocationFrom(ctx)
	return tool.WithInvocation(context.Background(), inv)
}

func (unmarking) End(context.Context, *service.Record) {}

// allowAll is a Policy that allows everything, whatever the context.
type allowAll struct{ service.Rules }

func (allowAll) Allows(context.Context, *tool.Invocation, *tool.Spec) bool { return true }

func TestReadOnlyMarkIsReadBeforeAnyHook(t *testing.T) {
	s, f, _, _ := newService(t, &service.Options{Observer: unmarking{}, Policy: &allowAll{}})
	_, err := s.Call(ro(alice, ""), "act", nil)
	assert.Equal(t, tool.CodeUnknownTool, codeOf(err), "neither an Observer nor a Policy lifts the mark")
	assert.Zero(t, f.runs[tAct].Load())

	p, err := s.Propose(as(alice, ""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	_, err = s.Confirm(tool.WithReadOnly(context.Background()), p.ID, alice)
	assert.Equal(t, tool.CodeUnknownTool, codeOf(err), "a read-only context confirms nothing that mutates")
	assert.Zero(t, f.runs[tNotesDelete].Load())
	conf, err := s.Confirm(context.Background(), p.ID, alice)
	require.NoError(t, err, "the proposal is still pending")
	assert.Contains(t, conf.Result.Text(), "deleted 7")
}
