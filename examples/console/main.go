// Command console serves the person's console (runtime/console) over the
// sample tools on loopback, and prints its URL and a token to sign in
// with. An agent has left ana a few things to decide: a note to create,
// one to delete; the record holds the calls it made (a share whose
// passphrase the record keeps as "[secret]").
//
//	go run ./examples/console           # start, print the URL and tokens, use the JSON API once, shut down
//	go run ./examples/console -serve    # keep serving until interrupted (Ctrl-C): open the URL in a browser
//
// By default it exercises the console's JSON API once, as a host with its
// own UI would (who am I, what waits, a cross-site post refused, the
// confirm route, the record, the catalog), and shuts down, so that
// `make run` ends. With -serve it keeps serving until interrupted, for a
// person to sign in with the printed token, confirm or reject, and read
// the record and the catalog. -addr chooses the address (loopback by
// default: the tokens travel in clear over HTTP).
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func main() {
	serve := flag.Bool("serve", false, "keep serving until interrupted, instead of using the JSON API once and shutting down")
	addr := flag.String("addr", "127.0.0.1:0", "the address to serve on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, *serve, *addr); err != nil {
		fmt.Fprintln(os.Stderr, "console:", err)
		os.Exit(1)
	}
}

// The people of the example: ana reads, writes, deletes and shares
// notes; olga reads them and, an operator, sees everyone's record.
var (
	ana  = tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete", "notes.share"}}
	olga = tool.Principal{ID: "olga", Permissions: []string{"notes.read", "console.operator"}}
)

