package oteltrace_test

import (
	"context"
	"fmt"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/oteltrace"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// A service traced into an in-memory exporter; a program passes the
// TracerProvider it exports with (OTLP, say), or nil for the global one.
func ExampleNew() {
	// A registry of one tool, notes_count, that takes no arguments: what a
	// generated package builds from its static table.
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{Name: "notes_count", Kind: tool.KindRead}}, nil,
		func(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			if in.Object("object") {
				for key, ok := in.Key(); ok; key, ok = in.Key() {
					in.Unknown(key)
				}
			}
			in.End()
			if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
				return 0, err
			}
			out.RawText("3")
			return toolimpl.OutputText, nil
		}, nil)
	if err != nil {
		panic(err)
	}

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer func() { _ = tp.Shutdown(context.Background()) }()

	svc, err := service.New(reg, &service.Options{Observer: oteltrace.New(tp)})
	if err != nil {
		panic(err)
	}
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{
		Principal: tool.Principal{ID: "u1"}, Conversation: "c1",
	})
	_, _ = svc.Call(ctx, "notes_count", []byte(`{}`))
	_, _ = svc.Call(ctx, "notes_cuont", []byte(`{}`))

	for _, s := range exp.GetSpans() {
		fmt.Printf("%s: %s %q\n", s.Name, s.Status.Code, s.Status.Description)
		for _, kv := range s.Attributes {
			if kv.Key != oteltrace.AttrRecordID {
				fmt.Printf("  %s=%s\n", kv.Key, kv.Value.Emit())
			}
		}
	}
	// Output:
	// toolgen.call notes_count: Ok ""
	//   toolgen.tool=notes_count
	//   toolgen.event=call
	//   toolgen.outcome=ok
	//   toolgen.kind=read
	//   toolgen.conversation=c1
	// toolgen.call: Error "unknown_tool"
	//   toolgen.tool=notes_cuont
	//   toolgen.event=refusal
	//   toolgen.outcome=refused
	//   toolgen.code=unknown_tool
	//   toolgen.conversation=c1
}
