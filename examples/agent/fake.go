package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// The fake Messages API: an http.Handler that plays a scripted model. It
// checks every request the agent sends (the tools, byte for byte, and the
// conversation so far, including the tool results of the previous turn)
// and answers with the script's next message. A request that deviates
// gets the API's error response, so the SDK returns an error saying what
// went wrong.

// scriptedCall is a tool call the scripted model makes.
type scriptedCall struct {
	id, name, input string
}

// expectedResult is what the tool result for a call must hold.
type expectedResult struct {
	id       string // the call's ID
	isError  bool   // whether the registry reported a failure
	contains string // a part of the result's text
}

// turn is one exchange of the script: the tool results the request must
// end with (none on the first turn), and the model's reply.
type turn struct {
	results []expectedResult
	text    string         // the reply's text, if any
	calls   []scriptedCall // the reply's tool calls; none means the final answer
}

// fake serves a script; it is safe for concurrent use but the script is
// one conversation, played in order.
type fake struct {
	tools  []byte // the tools array every request must carry
	prompt string // the user's request that opens the conversation
	script []turn
	// system, when not "", is the system prompt every request must carry,
	// byte for byte (the skills' preamble rides each one).
	system string

	mu   sync.Mutex
	next int // the index of the next turn
}

// newFake returns a fake that plays script for prompt and checks that each
// request carries tools.
func newFake(tools []byte, prompt string, script []turn) *fake {
	return &fake{tools: tools, prompt: prompt, script: script}
}

// done reports whether every turn of the script was played.
func (f *fake) done() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.next == len(f.script)
}

// The request as the fake reads it.
type (
	fakeRequest struct {
		Model     string          `json:"model"`
		MaxTokens int64           `json:"max_tokens"`
		Tools     json.RawMessage `json:"tools"`
		System    []fakeBlock     `json:"system"`
		Messages  []fakeMessage   `json:"messages"`
	}
	fakeMessage struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	fakeBlock struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Content   json.RawMessage `json:"content"`
	}
)

