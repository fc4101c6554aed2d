// Package anthropictools hands the Messages API tool definitions of a
// provider.Definitions to github.com/anthropics/anthropic-sdk-go/v2, and
// runs the tool calls a response asks for through a tool.Caller: the call
// service, or a bare registry (a tool.Registry is one).
//
//	defs, err := provider.NewDefinitions(reg)
//	...
//	offer, err := defs.Subset(caller.Offer(ctx)) // the tools offered to this caller
//	...
//	msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{
//		Model:     anthropic.ModelClaudeSonnet4_6,
//		MaxTokens: 1024,
//		Messages:  messages,
//		Tools:     anthropictools.Tools(offer),
//	})
//	...
//	for _, block := range msg.Content {
//		if use, ok := block.AsAny().(anthropic.ToolUseBlock); ok {
//			result, err := anthropictools.Call(ctx, caller, use) // err is for logs
//			results = append(results, result)
//		}
//	}
//
// The definitions are not rebuilt as SDK structs: each one is its
// precomputed bytes behind the SDK's param.Override escape hatch, which the
// SDK writes into the request as they are. So the "tools" member of every
// request is exactly provider.Definitions.Anthropic, byte for byte, and a
// prompt cache keyed on it keeps hitting.
//
// For a request that offers Anthropic's native tool search (deferred tools
// and a tool search tool, provider.Search), SearchTools gives the tools;
// the searches run on Anthropic's side, and Call runs the tool_use blocks
// as before.
package anthropictools

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Tools returns the tools of defs as the SDK's tool params, in their
// order. Each is written into a request as the precomputed bytes.
func Tools(defs *provider.Definitions) []anthropic.ToolUnionParam {
	tools := defs.Tools()
	out := make([]anthropic.ToolUnionParam, len(tools))
	for i := range tools {
		out[i] = Tool(tools[i].Anthropic)
	}
	return out
}

// CachedTools is Tools with a cache breakpoint on the last tool
// ("cache_control":{"type":"ephemeral"}), so that the Messages API caches
// the prompt prefix up to and including the tools.
func CachedTools(defs *provider.Definitions) []anthropic.ToolUnionParam {
	out := Tools(defs)
	if n := len(out); n > 0 {
		def := defs.Tools()[n-1].Anthropic.JSON
		cached := slices.Concat(def[:len(def)-1], []byte(`,"cache_control":{"type":"ephemeral"}}`))
		out[n-1] = param.Override[anthropic.ToolUnionParam](json.RawMessage(cached))
	}
	return out
}

// Tool returns one Anthropic definition (provider.Anthropic's JSON) as the
// SDK's tool param.
func Tool(p provider.Projection) anthropic.ToolUnionParam {
	return param.Override[anthropic.ToolUnionParam](json.RawMessage(p.JSON))
}

// Call runs the tool a tool_use block asks for through caller, passing
// the block's input bytes as they came, and returns the tool_result block
// to send back in the next user message, whatever happened. The block's ID
// goes into the call's context as the call ID (tool.WithCallID), so that a
// call service runs a tool_use it has already run only once. A failure
// (invalid arguments, an unknown tool, a tool that needs confirmation...)
// is a result with is_error set and the caller's message, written for the
// model so that it can correct the call; the error is returned too, for
// logs (a *tool.Error, whose Cause the model never sees).
func Call(ctx context.Context, caller tool.Caller, use anthropic.ToolUseBlock) (anthropic.ContentBlockParamUnion, error) {
	res, err := caller.Call(tool.WithCallID(ctx, use.ID), use.Name, use.Input)
	block := anthropic.ToolResultBlockParam{ToolUseID: use.ID}
	if res.IsError {
		block.IsError = anthropic.Bool(true)
	}
	if len(res.Content) > 0 { // the API refuses empty text blocks
		block.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: res.Text()}}}
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &block}, err
}
