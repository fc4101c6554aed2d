// Command writer is a writing agent with request_tools over notes: its
// palette starts with two read tools, notes_search (bound to sort the
// newest notes first) and notes_get, and may ask for the other notes tools
// when it needs them. A fake model, its tool calls fixed in the code,
// plays two turns: in the first it tries to override the bound sort (and
// is refused), searches, and asks for notes_update, notes_create,
// clock_now and a name that is no tool's; in the second it uses what it
// was given (an action runs, a propose tool's call becomes a proposal),
// and a person confirms its proposal. Every call, the grant included,
// runs through the call service for the person and is recorded, and so is
// each turn's offer (once per turn, however often the host asks). The
// output shows, each turn, the palette's offer, the size of its Anthropic
// tools array and request_tools' catalog, which changes only when what
// could be admitted changes.
//
//	go run ./examples/writer
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "writer:", err)
		os.Exit(1)
	}
}

// ana is the person the agent writes for: she may read and change notes.
var ana = tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write"}}

// call is one tool call the fake model makes.
type call struct {
	id, name, args string
}

// turns are the fake model's turns: the calls it makes in each, fixed.
var turns = []struct {
	id    string
	calls []call
}{
	{"t1", []call{
		{"call_1", "notes_search", `{"query":"go","sort":"oldest"}`},
		{"call_2", "notes_search", `{"query":"go","limit":2}`},
		{"call_3", palette.RequestTools, `{"names":["notes_update","notes_create","clock_now","bogus name!"]}`},
	}},
	{"t2", []call{
		{"call_4", "notes_update", `{"id":"n1","title":"Go generics, a cheat sheet"}`},
		{"call_5", "notes_create", `{"title":"Generics talk outline","body":"# Why\n\n# How\n","tags":["go","talk"]}`},
	}},
}

func run(ctx context.Context, w io.Writer) error {
	reg, err := demo.Registry()
	if err != nil {
		return err
	}
	svc, err := service.New(reg, &service.Options{Store: service.NewMemoryStore()})
	if err != nil {
		return err
	}
	p, err := palette.New(svc, reg.Tools(), palette.Names("notes_search", "notes_get"), &palette.Options{
		Bind:        map[string]json.RawMessage{"notes_search": json.RawMessage(`{"sort":"newest"}`)},
		Requestable: palette.Groups("notes"),
	})
	if err != nil {
		return err
	}
	all, err := providers.NewDefinitions(reg) // the definitions toolgen precomputed
	if err != nil {
		return err
	}
	// The notes tools ana is not offered are not in the catalog either.
	offered := svc.Offer(tool.WithInvocation(ctx, &tool.Invocation{Principal: ana}))
	for _, s := range reg.Tools() {
		if s.Group == "notes" && find(offered, s.Name) == nil {
			fmt.Fprintf(w, "not offered to ana, so never in her catalog: %s (needs %s)\n", s.Name, strings.Join(s.Permissions, ", "))
		}
	}
	fmt.Fprintln(w)
	cache := provider.NewCache(0) // for the specs the definitions lack: the bound tool's, request_tools'
	var (
		caught   *tool.Spec // request_tools' spec of the last turn
		before   []string   // its catalog
		proposal string
	)
	for _, turn := range turns {
		tctx := func(callID string) context.Context {
			return tool.WithInvocation(ctx, &tool.Invocation{Principal: ana, Conversation: "writer-1", Turn: turn.id, CallID: callID})
		}
		offer := p.Offer(tctx(""))
		defs, err := all.SubsetWith(offer, cache)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "== turn %s\n", turn.id)
		fmt.Fprintf(w, "offered: %s\n", strings.Join(names(offer), ", "))
		fmt.Fprintf(w, "anthropic tools array: %d bytes; specs projected at run time so far: %d (the bound notes_search, each request_tools catalog)\n",
			len(defs.Anthropic()), cache.Projections())
		if s := find(offer, "notes_search"); s != nil {
			fmt.Fprintf(w, "notes_search's schema has a sort property: %t (bound to \"newest\")\n", bytes.Contains(s.InputSchema, []byte(`"sort"`)))
		}
		req := find(offer, palette.RequestTools)
		if req == nil {
			return errors.New("request_tools is not offered")
		}
		catalog, err := catalogNames(req.InputSchema)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "request_tools catalog (%d bytes of schema): %s\n", len(req.InputSchema), strings.Join(catalog, ", "))
		if caught != nil {
			fmt.Fprintf(w, "schema changed since the last turn: %t; gone from the catalog, now in the palette: %s\n",
				!bytes.Equal(caught.InputSchema, req.InputSchema), strings.Join(minus(before, catalog), ", "))
		}
		again := find(p.Offer(tctx("")), palette.RequestTools)
		if again == nil {
			return errors.New("request_tools is gone from the second offer of a turn")
		}
		fmt.Fprintf(w, "asked twice this turn, same bytes: %t, same spec: %t\n", bytes.Equal(again.InputSchema, req.InputSchema), again == req)
		caught, before = req, catalog
		for _, c := range turn.calls {
			fmt.Fprintf(w, "\n> model: %s %s\n", c.name, c.args)
			res, err := p.Call(tctx(c.id), c.name, []byte(c.args))
			if err := show(w, c.name, res, err); err != nil {
				return err
			}
			var pr struct{ Proposal string }
			if err == nil && json.Unmarshal(res.Content, &pr) == nil && pr.Proposal != "" {
				proposal = pr.Proposal
			}
		}
		fmt.Fprintln(w)
	}
	if proposal == "" {
		return errors.New("the model proposed nothing")
	}
	fmt.Fprintln(w, "> ana confirms the proposal")
	conf, err := svc.Confirm(ctx, proposal, ana)
	if err := show(w, "notes_create", resultOf(conf), err); err != nil {
		return err
	}
	return record(ctx, w, svc)
}

