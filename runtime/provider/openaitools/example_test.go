package openaitools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/provider/openaitools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// ChatTools goes into every Chat Completions request; ChatCall answers each
// tool call of the response with the tool message for the next request.
// ResponsesTools and ResponsesCall do the same for the Responses API.
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
	params := openai.ChatCompletionNewParams{
		Model: openai.ChatModelGPT4o,
		Tools: openaitools.ChatTools(offer), // the precomputed bytes, strict where the schema allows
	}
	fmt.Println(len(params.Tools), "tools")

	// A tool call as Chat Completions returns it: delete is a propose tool.
	var call openai.ChatCompletionMessageToolCallUnion
	if err := json.Unmarshal([]byte(`{"id":"call_1","type":"function","function":{"name":"notes_delete","arguments":"{\"id\":\"n2\"}"}}`), &call); err != nil {
		panic(err)
	}
	msg, err := openaitools.ChatCall(ctx, reg, call)
	fmt.Println(tool.CodeOf(err))
	fmt.Println(msg.OfTool.Content.OfString.Value)
	// Output:
	// 14 tools
	// needs_confirmation
	// tool notes_delete needs a person's confirmation; nothing was run
}
