package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scrubTransport is the wire layer of the transports Run serves (stdio,
// in-memory, any other): each connection's error responses are rewritten
// as scrubError says before the transport writes them. The id is kept:
// the transport writes it from the SDK's jsonrpc.ID, and over a pipe the
// client that chose it is the only reader.
type scrubTransport struct {
	mcp.Transport
	srv *Server // answers the task requests (tasks_wire.go); nil for none
}

// Connect connects the transport and wraps the connection.
func (t scrubTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return scrubConn{Connection: c, srv: t.srv, ctx: ctx}, nil
}

// scrubConn rewrites the error responses written to a connection, and
// answers the requests of the tasks extension before the SDK reads them.
type scrubConn struct {
	mcp.Connection
	srv *Server
	ctx context.Context // Connect's: Run's, whose values the requests carry
}

// Write writes msg, an error response rewritten.
func (c scrubConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
		cp := *r
		cp.Error = scrubError(r.Error)
		msg = &cp
	}
	return c.Connection.Write(ctx, msg)
}
