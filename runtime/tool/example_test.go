package tool_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// A registry is called by name with the model's JSON arguments; every
// failure is a *tool.Error whose Message is written for the model and a
// Result that can be sent as it is. A tool that fails with tool.Errorf
// chooses what the model reads; the errors it wraps stay in the cause.
func Example() {
	reg, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "notes_get", Kind: tool.KindRead, ReadOnly: true},
	}, nil, func(_ context.Context, _ int, mode toolimpl.Mode, in *toolimpl.Decoder, out *toolimpl.Encoder) (toolimpl.Output, error) {
		in.Skip() // a generated decoder reads the arguments here
		if mode != toolimpl.ModeCall {
			return 0, nil
		}
		// A generated dispatch calls the tool's Call here; this one fails.
		return 0, tool.Errorf("note n7 is unreadable: %w", fs.ErrPermission)
	}, nil)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	res, err := reg.Call(ctx, "notes_get", []byte(`{"id":"n7"}`))
	fmt.Println(res.IsError, res.Text())
	var te *tool.Error
	if errors.As(err, &te) {
		fmt.Println(te.Code, te.Tool, errors.Is(err, fs.ErrPermission))
	}

	_, err = reg.Call(ctx, "notes_gte", nil)
	fmt.Println(tool.CodeOf(err), err)
	// Output:
	// true note n7 is unreadable: [error withheld]
	// failed notes_get true
	// unknown_tool unknown tool "notes_gte"; did you mean notes_get? (1 tool available)
}

// Who calls travels in the call's context: the host puts an Invocation
// there, and a tool reads it.
func ExampleWithInvocation() {
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{
		Principal:    tool.Principal{ID: "ana", Permissions: []string{"notes.read"}},
		Conversation: "c-42",
		Agent:        tool.Agent{Name: "research", Model: tool.Model{Provider: "anthropic", Name: "claude-sonnet-4-6"}},
	})
	ctx = tool.WithCallID(ctx, "toolu_01") // what the provider adapters do with the model's tool-call ID

	// In a tool's Call:
	who, _ := tool.PrincipalFrom(ctx)
	inv, _ := tool.InvocationFrom(ctx)
	fmt.Println(who.ID, who.Permissions, inv.Conversation, inv.CallID)
	fmt.Println(tool.ModelFor(ctx, tool.Model{}).Name) // the agent's model, unless the tool names its own
	// Output:
	// ana [notes.read] c-42 toolu_01
	// claude-sonnet-4-6
}

// A loop that calls tools one after another, on one goroutine, holds a
// Handle: the same results as the registry's, on memory of its own.
func ExampleNewHandle() {
	reg, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "echo", Kind: tool.KindRead},
	}, nil, func(_ context.Context, _ int, mode toolimpl.Mode, in *toolimpl.Decoder, out *toolimpl.Encoder) (toolimpl.Output, error) {
		text, _ := in.String("string") // a generated decoder checks more
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
			return 0, err
		}
		out.String(text)
		return toolimpl.OutputJSON, nil
	}, nil)
	if err != nil {
		panic(err)
	}
	h := tool.NewHandle(reg)
	var buf []byte
	for _, args := range []string{`"one"`, `"two"`, `3`} {
		res, _ := h.AppendCall(context.Background(), buf[:0], "echo", []byte(args))
		buf = res.Content // reused by the next call
		fmt.Println(res.IsError, res.Text())
	}
	// Output:
	// false "one"
	// false "two"
	// true invalid arguments: (root): expected string, got number
}