// resultOf is a confirmation's result, or none.
func resultOf(c *service.Confirmation) tool.Result {
	if c == nil {
		return tool.Result{}
	}
	return c.Result
}

// show prints a call's answer as the model reads it, kept to what does
// not change from run to run: the notes' new timestamps and the
// proposal's ID are left out.
func show(w io.Writer, name string, res tool.Result, err error) error {
	var te *tool.Error
	switch {
	case errors.As(err, &te):
		fmt.Fprintf(w, "error [%s]: %s\n", te.Code, res.Text())
		return nil
	case err != nil:
		return err
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(res.Content, &v); err != nil {
		return fmt.Errorf("%s answered %q: %w", name, res.Text(), err)
	}
	switch {
	case name == palette.RequestTools:
		fmt.Fprintln(w, res.Text())
	case v["status"] != nil: // a proposal
		var r struct{ Status, Message string }
		if err := json.Unmarshal(res.Content, &r); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s\n", r.Status, r.Message)
	case v["notes"] != nil: // a search
		var r struct {
			Notes []struct{ ID, Title, Updated string }
		}
		if err := json.Unmarshal(res.Content, &r); err != nil {
			return err
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "%s %q updated %s\n", n.ID, n.Title, n.Updated)
		}
	default: // a note
		var r struct {
			ID, Title string
			Revision  int
		}
		if err := json.Unmarshal(res.Content, &r); err != nil {
			return err
		}
		fmt.Fprintf(w, "note %s %q, revision %d\n", r.ID, r.Title, r.Revision)
	}
	return nil
}

// record prints the service's record, without its times.
func record(ctx context.Context, w io.Writer, svc *service.Service) error {
	recs, err := svc.Records(ctx, service.Query{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe record (%d rows):\n\n", len(recs))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WHO\tTURN\tCALL\tEVENT\tTOOL\tOUTCOME\tCODE")
	for _, r := range recs {
		code := "-"
		if r.Code != 0 {
			code = r.Code.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Principal, orDash(r.Turn), orDash(r.CallID), r.Event, orDash(r.Tool), r.Outcome, code)
	}
	return tw.Flush()
}

// catalogNames reads the names request_tools' input schema admits.
func catalogNames(schema []byte) ([]string, error) {
	var s struct {
		Properties struct {
			Names struct {
				Items struct {
					OneOf []struct{ Const string }
				}
			}
		}
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("request_tools' input schema: %w", err)
	}
	var out []string
	for _, alt := range s.Properties.Names.Items.OneOf {
		out = append(out, alt.Const)
	}
	return out, nil
}

// minus returns the names of a that b lacks.
func minus(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

func names(specs []*tool.Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

func find(specs []*tool.Spec, name string) *tool.Spec {
	for _, s := range specs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
