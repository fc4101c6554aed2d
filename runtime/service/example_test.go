package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// The call service in front of the sample tools: what ana is offered, a
// call, a proposal that runs nothing until ana confirms it (once), and the
// record the service kept of all of it.
func Example() {
	now := time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC)
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(now)))
	if err != nil {
		panic(err)
	}
	svc, err := service.New(reg, &service.Options{
		Policy: &service.Rules{Groups: []string{"notes"}}, // the note tools only
		Now:    func() time.Time { return now },
	})
	if err != nil {
		panic(err)
	}
	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete"}}
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: ana, Conversation: "c-42"})

	// Offer: the policy, the tools' //tool:permission names and their own
	// Offered methods decide, per caller (ana lacks notes.share).
	var offered []string
	for _, spec := range svc.Offer(ctx) {
		offered = append(offered, spec.Name)
	}
	fmt.Println("offered:", strings.Join(offered, " "))

	// A read tool runs at once, and is recorded.
	res, err := svc.Call(ctx, "notes_search", []byte(`{"query":"generics","limit":1}`))
	if err != nil {
		panic(err)
	}
	var found struct{ Notes []struct{ Title string } }
	if err := json.Unmarshal(res.Content, &found); err != nil {
		panic(err)
	}
	fmt.Println("found:", found.Notes[0].Title)

	// A propose tool runs nothing: the model reads the proposal.
	res, err = svc.Call(ctx, "notes_delete", []byte(`{"id":"n2"}`))
	if err != nil {
		panic(err)
	}
	var proposal struct{ Status, Summary, Proposal string }
	if err := json.Unmarshal(res.Content, &proposal); err != nil {
		panic(err)
	}
	fmt.Println(proposal.Status+":", proposal.Summary)

	// A person says yes: the tool runs, at most once, with ana's rights.
	conf, err := svc.Confirm(ctx, proposal.Proposal, ana)
	fmt.Println("confirmed:", err == nil, conf.Result.IsError)
	_, err = svc.Confirm(ctx, proposal.Proposal, ana)
	fmt.Println("again:", tool.CodeOf(err))

	recs, err := svc.Records(ctx, service.Query{Conversation: "c-42"})
	if err != nil {
		panic(err)
	}
	for _, r := range recs {
		code := "-"
		if r.Code != 0 {
			code = r.Code.String()
		}
		fmt.Println(r.Event, r.Tool, r.Outcome, code, string(r.Args))
	}
	// Output:
	// offered: notes_create notes_delete notes_get notes_outline notes_render notes_search notes_tag notes_update
	// found: Go generics cheat sheet
	// proposed: Delete this note? This cannot be undone. (notes_delete)
	// confirmed: true false
	// again: already_confirmed
	// call notes_search ok - {"query":"generics","limit":1}
	// proposal notes_delete ok - {"id":"n2"}
	// confirmation notes_delete ok - {"id":"n2"}
	// refusal notes_delete refused already_confirmed
}
