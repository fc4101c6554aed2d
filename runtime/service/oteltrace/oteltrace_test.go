package oteltrace_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/oteltrace"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// secret is in the arguments and the error of the fail tool: it must
// reach no span.
const secret = "hunter2"

// table is the test registry, sorted by name, as a generated package's
// static table is.
var table = []*tool.Spec{
	{Name: "fail", Kind: tool.KindAction},
	{Name: "notes_delete", Kind: tool.KindPropose, Title: "Delete a note"},
	{Name: "notes_search", Kind: tool.KindRead},
}

// dispatch plays the generated switch: every tool takes an optional
// "query" string and "id" integer. notes_search starts a span of its own
// from the context it runs with, as an instrumented database client does.
func dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	var query string
	if in.Object("object") {
		for {
			key, ok := in.Key()
			if !ok {
				break
			}
			switch string(key) {
			case "query":
				in.Push("query")
				query, _ = in.String("string")
				in.Pop()
			case "id":
				in.Push("id")
				_, _ = in.Int("integer", 64)
				in.Pop()
			default:
				in.Unknown(key)
			}
		}
	}
	in.End()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	switch table[i].Name {
	case "fail":
		return 0, errors.New("dial db: password=" + query)
	case "notes_delete":
		out.RawText("deleted")
		return toolimpl.OutputText, nil
	case "notes_search":
		_, span := trace.SpanFromContext(ctx).TracerProvider().Tracer("notes").Start(ctx, "db.query")
		span.End()
		out.RawText("3 notes match " + query)
		return toolimpl.OutputText, nil
	}
	return 0, fmt.Errorf("no tool %d", i)
}

// clock is a settable Options.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock on by d.
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// harness is a service observed by an Observer that exports to memory.
type harness struct {
	svc   *service.Service
	exp   *tracetest.InMemoryExporter
	tp    *sdktrace.TracerProvider
	clock *clock
}

// newHarness returns a harness whose Observer has opts.
func newHarness(t *testing.T, opts ...oteltrace.Option) *harness {
	t.Helper()
	reg, err := toolimpl.NewRegistry(table, nil, dispatch, nil)
	require.NoError(t, err)
	h := &harness{exp: tracetest.NewInMemoryExporter(), clock: &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(h.exp))
	t.Cleanup(func() { _ = h.tp.Shutdown(context.Background()) })
	h.svc, err = service.New(reg, &service.Options{Observer: oteltrace.New(h.tp, opts...), Now: h.clock.Now})
	require.NoError(t, err)
	return h
}

// ours returns the spans of the Observer, in the order they ended.
func (h *harness) ours() tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range h.exp.GetSpans() {
		if s.InstrumentationScope.Name == oteltrace.ScopeName {
			out = append(out, s)
		}
	}
	return out
}

// alice is the principal of the tests.
var alice = tool.Principal{ID: "alice@example.com"}

// invocation returns ctx carrying alice's call with a call ID.
func invocation(ctx context.Context, callID string) context.Context {
	return tool.WithInvocation(ctx, &tool.Invocation{
		Principal: alice, Conversation: "conv-1", Turn: "turn-1", CallID: callID, Agent: tool.Agent{Name: "helper"},
	})
}

// attrs returns a span's attributes as a map, less the record ID (which
// the store assigns), after checking that it is there.
func attrs(t *testing.T, s tracetest.SpanStub) map[attribute.Key]string {
	t.Helper()
	m := map[attribute.Key]string{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value.Emit()
	}
	assert.NotEmpty(t, m[oteltrace.AttrRecordID], "a written record's ID")
	delete(m, oteltrace.AttrRecordID)
	return m
}

// requireNothingOf checks that none of the strings appears in the span's
// name, attributes, status or events.
func requireNothingOf(t *testing.T, s tracetest.SpanStub, leaks ...string) {
	t.Helper()
	texts := []string{s.Name, s.Status.Description}
	for _, kv := range s.Attributes {
		texts = append(texts, kv.Value.Emit())
	}
	for _, e := range s.Events {
		texts = append(texts, e.Name)
		for _, kv := range e.Attributes {
			texts = append(texts, kv.Value.Emit())
		}
	}
	for _, leak := range leaks {
		for _, text := range texts {
			assert.NotContains(t, text, leak)
		}
	}
}

func TestReadCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, turn := h.tp.Tracer("host").Start(invocation(t.Context(), "call-1"), "turn")
	res, err := h.svc.Call(ctx, "notes_search", []byte(`{"query":"`+secret+`"}`))
	turn.End()
	require.NoError(t, err)
	assert.Equal(t, "3 notes match "+secret, res.Text())

	spans := h.ours()
	require.Len(t, spans, 1)
	s := spans[0]
	assert.Equal(t, "toolgen.call notes_search", s.Name)
	assert.Equal(t, trace.SpanKindInternal, s.SpanKind)
	assert.Equal(t, sdktrace.Status{Code: codes.Ok}, s.Status)
	assert.Equal(t, map[attribute.Key]string{
		oteltrace.AttrTool:         "notes_search",
		oteltrace.AttrKind:         "read",
		oteltrace.AttrEvent:        "call",
		oteltrace.AttrOutcome:      "ok",
		oteltrace.AttrConversation: "conv-1",
		oteltrace.AttrTurn:         "turn-1",
		oteltrace.AttrCallID:       "call-1",
		oteltrace.AttrAgent:        "helper",
	}, attrs(t, s))
	requireNothingOf(t, s, alice.ID, secret)
	assert.Equal(t, turn.SpanContext().SpanID(), s.Parent.SpanID(), "the caller's span is the parent")

	var db tracetest.SpanStub
	for _, other := range h.exp.GetSpans() {
		if other.Name == "db.query" {
			db = other
		}
	}
	require.Equal(t, "db.query", db.Name, "the tool's own span was exported")
	assert.Equal(t, s.SpanContext.SpanID(), db.Parent.SpanID(), "the tool's span is a child of the call's")
}

func TestFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		halt      bool
		ctx       func(context.Context) context.Context
		tool      string
		args      string
		wantName  string
		wantAttrs map[attribute.Key]string
	}{
		{
			name: "unknown tool", tool: "notes_serch", args: `{"query":"go"}`,
			wantName: "toolgen.call",
			wantAttrs: map[attribute.Key]string{
				oteltrace.AttrTool: "notes_serch", oteltrace.AttrEvent: "refusal", oteltrace.AttrOutcome: "refused",
				oteltrace.AttrCode: "unknown_tool",
			},
		},
		{
			name: "no principal", ctx: func(ctx context.Context) context.Context { return ctx }, tool: "notes_search",
			wantName: "toolgen.call notes_search",
			wantAttrs: map[attribute.Key]string{
				oteltrace.AttrTool: "notes_search", oteltrace.AttrKind: "read", oteltrace.AttrEvent: "refusal",
				oteltrace.AttrOutcome: "refused", oteltrace.AttrCode: "unknown_tool",
			},
		},
		{
			name: "halted", halt: true, tool: "notes_search",
			wantName: "toolgen.call notes_search",
			wantAttrs: map[attribute.Key]string{
				oteltrace.AttrTool: "notes_search", oteltrace.AttrKind: "read", oteltrace.AttrEvent: "refusal",
				oteltrace.AttrOutcome: "refused", oteltrace.AttrCode: "refused",
			},
		},
		{
			name: "invalid arguments", tool: "notes_search", args: `{"query":1}`,
			wantName: "toolgen.call notes_search",
			wantAttrs: map[attribute.Key]string{
				oteltrace.AttrTool: "notes_search", oteltrace.AttrKind: "read", oteltrace.AttrEvent: "call",
				oteltrace.AttrOutcome: "failed", oteltrace.AttrCode: "invalid_arguments",
			},
		},
		{
			name: "tool error", tool: "fail", args: `{"query":"` + secret + `"}`,
			wantName: "toolgen.call fail",
			wantAttrs: map[attribute.Key]string{
				oteltrace.AttrTool: "fail", oteltrace.AttrKind: "action", oteltrace.AttrEvent: "call",
				oteltrace.AttrOutcome: "failed", oteltrace.AttrCode: "failed",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tt.halt {
				h.svc.Halt()
			}
			ctx := tool.WithInvocation(t.Context(), &tool.Invocation{Principal: alice})
			if tt.ctx != nil {
				ctx = tt.ctx(t.Context())
			}
			_, err := h.svc.Call(ctx, tt.tool, []byte(tt.args))
			require.Error(t, err)

			spans := h.ours()
			require.Len(t, spans, 1)
			s := spans[0]
			assert.Equal(t, tt.wantName, s.Name)
			assert.Equal(t, sdktrace.Status{Code: codes.Error, Description: tt.wantAttrs[oteltrace.AttrCode]}, s.Status)
			assert.Equal(t, tt.wantAttrs, attrs(t, s))
			assert.Empty(t, s.Events, "no error event: its message would be the model's")
			requireNothingOf(t, s, err.Error(), secret, alice.ID)
		})
	}
}

