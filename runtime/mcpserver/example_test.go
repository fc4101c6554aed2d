package mcpserver_test

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// A server over a generated registry, reached here through the SDK's
// in-memory transports; a program serves it with
// srv.Run(ctx, &mcp.StdioTransport{}) or srv.ListenAndServe(ctx, addr, opts).
func ExampleNew() {
	ctx := context.Background()
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		panic(err)
	}
	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "notes", Version: "1.0.0"})
	if err != nil {
		panic(err)
	}
	defer srv.Close()

	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, serverEnd, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		panic(err)
	}
	// 12 of the 13 tools: notes_share offers itself to signed-in callers
	// only, and this bare registry knows of no caller (serve the call
	// service, runtime/service, to run calls for a principal).
	fmt.Println(len(list.Tools), "tools; first:", list.Tools[0].Name, "read-only:", list.Tools[0].Annotations.ReadOnlyHint)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_get", Arguments: map[string]any{"id": "n99"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// 13 tools; first: clock_now read-only: true
	// true note n99: not found; notes_search finds notes and their IDs
}
