package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// eventKind says what an event of the transcript is.
type eventKind int

const (
	eventUser   eventKind = iota + 1 // the user's request
	eventText                        // text the model wrote
	eventCall                        // a tool call the model asked for
	eventResult                      // what the registry answered to a call
)

// event is one step of an agent's transcript.
type event struct {
	Kind    eventKind
	Text    string // the request, the model's text or the tool's result
	Tool    string // the tool, for a call and its result
	Input   string // the call's arguments, as the model sent them
	IsError bool   // the result is an error message for the model
}

// agent is a tool-using loop on the Messages API: it sends the registry's
// definitions with the conversation, runs every tool call the model asks
// for through the caller, sends the results back, and stops when the
// model answers without calling a tool.
type agent struct {
	client    anthropic.Client
	model     anthropic.Model
	caller    tool.Caller                // the one way in: the call service, for the user
	tools     []anthropic.ToolUnionParam // the registry's definitions, as precomputed bytes
	system    string
	maxTokens int64
	maxTurns  int         // model requests before giving up
	observe   func(event) // called with each event as it happens; may be nil
	progress  progressBar // hears the progress of each tool call as it runs; may be nil
}

// progressBar hears the progress a tool reports while it runs (see
// tool.Progress), and End once its call has returned: demo.Bar draws it on
// the terminal.
type progressBar interface {
	tool.ProgressListener
	End()
}

// run asks the model to handle prompt and returns the transcript; the last
// event is the model's answer.
func (a *agent) run(ctx context.Context, prompt string) ([]event, error) {
	var events []event
	record := func(e event) {
		events = append(events, e)
		if a.observe != nil {
			a.observe(e)
		}
	}
	record(event{Kind: eventUser, Text: prompt})
	messages := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}
	for turn := 1; turn <= a.maxTurns; turn++ {
		params := anthropic.MessageNewParams{
			Model:     a.model,
			MaxTokens: a.maxTokens,
			Messages:  messages,
			Tools:     a.tools,
		}
		if a.system != "" {
			params.System = []anthropic.TextBlockParam{{Text: a.system}}
		}
		msg, err := a.client.Messages.New(ctx, params)
		if err != nil {
			return events, fmt.Errorf("agent: turn %d: %w", turn, err)
		}
		messages = append(messages, msg.ToParam())
		var results []anthropic.ContentBlockParamUnion
		for _, block := range msg.Content {
			switch b := block.AsAny().(type) {
			case anthropic.TextBlock:
				record(event{Kind: eventText, Text: b.Text})
			case anthropic.ToolUseBlock:
				record(event{Kind: eventCall, Tool: b.Name, Input: string(b.Input)})
				callCtx := ctx
				if a.progress != nil {
					callCtx = tool.WithProgress(ctx, a.progress) // the tool's progress, as it runs
				}
				result, _ := anthropictools.Call(callCtx, a.caller, b) // the error's message is in the result; its cause is for logs
				if a.progress != nil {
					a.progress.End()
				}
				text, isError := resultText(result)
				record(event{Kind: eventResult, Tool: b.Name, Text: text, IsError: isError})
				results = append(results, result)
			}
		}
		if len(results) > 0 {
			messages = append(messages, anthropic.NewUserMessage(results...))
			continue
		}
		switch msg.StopReason {
		case anthropic.StopReasonEndTurn, anthropic.StopReasonStopSequence:
			return events, nil
		default:
			return events, fmt.Errorf("agent: turn %d: the model stopped (%s) without an answer", turn, msg.StopReason)
		}
	}
	return events, fmt.Errorf("agent: no answer after %d turns", a.maxTurns)
}

// resultText returns the text and error flag of a tool_result block.
func resultText(b anthropic.ContentBlockParamUnion) (string, bool) {
	r := b.OfToolResult
	if r == nil {
		return "", false
	}
	var sb strings.Builder
	for _, c := range r.Content {
		if c.OfText != nil {
			sb.WriteString(c.OfText.Text)
		}
	}
	return sb.String(), r.IsError.Valid() && r.IsError.Value
}

// errNoAnswer is returned by answer for a transcript without model text.
var errNoAnswer = errors.New("the model wrote no answer")

// answer returns the model's last text in events.
func answer(events []event) (string, error) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == eventText {
			return events[i].Text, nil
		}
	}
	return "", errNoAnswer
}

// resultWidth is how much of a tool's result the transcript shows.
const resultWidth = 160

// render writes one event of a transcript, readably.
func render(w io.Writer, e event) error {
	var err error
	switch e.Kind {
	case eventUser:
		_, err = fmt.Fprintf(w, "user> %s\n", e.Text)
	case eventText:
		_, err = fmt.Fprintf(w, "model> %s\n", e.Text)
	case eventCall:
		_, err = fmt.Fprintf(w, "   -> %s %s\n", e.Tool, e.Input)
	case eventResult:
		if e.IsError {
			_, err = fmt.Fprintf(w, "   <- error: %s\n", e.Text)
		} else {
			_, err = fmt.Fprintf(w, "   <- %s\n", clip(e.Text, resultWidth))
		}
	}
	return err
}

// clip shortens s to at most n runes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
