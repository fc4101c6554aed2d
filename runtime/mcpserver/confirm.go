package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/internal/confirmation"
	"github.com/toolgen-go/toolgen/runtime/internal/proposalid"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Proposals over MCP. A propose tool's call answers with the proposal the
// Caller stored (its ID and summary, as structured content conforming to
// tool.ProposalOutputSchema); a person confirms it through the host (the
// call service's Confirm). With Options.Confirm, the server asks the
// person at once instead, when it can:
//
//   - On protocol versions before 2026-07-28, in a stateful session whose
//     client declared form elicitation, it sends elicitation/create
//     (ServerSession.Elicit) and waits for the answer.
//   - On 2026-07-28 (multi round-trip requests), it answers tools/call
//     with an input_required result: an elicitation input request and a
//     requestState; the client retries the call with the person's answer
//     and the requestState (resume below).
//   - Anywhere else (stateless sessions before 2026-07-28, clients that do
//     not elicit, requests with no principal in their context), the answer
//     is the proposal, as without Options.Confirm.
//
// The person's answer decides: accept confirms (the Confirmer runs the tool,
// at most once, and the call answers "confirmed" with the tool's output),
// decline rejects (the proposal never runs: "rejected"), cancel leaves the
// proposal pending for the host ("proposed").
//
// The requestState is the only thing of the first round the second one
// trusts. It is integrity-protected: HMAC-SHA256 under ConfirmOptions.Key
// over the proposal's ID and digest (which binds its tool and arguments),
// the principal asked and an expiry, so that a state altered, expired, or
// presented by another principal is refused before anything runs. It is
// single-use through the Confirmer: a proposal runs at most once, so a
// state replayed after its acceptance runs nothing (the call service
// refuses the second confirmation, and records it). Instances that share
// a store and the key resume each other's states.
//
// Off by default: a client that can elicit can answer for the person, so a
// host turns it on only for clients it trusts to show the question to the
// person.

// protocolMultiRoundTrip is the first protocol version whose tools/call
// may answer input_required.
const protocolMultiRoundTrip = "2026-07-28"

// confirmRequestID is the ID of the one input request of an
// input_required answer.
const confirmRequestID = "confirm"

// DefaultStateTTL is how long a requestState may be resumed when
// ConfirmOptions.StateTTL is zero (never past the proposal's expiry).
const DefaultStateTTL = 10 * time.Minute

// MinKeyLen is the shortest ConfirmOptions.Key.
const MinKeyLen = 32

// Proposal is what a Server needs to know of a stored proposal to ask a
// person about it.
type Proposal struct {
	// ID is the proposal's ID.
	ID string
	// Tool is the propose tool that runs when it is confirmed.
	Tool string
	// Summary says in a line what confirming does, for the person.
	Summary string
	// Args are the arguments as the person may see them (secrets
	// replaced), JSON; nil shows none.
	Args []byte
	// Digest binds the proposal's ID, principal, conversation, tool and
	// arguments; a requestState's HMAC covers it.
	Digest string
	// Expires is when it can no longer be confirmed.
	Expires time.Time
	// Pending is set while it may still be confirmed or rejected.
	Pending bool
}

// Confirmer decides proposals for a person: what a Server needs of the
// call service to have proposals confirmed over MCP (runtime/servicemcp
// adapts a *service.Service). Its methods are safe for concurrent use.
// Its proposal IDs have the call service's form (runtime/internal/proposalid):
// a second round whose requestState carries another ID is refused.
type Confirmer interface {
	// Proposal returns the proposal id as who may decide it, or an error
	// when it is unknown, or not who's to decide.
	Proposal(ctx context.Context, id string, who tool.Principal) (*Proposal, error)
	// Confirm runs the proposal id for who, at most once, and returns the
	// run's result; a proposal no longer pending is refused with a
	// *tool.Error and nothing runs.
	Confirm(ctx context.Context, id string, who tool.Principal) (tool.Result, error)
	// Reject closes the proposal id for good, for who; a proposal no
	// longer pending is refused with a *tool.Error.
	Reject(ctx context.Context, id string, who tool.Principal) error
}

