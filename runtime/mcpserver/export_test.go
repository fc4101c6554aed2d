package mcpserver

import "github.com/modelcontextprotocol/go-sdk/mcp"

// ListFirstPage exposes the middleware's answer to tools/list to the
// benchmarks, which measure it without a transport.
func ListFirstPage(s *Server) (mcp.Result, error) { return s.list(nil) }
