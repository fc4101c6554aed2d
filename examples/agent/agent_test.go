package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/provider/anthropictools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

var update = flag.Bool("update", false, "rewrite testdata/transcript.txt")

// setup returns the demo registry (over store) and its definitions.
func setup(t *testing.T, store *notes.Store) (tool.Caller, *provider.Definitions) {
	t.Helper()
	now := demo.FixedClock(demoTime)
	reg, err := generated.New(demo.Tools(store, now))
	require.NoError(t, err)
	caller, defs, err := serve(t.Context(), reg, now, string(anthropic.ModelClaudeSonnet4_5))
	require.NoError(t, err)
	return caller, defs
}

// newAgent returns an agent calling reg's tools, talking to the fake at
// url.
func newAgent(url string, reg tool.Caller, tools []anthropic.ToolUnionParam) *agent {
	return &agent{
		client:    anthropic.NewClient(option.WithBaseURL(url), option.WithAPIKey("test-key"), option.WithMaxRetries(0)),
		model:     anthropic.ModelClaudeSonnet4_5,
		caller:    reg,
		tools:     tools,
		maxTokens: 512,
		maxTurns:  10,
	}
}

// startFake serves a fake of the script on 127.0.0.1.
func startFake(t *testing.T, tools []byte) (*fake, string) {
	t.Helper()
	f := newFake(tools, demoPrompt, demoScript())
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

// TestScriptedExchange runs the agent through the real SDK against the
// fake Messages API: a multi-turn exchange with a call whose bad arguments
// the model corrects after reading the error, two calls in one turn, and a
// propose tool that needs confirmation.
func TestScriptedExchange(t *testing.T) {
	t.Parallel()
	reg, defs := setup(t, notes.NewDemoStore())
	f, url := startFake(t, defs.Anthropic())
	var live []event
	a := newAgent(url, reg, anthropictools.Tools(defs))
	a.observe = func(e event) { live = append(live, e) }

	events, err := a.run(context.Background(), demoPrompt)
	require.NoError(t, err)
	assert.True(t, f.done(), "the whole script was played")
	assert.Equal(t, events, live, "observe sees every event as it happens")

	type step struct {
		kind     eventKind
		tool     string
		input    string // for a call
		isError  bool   // for a result
		contains string // a part of the text
	}
	want := []step{
		{kind: eventUser, contains: demoPrompt},
		{kind: eventText, contains: "Let me search your notes."},
		{kind: eventCall, tool: "notes_search", input: `{"query":"go","limit":"five"}`},
		{kind: eventResult, tool: "notes_search", isError: true, contains: "invalid arguments: /limit: expected integer (maximum 50, minimum 1), got string"},
		{kind: eventText, contains: "The limit has to be a number"},
		{kind: eventCall, tool: "notes_search", input: `{"query":"go","limit":5}`},
		{kind: eventResult, tool: "notes_search", contains: `"total":3`},
		{kind: eventText, contains: "reading the two about it"},
		{kind: eventCall, tool: "notes_outline", input: `{"id":"n1"}`},
		{kind: eventResult, tool: "notes_outline", contains: `{"heading":"Pitfalls","level":1,"line":13}`},
		{kind: eventCall, tool: "notes_get", input: `{"id":"n4"}`},
		{kind: eventResult, tool: "notes_get", contains: `"title":"Quarterly review"`},
		{kind: eventCall, tool: "notes_create", input: `{"title":"Go study plan","body":"# Week 1\n\nType parameters and constraints.\n\n# Week 2\n\nInference and the pitfalls.\n","tags":["go","study"]}`},
		{kind: eventResult, tool: "notes_create", contains: `"status":"proposed","message":"Nothing has run yet: a person must confirm this proposal first."`},
		{kind: eventText, contains: "it is saved once you confirm it."},
	}
	require.Len(t, events, len(want))
	for i, w := range want {
		e := events[i]
		assert.Equal(t, w.kind, e.Kind, "event %d", i)
		assert.Equal(t, w.tool, e.Tool, "event %d", i)
		assert.Equal(t, w.input, e.Input, "event %d", i)
		assert.Equal(t, w.isError, e.IsError, "event %d", i)
		assert.Contains(t, e.Text, w.contains, "event %d", i)
	}
	ans, err := answer(events)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(ans, "Two of your notes are about Go."), ans)

	// Nothing was created: the propose tool only validated its arguments.
	res, err := reg.Call(context.Background(), "notes_search", []byte(`{"query":"study plan"}`))
	require.NoError(t, err)
	assert.Contains(t, res.Text(), `"total":0`)

	var buf bytes.Buffer
	for _, e := range events {
		require.NoError(t, render(&buf, e))
	}
	golden(t, buf.Bytes())
}

