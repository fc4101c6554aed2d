package console

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// catalogTool is one tool the person is offered, with the definition each
// provider receives.
type catalogTool struct {
	Spec *tool.Spec
	// Defs are its definitions: OpenAI Chat Completions, OpenAI
	// Responses, Anthropic, Gemini, then MCP when Options.MCP is set.
	Defs []definition
	// Precomputed is set when the provider definitions are the bytes of
	// Options.Definitions, not projected when shown.
	Precomputed bool
	// Err says why the tool has no provider definitions (it cannot be
	// offered to one of them).
	Err string
	// App is the tool's MCP App (//tool:ui) or visibility; nil for none.
	App *catalogApp
}

// definition is one tool's definition for one provider.
type definition struct {
	// Key names it in the JSON API: openai_chat, openai_responses,
	// anthropic, gemini, mcp.
	Key string
	// Provider names it for a person.
	Provider string
	// JSON is the definition: the exact bytes sent.
	JSON []byte
	// Note says what the projection chose (strict or not and why, the
	// Gemini form).
	Note string
	// Dropped lists the schema keywords the provider's subset lacks
	// (still enforced by the decoder).
	Dropped []string
}

// catalog returns the tools offered to who, with their definitions.
func (c *Console) catalog(ctx context.Context, who tool.Principal) []catalogTool {
	ctx = as(ctx, who)
	offer := c.svc.Offer(ctx)
	var listed [][]byte
	if c.mcp != nil {
		var err error
		if listed, err = c.mcp(ctx, offer); err != nil || len(listed) != len(offer) {
			if err != nil {
				c.log.LogAttrs(ctx, slog.LevelError, "console: list the MCP definitions", slog.String("error", err.Error()))
			}
			listed = nil
		}
	}
	out := make([]catalogTool, len(offer))
	for i, spec := range offer {
		t := &out[i]
		t.Spec = spec
		t.App = appOf(spec)
		pt, pre, err := c.projection(spec)
		if err != nil {
			t.Err = err.Error()
		} else {
			t.Precomputed = pre
			t.Defs = []definition{
				{Key: "openai_chat", Provider: "OpenAI Chat Completions", JSON: pt.OpenAIChat.JSON, Note: openAINote(&pt.OpenAIChat), Dropped: pt.OpenAIChat.Dropped},
				{Key: "openai_responses", Provider: "OpenAI Responses", JSON: pt.OpenAIResponses.JSON, Note: openAINote(&pt.OpenAIResponses), Dropped: pt.OpenAIResponses.Dropped},
				{Key: "anthropic", Provider: "Anthropic Messages", JSON: pt.Anthropic.JSON, Dropped: pt.Anthropic.Dropped},
				{Key: "gemini", Provider: "Gemini", JSON: pt.Gemini.JSON, Note: geminiNote(&pt.Gemini), Dropped: pt.Gemini.Dropped},
			}
		}
		if listed != nil {
			t.Defs = append(t.Defs, definition{Key: "mcp", Provider: "MCP (tools/list)", JSON: listed[i]})
		}
	}
	return out
}

// projection returns spec's provider definitions: Options.Definitions'
// bytes when they were made from this spec (pre), else projected now.
func (c *Console) projection(spec *tool.Spec) (t provider.Tool, pre bool, err error) {
	if c.defs != nil {
		if d, ok := c.defs.Lookup(spec.Name); ok && (d.Spec == spec ||
			d.Spec.Description == spec.Description && bytes.Equal(d.Spec.InputSchema, spec.InputSchema)) {
			return *d, true, nil
		}
	}
	p, err := provider.Compute(spec)
	if err != nil {
		return provider.Tool{}, false, err
	}
	return provider.Tool{Spec: spec, OpenAIChat: p.OpenAIChat, OpenAIResponses: p.OpenAIResponses, Anthropic: p.Anthropic, Gemini: p.Gemini, Deferred: p.Deferred}, false, nil
}

// openAINote says whether an OpenAI definition is strict, and why not.
func openAINote(p *provider.Projection) string {
	if p.Strict {
		return "strict"
	}
	return "not strict: " + p.Reason
}

// geminiNote says which member holds a Gemini declaration's parameters.
func geminiNote(p *provider.Projection) string {
	switch p.Form {
	case provider.FormNone:
		return "no parameters"
	case provider.FormJSONSchema:
		return "parametersJsonSchema: " + p.Reason
	}
	return string(p.Form)
}

// catalogData is the catalog page's.
type catalogData struct {
	Tools []catalogTool
	// MCP is set when the MCP definitions are shown.
	MCP bool
}

// catalogPage serves the tools the person is offered.
func (c *Console) catalogPage(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	tools := c.catalog(r.Context(), who)
	d := &catalogData{Tools: tools}
	for _, t := range tools {
		for _, def := range t.Defs {
			d.MCP = d.MCP || strings.HasPrefix(def.Key, "mcp")
		}
	}
	c.render(w, r, http.StatusOK, "catalog", who, d)
}
