// Command agent is a tool-using agent on the Anthropic Messages API, built
// on the official SDK (github.com/anthropics/anthropic-sdk-go/v2): it sends
// the sample registry's tool definitions (precomputed bytes, see
// runtime/provider/anthropictools), runs the tool calls the model asks for through
// the registry, sends the results back, and loops until the model answers.
// A propose tool, such as notes_create, answers that it needs a person's
// confirmation. The skills -skills selects from the registry (default
// note-taking) are admitted to the conversation: their preamble rides the
// system prompt of every request, the same bytes each time.
//
// Without keys, against an in-process scripted fake of the Messages API:
//
//	go run ./examples/agent -fake
//
// Against the real API (or a compatible endpoint):
//
//	ANTHROPIC_API_KEY=... go run ./examples/agent -prompt "What do my notes say about Go?"
//	go run ./examples/agent -base-url http://localhost:8080 -model claude-sonnet-4-5 -prompt "..."
//
// The base URL defaults to $ANTHROPIC_BASE_URL, else the SDK's default.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}

// errNoKey is returned when no API key is set and -fake is not given.
var errNoKey = errors.New("set ANTHROPIC_API_KEY to talk to the Messages API, or run with -fake for the scripted exchange")

// demoTime is the clock of the -fake run, for a reproducible transcript.
var demoTime = time.Date(2025, time.March, 24, 9, 0, 0, 0, time.UTC)

// run parses args, builds the agent and runs one request, printing the
// transcript to out as it goes.
func run(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(out)
	useFake := fs.Bool("fake", false, "run the scripted exchange against an in-process fake of the Messages API (no key needed)")
	baseURL := fs.String("base-url", getenv("ANTHROPIC_BASE_URL"), "the Messages API's base URL (default $ANTHROPIC_BASE_URL, else the SDK's)")
	model := fs.String("model", string(anthropic.ModelClaudeSonnet4_5), "the model")
	prompt := fs.String("prompt", demoPrompt, "the request for the agent")
	maxTurns := fs.Int("max-turns", 10, "model requests before giving up")
	skills := fs.String("skills", "note-taking", "the skills admitted to the conversation, comma-separated: names, prefixes ending in *, or * for all")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}

	now := time.Now
	if *useFake {
		now = demo.FixedClock(demoTime)
	}
	reg, err := generated.New(demo.Tools(notes.NewDemoStore(), now))
	if err != nil {
		return err
	}
	caller, defs, err := serve(ctx, reg, now, *model)
	if err != nil {
		return err
	}

	system := systemPrompt(*skills, slog.New(slog.NewTextHandler(os.Stderr, nil)))

	opts := []option.RequestOption{option.WithMaxRetries(2)}
	switch {
	case *useFake:
		if *prompt != demoPrompt {
			return errors.New("-fake plays a scripted exchange: it cannot take -prompt")
		}
		f := newFake(defs.Anthropic(), demoPrompt, demoScript())
		f.system = system
		srv := httptest.NewServer(f)
		defer srv.Close()
		fmt.Fprintf(out, "A scripted fake of the Messages API is listening on %s; no key needed.\n\n", srv.URL)
		opts = append(opts, option.WithBaseURL(srv.URL), option.WithAPIKey("fake-key"))
	case getenv("ANTHROPIC_API_KEY") != "":
		opts = append(opts, option.WithAPIKey(getenv("ANTHROPIC_API_KEY")))
	case getenv("ANTHROPIC_AUTH_TOKEN") != "":
		opts = append(opts, option.WithAuthToken(getenv("ANTHROPIC_AUTH_TOKEN")))
	default:
		return errNoKey
	}
	if *baseURL != "" && !*useFake {
		opts = append(opts, option.WithBaseURL(*baseURL))
	}

	a := &agent{
		client:    anthropic.NewClient(opts...),
		model:     anthropic.Model(*model),
		caller:    caller,
		tools:     anthropictools.Tools(defs),
		system:    system,
		maxTokens: 1024,
		maxTurns:  *maxTurns,
		progress:  demo.NewBar(out), // a long-running tool's progress, drawn as a bar
	}
	var werr error
	a.observe = func(e event) {
		if werr == nil {
			werr = render(out, e)
		}
	}
	if _, err := a.run(ctx, *prompt); err != nil {
		return err
	}
	return werr
}

// basePrompt is the system prompt before the skills' preamble.
const basePrompt = "You help the user with their notes. Use the tools; when one fails, read its message and fix the call."

// systemPrompt is basePrompt followed by the preamble of the registry's
// skills that patterns (comma-separated) select. A pattern that matches no
// skill is logged to log and skipped.
func systemPrompt(patterns string, log *slog.Logger) string {
	var list []string
	for _, p := range strings.Split(patterns, ",") {
		if p = strings.TrimSpace(p); p != "" {
			list = append(list, p)
		}
	}
	chosen, _ := skill.Patterns(list).Select(generated.Skills(), log)
	var conv skill.Admitted // the conversation's: this agent runs one
	conv.Admit(chosen...)
	if p := conv.Preamble(); p != "" {
		return basePrompt + "\n\n" + p
	}
	return basePrompt
}

// serve returns the call service over reg as the demo's user's caller
// (every call runs through it for that user, and is recorded; a propose
// tool's call becomes a proposal), and the provider definitions of what
// the user is offered: the precomputed bytes.
func serve(ctx context.Context, reg tool.Registry, now func() time.Time, model string) (tool.Caller, *provider.Definitions, error) {
	svc, err := service.New(reg, &service.Options{Now: now})
	if err != nil {
		return nil, nil, err
	}
	caller := service.As(svc, &tool.Invocation{
		Principal:    tool.Principal{ID: "demo-user", Permissions: []string{"notes.read", "notes.write", "notes.delete", "notes.share"}},
		Conversation: "agent-demo",
		Agent:        tool.Agent{Name: "notes-agent", Model: tool.Model{Provider: "anthropic", Name: model}},
	})
	all, err := providers.NewDefinitions(reg) // the definitions toolgen precomputed
	if err != nil {
		return nil, nil, err
	}
	defs, err := all.Subset(caller.Offer(ctx)) // the user's offer, with the same bytes
	if err != nil {
		return nil, nil, err
	}
	return caller, defs, nil
}
