package compare

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgen-go/toolgen/bench/generated"
	"github.com/toolgen-go/toolgen/bench/generated/toolstools"
	"github.com/toolgen-go/toolgen/bench/tools"
)

// MCP is the official MCP Go SDK's path: a server with the two tools added
// through the typed mcp.AddTool (which infers and validates the input
// schema, decodes with encoding/json and encodes the structured output),
// and a client connected to it over in-memory transports. Each call is a
// full JSON-RPC round trip. The tools are given the schemas toolgen
// publishes, so the SDK validates the same keywords (its own schema
// inference reads the jsonschema struct tag as a description and refuses
// invopop's key=value grammar).
type MCP struct {
	client *mcp.ClientSession
	server *mcp.ServerSession
}

// NewMCP starts the server and connects the client; Close stops both.
func NewMCP(ctx context.Context) (*MCP, error) {
	reg, err := generated.New([]generated.Tools{toolstools.Tools{}})
	if err != nil {
		return nil, fmt.Errorf("mcp path: %w", err)
	}
	schema := func(name string) json.RawMessage {
		sp, _ := reg.Lookup(name)
		return sp.InputSchema
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "small", Description: "Looks up orders matching a query.", InputSchema: schema("small")},
		func(ctx context.Context, req *mcp.CallToolRequest, in tools.SmallInput) (*mcp.CallToolResult, tools.SmallOutput, error) {
			return nil, tools.Small(in), nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "medium", Description: "Places an order.", InputSchema: schema("medium")},
		func(ctx context.Context, req *mcp.CallToolRequest, in tools.MediumInput) (*mcp.CallToolResult, tools.MediumOutput, error) {
			return nil, tools.Medium(&in), nil
		})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("mcp path: connect server: %w", err)
	}
	cli := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "v0.0.0"}, nil)
	cs, err := cli.Connect(ctx, ct, nil)
	if err != nil {
		_ = ss.Close()
		return nil, fmt.Errorf("mcp path: connect client: %w", err)
	}
	return &MCP{client: cs, server: ss}, nil
}

// Close ends the client's and the server's sessions.
func (m *MCP) Close() error {
	return errors.Join(m.client.Close(), m.server.Wait())
}

// ErrToolResult is returned when the MCP server answers with a result
// flagged as an error (the SDK reports invalid arguments that way).
var ErrToolResult = errors.New("tool result is an error")

// Path returns the client's CallTool as a Path; the output is the text
// content the SDK sends beside the structured content: the output's JSON.
func (m *MCP) Path() Path {
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		res, err := m.client.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			return nil, err
		}
		if res.IsError {
			return nil, ErrToolResult
		}
		if len(res.Content) != 1 {
			return nil, fmt.Errorf("mcp path: %d content items, want 1", len(res.Content))
		}
		text, ok := res.Content[0].(*mcp.TextContent)
		if !ok {
			return nil, fmt.Errorf("mcp path: content is %T, want text", res.Content[0])
		}
		return []byte(text.Text), nil
	}
}
