package openaitools

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// SearchResponsesTools returns the Responses API tools of a request that
// offers native tool search (provider.Search): the functions loaded at
// once, one namespace per group of deferred tools, and the hosted
// tool_search tool, as the SDK's tool params written into the request as
// the search's bytes.
//
//	search, err := provider.NewSearch(offer, provider.SearchBM25)
//	...
//	resp, err := client.Responses.New(ctx, responses.ResponseNewParams{
//		Model: openai.ChatModelGPT5_4,
//		Input: input,
//		Tools: openaitools.SearchResponsesTools(search),
//	})
//	...
//	for _, item := range resp.Output {
//		if item.Type == "function_call" {
//			out, err := openaitools.SearchResponsesCall(ctx, caller, search, item.AsFunctionCall())
//			...
//		}
//	}
func SearchResponsesTools(search *provider.Search) []responses.ToolUnionParam {
	items := search.OpenAIResponsesItems()
	out := make([]responses.ToolUnionParam, len(items))
	for i, it := range items {
		out[i] = param.Override[responses.ToolUnionParam](json.RawMessage(it))
	}
	return out
}

// SearchResponsesCall runs a function_call of a response to a request made
// with SearchResponsesTools, as ResponsesCall does. A function the model
// loaded from a namespace comes with the namespace and the function's
// name: search maps the pair back to the registry's name
// (provider.Search.ResponsesName). A pair the request did not offer (a
// namespace that is not the function's group, a namespaced tool called
// without its namespace, an unknown name) runs nothing: the output is the
// registry's unknown-tool message, and the *tool.Error is returned too.
func SearchResponsesCall(ctx context.Context, caller tool.Caller, search *provider.Search, call responses.ResponseFunctionToolCall) (responses.ResponseInputItemUnionParam, error) {
	name, ok := search.ResponsesName(call.Namespace, call.Name)
	if !ok {
		e := search.UnknownResponsesCall(call.Namespace, call.Name)
		return functionCallOutput(call.CallID, e.Message), e
	}
	res, err := caller.Call(tool.WithCallID(ctx, call.CallID), name, []byte(call.Arguments))
	return functionCallOutput(call.CallID, res.Text()), err
}

// functionCallOutput is the function_call_output item answering callID.
func functionCallOutput(callID, output string) responses.ResponseInputItemUnionParam {
	item := responses.ResponseInputItemParamOfFunctionCallOutput(output)
	item.OfFunctionCallOutput.CallID = openai.String(callID)
	return item
}
