// Command catalog lists the sample tools a person is offered and makes a
// few calls through the call service, as a model would: a read, a display,
// bad arguments, a misspelt name, a proposal that a person then confirms,
// a call the person is not allowed to make, and a long-running tool whose
// progress reaches the service's Observer, drawn as a progress bar, first
// to its end, then cancelled half-way. It ends with the record the service
// kept: what `make run` shows a new user.
//
//	go run ./examples/catalog
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(1)
	}
}

// The people of the example: ana may read and write notes; ben may only
// read them.
var (
	ana = tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete", "notes.share"}}
	ben = tool.Principal{ID: "ben", Permissions: []string{"notes.read"}}
)

// calls are the calls the example makes, as a model would send them.
var calls = []struct {
	who            tool.Principal
	id, name, args string
	why            string
}{
	{ana, "call_1", "notes_search", `{"query":"go","limit":3}`, "a read tool"},
	{ana, "call_2", "notes_render", `{"id":"n1"}`, "a display tool returning text"},
	{ana, "call_3", "notes_search", `{"query":"","limit":500,"sort":"random","colour":"red"}`, "bad arguments: every problem, and never the value sent"},
	{ana, "call_4", "notes_get", `{"id":"n999"}`, "an error the tool wrote for the model"},
	{ana, "call_5", "notes_serch", `{"query":"go"}`, "a misspelt tool name"},
	{ana, "call_6", "clock_zones", ``, "no arguments, JSON output"},
	{ana, "call_7", "notes_share", `{"id":"n1","passphrase":"correct horse battery","hours":2}`, "an action with a secret argument: the record keeps \"[secret]\""},
	{ana, "call_8", "notes_delete", `{"id":"n2"}`, "a propose tool: validated and stored, not run"},
	{ana, "call_8", "notes_delete", `{"id":"n2"}`, "the same call ID again: the recorded answer, no second proposal"},
	{ben, "call_9", "notes_delete", `{"id":"n2"}`, "ben lacks notes.write: not offered, so unknown to him"},
}

func run(ctx context.Context, w io.Writer) error {
	reg, err := demo.Registry()
	if err != nil {
		return err
	}
	start := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	now := start
	bar := demo.NewBar(w)
	svc, err := service.New(reg, &service.Options{
		Now:      func() time.Time { now = now.Add(time.Second); return now },
		Observer: barObserver{bar},
	})
	if err != nil {
		return err
	}
	inv := func(p tool.Principal, callID string) context.Context {
		return tool.WithInvocation(ctx, &tool.Invocation{Principal: p, Conversation: "conv-1", CallID: callID})
	}
	offer := svc.Offer(inv(ana, ""))
	fmt.Fprintf(w, "%d tools offered to ana, sorted by name:\n\n", len(offer))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tHINTS\tDESCRIPTION")
	for _, s := range offer {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Kind, hints(s), firstLine(s.Description))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nben is offered %d of them.\n", len(svc.Offer(inv(ben, ""))))
	var proposal string
	for _, c := range calls {
		fmt.Fprintf(w, "\n> %s: %s %s   (%s)\n", c.who.ID, c.name, c.args, c.why)
		res, err := svc.Call(inv(c.who, c.id), c.name, []byte(c.args))
		if err := show(w, res, err); err != nil {
			return err
		}
		var p struct{ Proposal string }
		if err == nil && json.Unmarshal(res.Content, &p) == nil && p.Proposal != "" {
			proposal = p.Proposal
		}
	}
	fmt.Fprintf(w, "\n> ana confirms the proposal\n")
	conf, err := svc.Confirm(ctx, proposal, ana)
	if err := show(w, conf.Result, err); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n> ana confirms it again\n")
	_, err = svc.Confirm(ctx, proposal, ana)
	if err := show(w, tool.Result{Content: []byte(errMessage(err)), IsError: true}, err); err != nil {
		return err
	}
	if err := long(ctx, w, svc, inv(ana, "call_10"), inv(ana, "call_11")); err != nil {
		return err
	}
	return record(ctx, w, svc, start)
}

// long calls clock_wait twice: to its end, its progress drawn by the
// service's Observer, then cancelled by its caller half a second in (as a
// person stopping it would): the tool stops, and the record says
// cancelled.
func long(ctx context.Context, w io.Writer, svc *service.Service, first, second context.Context) error {
	fmt.Fprintf(w, "\n> ana: clock_wait {\"seconds\":2}   (a long-running tool: its progress reaches the service's Observer, drawn as a bar)\n")
	res, err := svc.Call(first, "clock_wait", []byte(`{"seconds":2}`))
	if err := show(w, res, err); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n> ana: clock_wait {\"seconds\":30}   (the caller cancels it half a second in: the tool stops)\n")
	cctx, cancel := context.WithCancel(second)
	defer cancel()
	stopper := tool.ProgressFunc(func(_ context.Context, p tool.ProgressReport) {
		if p.Done >= 0.5 {
			cancel() // what a person's "stop" does
		}
	})
	res, err = svc.Call(tool.WithProgress(cctx, stopper), "clock_wait", []byte(`{"seconds":30}`))
	return show(w, res, err)
}

// barObserver is the service's Observer: it draws the progress of the
// calls on a bar, and ends the bar's line when a call ends.
type barObserver struct{ bar *demo.Bar }

var _ service.ProgressObserver = barObserver{}

// Start implements service.Observer.
func (o barObserver) Start(ctx context.Context, _ string) context.Context { return ctx }

// End implements service.Observer.
func (o barObserver) End(context.Context, *service.Record) { o.bar.End() }

// ObserveProgress implements service.ProgressObserver.
func (o barObserver) ObserveProgress(ctx context.Context, _ *service.Record, p tool.ProgressReport) {
	o.bar.Progress(ctx, p)
}

// show prints a call's answer as the model would read it.
func show(w io.Writer, res tool.Result, err error) error {
	var te *tool.Error
	switch {
	case errors.As(err, &te):
		fmt.Fprintf(w, "error [%s] for the model: %s\n", te.Code, res.Text())
	case err != nil:
		return err
	case res.Structured:
		fmt.Fprintf(w, "structured: %s\n", clip(res.Text(), 300))
	default:
		fmt.Fprintf(w, "%s\n", clip(res.Text(), 300))
	}
	return nil
}

// errMessage is err's message, or "".
func errMessage(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// record prints the service's record.
func record(ctx context.Context, w io.Writer, svc *service.Service, start time.Time) error {
	recs, err := svc.Records(ctx, service.Query{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe record (%d rows):\n\n", len(recs))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "T+\tWHO\tCALL\tEVENT\tTOOL\tOUTCOME\tCODE\tARGS")
	for _, r := range recs {
		code := "-"
		if r.Code != 0 {
			code = r.Code.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Time.Sub(start), r.Principal, orDash(r.CallID),
			r.Event, orDash(r.Tool), r.Outcome, code, clip(string(r.Args), 50))
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func hints(s *tool.Spec) string {
	var h []string
	for _, f := range []struct {
		on   bool
		name string
	}{{s.ReadOnly, "readonly"}, {s.Destructive, "destructive"}, {s.Idempotent, "idempotent"}, {s.OpenWorld, "openworld"}} {
		if f.on {
			h = append(h, f.name)
		}
	}
	if len(h) == 0 {
		return "-"
	}
	return strings.Join(h, ",")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return clip(line, 70)
}

// clip shortens s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
