package palette_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// A read-only research agent gets the notes tools and the clock, minus
// anything that mutates.
func Example() {
	reg, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "clock_now", Kind: tool.KindRead, ReadOnly: true, Package: "example.com/clock"},
		{Name: "clock_set", Kind: tool.KindAction, Package: "example.com/clock"},
		{Name: "notes_delete", Kind: tool.KindPropose, Group: "notes"},
		{Name: "notes_read", Kind: tool.KindRead, ReadOnly: true, Group: "notes"},
		{Name: "web_fetch", Kind: tool.KindRead, ReadOnly: true},
	}, nil, func(_ context.Context, _ int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		if mode != toolimpl.ModeCall {
			return 0, nil
		}
		out.RawText("done")
		return toolimpl.OutputText, nil
	}, nil)
	if err != nil {
		panic(err)
	}
	svc, err := service.New(reg, nil)
	if err != nil {
		panic(err)
	}
	sel := palette.Union(palette.Groups("notes"), palette.Packages("example.com/clock"))
	p, err := palette.New(svc, reg.Tools(), sel, &palette.Options{ReadOnly: true})
	if err != nil {
		panic(err)
	}
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "ana"}})
	fmt.Println("swept:", p.Swept())
	for _, spec := range p.Offer(ctx) {
		fmt.Println("offered:", spec.Name)
	}
	fmt.Println(p.Add("clock_set"))
	_, err = p.Call(ctx, "clock_set", nil)
	fmt.Println(tool.CodeOf(err))
	// Even a direct call on the service, with the context a read-only
	// palette passed on, is refused.
	_, err = svc.Call(tool.WithReadOnly(ctx), "clock_set", nil)
	fmt.Println(tool.CodeOf(err))
	// Output:
	// swept: [clock_set notes_delete]
	// offered: clock_now
	// offered: notes_read
	// palette: read-only: tool "clock_set" is mutating (not //tool:readonly); not added
	// unknown_tool
	// unknown_tool
}

// A research agent's search is kept to one notebook, and it may ask for
// the calendar tools when it needs them.
func ExampleOptions() {
	reg, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "calendar_list", Kind: tool.KindRead, ReadOnly: true, Group: "calendar", Description: "Lists events.", InputSchema: []byte(tool.NoInputSchema)},
		{Name: "notes_search", Kind: tool.KindRead, ReadOnly: true, Group: "notes", Description: "Searches notes.",
			InputSchema: []byte(`{"type":"object","properties":{"notebook":{"type":"string"},"query":{"type":"string"}},"required":["notebook","query"],"additionalProperties":false}`)},
	}, nil, func(_ context.Context, _ int, _ toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		out.RawText("done")
		return toolimpl.OutputText, nil
	}, nil)
	if err != nil {
		panic(err)
	}
	p, err := palette.New(reg, reg.Tools(), palette.Groups("notes"), &palette.Options{
		Bind:        map[string]json.RawMessage{"notes_search": json.RawMessage(`{"notebook":"work"}`)},
		Requestable: palette.Groups("calendar"),
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	for _, spec := range p.Offer(ctx) {
		fmt.Println(spec.Name, string(spec.InputSchema))
	}
	_, err = p.Call(ctx, "notes_search", []byte(`{"query":"plans","notebook":"home"}`))
	fmt.Println(err)
	res, _ := p.Call(ctx, palette.RequestTools, []byte(`{"names":["calendar_list","clock_set"]}`))
	fmt.Println(res.Text())
	for _, spec := range p.Offer(ctx) {
		fmt.Println("next turn:", spec.Name)
	}
	// Output:
	// notes_search {"type":"object","properties":{"query":{"type":"string"}},"required":["query"],"additionalProperties":false}
	// request_tools {"type":"object","properties":{"names":{"type":"array","items":{"oneOf":[{"type":"string","const":"calendar_list","description":"Lists events."}]},"minItems":1,"description":"Names from this catalog."}},"required":["names"],"additionalProperties":false}
	// invalid arguments: /notebook: unknown property (additional properties are not allowed)
	// {"admitted":["calendar_list"],"rejected":[{"name":"clock_set","reason":"unknown tool"}]}
	// next turn: calendar_list
	// next turn: notes_search
}
