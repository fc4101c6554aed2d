package service_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// dynTool is a tool.Dynamic of the tests: it counts its runs, accepts
// only arguments that are a JSON object, and answers with its name.
type dynTool struct {
	spec  *tool.Spec
	runs  atomic.Int64
	fail  error         // returned by Call when set
	block chan struct{} // Call waits on it (or its context) when set
}

func (d *dynTool) Spec() *tool.Spec { return d.spec }

func (d *dynTool) Check(_ context.Context, args []byte) error {
	if len(args) > 0 && args[0] != '{' {
		e := &tool.Error{Code: tool.CodeInvalidArguments, Tool: d.spec.Name, Message: "invalid arguments: (root): expected an object"}
		return e
	}
	return nil
}

func (d *dynTool) Call(ctx context.Context, args []byte) (tool.Result, error) {
	if err := d.Check(ctx, args); err != nil {
		return tool.Result{Content: []byte(err.(*tool.Error).Message), IsError: true}, err
	}
	d.runs.Add(1)
	if d.block != nil {
		select {
		case <-d.block:
		case <-ctx.Done():
			return tool.Result{}, &tool.Error{Code: tool.CodeTimeout, Tool: d.spec.Name, Message: "tool " + d.spec.Name + " timed out", Cause: ctx.Err()}
		}
	}
	if d.fail != nil {
		return tool.Result{}, d.fail
	}
	return tool.Result{Content: []byte("ran " + d.spec.Name + " with " + string(args))}, nil
}

// source is a tool.Source of the tests: a list of dynamic tools, sorted by
// name, that can be made unavailable.
type source struct {
	mu    sync.Mutex
	tools []*dynTool
	gone  bool
}

func (s *source) AppendTools(_ context.Context, dst []*tool.Spec) []*tool.Spec {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone {
		return dst
	}
	for _, d := range s.tools {
		dst = append(dst, d.spec)
	}
	return dst
}

func (s *source) Lookup(_ context.Context, name string) (tool.Dynamic, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone {
		return nil, false
	}
	for _, d := range s.tools {
		if d.spec.Name == name {
			return d, true
		}
	}
	return nil, false
}

func (s *source) setGone(gone bool) {
	s.mu.Lock()
	s.gone = gone
	s.mu.Unlock()
}

// newDynamicService returns a service over the fixture with these
// dynamic tools.
func newDynamicService(t *testing.T, o *service.Options, tools ...*dynTool) (*service.Service, *source, *service.MemoryStore, *clock) {
	t.Helper()
	src := &source{tools: tools}
	if o == nil {
		o = &service.Options{}
	}
	o.Dynamic = src
	s, _, st, c := newService(t, o)
	return s, src, st, c
}

func TestDynamicToolsAreOfferedSortedAmongTheRegistrys(t *testing.T) {
	crm := &dynTool{spec: &tool.Spec{Name: "crm_find", Kind: tool.KindRead, ReadOnly: true}}
	wf := &dynTool{spec: &tool.Spec{Name: "general_run", Kind: tool.KindAction}}
	secret := &dynTool{spec: &tool.Spec{Name: "notes_export", Kind: tool.KindAction, Permissions: []string{"notes.write"}}}
	shadow := &dynTool{spec: &tool.Spec{Name: "echo", Kind: tool.KindAction}}
	s, src, _, _ := newDynamicService(t, nil, crm, shadow, wf, secret)

	got := names(s.Offer(as(alice, "")))
	assert.True(t, slices.IsSorted(got), "offer sorted by name: %v", got)
	assert.Contains(t, got, "crm_find")
	assert.Contains(t, got, "general_run")
	assert.Contains(t, got, "notes_export")
	assert.Equal(t, 1, strings.Count(strings.Join(got, " "), "echo"), "a dynamic tool never shadows the registry's")
	for _, spec := range s.Offer(as(alice, "")) {
		if spec.Name == "echo" {
			assert.NotSame(t, shadow.spec, spec)
		}
	}

	assert.NotContains(t, names(s.Offer(as(bob, ""))), "notes_export", "permissions apply to dynamic tools")
	ro := names(s.Offer(tool.WithReadOnly(as(alice, ""))))
	assert.Contains(t, ro, "crm_find")
	assert.NotContains(t, ro, "general_run", "a mutating dynamic tool is not offered under the read-only mark")

	src.setGone(true)
	assert.NotContains(t, names(s.Offer(as(alice, ""))), "crm_find", "an unavailable source offers nothing")
}

