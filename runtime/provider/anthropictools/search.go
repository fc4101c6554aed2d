package anthropictools

import (
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/toolgen-go/toolgen/runtime/provider"
)

// SearchTools returns the tools of a Messages API request that offers
// native tool search (provider.Search): every tool, the deferred ones with
// "defer_loading":true, then the tool search tool, as the SDK's tool
// params written into the request as the search's bytes.
//
//	search, err := provider.NewSearch(offer, provider.SearchBM25)
//	...
//	msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{
//		...
//		Tools: anthropictools.SearchTools(search),
//	})
//
// The model's searches run on Anthropic's side: a response holds
// server_tool_use and tool_search_tool_result blocks (whose
// tool_reference blocks name the tools it loaded) beside the tool_use
// blocks that Call runs. Send the whole message back, as msg.ToParam()
// gives it, before the tool results: the API expands the references from
// the same tools array on every request.
func SearchTools(search *provider.Search) []anthropic.ToolUnionParam {
	items := search.AnthropicItems()
	out := make([]anthropic.ToolUnionParam, len(items))
	for i, it := range items {
		out[i] = param.Override[anthropic.ToolUnionParam](json.RawMessage(it))
	}
	return out
}
