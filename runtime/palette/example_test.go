package palette_test

import (
	"context"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// A read-only research agent gets the notes tools and the clock, minus
// anything that mutates.
func Example() {
	reg, err := tool.NewStaticTable([]tool.Spec{
		{Name: "clock_now", Kind: tool.KindRead, ReadOnly: true, Package: "example.com/clock"},
		{Name: "clock_set", Kind: tool.KindAction, Package: "example.com/clock"},
		{Name: "notes_delete", Kind: tool.KindPropose, Group: "notes"},
		{Name: "notes_read", Kind: tool.KindRead, ReadOnly: true, Group: "notes"},
		{Name: "web_fetch", Kind: tool.KindRead, ReadOnly: true},
	}, nil, func(_ context.Context, _ int, mode tool.Mode, in *codec.Decoder, out *codec.Encoder) (tool.Output, error) {
		in.Skip()
		if mode != tool.ModeCall {
			return 0, nil
		}
		out.RawText("done")
		return tool.OutputText, nil
	})
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