func TestDynamicCallIsRunAndRecorded(t *testing.T) {
	wf := &dynTool{spec: &tool.Spec{Name: "general_run", Kind: tool.KindAction, Secrets: []string{"/token"}}}
	s, src, st, _ := newDynamicService(t, nil, wf)

	res, err := s.Call(as(alice, "call-1"), "general_run", []byte(`{"token":"hunter2","n":1}`))
	require.NoError(t, err)
	assert.Equal(t, `ran general_run with {"token":"hunter2","n":1}`, res.Text())
	rec := last(t, st)
	assert.Equal(t, "general_run", rec.Tool)
	assert.Equal(t, service.OutcomeOK, rec.Outcome)
	assert.Equal(t, tool.KindAction, rec.Kind)
	assert.Equal(t, `{"token":"[secret]","n":1}`, string(rec.Args), "a dynamic tool's secrets are kept out of the record")

	// The same call ID runs once.
	res2, err := s.Call(as(alice, "call-1"), "general_run", []byte(`{"token":"hunter2","n":1}`))
	require.NoError(t, err)
	assert.Equal(t, res.Text(), res2.Text())
	assert.Equal(t, int64(1), wf.runs.Load())

	// Invalid arguments: the Dynamic's model-safe error, recorded as failed.
	_, err = s.Call(as(alice, ""), "general_run", []byte(`[1]`))
	require.Equal(t, tool.CodeInvalidArguments, codeOf(err))
	assert.Equal(t, service.OutcomeFailed, last(t, st).Outcome)

	// Gone: refused as an unknown tool, recorded, nothing ran.
	src.setGone(true)
	_, err = s.Call(as(alice, ""), "general_run", []byte(`{}`))
	require.Equal(t, tool.CodeUnknownTool, codeOf(err))
	assert.Equal(t, service.OutcomeRefused, last(t, st).Outcome)
	assert.Equal(t, int64(1), wf.runs.Load())
}

func TestDynamicCallRefusals(t *testing.T) {
	wf := &dynTool{spec: &tool.Spec{Name: "general_run", Kind: tool.KindAction}}
	guarded := &dynTool{spec: &tool.Spec{Name: "general_wipe", Kind: tool.KindAction, Permissions: []string{"notes.write"}}}
	s, _, st, _ := newDynamicService(t, &service.Options{Policy: &service.Rules{Tools: []string{"echo", "general_run", "general_wipe"}}}, wf, guarded)
	for name, tc := range map[string]struct {
		ctx  context.Context
		tool string
		code tool.Code
	}{
		"read-only mark":     {tool.WithReadOnly(as(alice, "")), "general_run", tool.CodeUnknownTool},
		"missing permission": {as(bob, ""), "general_wipe", tool.CodeUnknownTool},
		"no principal":       {context.Background(), "general_run", tool.CodeUnknownTool},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.Call(tc.ctx, tc.tool, []byte(`{}`))
			require.Equal(t, tc.code, codeOf(err))
			assert.Equal(t, service.OutcomeRefused, last(t, st).Outcome)
		})
	}
	assert.Zero(t, wf.runs.Load()+guarded.runs.Load())

	s.Halt()
	_, err := s.Call(as(alice, ""), "general_run", []byte(`{}`))
	require.Equal(t, tool.CodeRefused, codeOf(err))
	s.Resume()

	other := &dynTool{spec: &tool.Spec{Name: "general_other", Kind: tool.KindRead, ReadOnly: true}}
	s2, _, _, _ := newDynamicService(t, &service.Options{Policy: &service.Rules{Tools: []string{"echo"}}}, other)
	_, err = s2.Call(as(alice, ""), "general_other", []byte(`{}`))
	require.Equal(t, tool.CodeUnknownTool, codeOf(err), "the policy judges dynamic tools")
	assert.NotContains(t, names(s2.Offer(as(alice, ""))), "general_other")
}