// golden compares got with testdata/transcript.txt, or rewrites it.
func golden(t *testing.T, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "transcript.txt")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./examples/agent -update")
	assert.Equal(t, string(want), string(got), "the transcript changed; run go test ./examples/agent -update and review the diff")
}

// TestFakeChecksRequests checks that the fake refuses requests that
// deviate from the script, so the exchange above proves what it claims.
func TestFakeChecksRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name  string
		agent func(t *testing.T) (*agent, string)
		err   string
	}{
		{"a tool left out", func(t *testing.T) (*agent, string) {
			reg, defs := setup(t, notes.NewDemoStore())
			_, url := startFake(t, defs.Anthropic())
			return newAgent(url, reg, anthropictools.Tools(defs)[1:]), demoPrompt
		}, "fake: turn 1: the tools differ from the registry's precomputed definitions"},
		{"another prompt", func(t *testing.T) (*agent, string) {
			reg, defs := setup(t, notes.NewDemoStore())
			_, url := startFake(t, defs.Anthropic())
			return newAgent(url, reg, anthropictools.Tools(defs)), "Hello"
		}, `fake: turn 1: message 1 is not the prompt`},
		{"other tool results", func(t *testing.T) (*agent, string) {
			reg, defs := setup(t, notes.NewStore(nil)) // no notes: the search finds nothing
			_, url := startFake(t, defs.Anthropic())
			return newAgent(url, reg, anthropictools.Tools(defs)), demoPrompt
		}, "fake: turn 3: the result for toolu_02 does not contain"},
		{"a system prompt without the skills", func(t *testing.T) (*agent, string) {
			reg, defs := setup(t, notes.NewDemoStore())
			f := newFake(defs.Anthropic(), demoPrompt, demoScript())
			f.system = systemPrompt("note-taking", slog.New(slog.DiscardHandler)) // before the server's goroutines start
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			a := newAgent(srv.URL, reg, anthropictools.Tools(defs))
			a.system = basePrompt
			return a, demoPrompt
		}, "fake: turn 1: the system prompt is not the agent's, skills' preamble included"},
		{"too few turns", func(t *testing.T) (*agent, string) {
			reg, defs := setup(t, notes.NewDemoStore())
			_, url := startFake(t, defs.Anthropic())
			a := newAgent(url, reg, anthropictools.Tools(defs))
			a.maxTurns = 2
			return a, demoPrompt
		}, "agent: no answer after 2 turns"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a, prompt := c.agent(t)
			_, err := a.run(ctx, prompt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}

// TestRun checks the command: -fake plays the scripted exchange, and
// -base-url with a key talks to any endpoint, here the same fake.
func TestRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	noEnv := func(string) string { return "" }
	want, err := os.ReadFile(filepath.Join("testdata", "transcript.txt"))
	require.NoError(t, err)

	t.Run("fake", func(t *testing.T) {
		t.Parallel()
		var out bytes.Buffer
		require.NoError(t, run(ctx, []string{"-fake"}, &out, noEnv))
		header, transcript, ok := strings.Cut(out.String(), "\n\n")
		require.True(t, ok, out.String())
		assert.Regexp(t, `^A scripted fake of the Messages API is listening on http://127\.0\.0\.1:\d+; no key needed\.$`, header)
		assert.Equal(t, string(want), transcript)
	})
	t.Run("base url and key", func(t *testing.T) {
		t.Parallel()
		_, defs := setup(t, notes.NewDemoStore())
		f, url := startFake(t, defs.Anthropic())
		env := map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": url}
		var out bytes.Buffer
		require.NoError(t, run(ctx, nil, &out, func(k string) string { return env[k] }))
		assert.Equal(t, string(want), out.String())
		assert.True(t, f.done())
	})
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		err  string
	}{
		{"no key", nil, nil, errNoKey.Error()},
		{"fake with a prompt", []string{"-fake", "-prompt", "Hello"}, nil, "-fake plays a scripted exchange: it cannot take -prompt"},
		{"unknown flag", []string{"-verbose"}, nil, "flag provided but not defined: -verbose"},
		{"extra arguments", []string{"-fake", "now"}, nil, `unexpected arguments ["now"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := run(ctx, c.args, &out, func(k string) string { return c.env[k] })
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}

// barRecorder is a progressBar that keeps what it hears, in order.
type barRecorder struct {
	mu     sync.Mutex
	events []string
}

func (b *barRecorder) Progress(_ context.Context, p tool.ProgressReport) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.events = append(b.events, fmt.Sprintf("%g/%g %s", p.Done, p.Total, p.Message))
}

func (b *barRecorder) End() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.events = append(b.events, "end")
}

// TestProgressReachesTheLoop: the progress of a long-running tool reaches
// the agent loop while the tool runs, through the call service, and the
// loop ends the bar once the call has returned.
func TestProgressReachesTheLoop(t *testing.T) {
	t.Parallel()
	reg, set := setup(t, notes.NewDemoStore())
	const prompt = "Give me a moment, then tell me the time."
	f := newFake(set.Anthropic(), prompt, []turn{
		{text: "Waiting.", calls: []scriptedCall{{"toolu_w1", "clock_wait", `{"seconds":0.3}`}}},
		{results: []expectedResult{{"toolu_w1", false, `"seconds":0.3`}}, text: "Done waiting."},
	})
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	a := newAgent(srv.URL, reg, anthropictools.Tools(set))
	var bar barRecorder
	a.progress = &bar
	_, err := a.run(context.Background(), prompt)
	require.NoError(t, err)
	assert.True(t, f.done())
	assert.Equal(t, []string{
		"0.1/0.3 waited 0.1 s of 0.3 s",
		"0.2/0.3 waited 0.2 s of 0.3 s",
		"0.3/0.3 waited 0.3 s of 0.3 s",
		"end",
	}, bar.events)
}

// TestSystemPrompt: the skills the flag selects ride the system prompt; a
// name the registry lacks is logged and skipped.
func TestSystemPrompt(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, nil))

	p := systemPrompt("note-taking", log)
	assert.True(t, strings.HasPrefix(p, basePrompt+"\n\n<active_skills>\n<skill>\n<name>note-taking</name>\n"), p)
	assert.Contains(t, p, "<allowed_tools>notes_search notes_get notes_create notes_tag</allowed_tools>")
	assert.NotContains(t, p, "meeting-times")
	assert.Equal(t, p, systemPrompt(" note-taking , ", log), "the same bytes for the same skills")
	assert.Empty(t, logged.String())

	all := systemPrompt("*", log)
	assert.Contains(t, all, "<name>meeting-times</name>")
	assert.Equal(t, all, systemPrompt("note-taking,meeting-*", log))

	assert.Equal(t, basePrompt, systemPrompt("travel-planning", log))
	assert.Contains(t, logged.String(), "pattern=travel-planning")
	assert.Equal(t, basePrompt, systemPrompt("", log))
}
