package mcpserver

import (
	"context"
	"errors"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Who calls: before tools/list and tools/call reach the Caller, the
// request's context is given a tool.Invocation (invocation below):
//
//   - The principal of a request authenticated with a bearer token (the
//     SDK hands each request its auth.TokenInfo, whoever verified it:
//     HTTPOptions.Auth or a host's own middleware) is what
//     Options.Principal makes of the token; by default its UserID and, as
//     permissions, its Scopes. It replaces any principal the context
//     carried.
//   - A request without a token (stdio, in-memory, HTTP on loopback
//     without Auth) keeps the Invocation its context carries, if any, and
//     otherwise has no principal: the call service offers such a caller
//     nothing, unless the host gives it one (service.As).
//   - MCP has no call ID, conversation or turn: a request names them in
//     its _meta, under MetaCallID, MetaConversation and MetaTurn, and they
//     replace the context's. Without MetaCallID there is no deduplication:
//     the call service runs a call sent twice twice.

// The _meta keys of a tools/call or tools/list request that name its call,
// conversation and turn, namespaced to this project as MCP asks of _meta
// keys. Each holds a string of 1 to MaxMetaLen bytes of printable UTF-8.
const (
	// MetaCallID names the call, as a model's tool-call ID does: the call
	// service runs a call repeated with the same principal, conversation
	// and call ID once, and answers the repeats with its recorded outcome.
	MetaCallID = "io.github.toolgen-go/call-id"
	// MetaConversation names the conversation the call belongs to.
	MetaConversation = "io.github.toolgen-go/conversation"
	// MetaTurn names the turn within the conversation.
	MetaTurn = "io.github.toolgen-go/turn"
)

// MaxMetaLen is the longest value of MetaCallID, MetaConversation and
// MetaTurn, in bytes.
const MaxMetaLen = 256

// Messages of the refusals of a request's caller, which the wire layer
// passes: they quote nothing of the request.
const (
	msgMetaCallID       = "the _meta key io.github.toolgen-go/call-id must hold a string of 1 to 256 bytes of printable text"
	msgMetaConversation = "the _meta key io.github.toolgen-go/conversation must hold a string of 1 to 256 bytes of printable text"
	msgMetaTurn         = "the _meta key io.github.toolgen-go/turn must hold a string of 1 to 256 bytes of printable text"
	msgNoPrincipal      = "the bearer token names no principal this server serves"
)

// errNoPrincipal is what Options.Principal's default returns for a token
// without a UserID.
var errNoPrincipal = errors.New("the token has no UserID")

// defaultPrincipal is the principal of a token when Options.Principal is
// nil: its UserID, holding its Scopes as permissions.
func defaultPrincipal(_ context.Context, info *auth.TokenInfo) (tool.Principal, error) {
	if info.UserID == "" {
		return tool.Principal{}, errNoPrincipal
	}
	return tool.Principal{ID: info.UserID, Permissions: info.Scopes}, nil
}

// invocation returns ctx carrying the Invocation of the request whose
// extra (nil: none) and _meta are given: see above. It returns ctx as it
// is when the request adds nothing to it.
func (s *Server) invocation(ctx context.Context, extra *mcp.RequestExtra, meta mcp.Meta) (context.Context, error) {
	var who *tool.Principal
	if extra != nil && extra.TokenInfo != nil {
		p, err := s.principal(ctx, extra.TokenInfo)
		if err != nil || p.ID == "" {
			return ctx, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msgNoPrincipal}
		}
		who = &p
	}
	callID, err := metaString(meta, MetaCallID, msgMetaCallID)
	if err != nil {
		return ctx, err
	}
	conv, err := metaString(meta, MetaConversation, msgMetaConversation)
	if err != nil {
		return ctx, err
	}
	turn, err := metaString(meta, MetaTurn, msgMetaTurn)
	if err != nil {
		return ctx, err
	}
	if who == nil && callID == "" && conv == "" && turn == "" {
		return ctx, nil
	}
	var inv tool.Invocation
	if cur, ok := tool.InvocationFrom(ctx); ok {
		inv = *cur
	}
	if who != nil {
		inv.Principal = *who
	}
	if conv != "" && conv != inv.Conversation {
		// Another conversation: the context's turn and turn state are
		// not this one's.
		inv.Conversation, inv.Turn, inv.State = conv, "", nil
	}
	if turn != "" {
		inv.Turn = turn
	}
	if callID != "" {
		inv.CallID = callID
	}
	return tool.WithInvocation(ctx, &inv), nil
}

// metaString returns the string _meta holds under key ("" when absent), or
// an invalid-params error with msg when it holds anything else than a
// string of 1 to MaxMetaLen bytes of printable UTF-8.
func metaString(meta mcp.Meta, key, msg string) (string, error) {
	v, ok := meta[key]
	if !ok {
		return "", nil
	}
	str, ok := v.(string)
	if !ok || str == "" || len(str) > MaxMetaLen || !printable(str) {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
	}
	return str, nil
}

// printable reports whether s is valid UTF-8 without control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
