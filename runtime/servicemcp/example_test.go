package servicemcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// The MCP server asks the person to confirm a proposal where the session
// allows, and the Confirmer carries out the answer through the call
// service: the tool runs once, with the person's rights, and the service
// records it.
func ExampleConfirmer() {
	ctx := context.Background()
	now := time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC)
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(now)))
	if err != nil {
		panic(err)
	}
	svc, err := service.New(reg, nil)
	if err != nil {
		panic(err)
	}
	srv, err := mcpserver.New(svc, &mcpserver.Options{
		Name:    "notes",
		Confirm: &mcpserver.ConfirmOptions{Confirmer: servicemcp.Confirmer(svc), Key: bytes.Repeat([]byte{7}, 32)}, // a random secret in a program
	})
	if err != nil {
		panic(err)
	}
	defer srv.Close()

	// ana's session (over stdio, the context of Run would carry her), and
	// a client that puts the question to her; she accepts.
	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete"}}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(tool.WithInvocation(ctx, &tool.Invocation{Principal: ana}), serverEnd, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			fmt.Println("asked:", strings.SplitN(req.Params.Message, "\n", 2)[0])
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	cs, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_delete", Arguments: map[string]any{"id": "n2"}})
	if err != nil {
		panic(err)
	}
	var answer struct{ Status, Summary string }
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &answer); err != nil {
		panic(err)
	}
	fmt.Println(answer.Status+":", answer.Summary)

	recs, err := svc.Records(ctx, service.Query{Principal: "ana"})
	if err != nil {
		panic(err)
	}
	for _, r := range recs {
		fmt.Println(r.Event, r.Tool, r.Outcome)
	}
	// Output:
	// asked: Confirm: Delete this note? This cannot be undone. (notes_delete)
	// confirmed: Delete this note? This cannot be undone. (notes_delete)
	// proposal notes_delete ok
	// confirmation notes_delete ok
}
