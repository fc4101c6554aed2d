// Command research is a read-only research agent's palette, scripted (no
// model, no key): the notes it may read, the read tools of a remote MCP
// server (a "library" started in this process and reached over streamable
// HTTP), and request_skill. The palette is bound read-only when it is
// built: every mutating tool is swept out of it and named, request_tools
// among them (it could admit anything), while request_skill stays (it
// only changes the conversation's preamble). The scripted model attaches
// a skill, searches the library and reads a note; its tries at a remote
// tool that mutates and at a note tool that deletes are refused, and the
// call service records each turn's offer (marked read-only), every call
// and every refusal.
//
//	go run ./examples/research
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/mcpclient"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "research:", err)
		os.Exit(1)
	}
}

// library is the remote MCP server: an official go-sdk server whose
// tools are reflected from Go types, two that read (and say so) and one
// that does not.
func library() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "library", Version: "1"}, nil)
	type query struct {
		Query string `json:"query" jsonschema:"words to look for"`
	}
	type paper struct {
		ID string `json:"id" jsonschema:"the paper's ID"`
	}
	papers := map[string]string{
		"p1": "Static tool registries for LLM agents (2026)",
		"p2": "Prompt caches and byte-stable tool definitions (2025)",
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "search", Description: "Searches the library's papers by words in their titles.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in query) (*mcp.CallToolResult, any, error) {
			var hits []string
			for _, id := range []string{"p1", "p2"} {
				if strings.Contains(strings.ToLower(papers[id]), strings.ToLower(in.Query)) {
					hits = append(hits, id+": "+papers[id])
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(hits, "\n")}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "papers.get", Description: "Returns a paper's title.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in paper) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: papers[in.ID]}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "retract", Description: "Retracts a paper."},
		func(_ context.Context, _ *mcp.CallToolRequest, in paper) (*mcp.CallToolResult, any, error) {
			delete(papers, in.ID)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "retracted"}}}, nil, nil
		})
	return srv
}

// call is one call the scripted model makes.
type call struct {
	name, args string
}

func run(ctx context.Context, w io.Writer) error {
	// The remote server, over streamable HTTP.
	srv := library()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()

	reg, err := demo.Registry()
	if err != nil {
		return err
	}
	// The host trusts this server's annotations: its read tools are
	// read-only. (Untrusted, every remote tool would be mutating and swept.)
	lib, err := mcpclient.New(mcpclient.Options{Group: "library", Connect: mcpclient.HTTP(ts.URL, ts.Client()), Trusted: true})
	if err != nil {
		return err
	}
	defer lib.Close()
	dyn, err := dynamic.New(reg.Tools(), &dynamic.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	if err := dyn.Register(ctx, lib); err != nil {
		return err
	}
	svc, err := service.New(reg, &service.Options{Dynamic: dyn})
	if err != nil {
		return err
	}

	p, err := palette.New(svc, reg.Tools(), palette.Groups("notes", "library"), &palette.Options{
		ReadOnly:          true,
		Requestable:       palette.All(),
		Skills:            generated.Skills(),
		RequestableSkills: skill.Patterns{"note-taking", "meeting-times"},
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "== a read-only research agent")
	fmt.Fprintln(w, "swept when the palette was bound read-only:", strings.Join(p.Swept(), ", "))

	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write"}}
	turn := func(t, callID string) context.Context {
		return tool.WithInvocation(ctx, &tool.Invocation{Principal: ana, Conversation: "research-1", Turn: t, CallID: callID,
			Agent: tool.Agent{Name: "researcher"}})
	}
	offer := p.Offer(turn("t1", ""))
	fmt.Fprintln(w, "offered in turn 1:", strings.Join(specNames(offer), ", "))
	for _, s := range offer {
		if strings.HasPrefix(s.Name, "library_") {
			fmt.Fprintf(w, "  %s is the remote %s (%s)\n", s.Name, remoteName(lib, s.Name), s.Kind)
		}
	}
	search := findName(offer, "library_search")
	get := findName(offer, "library_papers_get")

	script := []call{
		{palette.RequestSkill, `{"names":["note-taking"]}`},
		{search, `{"query":"tool"}`},
		{get, `{"id":"p2"}`},
		{"notes_search", `{"query":"go"}`},
		{"library_retract", `{"id":"p1"}`},
		{"notes_delete", `{"id":"n1"}`},
		{palette.RequestTools, `{"names":["notes_delete"]}`},
	}
	for i, c := range script {
		res, err := p.Call(turn("t1", fmt.Sprintf("call-%d", i+1)), c.name, []byte(c.args))
		fmt.Fprintf(w, "\n> %s %s\n", c.name, c.args)
		if err != nil {
			fmt.Fprintf(w, "error [%s]: %s\n", tool.CodeOf(err), firstLine(res.Text()))
			continue
		}
		fmt.Fprintln(w, firstLine(res.Text()))
	}
	fmt.Fprintln(w, "\nthe conversation's preamble now starts:", firstLine(p.Admitted().Preamble()))
	fmt.Fprintln(w, "offered in turn 2:", strings.Join(specNames(p.Offer(turn("t2", ""))), ", "))

	recs, err := svc.Records(ctx, service.Query{Conversation: "research-1", Limit: 100})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe record (%d rows):\n", len(recs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "turn\tevent\ttool\toutcome\tcode\toffered")
	for _, r := range recs {
		code, offered := "", ""
		if r.Code != 0 {
			code = r.Code.String()
		}
		if r.Event == service.EventOffer {
			offered = string(r.Args) // the names offered, marked read-only
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Turn, r.Event, r.Tool, r.Outcome, code, offered)
	}
	return tw.Flush()
}

// remoteName is the remote server's name of a library tool.
func remoteName(lib *mcpclient.Toolkit, name string) string {
	remote, _ := lib.Remote(strings.TrimPrefix(name, lib.Group()+"_"))
	b, _ := json.Marshal(remote)
	return string(b)
}

// findName returns the offered name that starts with prefix (a remote
// name that had to be mapped carries a hash suffix).
func findName(offer []*tool.Spec, prefix string) string {
	for _, s := range offer {
		if s.Name == prefix || strings.HasPrefix(s.Name, prefix+"_") {
			return s.Name
		}
	}
	return prefix
}

func specNames(specs []*tool.Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