// ConfirmOptions turn on asking the person to confirm a proposal over MCP
// (see confirm.go): off by default, because a client that can elicit can
// approve its own actions.
type ConfirmOptions struct {
	// Confirmer decides the proposals. Required.
	Confirmer Confirmer
	// Key signs the requestStates (HMAC-SHA256): at least MinKeyLen
	// random bytes, secret, and the same on every instance that may
	// resume another's states. Required.
	Key []byte
	// StateTTL bounds how long a requestState may be resumed; it never
	// outlives its proposal. Zero means DefaultStateTTL.
	StateTTL time.Duration
	// Now tells the time; nil means time.Now.
	Now func() time.Time
}

// confirmer is the checked form of ConfirmOptions.
type confirmer struct {
	c   Confirmer
	key []byte
	ttl time.Duration
	now func() time.Time
}

// newConfirmer checks o.
func newConfirmer(o *ConfirmOptions) (*confirmer, error) {
	switch {
	case o.Confirmer == nil:
		return nil, errors.New("confirm: nil Confirmer")
	case len(o.Key) < MinKeyLen:
		return nil, fmt.Errorf("confirm: the key has %d bytes, fewer than %d", len(o.Key), MinKeyLen)
	case o.StateTTL < 0:
		return nil, fmt.Errorf("confirm: negative StateTTL %s", o.StateTTL)
	}
	c := &confirmer{c: o.Confirmer, key: append([]byte(nil), o.Key...), ttl: o.StateTTL, now: o.Now}
	if c.ttl == 0 {
		c.ttl = DefaultStateTTL
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// Messages of the refusals of a confirmation round, for the model and the
// client; they quote nothing of the request.
const (
	msgBadState     = "this confirmation is not valid (altered, expired, or another person's); nothing was run"
	msgNoAnswer     = "the retried call carries no answer to the confirmation request; nothing was run"
	msgNoInputAsked = "this server asked for no input: send the call without inputResponses or requestState"
)

// proposalOut is what the server reads of a proposal result.
type proposalOut struct {
	Status   string `json:"status"`
	Proposal string `json:"proposal"`
}

// callTool answers tools/call: the Caller's answer, the person's decision
// when Options.Confirm asks them, or the second round of a confirmation.
func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
	p := req.Params
	_, fromApp := appFrom(ctx) // an app's call never confirms (apps.go)
	if p.RequestState != "" || p.InputResponses != nil {
		if fromApp {
			return errorResult(msgAppNoConfirms), nil
		}
		if s.confirm == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msgNoInputAsked}
		}
		return s.resume(ctx, req)
	}
	res, err := s.call(ctx, p.Name, p.Arguments)
	if err != nil || s.confirm == nil || fromApp {
		return res, err
	}
	return s.ask(ctx, req, res), nil
}

// ask asks the person to confirm the proposal res holds, when res holds
// one and the session can ask; it returns what the call answers.
func (s *Server) ask(ctx context.Context, req *mcp.CallToolRequest, res mcp.Result) mcp.Result {
	cr, ok := res.(*mcp.CallToolResult)
	if !ok || cr.IsError {
		return res
	}
	raw, ok := cr.StructuredContent.(json.RawMessage)
	if !ok {
		return res
	}
	var out proposalOut
	if json.Unmarshal(raw, &out) != nil || out.Status != "proposed" || out.Proposal == "" {
		return res
	}
	who, ok := tool.PrincipalFrom(ctx)
	if !ok || who.ID == "" {
		return res // no one to ask: the Caller chose the principal
	}
	ip := req.Session.InitializeParams()
	if !canElicitForm(ip) {
		return res
	}
	prop, err := s.confirm.c.Proposal(ctx, out.Proposal, who)
	if err != nil || !prop.Pending {
		return res
	}
	question := elicitation(prop)
	if ip.ProtocolVersion >= protocolMultiRoundTrip {
		r, err := inputRequired(question, s.confirm.seal(prop, who.ID))
		if err != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "mcp server: ask for a confirmation", slog.String("tool", prop.Tool), slog.String("error", err.Error()))
			return res
		}
		return r
	}
	// Before 2026-07-28: ask within this request, in a stateful session.
	// A stateless one cannot: the SDK refuses at once.
	ectx, cancel := context.WithDeadline(ctx, prop.Expires)
	defer cancel()
	answer, err := req.Session.Elicit(ectx, question)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelDebug, "mcp server: the person could not be asked; the proposal waits for the host",
			slog.String("tool", prop.Tool), slog.String("error", err.Error()))
		return res
	}
	return s.decide(ctx, prop, who, answer.Action, res)
}

