package mcpclient_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/mcpclient"
)

func Example() {
	// A remote MCP server: here a go-sdk server in memory; mcpclient.Stdio
	// and mcpclient.HTTP reach real ones.
	srv := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, nil)
	type query struct {
		Query string `json:"query"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "pages.search", Description: "Searches the pages."},
		func(_ context.Context, _ *mcp.CallToolRequest, in query) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3 pages match " + in.Query}}}, nil, nil
		})

	p, err := mcpclient.New(mcpclient.Options{
		Group: "docs",
		Connect: func(ctx context.Context, _ dynamic.Env) (mcp.Transport, error) {
			st, ct := mcp.NewInMemoryTransports()
			if _, err := srv.Connect(ctx, st, nil); err != nil {
				return nil, err
			}
			return ct, nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	ctx := context.Background()
	if err := p.Bind(ctx, dynamic.Env{Logger: slog.New(slog.DiscardHandler), Getenv: os.Getenv}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("available:", p.Available(ctx))
	for _, s := range p.Tools(ctx) {
		remote, _ := p.Remote(s.Name)
		fmt.Println(p.Group()+"_"+s.Name, "calls", remote, "as", s.Kind)
		res, err := p.Call(ctx, s.Name, []byte(`{"query":"install"}`))
		fmt.Println(res.Text(), err)
	}
	// Output:
	// available: true
	// docs_pages_search_64576110 calls pages.search as action
	// 3 pages match install <nil>
}
