package servicemcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// The people of the tests: ana reads and writes notes, ben only reads.
var (
	ana = tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write"}}
	ben = tool.Principal{ID: "ben", Permissions: []string{"notes.read"}}
)

// Their tokens.
const (
	anaToken = "ana-0123456789abcdef0123456789"
	benToken = "ben-0123456789abcdef0123456789"
)

// key signs the requestStates of every instance of a test.
var key = []byte("0123456789abcdef0123456789abcdef")

// Tool indexes of the fixture, in name order.
const (
	tDelete = iota
	tRead
	tUpdate
)

// fixture is a registry of three note tools: notes_delete (propose,
// notes.write), notes_read (read, notes.read) and notes_update (action,
// notes.write). runs counts what each really ran.
type fixture struct {
	reg  tool.Registry
	runs [tUpdate + 1]atomic.Int64
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{}
	specs := []*tool.Spec{
		tDelete: {Name: "notes_delete", Kind: tool.KindPropose, Title: "Delete note", Destructive: true, Permissions: []string{"notes.write"},
			Meta: []tool.Meta{{Key: "confirm-text", Value: "Delete this note?"}}, InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`)},
		tRead:   {Name: "notes_read", Kind: tool.KindRead, ReadOnly: true, Permissions: []string{"notes.read"}},
		tUpdate: {Name: "notes_update", Kind: tool.KindAction, Permissions: []string{"notes.write"}},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, f.dispatch, nil)
	require.NoError(t, err)
	f.reg = reg
	return f
}

// decodeID reads {"id": integer} as a generated decoder would, the
// fixtures' only arguments.
func decodeID(in *codec.Decoder) (int64, error) {
	var id int64
	if in.Object("object") {
		for {
			k, ok := in.Key()
			if !ok {
				break
			}
			if string(k) != "id" {
				in.Unknown(k)
				continue
			}
			in.Push("id")
			id, _ = in.Int("integer", 64)
			in.Pop()
		}
	}
	in.End()
	return id, toolimpl.InvalidArguments(in.Err())
}

// dispatch plays a generated dispatch: it reads {"id": integer}.
func (f *fixture) dispatch(_ context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	id, err := decodeID(in)
	if err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	n := f.runs[i].Add(1)
	out.RawText([]string{"deleted", "read", "updated"}[i] + " note " + strconv.FormatInt(id, 10) + " (run " + strconv.FormatInt(n, 10) + ")")
	return toolimpl.OutputText, nil
}

// instance is one process serving the fixture over MCP: its service and
// server.
type instance struct {
	svc *service.Service
	srv *mcpserver.Server
}

// newInstance returns a service over store (nil: its own) and an MCP
// server of it, asking for confirmations when confirm is set.
func newInstance(t *testing.T, f *fixture, store service.Store, confirm bool, opts *mcpserver.ConfirmOptions) *instance {
	t.Helper()
	svc, err := service.New(f.reg, &service.Options{Store: store})
	require.NoError(t, err)
	var o mcpserver.Options
	if confirm {
		c := mcpserver.ConfirmOptions{Key: key}
		if opts != nil {
			c = *opts
		}
		c.Confirmer = servicemcp.Confirmer(svc)
		o.Confirm = &c
	}
	srv, err := mcpserver.New(svc, &o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return &instance{svc: svc, srv: srv}
}

// tokens is the Auth of the tests.
func tokens() *mcpserver.Auth {
	return &mcpserver.Auth{Verifier: mcpserver.StaticTokens(map[string]tool.Principal{anaToken: ana, benToken: ben})}
}

// serveHTTP serves in over HTTP with the tokens.
func serveHTTP(t *testing.T, in *instance, stateless bool) string {
	t.Helper()
	h, err := in.srv.Handler(&mcpserver.HTTPOptions{Auth: tokens(), Stateless: stateless})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// answer is an elicitation handler answering action, counting the
// questions it was asked and keeping the last.
type answer struct {
	action string
	mu     sync.Mutex
	asked  []string
}

func (a *answer) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	a.mu.Lock()
	a.asked = append(a.asked, req.Params.Message)
	a.mu.Unlock()
	return &mcp.ElicitResult{Action: a.action}, nil
}

func (a *answer) questions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.asked...)
}

// clientOptions returns the options of a client answering with a (nil:
// one that cannot elicit), its multi round-trip middleware on unless
// manual.
func clientOptions(a *answer, manual bool) *mcp.ClientOptions {
	o := &mcp.ClientOptions{}
	if a != nil {
		o.ElicitationHandler = a.handle
	}
	if manual {
		o.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	return o
}

// dialHTTP connects a client with token to url.
func dialHTTP(t *testing.T, url, token, protocol string, o *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, o)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{
		Endpoint:   url,
		HTTPClient: &http.Client{Transport: bearerTransport(token)},
	}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// bearerTransport sets the token on every request.
type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// dialMemory connects a client to in over an in-memory transport, the
// session's context carrying who.
func dialMemory(t *testing.T, in *instance, who tool.Principal, protocol string, o *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := in.srv.SDK().Connect(tool.WithInvocation(t.Context(), &tool.Invocation{Principal: who}), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, o).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// outcome is a propose tool's structured answer.
type outcome struct {
	Status   string          `json:"status"`
	Message  string          `json:"message"`
	Tool     string          `json:"tool"`
	Summary  string          `json:"summary"`
	Proposal string          `json:"proposal"`
	Expires  string          `json:"expires"`
	Result   json.RawMessage `json:"result"`
}

// outcomeOf decodes a propose tool's answer.
func outcomeOf(t *testing.T, res *mcp.CallToolResult) outcome {
	t.Helper()
	require.False(t, res.IsError, "%v", res.Content)
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var o outcome
	require.NoError(t, json.Unmarshal(raw, &o))
	return o
}

// textOf is the text of a result.
func textOf(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

// row is the part of a record the tests check.
type row struct {
	Who, Event, Tool, Outcome, Code string
}

// rows returns the record of svc as rows.
func rows(t *testing.T, svc *service.Service) []row {
	t.Helper()
	recs, err := svc.Records(t.Context(), service.Query{})
	require.NoError(t, err)
	out := make([]row, len(recs))
	for i, r := range recs {
		code := ""
		if r.Code != 0 {
			code = r.Code.String()
		}
		out[i] = row{r.Principal, r.Event.String(), r.Tool, r.Outcome.String(), code}
	}
	return out
}

// deleteCall is a call of notes_delete.
func deleteCall() *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: "notes_delete", Arguments: map[string]any{"id": 7}}
}