// resume answers the second round of a confirmation (protocol
// 2026-07-28): the call retried with the person's answer and the
// requestState of the first round.
func (s *Server) resume(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
	p := req.Params
	who, _ := tool.PrincipalFrom(ctx)
	id, expires, mac, ok := openState(p.RequestState)
	var prop *Proposal
	if ok && who.ID != "" {
		var err error
		if prop, err = s.confirm.c.Proposal(ctx, id, who); err != nil {
			ok = false
		}
	}
	if !ok || prop == nil || prop.Tool != p.Name || !s.confirm.now().Before(expires) ||
		!hmac.Equal(mac, s.confirm.mac(id, prop.Digest, who.ID, expires)) {
		s.log.LogAttrs(ctx, slog.LevelWarn, "mcp server: a confirmation's requestState was refused (altered, expired or another principal's)",
			slog.String("tool", p.Name))
		return errorResult(msgBadState), nil
	}
	answer, ok := p.InputResponses[confirmRequestID].(*mcp.ElicitResult)
	if !ok {
		return errorResult(msgNoAnswer), nil
	}
	return s.decide(ctx, prop, who, answer.Action, nil), nil
}

// decide carries out the person's answer to the proposal: accept confirms
// it, decline rejects it, anything else leaves it pending (pending is
// then the answer; nil means one written now). The answer is a person's:
// it is carried out under ctx's values without its cancellation until
// the confirmed tool has started (runtime/internal/confirmation), so that
// a request cancelled or timed out as the person answers does not lose
// it; the client's cancellation of a run under way still reaches the
// tool, as for any call. The record keeps the outcome.
func (s *Server) decide(ctx context.Context, prop *Proposal, who tool.Principal, action string, pending mcp.Result) mcp.Result {
	ctx, stop := confirmation.Detach(ctx)
	defer stop()
	switch action {
	case "accept":
		r, err := s.confirm.c.Confirm(ctx, prop.ID, who)
		if err != nil {
			return s.refusal(ctx, prop.Tool, err)
		}
		if r.IsError {
			return errorResult(r.Text())
		}
		return decision(prop, "confirmed", "A person confirmed the proposal, and the tool ran: its output is in result.", &r)
	case "decline":
		if err := s.confirm.c.Reject(ctx, prop.ID, who); err != nil {
			return s.refusal(ctx, prop.Tool, err)
		}
		return decision(prop, "rejected", "The person declined the proposal: nothing ran, and it never will.", nil)
	}
	if pending != nil {
		return pending
	}
	return decision(prop, "proposed", "The person did not decide: nothing has run, and the proposal waits for a person to confirm it.", nil)
}

// refusal is the answer to a confirmation or rejection the Confirmer
// refused: a result with isError and the error's message, as failure maps
// a call's (a tool no longer offered included).
func (s *Server) refusal(ctx context.Context, name string, err error) mcp.Result {
	res, ferr := s.failure(ctx, name, err)
	var we *jsonrpc.Error
	if errors.As(ferr, &we) {
		return errorResult(we.Message)
	}
	if res == nil {
		return errorResult(failedMessage)
	}
	return res
}

// decision is a propose tool's answer conforming to
// tool.ProposalOutputSchema, with result (the tool's output) when it ran.
func decision(prop *Proposal, status, message string, result *tool.Result) *mcp.CallToolResult {
	b := []byte(`{"status":`)
	b = jsonlex.AppendString(b, status)
	b = append(b, `,"message":`...)
	b = jsonlex.AppendString(b, message)
	b = append(b, `,"tool":`...)
	b = jsonlex.AppendString(b, prop.Tool)
	b = append(b, `,"summary":`...)
	b = jsonlex.AppendString(b, prop.Summary)
	b = append(b, `,"proposal":`...)
	b = jsonlex.AppendString(b, prop.ID)
	b = append(b, `,"expires":`...)
	b = jsonlex.AppendString(b, prop.Expires.UTC().Format(time.RFC3339))
	if result != nil {
		b = append(b, `,"result":`...)
		if result.Structured && json.Valid(result.Content) {
			b = append(b, result.Content...)
		} else {
			b = jsonlex.AppendString(b, result.Text())
		}
	}
	b = append(b, '}')
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

// canElicitForm reports whether a client of these parameters takes a form
// elicitation.
func canElicitForm(ip *mcp.InitializeParams) bool {
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return false
	}
	e := ip.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil // {} means form, for older clients
}

