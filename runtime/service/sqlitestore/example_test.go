package sqlitestore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// A proposal made before a restart is confirmed after it, once, and the
// record survives: the store is a file.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "sqlitestore-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "toolcalls.db")

	ctx := context.Background()
	now := time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC)
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(now)))
	if err != nil {
		panic(err)
	}
	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete"}}
	ctx = tool.WithInvocation(ctx, &tool.Invocation{Principal: ana, Conversation: "c-42"})

	// start is what a process does when it starts: open the store, and
	// serve the call service over it.
	start := func() (*service.Service, func()) {
		st, err := sqlitestore.Open(ctx, path, nil)
		if err != nil {
			panic(err)
		}
		svc, err := service.New(reg, &service.Options{
			Store:   st,
			Limiter: st.NewLimiter("calls", 2, 20), // 2 calls a second per principal, bursts of 20: in the file too
			Now:     func() time.Time { return now },
		})
		if err != nil {
			panic(err)
		}
		return svc, func() { st.Close() }
	}

	svc, stop := start()
	res, err := svc.Call(ctx, "notes_delete", []byte(`{"id":"n2"}`))
	if err != nil {
		panic(err)
	}
	var proposal struct{ Proposal string }
	if err := json.Unmarshal(res.Content, &proposal); err != nil {
		panic(err)
	}
	stop() // the process ends

	svc, stop = start()
	defer stop()
	_, err = svc.Confirm(ctx, proposal.Proposal, ana)
	fmt.Println("confirmed after the restart:", err == nil)
	_, err = svc.Confirm(ctx, proposal.Proposal, ana)
	fmt.Println("again:", tool.CodeOf(err))
	recs, err := svc.Records(ctx, service.Query{Conversation: "c-42"})
	if err != nil {
		panic(err)
	}
	for _, r := range recs {
		fmt.Println(r.Event, r.Tool, r.Outcome)
	}
	// Output:
	// confirmed after the restart: true
	// again: already_confirmed
	// proposal notes_delete ok
	// confirmation notes_delete ok
	// refusal notes_delete refused
}
