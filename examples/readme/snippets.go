// Package readme holds the Go snippets of the repository's README.md that
// show calls, as code that compiles: each region between a "README:begin
// NAME" and a "README:end" comment appears verbatim (less one level of
// indentation) in a ```go block of README.md, and readme_test.go checks
// that it does. Edit a snippet here, then copy it into the README.
//
// Nothing here is meant to run: the functions exist to be compiled and
// vetted with the rest of the module.
package readme

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
	"github.com/toolgen-go/toolgen/runtime/provider/geminitools"
	"github.com/toolgen-go/toolgen/runtime/provider/openaitools"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// writingATool is the call snippet of "Writing a tool".
func writingATool(ctx context.Context) (tool.Result, error) {
	store := notes.NewStore(time.Now)
	// README:begin new-and-call
	reg, err := generated.New(generated.Tools{
		NotesSearch: notes.SearchTool{Store: store},
		// ... every tool, with its dependencies
	})
	if err != nil {
		return tool.Result{}, err
	}
	res, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go"}`))
	// README:end
	return res, err
}

// servingOverMCP is the snippet of "Serving tools over MCP".
func servingOverMCP(ctx context.Context, tools generated.Tools) error {
	// README:begin mcp
	reg, err := generated.New(tools)
	if err != nil {
		return err
	}
	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "my-tools", Version: "1.0.0"})
	if err != nil {
		return err
	}
	defer srv.Close()
	err = srv.Run(ctx, &mcp.StdioTransport{}) // stdio: the client starts this process

	// or streamable HTTP at http://127.0.0.1:8080/mcp, shutting down gracefully when ctx ends
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = srv.ListenAndServe(ctx, "127.0.0.1:8080", nil)
	// README:end
	return err
}

// servingPeopleOverMCP is the snippet of "Serving tools over MCP" that
// serves people: the call service behind bearer tokens.
func servingPeopleOverMCP(ctx context.Context, reg tool.Registry, verify auth.TokenVerifier, key []byte) error {
	// README:begin mcp-auth
	svc, err := service.New(reg, nil) // every call for a principal, under a policy, recorded
	if err != nil {
		return err
	}
	srv, err := mcpserver.New(svc, &mcpserver.Options{
		Name: "my-tools",
		// Optional, off by default: ask the person to confirm each proposal over MCP.
		Confirm: &mcpserver.ConfirmOptions{Confirmer: servicemcp.Confirmer(svc), Key: key},
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	err = srv.ListenAndServe(ctx, "0.0.0.0:8080", &mcpserver.HTTPOptions{
		AllowedHosts: []string{"mcp.example.com"}, // behind a TLS proxy passing the Host
		Auth: &mcpserver.Auth{
			Verifier: verify, // TokenInfo.UserID is the principal, its Scopes the permissions
			Metadata: &oauthex.ProtectedResourceMetadata{
				Resource:             "https://mcp.example.com/mcp",
				AuthorizationServers: []string{"https://auth.example.com"},
			},
		},
	})
	// README:end
	return err
}

// providerAPIs is the snippet of "Handing tools to a provider's API".
func providerAPIs(ctx context.Context, reg tool.Registry, claude anthropic.Client, gpt openai.Client, gemini *genai.Client, contents []*genai.Content, use anthropic.ToolUseBlock) error {
	// README:begin providers
	defs, err := providers.NewDefinitions(reg) // the precomputed definitions of the tools reg offers
	if err != nil {
		return err
	}
	// Per request: the tools offered to its caller (reg.Offer, or the call service's), as the definitions' bytes
	offer, err := defs.Subset(reg.Offer(ctx))
	if err != nil {
		return err
	}

	// Anthropic (github.com/anthropics/anthropic-sdk-go/v2)
	_, err = claude.Messages.New(ctx, anthropic.MessageNewParams{ /* ... */ Tools: anthropictools.Tools(offer)})
	// OpenAI (github.com/openai/openai-go/v3)
	_, err = gpt.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{ /* ... */ Tools: openaitools.ChatTools(offer)})
	_, err = gpt.Responses.New(ctx, responses.ResponseNewParams{ /* ... */ Tools: openaitools.ResponsesTools(offer)})
	// Gemini (google.golang.org/genai)
	tools, err := geminitools.Tools(offer)
	_, err = gemini.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, &genai.GenerateContentConfig{Tools: tools})
	// Raw HTTP: offer.Anthropic(), offer.OpenAIChat(), offer.OpenAIResponses() and offer.Gemini()
	// are each request's "tools" array as bytes.

	// Each tool call the model asks for runs through a tool.Caller (reg, or the call service),
	// with the model's tool-call ID as the call ID; the result goes back to the model.
	result, err := anthropictools.Call(ctx, reg, use) // or openaitools.ChatCall, ResponsesCall, geminitools.Call
	// README:end
	_ = result
	return err
}

// callService is the snippet of "The call service".
func callService(ctx context.Context, reg tool.Registry, args []byte, proposalID string) (*service.Confirmation, []service.Record, error) {
	// README:begin call-service
	svc, err := service.New(reg, &service.Options{
		Policy: &service.Rules{ConfirmPermission: "notes.confirm"}, // who may confirm others' proposals
	})
	if err != nil {
		return nil, nil, err
	}
	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete"}}
	ctx = tool.WithInvocation(ctx, &tool.Invocation{Principal: ana, Conversation: "c-42", CallID: "toolu_01"})

	offered := svc.Offer(ctx)                       // what ana may call, sorted: send their precomputed definitions
	res, err := svc.Call(ctx, "notes_delete", args) // a propose tool: validated and stored, nothing runs
	// ... the model reads the proposal's ID and summary in res; a person says yes:
	conf, err := svc.Confirm(ctx, proposalID, ana) // runs it at most once, with ana's rights
	recs, err := svc.Records(ctx, service.Query{Conversation: "c-42"})
	// README:end
	_, _ = offered, res
	return conf, recs, err
}

// usingSkills is the snippet of "Skills".
func usingSkills(logger *slog.Logger) string {
	// README:begin skills
	patterns := skill.Patterns{"note-taking", "meeting-*"}
	chosen, missing := patterns.Select(generated.Skills(), logger) // missing: logged and skipped, never fatal
	_ = missing

	var conv skill.Admitted // one per conversation; a skill admitted once stays
	conv.Admit(chosen...)
	// The same bytes for the same skills, whatever the order of admission:
	system := "You help the user with their notes.\n\n" + conv.Preamble()
	// README:end
	return system
}