// maxShownArgs bounds the arguments a question shows.
const maxShownArgs = 1024

// elicitation is the question put to the person: the proposal's summary,
// its arguments, its ID and expiry, and an empty form (the answer is the
// action: accept, decline or cancel).
func elicitation(prop *Proposal) *mcp.ElicitParams {
	msg := "Confirm: " + prop.Summary
	if len(prop.Args) > 0 {
		args := string(prop.Args)
		if len(args) > maxShownArgs {
			args = args[:maxShownArgs] + "…"
		}
		msg += "\nArguments: " + args
	}
	msg += "\nProposal " + prop.ID + ", until " + prop.Expires.UTC().Format(time.RFC3339) +
		". Accept runs it now; decline cancels it for good."
	return &mcp.ElicitParams{
		Mode:            "form",
		Message:         msg,
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
	}
}

// inputRequired is a tools/call result of type input_required asking the
// question, with state. The SDK sets a CallToolResult's result type only
// in its own tool handlers; decoding a result that names it is the one
// way to set it from here.
func inputRequired(question *mcp.ElicitParams, state string) (*mcp.CallToolResult, error) {
	var r mcp.CallToolResult
	if err := json.Unmarshal([]byte(`{"content":[],"resultType":"input_required"}`), &r); err != nil {
		return nil, err
	}
	if !r.NeedsInput() {
		return nil, errors.New("the SDK does not read resultType input_required")
	}
	r.Content = []mcp.Content{} // "content":[], not null
	r.InputRequests = mcp.InputRequestMap{confirmRequestID: question}
	r.RequestState = state
	return &r, nil
}

// The layout of a requestState, base64url without padding: a version
// byte, the expiry (Unix seconds, big-endian), the HMAC-SHA256, the
// proposal's ID.
const (
	stateVersion = 1
	stateHead    = 1 + 8 + sha256.Size
	// maxStateLen bounds a requestState read back, in bytes of base64.
	maxStateLen = 512
)

// seal returns the requestState of a question about prop put to the
// principal whoID.
func (c *confirmer) seal(prop *Proposal, whoID string) string {
	expires := c.now().Add(c.ttl).Truncate(time.Second)
	if prop.Expires.Before(expires) {
		expires = prop.Expires.Truncate(time.Second)
	}
	b := make([]byte, stateHead, stateHead+len(prop.ID))
	b[0] = stateVersion
	binary.BigEndian.PutUint64(b[1:9], uint64(expires.Unix()))
	copy(b[9:stateHead], c.mac(prop.ID, prop.Digest, whoID, expires))
	b = append(b, prop.ID...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// openState reads a requestState: the proposal's ID, the expiry and the
// HMAC, unverified.
func openState(state string) (id string, expires time.Time, mac []byte, ok bool) {
	if len(state) > maxStateLen {
		return "", time.Time{}, nil, false
	}
	b, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(b) <= stateHead || b[0] != stateVersion || !proposalid.Valid(b[stateHead:]) {
		return "", time.Time{}, nil, false
	}
	secs := binary.BigEndian.Uint64(b[1:9])
	if secs > 1<<62 {
		return "", time.Time{}, nil, false
	}
	return string(b[stateHead:]), time.Unix(int64(secs), 0), b[9:stateHead], true
}

// mac is the HMAC-SHA256 that binds a requestState: the proposal's ID and
// digest, the principal asked and the expiry, each length-prefixed.
func (c *confirmer) mac(id, digest, whoID string, expires time.Time) []byte {
	h := hmac.New(sha256.New, c.key)
	h.Write([]byte("toolgen mcp confirmation v1\x00"))
	for _, s := range []string{id, digest, whoID} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var t [8]byte
	binary.BigEndian.PutUint64(t[:], uint64(expires.Unix()))
	h.Write(t[:])
	return h.Sum(nil)
}
