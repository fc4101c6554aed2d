// Command mcpteam serves the sample tools over MCP (streamable HTTP, on
// loopback) to two people, each with a bearer token, and plays a short
// session: what a request without a token gets, what each person is
// listed, a call refused for want of a permission, a proposal made over
// MCP and confirmed by the host through the call service, and the record
// the service kept. It is what `make run` shows of MCP.
//
//	go run ./examples/mcpteam
//
// ana may read and write notes; ben may only read them. The tokens are
// random, made for the run; the MCP clients are the official Go SDK's.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcpteam:", err)
		os.Exit(1)
	}
}

// The people of the example.
var (
	ana = tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write"}}
	ben = tool.Principal{ID: "ben", Permissions: []string{"notes.read"}}
)

// run serves, plays the session on w and shuts down.
func run(ctx context.Context, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// The call service, on a clock that ticks a second per reading so
	// that the record reads the same on every run.
	reg, err := demo.Registry()
	if err != nil {
		return err
	}
	start := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	svc, err := service.New(reg, &service.Options{Now: ticker(start)})
	if err != nil {
		return err
	}

	// The MCP server: the service is its Caller; each request runs for
	// the principal of its bearer token.
	tokens := map[string]tool.Principal{newToken(): ana, newToken(): ben}
	tokenOf := map[string]string{}
	for tok, p := range tokens {
		tokenOf[p.ID] = tok
	}
	srv, err := mcpserver.New(svc, &mcpserver.Options{Name: "toolgen-team", Version: "0.1.0"})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := mcpserver.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + mcpserver.DefaultPath
	opts := &mcpserver.HTTPOptions{Auth: &mcpserver.Auth{
		Verifier: mcpserver.StaticTokens(tokens),
		Metadata: &oauthex.ProtectedResourceMetadata{Resource: url, ResourceName: "toolgen sample notes"},
	}}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, opts) }()

	fmt.Fprintf(w, "MCP over streamable HTTP at %s; ana's token may read and write notes, ben's only read them.\n", url)
	if err := session(ctx, w, url, tokenOf, svc); err != nil {
		cancel()
		<-served
		return err
	}
	cancel()
	if err := <-served; err != nil {
		return err
	}
	return record(ctx, w, svc, start)
}

