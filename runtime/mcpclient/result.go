package mcpclient

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// result maps a remote tool's CallToolResult to a tool.Result: its text
// content joined by newlines (other content is named in brackets, as
// "[image content]"), or its structuredContent as structured output when
// the tool declares an output schema. An isError result is a *tool.Error
// with CodeFailed whose Message is the remote tool's text when the server
// is trusted (Options.Trusted: its text is then taken as a local tool's
// ModelError is); an untrusted server's text, which may quote the
// arguments or anything else, stays in the error's Cause, for the log,
// and the model reads that the tool failed.
func (p *Toolkit) result(spec *tool.Spec, full, remote string, res *mcp.CallToolResult) (tool.Result, error) {
	text := joinContent(res.Content)
	if res.IsError {
		if text == "" {
			text = "the tool failed"
		}
		if len(text) > p.opts.MaxResultBytes {
			return p.tooLarge(full, remote)
		}
		if !p.opts.Trusted {
			return failure(&tool.Error{Code: tool.CodeFailed, Tool: full, Message: "tool " + full + " failed: the MCP server reported an error",
				Cause: fmt.Errorf("mcpclient: %s: remote tool %q reported an error: %s", p.group, remote, text)})
		}
		return failure(&tool.Error{Code: tool.CodeFailed, Tool: full, Message: text,
			Cause: fmt.Errorf("mcpclient: %s: remote tool %q reported an error", p.group, remote)})
	}
	if res.StructuredContent != nil && (text == "" || spec != nil && spec.OutputSchema != nil) {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return failure(&tool.Error{Code: tool.CodeFailed, Tool: full, Message: "the MCP server's structured result could not be encoded",
				Cause: fmt.Errorf("mcpclient: %s: remote tool %q: %w", p.group, remote, err)})
		}
		if len(b) > p.opts.MaxResultBytes {
			return p.tooLarge(full, remote)
		}
		_, object := res.StructuredContent.(map[string]any)
		return tool.Result{Content: b, Structured: object && spec != nil && spec.OutputSchema != nil}, nil
	}
	if len(text) > p.opts.MaxResultBytes {
		return p.tooLarge(full, remote)
	}
	return tool.Result{Content: []byte(text)}, nil
}

// tooLarge is the error of a result over MaxResultBytes: the remote tool
// ran, its result is dropped.
func (p *Toolkit) tooLarge(full, remote string) (tool.Result, error) {
	return failure(&tool.Error{Code: tool.CodeFailed, Tool: full,
		Message: "the tool's result exceeds " + strconv.Itoa(p.opts.MaxResultBytes) + " bytes",
		Cause:   fmt.Errorf("mcpclient: %s: remote tool %q: result over %d bytes", p.group, remote, p.opts.MaxResultBytes)})
}

// joinContent joins the text of a result's content by newlines; content
// that is not text is named in brackets.
func joinContent(content []mcp.Content) string {
	var b strings.Builder
	for i, c := range content {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch c := c.(type) {
		case *mcp.TextContent:
			b.WriteString(c.Text)
		case *mcp.ImageContent:
			b.WriteString("[image content]")
		case *mcp.AudioContent:
			b.WriteString("[audio content]")
		case *mcp.ResourceLink:
			b.WriteString("[resource link]")
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				b.WriteString(c.Resource.Text)
			} else {
				b.WriteString("[resource]")
			}
		default:
			b.WriteString("[content]")
		}
	}
	return b.String()
}