// proposalID returns the ID in a proposal's result.
func proposalID(t *testing.T, res tool.Result) string {
	t.Helper()
	var p struct{ Proposal string }
	require.NoError(t, json.Unmarshal(res.Content, &p))
	require.NotEmpty(t, p.Proposal)
	return p.Proposal
}

func TestProposalAndConfirmation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res, err := h.svc.Call(invocation(t.Context(), "call-1"), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	id := proposalID(t, res)
	c, err := h.svc.Confirm(t.Context(), id, alice)
	require.NoError(t, err)
	assert.Equal(t, "deleted", c.Result.Text())

	spans := h.ours()
	require.Len(t, spans, 2)
	common := map[attribute.Key]string{
		oteltrace.AttrTool: "notes_delete", oteltrace.AttrKind: "propose", oteltrace.AttrOutcome: "ok",
		oteltrace.AttrConversation: "conv-1", oteltrace.AttrTurn: "turn-1", oteltrace.AttrCallID: "call-1",
		oteltrace.AttrProposal: id,
	}
	with := func(m map[attribute.Key]string, kv ...string) map[attribute.Key]string {
		out := map[attribute.Key]string{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[attribute.Key(kv[i])] = kv[i+1]
		}
		return out
	}

	proposal, confirmation := spans[0], spans[1]
	assert.Equal(t, "toolgen.call notes_delete", proposal.Name)
	assert.Equal(t, sdktrace.Status{Code: codes.Ok}, proposal.Status)
	assert.Equal(t, with(common, "toolgen.event", "proposal", "toolgen.agent", "helper"), attrs(t, proposal))

	assert.Equal(t, "toolgen.call notes_delete", confirmation.Name, "named at End, once the tool is known")
	assert.Equal(t, sdktrace.Status{Code: codes.Ok}, confirmation.Status)
	assert.Equal(t, with(common, "toolgen.event", "confirmation"), attrs(t, confirmation))
	assert.NotEqual(t, proposal.SpanContext.TraceID(), confirmation.SpanContext.TraceID(), "separate requests, separate traces")
}

func TestConfirmationRefused(t *testing.T) {
	t.Parallel()

	t.Run("unknown proposal", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		_, err := h.svc.Confirm(t.Context(), "prop_nope", alice)
		require.Error(t, err)
		spans := h.ours()
		require.Len(t, spans, 1)
		s := spans[0]
		assert.Equal(t, "toolgen.call", s.Name, "no tool to name")
		assert.Equal(t, sdktrace.Status{Code: codes.Error, Description: "unknown_proposal"}, s.Status)
		assert.Equal(t, map[attribute.Key]string{
			oteltrace.AttrEvent: "refusal", oteltrace.AttrOutcome: "refused", oteltrace.AttrCode: "unknown_proposal",
			oteltrace.AttrProposal: "prop_nope",
		}, attrs(t, s))
	})

	t.Run("expired", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		res, err := h.svc.Call(invocation(t.Context(), ""), "notes_delete", []byte(`{"id":7}`))
		require.NoError(t, err)
		id := proposalID(t, res)
		h.clock.Add(service.DefaultProposalTTL + time.Second)
		_, err = h.svc.Confirm(t.Context(), id, alice)
		require.Equal(t, tool.CodeProposalExpired, tool.CodeOf(err))

		spans := h.ours()
		require.Len(t, spans, 2, "the proposal and the confirmation: the expiry is an event of the latter")
		s := spans[1]
		assert.Equal(t, "toolgen.call notes_delete", s.Name)
		assert.Equal(t, sdktrace.Status{Code: codes.Error, Description: "proposal_expired"}, s.Status)
		assert.Equal(t, "refusal", attrs(t, s)[oteltrace.AttrEvent])
		require.Len(t, s.Events, 1)
		assert.Equal(t, oteltrace.EventExpiry, s.Events[0].Name)
		assert.Equal(t, []attribute.KeyValue{oteltrace.AttrProposal.String(id)}, s.Events[0].Attributes)
	})
}

func TestPrincipal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []oteltrace.Option
		want string
	}{
		{"absent by default", nil, ""},
		{"WithPrincipal", []oteltrace.Option{oteltrace.WithPrincipal()}, alice.ID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.opts...)
			_, err := h.svc.Call(invocation(t.Context(), ""), "notes_search", nil)
			require.NoError(t, err)
			res, err := h.svc.Call(invocation(t.Context(), ""), "notes_delete", []byte(`{"id":7}`))
			require.NoError(t, err)
			_, err = h.svc.Confirm(t.Context(), proposalID(t, res), alice)
			require.NoError(t, err)

			spans := h.ours()
			require.Len(t, spans, 3, "call, proposal, confirmation")
			for _, s := range spans {
				got, ok := attrs(t, s)[oteltrace.AttrPrincipal]
				assert.Equal(t, tt.want != "", ok, "%s: has %s", s.Name, oteltrace.AttrPrincipal)
				assert.Equal(t, tt.want, got, s.Name)
			}
		})
	}
}

func TestEndWithoutStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	o := oteltrace.New(h.tp)
	rec := &service.Record{Tool: "notes_search", Kind: tool.KindRead, Event: service.EventCall, Outcome: service.OutcomeOK}
	assert.NotPanics(t, func() {
		o.End(t.Context(), rec)
		o.End(t.Context(), nil)
	})

	// A context that carries someone else's span: End leaves it alone.
	ctx, host := h.tp.Tracer("host").Start(t.Context(), "request")
	o.End(ctx, rec)
	assert.True(t, host.IsRecording(), "the host's span was not ended")

	// The service records a rejection without starting a span.
	res, err := h.svc.Call(invocation(ctx, ""), "notes_delete", []byte(`{"id":7}`))
	require.NoError(t, err)
	require.NoError(t, h.svc.Reject(ctx, proposalID(t, res), alice))
	assert.True(t, host.IsRecording(), "the host's span was not ended")
	host.End()
	require.Len(t, h.ours(), 1, "the proposal's span only")

	// A second End on a context whose span ended changes nothing.
	ctx = o.Start(t.Context(), "notes_search")
	o.End(ctx, rec)
	o.End(ctx, &service.Record{Tool: "fail", Kind: tool.KindAction, Event: service.EventCall, Outcome: service.OutcomeFailed, Code: tool.CodeFailed})
	spans := h.ours()
	require.Len(t, spans, 2)
	assert.Equal(t, "toolgen.call notes_search", spans[1].Name)
	assert.Equal(t, codes.Ok, spans[1].Status.Code)
}

func TestRunTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	calls := []service.Request{
		{CallID: "a", Name: "notes_search", Args: []byte(`{"query":"a"}`)},
		{CallID: "b", Name: "notes_search", Args: []byte(`{"query":"b"}`)},
		{CallID: "c", Name: "nope"},
		{CallID: "d", Name: "fail"},
	}
	out := h.svc.RunTurn(tool.WithInvocation(t.Context(), &tool.Invocation{Principal: alice}), calls)
	require.Len(t, out, len(calls))

	byCall := map[string]tracetest.SpanStub{}
	for _, s := range h.ours() {
		byCall[attrs(t, s)[oteltrace.AttrCallID]] = s
	}
	require.Len(t, byCall, len(calls), "one span per call")
	for _, c := range calls {
		s := byCall[c.CallID]
		assert.Equal(t, c.Name, attrs(t, s)[oteltrace.AttrTool], c.CallID)
	}
	assert.Equal(t, codes.Ok, byCall["a"].Status.Code)
	assert.Equal(t, "unknown_tool", byCall["c"].Status.Description)
	assert.Equal(t, "failed", byCall["d"].Status.Description)
}

// TestNotSampled: a span the sampler drops costs no attributes and breaks
// nothing.
func TestNotSampled(t *testing.T) {
	t.Parallel()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithSampler(sdktrace.NeverSample()))
	reg, err := toolimpl.NewRegistry(table, nil, dispatch, nil)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{Observer: oteltrace.New(tp)})
	require.NoError(t, err)
	res, err := svc.Call(invocation(t.Context(), ""), "notes_search", []byte(`{"query":"go"}`))
	require.NoError(t, err)
	assert.Equal(t, "3 notes match go", res.Text())
	assert.Empty(t, exp.GetSpans())
}

// TestNilProviderIsTheGlobal sets the global provider: it does not run in
// parallel (parallel tests start after it returns).
func TestNilProviderIsTheGlobal(t *testing.T) {
	prev := otel.GetTracerProvider()
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	o := oteltrace.New(nil) // before the provider is set: the global one forwards
	exp := tracetest.NewInMemoryExporter()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp)))

	ctx := o.Start(t.Context(), "notes_search")
	o.End(ctx, &service.Record{Tool: "notes_search", Kind: tool.KindRead, Event: service.EventCall, Outcome: service.OutcomeOK})
	spans := exp.GetSpans()
	require.Len(t, spans, 1)
	assert.Equal(t, "toolgen.call notes_search", spans[0].Name)
}