// session plays the session against the server at url.
func session(ctx context.Context, w io.Writer, url string, tokenOf map[string]string, svc *service.Service) error {
	fmt.Fprintf(w, "\n> a client without a token: initialize\n")
	if err := noToken(ctx, w, url); err != nil {
		return err
	}

	anaCS, err := connect(ctx, url, tokenOf["ana"])
	if err != nil {
		return err
	}
	defer anaCS.Close()
	benCS, err := connect(ctx, url, tokenOf["ben"])
	if err != nil {
		return err
	}
	defer benCS.Close()

	for _, c := range []struct {
		who string
		cs  *mcp.ClientSession
	}{{"ana", anaCS}, {"ben", benCS}} {
		fmt.Fprintf(w, "\n> %s: tools/list\n", c.who)
		res, err := c.cs.ListTools(ctx, nil)
		if err != nil {
			return err
		}
		var names []string
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		fmt.Fprintf(w, "%d tools (cacheScope %s): %s\n", len(names), res.CacheScope, strings.Join(names, " "))
	}

	fmt.Fprintf(w, "\n> ben: tools/call notes_update {\"id\":\"n1\",\"title\":\"Mine now\"}   (a write tool: ben lacks notes.write)\n")
	_, err = benCS.CallTool(ctx, &mcp.CallToolParams{Name: "notes_update", Arguments: map[string]any{"id": "n1", "title": "Mine now"}})
	if err == nil {
		return errors.New("ben's call of notes_update was not refused")
	}
	fmt.Fprintf(w, "protocol error: %s\n", wireMessage(err))

	fmt.Fprintf(w, "\n> ana: tools/call notes_create {\"title\":\"Team sync\",\"tags\":[\"team\"]}   (a propose tool; _meta names the call and conversation)\n")
	res, err := anaCS.CallTool(ctx, &mcp.CallToolParams{
		Meta: mcp.Meta{mcpserver.MetaCallID: "call_1", mcpserver.MetaConversation: "team-chat"},
		Name: "notes_create", Arguments: map[string]any{"title": "Team sync", "tags": []string{"team"}},
	})
	if err != nil {
		return err
	}
	var proposal struct {
		Status, Summary, Proposal string
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &proposal); err != nil || proposal.Status != "proposed" {
		return fmt.Errorf("notes_create answered %s", raw)
	}
	fmt.Fprintf(w, "structured: status %q, summary %q, proposal %s\n", proposal.Status, proposal.Summary, mask(proposal.Proposal))

	fmt.Fprintf(w, "\n> ben asks the host to confirm ana's proposal\n")
	_, err = svc.Confirm(ctx, proposal.Proposal, ben)
	fmt.Fprintf(w, "refused [%s]: %s\n", tool.CodeOf(err), strings.ReplaceAll(errText(err), proposal.Proposal, mask(proposal.Proposal)))

	fmt.Fprintf(w, "\n> ana confirms it through the host (service.Confirm)\n")
	conf, err := svc.Confirm(ctx, proposal.Proposal, ana)
	if err != nil {
		return err
	}
	var note struct{ ID, Title string }
	_ = json.Unmarshal(conf.Result.Content, &note)
	fmt.Fprintf(w, "ran: note %s %q created\n", note.ID, note.Title)

	fmt.Fprintf(w, "\n> ana confirms it again\n")
	_, err = svc.Confirm(ctx, proposal.Proposal, ana)
	fmt.Fprintf(w, "refused [%s]: nothing ran\n", tool.CodeOf(err))

	fmt.Fprintf(w, "\n> ben: tools/call notes_get {\"id\":%q}\n", note.ID)
	got, err := benCS.CallTool(ctx, &mcp.CallToolParams{Name: "notes_get", Arguments: map[string]any{"id": note.ID}})
	if err != nil {
		return err
	}
	raw, _ = json.Marshal(got.StructuredContent)
	_ = json.Unmarshal(raw, &note)
	fmt.Fprintf(w, "ben reads note %s %q\n", note.ID, note.Title)
	return nil
}

// noToken sends initialize without a token and prints the answer.
func noToken(ctx context.Context, w io.Writer, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"anonymous","version":"1"}}}`))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\nWWW-Authenticate: %s\nbody: %s", resp.Status, resp.Header.Get("WWW-Authenticate"), body)
	return nil
}

// connect connects an MCP client sending token.
func connect(ctx context.Context, url, token string) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpteam", Version: "0.1.0"}, nil)
	return client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:             url,
		HTTPClient:           &http.Client{Transport: bearer(token)},
		DisableStandaloneSSE: true,
	}, nil)
}

// bearer sends its token on every request.
type bearer string

// RoundTrip sets the Authorization header.
func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// record prints the service's record.
func record(ctx context.Context, w io.Writer, svc *service.Service, start time.Time) error {
	recs, err := svc.Records(ctx, service.Query{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe record (%d rows):\n\n", len(recs))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "T+\tWHO\tCONVERSATION\tCALL\tEVENT\tTOOL\tOUTCOME\tCODE\tARGS")
	for _, r := range recs {
		code := "-"
		if r.Code != 0 {
			code = r.Code.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Time.Sub(start), r.Principal, orDash(r.Conversation), orDash(r.CallID),
			r.Event, orDash(r.Tool), r.Outcome, code, orDash(clip(string(r.Args), 50)))
	}
	return tw.Flush()
}

// ticker is a clock that reads start plus a second more at each reading.
func ticker(start time.Time) func() time.Time {
	var mu sync.Mutex
	now := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

// newToken returns a random bearer token.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// wireMessage is the message of a JSON-RPC error a client got.
func wireMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "unknown tool"); i >= 0 {
		return msg[i:]
	}
	return msg
}

// errText is err's message, or "".
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// mask shortens a proposal ID, random on every run.
func mask(id string) string {
	if len(id) > 9 {
		return id[:9] + "…"
	}
	return id
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// clip shortens s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