func TestDynamicFailuresAreModelSafe(t *testing.T) {
	leaky := &dynTool{spec: &tool.Spec{Name: "general_leak", Kind: tool.KindRead, ReadOnly: true}, fail: errors.New("dial tcp 10.0.0.7:5432: password=hunter2")}
	slow := &dynTool{spec: &tool.Spec{Name: "general_slow", Kind: tool.KindRead, ReadOnly: true, Timeout: 20 * time.Millisecond}, block: make(chan struct{})}
	s, _, st, _ := newDynamicService(t, nil, leaky, slow)

	res, err := s.Call(as(alice, ""), "general_leak", []byte(`{}`))
	require.Equal(t, tool.CodeFailed, codeOf(err))
	assert.Equal(t, "tool general_leak failed", res.Text())
	assert.NotContains(t, last(t, st).Error, "hunter2")

	_, err = s.Call(as(alice, ""), "general_slow", []byte(`{}`))
	require.Equal(t, tool.CodeTimeout, codeOf(err), "a dynamic tool runs under its Spec.Timeout")
}

func TestDynamicProposalIsConfirmedOnce(t *testing.T) {
	del := &dynTool{spec: &tool.Spec{Name: "crm_delete", Kind: tool.KindPropose, Title: "Delete a contact"}}
	s, src, st, _ := newDynamicService(t, nil, del)

	p, err := s.Propose(as(alice, ""), "crm_delete", []byte(`{"id": 7}`))
	require.NoError(t, err)
	assert.Equal(t, `{"id":7}`, string(p.Args))
	assert.Zero(t, del.runs.Load(), "a proposal runs nothing")

	_, err = s.Propose(as(alice, ""), "crm_delete", []byte(`"x"`))
	require.Equal(t, tool.CodeInvalidArguments, codeOf(err), "the Dynamic checks a proposal's arguments")

	// The source gone: the confirmation is refused, the proposal stays
	// pending.
	src.setGone(true)
	_, err = s.Confirm(context.Background(), p.ID, alice)
	require.Equal(t, tool.CodeUnknownTool, codeOf(err))
	got, err := s.Proposal(context.Background(), p.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, service.StatePending, got.State)

	src.setGone(false)
	c, err := s.Confirm(context.Background(), p.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, `ran crm_delete with {"id":7}`, c.Result.Text())
	_, err = s.Confirm(context.Background(), p.ID, alice)
	require.Equal(t, tool.CodeAlreadyConfirmed, codeOf(err))
	assert.Equal(t, int64(1), del.runs.Load())
	assert.Equal(t, service.EventConfirmation, records(t, st)[len(records(t, st))-2].Event)

	require.NoError(t, s.Reject(context.Background(), mustPropose(t, s, "crm_delete"), alice))
	assert.Equal(t, tool.KindPropose, last(t, st).Kind, "a rejection records the dynamic tool's kind")
}

func mustPropose(t *testing.T, s *service.Service, name string) string {
	t.Helper()
	p, err := s.Propose(as(alice, ""), name, []byte(`{}`))
	require.NoError(t, err)
	return p.ID
}