// run serves the console on addr, seeds what an agent left ana, and then
// either uses the JSON API once (serve false) or serves until ctx ends.
func run(ctx context.Context, w io.Writer, serve bool, addr string) error {
	reg, err := demo.Registry()
	if err != nil {
		return err
	}
	svc, err := service.New(reg, nil)
	if err != nil {
		return err
	}
	defs, err := providers.NewDefinitions(reg) // the definitions toolgen precomputed
	if err != nil {
		return err
	}
	lister, err := servicemcp.NewLister() // the MCP definitions, as the MCP server lists them
	if err != nil {
		return err
	}
	defer lister.Close()

	anaToken, olgaToken := newToken(), newToken()
	key := make([]byte, console.MinKeyLen)
	_, _ = rand.Read(key)
	c, err := console.New(svc, &console.Options{
		Principal:          console.BearerTokens(map[string]tool.Principal{anaToken: ana, olgaToken: olga}),
		Key:                key,
		OperatorPermission: "console.operator",
		Definitions:        defs,
		MCP:                lister.List,
		Title:              "toolgen console (demo)",
	})
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/console/", http.StripPrefix("/console", c))
	mux.Handle("/{$}", http.RedirectHandler("/console/", http.StatusSeeOther))

	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/console/"

	if err := seed(ctx, svc); err != nil {
		_ = srv.Close()
		return err
	}
	fmt.Fprintf(w, "The console is at %s\n", url)
	fmt.Fprintf(w, "Sign in as ana with the token %s (olga, an operator: %s).\n", anaToken, olgaToken)

	if serve {
		fmt.Fprintln(w, "Serving until interrupted (Ctrl-C).")
		<-ctx.Done()
	} else if err := exercise(ctx, w, url, anaToken); err != nil {
		_ = srv.Close()
		return err
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if !serve {
		fmt.Fprintln(w, "\nShut down. `go run ./examples/console -serve` keeps the console up to open it in a browser.")
	}
	return nil
}

// seed makes the calls an agent made for ana in a conversation: a search,
// a share (its passphrase is secret), and two proposals that wait for her.
func seed(ctx context.Context, svc *service.Service) error {
	ctx = tool.WithInvocation(ctx, &tool.Invocation{Principal: ana, Conversation: "team-chat", Turn: "t1",
		Agent: tool.Agent{Name: "notes-helper"}})
	for _, c := range []struct{ name, args string }{
		{"notes_search", `{"query":"sync"}`},
		{"notes_share", `{"id":"n1","passphrase":"open sesame, twice","hours":2}`},
	} {
		if _, err := svc.Call(ctx, c.name, []byte(c.args)); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	for _, p := range []struct{ name, args string }{
		{"notes_create", `{"title":"Team sync","body":"# Agenda\n- the console","tags":["team"]}`},
		{"notes_delete", `{"id":"n2"}`},
	} {
		if _, err := svc.Propose(ctx, p.name, []byte(p.args)); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
	}
	return nil
}

// client calls the console's JSON API with a bearer token.
type client struct {
	url, token string
}

// call sends a request and decodes the answer into out (when not nil); it
// returns the status.
func (c *client) call(ctx context.Context, method, path string, header map[string]string, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.url+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return 0, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

// apiError is a refusal of the API.
type apiError struct {
	Error struct{ Code, Message string } `json:"error"`
}

// exercise uses the JSON API once, as ana's host would.
func exercise(ctx context.Context, w io.Writer, url, token string) error {
	c := &client{url: url, token: token}

	var me struct {
		Principal string `json:"principal"`
		Operator  bool   `json:"operator"`
		CSRFToken string `json:"csrf_token"`
	}
	status, err := c.call(ctx, http.MethodGet, "api/me", nil, &me)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n> GET api/me\n%d: principal %s, operator %t, a CSRF token for her posts\n", status, me.Principal, me.Operator)

	var pending struct {
		Proposals []struct {
			ID      string          `json:"id"`
			Tool    string          `json:"tool"`
			Summary string          `json:"summary"`
			Args    json.RawMessage `json:"args"`
		} `json:"proposals"`
	}
	if _, err := c.call(ctx, http.MethodGet, "api/proposals", nil, &pending); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n> GET api/proposals\n%d waiting:\n", len(pending.Proposals))
	for _, p := range pending.Proposals {
		fmt.Fprintf(w, "  %s  %q  %s\n", p.Tool, p.Summary, p.Args)
	}
	if len(pending.Proposals) == 0 {
		return errors.New("no proposal is waiting")
	}
	id := pending.Proposals[0].ID
	confirm := "api/proposals/" + id + "/confirm"

	var refused apiError
	status, err = c.call(ctx, http.MethodPost, confirm, map[string]string{"X-CSRF-Token": me.CSRFToken, "Sec-Fetch-Site": "cross-site"}, &refused)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n> POST api/proposals/{id}/confirm from another site\n%d %s: %s\n", status, refused.Error.Code, refused.Error.Message)

	var done struct {
		Proposal struct {
			State     string `json:"state"`
			DecidedBy string `json:"decided_by"`
		} `json:"proposal"`
		Outcome struct {
			Outcome string          `json:"outcome"`
			Result  json.RawMessage `json:"result"`
		} `json:"outcome"`
	}
	status, err = c.call(ctx, http.MethodPost, confirm, map[string]string{"X-CSRF-Token": me.CSRFToken}, &done)
	if err != nil {
		return err
	}
	var note struct{ ID, Title string }
	_ = json.Unmarshal(done.Outcome.Result, &note)
	fmt.Fprintf(w, "\n> POST api/proposals/{id}/confirm (the confirm route)\n%d: %s by %s, outcome %s: note %s %q created\n",
		status, done.Proposal.State, done.Proposal.DecidedBy, done.Outcome.Outcome, note.ID, note.Title)
	status, err = c.call(ctx, http.MethodPost, confirm, map[string]string{"X-CSRF-Token": me.CSRFToken}, &refused)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "again: %d %s: %s\n", status, refused.Error.Code, refused.Error.Message)

	var recs struct {
		Records []struct {
			Event   string          `json:"event"`
			Tool    string          `json:"tool"`
			Outcome string          `json:"outcome"`
			Code    string          `json:"code"`
			Args    json.RawMessage `json:"args"`
		} `json:"records"`
	}
	if _, err := c.call(ctx, http.MethodGet, "api/records?conversation=team-chat", nil, &recs); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n> GET api/records?conversation=team-chat   (newest first; the passphrase was never kept)\n")
	for _, r := range recs.Records {
		fmt.Fprintf(w, "  %-12s  %-12s  %-7s  %s\n", r.Event, r.Tool, strings.TrimSpace(r.Outcome+" "+r.Code), r.Args)
	}

	var cat struct {
		Tools []struct {
			Name        string                     `json:"name"`
			Definitions map[string]json.RawMessage `json:"definitions"`
			Precomputed bool                       `json:"precomputed"`
		} `json:"tools"`
	}
	if _, err := c.call(ctx, http.MethodGet, "api/catalog", nil, &cat); err != nil {
		return err
	}
	names := make([]string, len(cat.Tools))
	for i, t := range cat.Tools {
		names[i] = t.Name
	}
	fmt.Fprintf(w, "\n> GET api/catalog\n%d tools offered to ana: %s\n", len(cat.Tools), strings.Join(names, " "))
	for _, t := range cat.Tools {
		if t.Name == "notes_delete" {
			fmt.Fprintf(w, "notes_delete (precomputed %t), as Anthropic receives it:\n  %s\n", t.Precomputed, t.Definitions["anthropic"])
			fmt.Fprintf(w, "and as an MCP client is listed it: %d bytes\n", len(t.Definitions["mcp"]))
		}
	}
	return nil
}

// newToken returns a random bearer token.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
