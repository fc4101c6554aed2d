package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// failedMessage is what the model reads about a failure whose message was
// not written for it.
const failedMessage = "the tool failed"

// call answers tools/call: it runs the named tool with the raw arguments
// (absent or null arguments mean none) and maps the outcome.
func (s *Server) call(ctx context.Context, name string, args json.RawMessage) (res mcp.Result, err error) {
	defer func() {
		// A registry's Call never panics, but another Caller may: the
		// session must survive it.
		if v := recover(); v != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "mcp server: tool call panicked",
				slog.String("tool", name), slog.Any("panic", v), slog.String("stack", string(debug.Stack())))
			res, err = errorResult(failedMessage), nil
		}
	}()
	if bytes.Equal(args, []byte("null")) {
		args = nil
	}
	r, callErr := s.caller.Call(ctx, name, args)
	if callErr != nil {
		return s.failure(ctx, name, callErr)
	}
	if r.IsError {
		// A Caller that reports a failure in the Result alone: its
		// Content is meant for the model.
		return errorResult(r.Text()), nil
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(r.Content)}}}
	if r.Structured {
		out.StructuredContent = json.RawMessage(r.Content)
	}
	return out, nil
}

// failure maps a failed call: an unknown tool is the protocol's invalid
// params error, every other *tool.Error a result with isError and the
// error's Message. The cause is logged, never sent.
func (s *Server) failure(ctx context.Context, name string, err error) (mcp.Result, error) {
	var te *tool.Error
	if !errors.As(err, &te) {
		s.log.LogAttrs(ctx, slog.LevelError, "mcp server: tool call failed",
			slog.String("tool", name), slog.String("error", err.Error()))
		return errorResult(failedMessage), nil
	}
	if te.Code == tool.CodeUnknownTool {
		// The registry's message quotes the name asked for: sent only when
		// that is a plain identifier and the message nothing else of it.
		msg := te.Error()
		if !codec.IsIdentifier(name) || !strings.HasPrefix(msg, unknownToolPrefix) || !safeText(msg) {
			msg = msgUnknownTool
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
	}
	level := slog.LevelWarn
	switch te.Code {
	case tool.CodeInvalidArguments, tool.CodeNeedsConfirmation:
		level = slog.LevelInfo // the model's to correct or a person's to confirm
	case tool.CodePanic:
		level = slog.LevelError
	}
	attrs := []slog.Attr{slog.String("tool", name), slog.String("code", te.Code.String())}
	if te.Cause != nil {
		attrs = append(attrs, slog.String("cause", causeText(te.Cause)))
	}
	s.log.LogAttrs(ctx, level, "mcp server: tool call failed", attrs...)
	return errorResult(te.Error()), nil
}

// errorResult is a tool result with isError set and msg as its text.
func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

// causeText returns err's message followed by those of the errors it wraps
// that its message does not already contain (a *tool.ModelError's message
// is the model's, its cause is not in it).
func causeText(err error) string {
	text := err.Error()
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
		if m := u.Error(); !strings.Contains(text, m) {
			text += " (cause: " + m + ")"
		}
	}
	return text
}
