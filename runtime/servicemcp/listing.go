package servicemcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Lister tells how an MCP server lists tools: the JSON object of each
// tool in a tools/list answer, exactly as runtime/mcpserver writes it
// (the bytes an MCP client receives). runtime/console shows them beside
// each provider's definitions (console.Options.MCP is a Lister's List).
// It asks a Server of its own over an in-memory session, so what it shows
// is what the server's code writes, not a copy of it. It is safe for
// concurrent use.
type Lister struct {
	srv *mcpserver.Server
}

// NewLister returns a Lister.
func NewLister() (*Lister, error) {
	srv, err := mcpserver.New(offerCaller{}, &mcpserver.Options{Name: "toolgen-listing"})
	if err != nil {
		return nil, fmt.Errorf("new MCP lister: %w", err)
	}
	return &Lister{srv: srv}, nil
}

// Close releases the Lister's server.
func (l *Lister) Close() error { return l.srv.Close() }

// List returns the tools of offer as an MCP server lists them: one JSON
// object per tool, in offer's order (sorted by name, as an Offer returns
// them). Listing runs no tool and records nothing.
func (l *Lister) List(ctx context.Context, offer []*tool.Spec) ([][]byte, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := l.srv.SDK().Connect(context.WithValue(ctx, offerKey{}, offer), st, nil)
	if err != nil {
		return nil, fmt.Errorf("list MCP tools: connect: %w", err)
	}
	defer func() { _ = ss.Close() }()
	conn, err := ct.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("list MCP tools: connect: %w", err)
	}
	defer func() { _ = conn.Close() }()
	rpc := &rawClient{conn: conn}
	if _, err := rpc.call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "toolgen-listing", "version": "1"},
	}); err != nil {
		return nil, err
	}
	if err := rpc.notify(ctx, "notifications/initialized"); err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(offer))
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := rpc.call(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("list MCP tools: decode tools/list: %w", err)
		}
		for _, t := range page.Tools {
			out = append(out, []byte(t))
		}
		if page.NextCursor == "" || len(page.Tools) == 0 {
			break
		}
		cursor = page.NextCursor
	}
	if len(out) != len(offer) {
		return nil, fmt.Errorf("list MCP tools: %d tools listed of %d offered", len(out), len(offer))
	}
	return out, nil
}

// offerKey is the context key of the offer a Lister's session lists.
type offerKey struct{}

// offerCaller offers the tools its context carries and calls none.
type offerCaller struct{}

// Offer implements tool.Caller.
func (offerCaller) Offer(ctx context.Context) []*tool.Spec {
	offer, _ := ctx.Value(offerKey{}).([]*tool.Spec)
	return offer
}

// Call implements tool.Caller: a Lister runs nothing.
func (offerCaller) Call(_ context.Context, name string, _ []byte) (tool.Result, error) {
	e := &tool.Error{Code: tool.CodeUnknownTool, Tool: name, Message: "this server only lists tools"}
	return tool.Result{Content: []byte(e.Message), IsError: true}, e
}

// rawClient speaks JSON-RPC over an MCP connection, reading results as
// the server wrote them.
type rawClient struct {
	conn mcp.Connection
	next int64
}

// call sends a request and returns its result.
func (c *rawClient) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.next++
	id, err := jsonrpc.MakeID(float64(c.next))
	if err != nil {
		return nil, fmt.Errorf("list MCP tools: %s: %w", method, err)
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("list MCP tools: %s: %w", method, err)
	}
	if err := c.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: raw}); err != nil {
		return nil, fmt.Errorf("list MCP tools: %s: %w", method, err)
	}
	for {
		msg, err := c.conn.Read(ctx)
		if err != nil {
			return nil, fmt.Errorf("list MCP tools: %s: %w", method, err)
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok || resp.ID != id {
			continue // a notification or a request of the server's: not the answer
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("list MCP tools: %s: %w", method, resp.Error)
		}
		if resp.Result == nil {
			return nil, errors.New("list MCP tools: " + method + ": no result")
		}
		return resp.Result, nil
	}
}

// notify sends a notification.
func (c *rawClient) notify(ctx context.Context, method string) error {
	if err := c.conn.Write(ctx, &jsonrpc.Request{Method: method, Params: json.RawMessage(`{}`)}); err != nil {
		return fmt.Errorf("list MCP tools: %s: %w", method, err)
	}
	return nil
}
