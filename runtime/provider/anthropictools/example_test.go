package anthropictools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// Tools goes into every Messages request; Call answers each tool_use block
// of the response with the tool_result block for the next user message.
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
	params := anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_5,
		MaxTokens: 1024,
		Tools:     anthropictools.Tools(offer), // the precomputed bytes, sent as they are
	}
	fmt.Println(len(params.Tools), "tools")

	// A tool_use block as the Messages API returns it, with a bad argument.
	var use anthropic.ToolUseBlock
	if err := json.Unmarshal([]byte(`{"type":"tool_use","id":"toolu_1","name":"notes_search","input":{"query":"go","limit":"five"}}`), &use); err != nil {
		panic(err)
	}
	block, err := anthropictools.Call(ctx, reg, use)
	fmt.Println(tool.CodeOf(err), block.OfToolResult.IsError.Value)
	fmt.Println(block.OfToolResult.Content[0].OfText.Text)
	// Output:
	// 14 tools
	// invalid_arguments true
	// invalid arguments: /limit: expected integer (maximum 50, minimum 1), got string
}
