package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListFirstPage exposes the middleware's answer to tools/list for the
// caller of ctx to the benchmarks and tests, which call it without a
// transport.
func ListFirstPage(ctx context.Context, s *Server) (mcp.Result, error) { return s.list(ctx, nil) }
