package mcpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
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

// bearerRT sets a bearer token on every request of a client.
type bearerRT string

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// A server for people: the call service over streamable HTTP, each request
// run for the principal of its bearer token, listed that principal's tools
// and recorded. ListenAndServe(ctx, addr, opts) does what Listen and Serve
// do here.
func ExampleServer_Serve() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		panic(err)
	}
	svc, err := service.New(reg, nil)
	if err != nil {
		panic(err)
	}
	srv, err := mcpserver.New(svc, &mcpserver.Options{Name: "notes"})
	if err != nil {
		panic(err)
	}
	defer srv.Close()

	ln, err := mcpserver.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	url := "http://" + ln.Addr().String() + mcpserver.DefaultPath
	opts := &mcpserver.HTTPOptions{Auth: &mcpserver.Auth{
		Verifier: mcpserver.StaticTokens(map[string]tool.Principal{ // an OAuth verifier in production
			"ana-secret-token": {ID: "ana", Permissions: []string{"notes.read", "notes.write"}},
			"ben-secret-token": {ID: "ben", Permissions: []string{"notes.read"}},
		}),
		Metadata: &oauthex.ProtectedResourceMetadata{Resource: url, AuthorizationServers: []string{"https://auth.example.com"}},
	}}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, opts) }()

	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println("without a token:", resp.StatusCode, resp.Header.Get("WWW-Authenticate") != "")

	for _, token := range []string{"ana-secret-token", "ben-secret-token"} {
		client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerRT(token)}}, nil)
		if err != nil {
			panic(err)
		}
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			panic(err)
		}
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_tag", Arguments: map[string]any{"id": "n1", "add": []string{"mine"}}})
		fmt.Println(token[:3]+":", len(list.Tools), "tools; notes_tag:", err == nil)
		cs.Close()
	}
	cancel()
	fmt.Println("shut down:", <-served)
	// Output:
	// without a token: 401 true
	// ana: 11 tools; notes_tag: true
	// ben: 8 tools; notes_tag: false
	// shut down: <nil>
}
