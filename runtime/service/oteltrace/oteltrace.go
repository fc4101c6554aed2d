// Package oteltrace makes an OpenTelemetry span of every call the call
// service (runtime/service) handles: a service.Observer, wired in through
// service.Options:
//
//	svc, err := service.New(reg, &service.Options{Observer: oteltrace.New(tp)})
//
// It is a subpackage so that the service, and the registry runtime below
// it, link no OpenTelemetry package: a program that does not trace pays
// nothing for it.
//
// Each call (refused, replayed, proposing or run) and each confirmation
// gets one span of kind internal, named "toolgen.call <tool>"; a
// rejection and the expiries Service.Expire records get none, as the
// service starts no span for them. The span starts before the
// service decides anything about the call and is in the context the tool
// runs with, so the tool's own spans (a database query, an HTTP request)
// are its children. It ends once the call's record is written, carrying
// what the record says (see the Attr constants) and a status: Error, with
// the code's name (such as "unknown_tool") as its description, when the
// record has a code; Ok when the call succeeded. The span's duration is
// its own, measured by the tracer's clock (Record.Duration is the
// service's, Options.Now, which a test may fake).
//
// What stays out of the span: the arguments, the result, and the message
// the model read about a failure (which may quote either), all of which
// the service's own record keeps; and the principal's ID, which is
// personal data, unless WithPrincipal asks for it.
package oteltrace