// ServeHTTP answers POST /v1/messages.
func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		fakeError(w, http.StatusNotFound, "not_found_error", "fake: no endpoint "+r.Method+" "+r.URL.Path)
		return
	}
	if r.Header.Get("X-Api-Key") == "" && r.Header.Get("Authorization") == "" {
		fakeError(w, http.StatusUnauthorized, "authentication_error", "fake: no x-api-key or authorization header")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		fakeError(w, http.StatusRequestEntityTooLarge, "request_too_large", "fake: "+err.Error())
		return
	}
	var req fakeRequest
	if err := json.Unmarshal(body, &req); err != nil {
		fakeError(w, http.StatusBadRequest, "invalid_request_error", "fake: "+err.Error())
		return
	}
	f.mu.Lock()
	i := f.next
	err = f.check(i, &req)
	if err == nil {
		f.next++
	}
	f.mu.Unlock()
	if err != nil {
		fakeError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("fake: turn %d: %v", i+1, err))
		return
	}
	reply, err := f.reply(i, req.Model)
	if err != nil {
		fakeError(w, http.StatusInternalServerError, "api_error", "fake: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(reply)
}

// check compares request i with the script.
func (f *fake) check(i int, req *fakeRequest) error {
	switch {
	case i >= len(f.script):
		return fmt.Errorf("the script has only %d turns", len(f.script))
	case req.Model == "" || req.MaxTokens <= 0:
		return errors.New("no model or max_tokens")
	case !bytes.Equal(req.Tools, f.tools):
		return errors.New("the tools differ from the registry's precomputed definitions")
	case len(req.Messages) != 2*i+1:
		return fmt.Errorf("%d messages, want %d", len(req.Messages), 2*i+1)
	case f.system != "" && (len(req.System) != 1 || req.System[0].Text != f.system):
		return errors.New("the system prompt is not the agent's, skills' preamble included")
	}
	first, err := blocks(req.Messages[0], "user")
	if err != nil {
		return fmt.Errorf("message 1: %w", err)
	}
	if len(first) != 1 || first[0].Type != "text" || first[0].Text != f.prompt {
		return fmt.Errorf("message 1 is not the prompt %q", f.prompt)
	}
	if i == 0 {
		return nil
	}
	// The previous reply comes back as the assistant's message...
	prev, err := blocks(req.Messages[2*i-1], "assistant")
	if err != nil {
		return fmt.Errorf("message %d: %w", 2*i, err)
	}
	var ids []string
	for _, b := range prev {
		if b.Type == "tool_use" {
			ids = append(ids, b.ID+" "+b.Name)
		}
	}
	var want []string
	for _, c := range f.script[i-1].calls {
		want = append(want, c.id+" "+c.name)
	}
	if strings.Join(ids, ",") != strings.Join(want, ",") {
		return fmt.Errorf("message %d has the tool calls [%s], want [%s]", 2*i, strings.Join(ids, ","), strings.Join(want, ","))
	}
	// ...followed by the results of its calls.
	last, err := blocks(req.Messages[2*i], "user")
	if err != nil {
		return fmt.Errorf("message %d: %w", 2*i+1, err)
	}
	results := f.script[i].results
	if len(last) != len(results) {
		return fmt.Errorf("message %d has %d blocks, want %d tool results", 2*i+1, len(last), len(results))
	}
	for j, res := range results {
		b := last[j]
		text, err := resultContent(b.Content)
		switch {
		case err != nil:
			return fmt.Errorf("the result for %s: %w", res.id, err)
		case b.Type != "tool_result" || b.ToolUseID != res.id:
			return fmt.Errorf("block %d is not the tool result for %s", j+1, res.id)
		case b.IsError != res.isError:
			return fmt.Errorf("the result for %s has is_error %t, want %t: %s", res.id, b.IsError, res.isError, text)
		case !strings.Contains(text, res.contains):
			return fmt.Errorf("the result for %s does not contain %q: %s", res.id, res.contains, text)
		}
	}
	return nil
}

// blocks returns the content blocks of m, which must have role.
func blocks(m fakeMessage, role string) ([]fakeBlock, error) {
	if m.Role != role {
		return nil, fmt.Errorf("role %q, want %q", m.Role, role)
	}
	var bs []fakeBlock
	if err := json.Unmarshal(m.Content, &bs); err != nil {
		var s string
		if json.Unmarshal(m.Content, &s) != nil {
			return nil, fmt.Errorf("content: %w", err)
		}
		bs = []fakeBlock{{Type: "text", Text: s}}
	}
	return bs, nil
}

// resultContent returns the text of a tool_result's content: a string or
// text blocks.
func resultContent(c json.RawMessage) (string, error) {
	if len(c) == 0 {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(c, &s); err == nil {
		return s, nil
	}
	var bs []fakeBlock
	if err := json.Unmarshal(c, &bs); err != nil {
		return "", fmt.Errorf("content: %w", err)
	}
	var sb strings.Builder
	for _, b := range bs {
		sb.WriteString(b.Text)
	}
	return sb.String(), nil
}

// reply returns the response body of turn i.
func (f *fake) reply(i int, model string) ([]byte, error) {
	type block struct {
		Type  string          `json:"type"`
		Text  string          `json:"text,omitempty"`
		ID    string          `json:"id,omitempty"`
		Name  string          `json:"name,omitempty"`
		Input json.RawMessage `json:"input,omitempty"`
	}
	t := f.script[i]
	var content []block
	if t.text != "" {
		content = append(content, block{Type: "text", Text: t.text})
	}
	for _, c := range t.calls {
		content = append(content, block{Type: "tool_use", ID: c.id, Name: c.name, Input: json.RawMessage(c.input)})
	}
	stop := "end_turn"
	if len(t.calls) > 0 {
		stop = "tool_use"
	}
	return json.Marshal(struct {
		ID           string  `json:"id"`
		Type         string  `json:"type"`
		Role         string  `json:"role"`
		Model        string  `json:"model"`
		Content      []block `json:"content"`
		StopReason   string  `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
		Usage        struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}{
		ID: fmt.Sprintf("msg_fake_%02d", i+1), Type: "message", Role: "assistant", Model: model,
		Content: content, StopReason: stop,
	})
}

// fakeError writes the Messages API's error response.
func fakeError(w http.ResponseWriter, status int, typ, msg string) {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
