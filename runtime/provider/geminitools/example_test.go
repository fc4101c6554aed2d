package geminitools_test

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/provider/geminitools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// Tools goes into every generateContent request's config; Call answers
// each function call of the response with a function response part.
func Example() {
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		panic(err)
	}
	defs, err := providers.NewDefinitions(reg) // once, at start-up
	if err != nil {
		panic(err)
	}
	// The request's caller, as a host puts it in the context.
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "ana"}})
	offer, err := defs.Subset(reg.Offer(ctx)) // per request: the tools offered to its caller
	if err != nil {
		panic(err)
	}
	tools, err := geminitools.Tools(offer)
	if err != nil {
		panic(err)
	}
	config := &genai.GenerateContentConfig{Tools: tools}
	fmt.Println(len(config.Tools[0].FunctionDeclarations), "function declarations")

	call := &genai.FunctionCall{ID: "call_1", Name: "clock_zones", Args: map[string]any{}}
	part, err := geminitools.Call(ctx, reg, call)
	fmt.Println(err, part.FunctionResponse.Name, part.FunctionResponse.Response["error"] == nil)
	// Output:
	// 14 function declarations
	// <nil> clock_zones true
}