func TestCallDynamic(t *testing.T) {
	s, st, _ := func() (*service.Service, *service.MemoryStore, *clock) {
		s, _, st, c := newService(t, &service.Options{MaxCallsPerTurn: 2, Policy: &service.Rules{Tools: []string{"echo"}}})
		return s, st, c
	}()
	var _ tool.Recorder = s
	meta := &dynTool{spec: &tool.Spec{Name: "request_tools", Kind: tool.KindAction}}
	skill := &dynTool{spec: &tool.Spec{Name: "request_skill", Kind: tool.KindRead, ReadOnly: true}}

	res, err := s.CallDynamic(as(alice, "c-7"), meta, []byte(`{"names":["echo"]}`))
	require.NoError(t, err, "the policy is not asked about the host's own meta-tools")
	assert.Equal(t, `ran request_tools with {"names":["echo"]}`, res.Text())
	rec := last(t, st)
	assert.Equal(t, "request_tools", rec.Tool)
	assert.Equal(t, "c-7", rec.CallID)
	assert.Equal(t, service.OutcomeOK, rec.Outcome)
	assert.JSONEq(t, `{"names":["echo"]}`, string(rec.Args))

	_, err = s.CallDynamic(tool.WithReadOnly(as(alice, "")), meta, []byte(`{}`))
	require.Equal(t, tool.CodeUnknownTool, codeOf(err), "a mutating meta-tool is refused under the read-only mark")
	_, err = s.CallDynamic(tool.WithReadOnly(as(alice, "")), skill, []byte(`{}`))
	require.NoError(t, err, "a read-only one is not")
	_, err = s.CallDynamic(context.Background(), skill, []byte(`{}`))
	require.Equal(t, tool.CodeUnknownTool, codeOf(err), "no principal")
	gated := &dynTool{spec: &tool.Spec{Name: "request_notes", Kind: tool.KindRead, ReadOnly: true, Permissions: []string{"notes.write"}}}
	_, err = s.CallDynamic(as(bob, ""), gated, []byte(`{}`))
	require.Equal(t, tool.CodeUnknownTool, codeOf(err), "bob lacks its permission")
	assert.Zero(t, gated.runs.Load())
	_, err = s.CallDynamic(as(alice, ""), gated, []byte(`{}`))
	require.NoError(t, err, "alice holds it")

	prop := &dynTool{spec: &tool.Spec{Name: "general_send", Kind: tool.KindPropose}}
	_, err = s.CallDynamic(as(alice, ""), prop, []byte(`{}`))
	require.Equal(t, tool.CodeNotProposal, codeOf(err))
	assert.Zero(t, prop.runs.Load())

	// The turn's cap counts them.
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: alice, State: new(tool.TurnState)})
	for range 2 {
		_, err = s.CallDynamic(ctx, skill, []byte(`{}`))
		require.NoError(t, err)
	}
	_, err = s.CallDynamic(ctx, skill, []byte(`{}`))
	require.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Equal(t, service.OutcomeRefused, last(t, st).Outcome)

	_, err = s.CallDynamic(as(alice, ""), nil, []byte(`{}`))
	require.Equal(t, tool.CodeUnknownTool, codeOf(err))
}

// afterClaim is a memory store that calls after once each Claim returns.
type afterClaim struct {
	*service.MemoryStore
	after func()
}

func (a *afterClaim) Claim(ctx context.Context, id string, rec *service.Record) (*service.Proposal, error) {
	p, err := a.MemoryStore.Claim(ctx, id, rec)
	if a.after != nil {
		a.after()
	}
	return p, err
}

// TestDynamicConfirmationThatDoesNotStart: a dynamic tool's confirmation
// whose context ends once the proposal is claimed, or whose Dynamic
// refuses the run (its error wraps tool.ErrNotRun), leaves the proposal
// pending, its record "nothing was run"; confirmed again, it runs.
func TestDynamicConfirmationThatDoesNotStart(t *testing.T) {
	t.Parallel()
	del := &dynTool{spec: &tool.Spec{Name: "crm_delete", Kind: tool.KindPropose, Title: "Delete a contact"}}
	st := &afterClaim{MemoryStore: service.NewMemoryStore()}
	s, _, _, _ := newDynamicService(t, &service.Options{Store: st}, del)
	p, err := s.Propose(as(alice, ""), "crm_delete", []byte(`{"id": 7}`))
	require.NoError(t, err)
	pending := func(msg string) {
		t.Helper()
		got, err := st.Proposal(context.Background(), p.ID)
		require.NoError(t, err)
		assert.Equal(t, service.StatePending, got.State, msg)
		r := last(t, st.MemoryStore)
		assert.Equal(t, service.EventConfirmation, r.Event, msg)
		assert.Equal(t, service.OutcomeRefused, r.Outcome, msg)
		assert.Contains(t, r.Error, "nothing was run", msg)
	}

	ctx, cancel := context.WithCancel(context.Background())
	st.after = cancel
	_, err = s.Confirm(ctx, p.ID, alice)
	assert.Equal(t, tool.CodeCancelled, codeOf(err))
	assert.Zero(t, del.runs.Load())
	pending("cancelled after the claim")

	st.after = nil
	del.fail = &tool.Error{Code: tool.CodeBusy, Tool: "crm_delete", Message: "busy; nothing was run", Cause: tool.ErrNotRun}
	_, err = s.Confirm(context.Background(), p.ID, alice)
	assert.Equal(t, tool.CodeBusy, codeOf(err))
	pending("refused by the Dynamic")

	del.fail = nil
	c, err := s.Confirm(context.Background(), p.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, `ran crm_delete with {"id":7}`, c.Result.Text())
}
