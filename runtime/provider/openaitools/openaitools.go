// Package openaitools hands the function tool definitions of a
// provider.Definitions to github.com/openai/openai-go/v3, for Chat
// Completions and for the Responses API, and runs the calls a response asks
// for through a tool.Caller: the call service, or a bare registry (a
// tool.Registry is one).
//
//	defs, err := provider.NewDefinitions(reg)
//	...
//	offer, err := defs.Subset(caller.Offer(ctx)) // the tools offered to this caller
//	...
//	completion, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
//		Model:    openai.ChatModelGPT5,
//		Messages: messages,
//		Tools:    openaitools.ChatTools(offer),
//	})
//	...
//	msg := completion.Choices[0].Message
//	messages = append(messages, msg.ToParam())
//	for _, call := range msg.ToolCalls {
//		result, err := openaitools.ChatCall(ctx, caller, call) // err is for logs
//		messages = append(messages, result)
//	}
//
// The definitions are not rebuilt as SDK structs: each one is its
// precomputed bytes behind the SDK's param.Override escape hatch, which the
// SDK writes into the request as they are. So the "tools" member of every
// request is exactly provider.Definitions.OpenAIChat (or OpenAIResponses),
// byte for byte, with "strict":true wherever the schema fits strict mode.
//
// For a request that offers OpenAI's native tool search (deferred tools in
// namespaces, provider.Search), SearchResponsesTools gives the tools and
// SearchResponsesCall runs the calls, mapping a call's namespace and name
// back to the registry's name.
//
// Strict mode makes the model send null for an optional property it leaves
// out; toolgen's decoders read null there as absent, so the arguments
// decode into the same Go values.
package openaitools

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// ChatTools returns the Chat Completions function tools of defs as the
// SDK's tool params, in their order. Each is written into a request as the
// precomputed bytes.
func ChatTools(defs *provider.Definitions) []openai.ChatCompletionToolUnionParam {
	tools := defs.Tools()
	out := make([]openai.ChatCompletionToolUnionParam, len(tools))
	for i := range tools {
		out[i] = ChatTool(tools[i].OpenAIChat)
	}
	return out
}

// ChatTool returns one Chat Completions definition (provider.OpenAIChat's
// JSON) as the SDK's tool param.
func ChatTool(p provider.Projection) openai.ChatCompletionToolUnionParam {
	return param.Override[openai.ChatCompletionToolUnionParam](json.RawMessage(p.JSON))
}

// ResponsesTools returns the Responses API function tools of defs as the
// SDK's tool params, in their order.
func ResponsesTools(defs *provider.Definitions) []responses.ToolUnionParam {
	tools := defs.Tools()
	out := make([]responses.ToolUnionParam, len(tools))
	for i := range tools {
		out[i] = ResponsesTool(tools[i].OpenAIResponses)
	}
	return out
}

// ResponsesTool returns one Responses API definition
// (provider.OpenAIResponses's JSON) as the SDK's tool param.
func ResponsesTool(p provider.Projection) responses.ToolUnionParam {
	return param.Override[responses.ToolUnionParam](json.RawMessage(p.JSON))
}

// ChatCall runs the function a Chat Completions tool call asks for through
// caller, passing its arguments bytes as they came, and returns the tool
// message to send back, whatever happened: on failure (invalid arguments,
// an unknown tool, a tool that needs confirmation...) its content is the
// caller's message, written for the model so that it can correct the
// call, and the error is returned too, for logs. The tool call's ID goes
// into the call's context as the call ID (tool.WithCallID), so that a call
// service runs a tool call it has already run only once.
func ChatCall(ctx context.Context, caller tool.Caller, call openai.ChatCompletionMessageToolCallUnion) (openai.ChatCompletionMessageParamUnion, error) {
	res, err := caller.Call(tool.WithCallID(ctx, call.ID), call.Function.Name, []byte(call.Function.Arguments))
	return openai.ToolMessage(res.Text(), call.ID), err
}

// ResponsesCall runs the function a Responses API function_call item asks
// for through caller and returns the function_call_output item to send
// back, as ChatCall does; the item's CallID (not its ID, the item's own)
// is the call ID. A call in a namespace, which only a request made with
// SearchResponsesTools offers, is refused with the registry's unknown-tool
// error, running nothing: SearchResponsesCall checks the namespace.
func ResponsesCall(ctx context.Context, caller tool.Caller, call responses.ResponseFunctionToolCall) (responses.ResponseInputItemUnionParam, error) {
	if call.Namespace != "" {
		e := toolerr.UnknownTool(caller.Offer(ctx), call.Namespace+"."+call.Name)
		return functionCallOutput(call.CallID, e.Message), e
	}
	res, err := caller.Call(tool.WithCallID(ctx, call.CallID), call.Name, []byte(call.Arguments))
	return functionCallOutput(call.CallID, res.Text()), err
}
