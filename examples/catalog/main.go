// Command catalog lists the sample tool registry and makes a few calls, one
// of them with bad arguments: what `make run` shows a new user.
//
//	go run ./examples/catalog
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(1)
	}
}

// calls are the calls the example makes, as a model would send them.
var calls = []struct{ name, args, why string }{
	{"notes_search", `{"query":"go","limit":3}`, "a read tool"},
	{"notes_render", `{"id":"n1"}`, "a display tool returning text"},
	{"notes_search", `{"query":"","limit":500,"sort":"random","colour":"red"}`, "bad arguments: every problem, and never the value sent"},
	{"notes_get", `{"id":"n999"}`, "an error the tool wrote for the model"},
	{"notes_serch", `{"query":"go"}`, "a misspelt tool name"},
	{"notes_delete", `{"id":"n2"}`, "a propose tool: validated, not run"},
	{"clock_zones", ``, "no arguments, JSON output"},
}

func run(ctx context.Context, w io.Writer) error {
	reg, err := demo.Registry()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d tools, sorted by name:\n\n", len(reg.Tools()))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tHINTS\tDESCRIPTION")
	for _, s := range reg.Tools() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Kind, hints(s), firstLine(s.Description))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range calls {
		fmt.Fprintf(w, "\n> %s %s   (%s)\n", c.name, c.args, c.why)
		res, err := reg.Call(ctx, c.name, []byte(c.args))
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
	}
	return nil
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