import (
	"context"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// ScopeName is the instrumentation scope of the spans: the package's
// import path, as OpenTelemetry asks of an instrumentation library.
const ScopeName = "github.com/toolgen-go/toolgen/runtime/service/oteltrace"

// SpanName is the name of every span, followed by a space and the tool's
// name when the span is about a tool of the registry. A call of a name the
// registry does not have (the model's typo, say), and a confirmation of an
// unknown proposal, end named SpanName alone: a span name should come from
// a small set, and the name the model asked for is in AttrTool. (Start
// cannot tell, so a sampler sees "toolgen.call <name>" as the model gave
// it; End renames the span.)
const SpanName = "toolgen.call"

// The attributes of a span. Each is set only when the record has a value
// for it (an empty string, a zero code are left out).
const (
	// AttrTool is the tool's name as the call gave it (cut to 128 bytes
	// by the service).
	AttrTool = attribute.Key("toolgen.tool")
	// AttrKind is the tool's kind: "read", "display", "propose" or
	// "action"; absent for a name the registry does not have.
	AttrKind = attribute.Key("toolgen.kind")
	// AttrEvent says what the record records: "call", "refusal",
	// "proposal", "confirmation", "replay", ... (service.Event).
	AttrEvent = attribute.Key("toolgen.event")
	// AttrOutcome says how it ended: "ok", "failed", "refused",
	// "unknown" (service.Outcome).
	AttrOutcome = attribute.Key("toolgen.outcome")
	// AttrCode is the failure's code, such as "unknown_tool" or
	// "timeout" (tool.Code); absent on success.
	AttrCode = attribute.Key("toolgen.code")
	// AttrConversation, AttrTurn and AttrCallID are the caller's
	// identifiers of the conversation, the turn and the call.
	AttrConversation = attribute.Key("toolgen.conversation")
	// AttrTurn: see AttrConversation.
	AttrTurn = attribute.Key("toolgen.turn")
	// AttrCallID: see AttrConversation.
	AttrCallID = attribute.Key("toolgen.call_id")
	// AttrAgent is the calling agent's name.
	AttrAgent = attribute.Key("toolgen.agent")
	// AttrProposal is the ID of the proposal a proposal, a confirmation
	// or a refused confirmation is about.
	AttrProposal = attribute.Key("toolgen.proposal")
	// AttrRecordID is the store's identifier of the record, to find the
	// row (and the arguments it keeps) from the span.
	AttrRecordID = attribute.Key("toolgen.record_id")
	// AttrPrincipal is the principal's ID (for a confirmation, the one
	// who confirmed): set only with WithPrincipal.
	AttrPrincipal = attribute.Key("toolgen.principal")
)

// EventExpiry is the name of the span event added when a confirmation
// finds its proposal expired: the service records the expiry, then the
// confirmation's refusal, and the refusal is what ends the span.
const EventExpiry = "toolgen.expiry"

// Observer makes a span of every call a service handles: a
// service.Observer. It is safe for concurrent use.
type Observer struct {
	tracer    trace.Tracer
	principal bool
}

var _ service.Observer = (*Observer)(nil)

// Option configures an Observer.
type Option func(*Observer)

// WithPrincipal records the principal's ID (AttrPrincipal) on every span.
// It is off by default: the ID names a person or an account, and spans
// often go where personal data should not (a vendor's backend, a long
// retention).
func WithPrincipal() Option {
	return func(o *Observer) { o.principal = true }
}

// New returns an Observer whose spans come from tp; a nil tp means the
// global provider, otel.GetTracerProvider (which forwards to a provider
// set later with otel.SetTracerProvider).
func New(tp trace.TracerProvider, opts ...Option) *Observer {
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	o := &Observer{tracer: tp.Tracer(ScopeName)}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

// callKey is the context key of the call a span was started for.
type callKey struct{}

// call is what Start leaves in the context for End.
type call struct {
	span trace.Span
	// name is the span's name as Start gave it.
	name string
	// ended is set by the End that ends the span: any later End on the
	// same context is ignored.
	ended atomic.Bool
}

// Start starts the call's span, named after toolName when it is known
// ("" for a confirmation: End names it), and returns ctx carrying it.
func (o *Observer) Start(ctx context.Context, toolName string) context.Context {
	c := &call{name: SpanName}
	var attrs []attribute.KeyValue
	if toolName != "" {
		c.name = SpanName + " " + toolName
		attrs = []attribute.KeyValue{AttrTool.String(toolName)} // for samplers
	}
	ctx, c.span = o.tracer.Start(ctx, c.name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return context.WithValue(ctx, callKey{}, c)
}

// End ends the span Start put in ctx with what rec says. Without one (a
// rejection or an expiry the service records outside any call, a context
// Start did not return) it does nothing, and a context whose span has
// ended is ignored.
func (o *Observer) End(ctx context.Context, rec *service.Record) {
	c, ok := ctx.Value(callKey{}).(*call)
	if !ok || rec == nil || c.ended.Load() {
		return
	}
	if rec.Event == service.EventExpiry {
		// A confirmation that finds its proposal expired records the
		// expiry, then its own refusal: the refusal ends the span.
		if c.span.IsRecording() {
			c.span.AddEvent(EventExpiry, trace.WithAttributes(AttrProposal.String(rec.Proposal)))
		}
		return
	}
	if !c.ended.CompareAndSwap(false, true) {
		return
	}
	if c.span.IsRecording() {
		if name := spanName(rec); name != c.name {
			c.span.SetName(name)
		}
		c.span.SetAttributes(o.attributes(rec)...)
		// Ok rather than Unset on success: the service, not a library
		// guessing, decided the call's outcome, and it is final.
		switch {
		case rec.Code != 0:
			c.span.SetStatus(codes.Error, rec.Code.String())
		case rec.Outcome == service.OutcomeOK:
			c.span.SetStatus(codes.Ok, "")
		default: // failed or refused without a code: not something the service records
			c.span.SetStatus(codes.Error, rec.Outcome.String())
		}
	}
	c.span.End()
}

// spanName is the name of rec's span: SpanName and the tool's name when
// the registry has the tool (rec.Kind is set).
func spanName(rec *service.Record) string {
	if rec.Tool == "" || rec.Kind == 0 {
		return SpanName
	}
	return SpanName + " " + rec.Tool
}

// attributes returns what rec's span carries.
func (o *Observer) attributes(rec *service.Record) []attribute.KeyValue {
	a := make([]attribute.KeyValue, 0, 12)
	a = append(a, AttrEvent.String(rec.Event.String()), AttrOutcome.String(rec.Outcome.String()))
	str := func(k attribute.Key, v string) {
		if v != "" {
			a = append(a, k.String(v))
		}
	}
	str(AttrTool, rec.Tool)
	if rec.Kind != 0 {
		a = append(a, AttrKind.String(rec.Kind.String()))
	}
	if rec.Code != 0 {
		a = append(a, AttrCode.String(rec.Code.String()))
	}
	str(AttrConversation, rec.Conversation)
	str(AttrTurn, rec.Turn)
	str(AttrCallID, rec.CallID)
	str(AttrAgent, rec.Agent)
	str(AttrProposal, rec.Proposal)
	if rec.ID != 0 {
		a = append(a, AttrRecordID.Int64(rec.ID))
	}
	if o.principal {
		str(AttrPrincipal, rec.Principal)
	}
	return a
}
