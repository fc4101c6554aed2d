package mcpclient

import (
	"context"
	"errors"
	"net/http"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
)

// Connector opens a transport to the remote MCP server: once for every
// connection of the pool, and again for every reconnection. env is the
// environment the Toolkit was bound to, where credentials are read
// (env.Getenv). Stdio and HTTP build the common ones; any mcp.Transport
// will do (mcp.NewInMemoryTransports in tests).
type Connector func(ctx context.Context, env dynamic.Env) (mcp.Transport, error)

// Stdio connects to a server run as a child process speaking MCP on its
// standard input and output. newCmd builds the command for each
// connection, since an exec.Cmd runs only once; it reads what it needs
// (credentials to pass in cmd.Env) from env. The process is stopped when
// its connection closes. Build it with exec.Command, not
// exec.CommandContext: the process must outlive the context of the call
// that happened to connect it.
func Stdio(newCmd func(env dynamic.Env) *exec.Cmd) Connector {
	return func(_ context.Context, env dynamic.Env) (mcp.Transport, error) {
		cmd := newCmd(env)
		if cmd == nil {
			return nil, errors.New("mcpclient: Stdio: the command builder returned no command")
		}
		return &mcp.CommandTransport{Command: cmd}, nil
	}
}

// HTTP connects to a server over MCP's streamable HTTP transport at url,
// with client (nil means http.DefaultClient). A client whose Transport
// adds an Authorization header from env is how a bearer token reaches the
// server; build such clients with a Connector of one's own.
func HTTP(url string, client *http.Client) Connector {
	return func(context.Context, dynamic.Env) (mcp.Transport, error) {
		return &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil
	}
}
