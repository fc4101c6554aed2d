package servicemcp_test

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
)

// Protocol versions: the last with the initialize handshake (elicitation
// within the request), and the SDK's latest, 2026-07-28 (input_required
// results), which HTTP serves only statelessly.
const (
	legacy = "2025-11-25"
	latest = "" // the SDK's latest
)

// TestNoToken checks that a request without a valid token is refused
// with 401, lists nothing, runs nothing and leaves no record.
func TestNoToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := newInstance(t, f, nil, false, nil)
	url := serveHTTP(t, in, false)
	for _, token := range []string{"", "ana-wrong"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		assert.Equal(t, "Unauthorized: a valid bearer token is required\n", string(body))
		assert.NotContains(t, string(body), "tools")
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	_, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	require.Error(t, err, "no session without a token")
	assert.Empty(t, rows(t, in.svc), "nothing recorded: nothing reached the service")
}

// TestPerPersonToolsAndRefusals checks that each token's principal is
// listed its own tools, byte-stable, that each listing is recorded as an
// offer (once while it is unchanged), that a tool not offered is refused
// as unknown and recorded, and that nothing ran for the refusal.
func TestPerPersonToolsAndRefusals(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(map[bool]string{false: "stateful", true: "stateless"}[stateless], func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			in := newInstance(t, f, nil, false, nil)
			url := serveHTTP(t, in, stateless)
			anaCS := dialHTTP(t, url, anaToken, legacy, nil)
			benCS := dialHTTP(t, url, benToken, legacy, nil)

			list := func(cs *mcp.ClientSession) []string {
				res, err := cs.ListTools(t.Context(), nil)
				require.NoError(t, err)
				assert.Equal(t, "private", res.CacheScope)
				var names []string
				for _, tl := range res.Tools {
					names = append(names, tl.Name)
				}
				return names
			}
			assert.Equal(t, []string{"notes_delete", "notes_read", "notes_update"}, list(anaCS))
			assert.Equal(t, []string{"notes_read"}, list(benCS))
			assert.Equal(t, []string{"notes_read"}, list(benCS), "listed again: the same offer, no new row")
			offers, err := in.svc.Records(t.Context(), service.Query{Principal: "ben"})
			require.NoError(t, err)
			require.Len(t, offers, 1)
			assert.Equal(t, service.EventOffer, offers[0].Event)
			assert.JSONEq(t, `{"tools":["notes_read"]}`, string(offers[0].Args))

			_, err = benCS.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_update", Arguments: map[string]any{"id": 1}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "unknown tool")
			assert.Contains(t, err.Error(), "notes_read", "it names what ben may call")
			assert.NotContains(t, err.Error(), "notes_delete")
			_, err = benCS.CallTool(t.Context(), deleteCall())
			require.Error(t, err)
			res, err := benCS.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_read", Arguments: map[string]any{"id": 1}})
			require.NoError(t, err)
			assert.Equal(t, "read note 1 (run 1)", textOf(res))
			assert.Zero(t, f.runs[tUpdate].Load()+f.runs[tDelete].Load(), "nothing ran for ben's refusals")

			assert.Equal(t, []row{
				{"ana", "offer", "", "ok", ""}, // tools/list is an offer, recorded
				{"ben", "offer", "", "ok", ""},
				{"ben", "refusal", "notes_update", "refused", "unknown_tool"},
				{"ben", "refusal", "notes_delete", "refused", "unknown_tool"},
				{"ben", "call", "notes_read", "ok", ""},
			}, rows(t, in.svc))
		})
	}
}

// TestCallIDOverMCP checks that the call-id _meta key deduplicates a
// repeated call, and that without it a call sent twice runs twice.
func TestCallIDOverMCP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := newInstance(t, f, nil, false, nil)
	cs := dialHTTP(t, serveHTTP(t, in, true), anaToken, latest, nil)
	call := func(meta mcp.Meta) string {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Meta: meta, Name: "notes_update", Arguments: map[string]any{"id": 3}})
		require.NoError(t, err)
		return textOf(res)
	}
	meta := mcp.Meta{mcpserver.MetaCallID: "call_1", mcpserver.MetaConversation: "conv-1"}
	assert.Equal(t, "updated note 3 (run 1)", call(meta))
	assert.Equal(t, "updated note 3 (run 1)", call(meta), "the recorded answer")
	assert.Equal(t, "updated note 3 (run 2)", call(nil))
	assert.Equal(t, "updated note 3 (run 3)", call(nil), "no call ID: no deduplication")
	recs, err := in.svc.Records(t.Context(), service.Query{CallID: "call_1"})
	require.NoError(t, err)
	require.Len(t, recs, 2)
	assert.Equal(t, "conv-1", recs[0].Conversation)
	assert.Equal(t, service.EventReplay, recs[1].Event)
}

// TestProposalConfirmedByTheHost checks the default: a propose tool's call
// answers with its proposal, nothing runs, and the host confirms it
// through the service, once.
func TestProposalConfirmedByTheHost(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{legacy, latest} {
		t.Run("protocol "+map[string]string{legacy: legacy, latest: "latest"}[protocol], func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			in := newInstance(t, f, nil, false, nil)
			a := &answer{action: "accept"}
			cs := dialHTTP(t, serveHTTP(t, in, true), anaToken, protocol, clientOptions(a, false))
			res, err := cs.CallTool(t.Context(), deleteCall())
			require.NoError(t, err)
			o := outcomeOf(t, res)
			assert.Equal(t, "proposed", o.Status)
			assert.Equal(t, "Delete this note? (notes_delete)", o.Summary)
			assert.Empty(t, a.questions(), "off by default: nobody is asked")
			assert.Zero(t, f.runs[tDelete].Load())

			conf, err := in.svc.Confirm(t.Context(), o.Proposal, ana)
			require.NoError(t, err)
			assert.Equal(t, "deleted note 7 (run 1)", conf.Result.Text())
			_, err = in.svc.Confirm(t.Context(), o.Proposal, ana)
			require.Error(t, err)
			assert.Equal(t, int64(1), f.runs[tDelete].Load())
			assert.Equal(t, []row{
				{"ana", "proposal", "notes_delete", "ok", ""},
				{"ana", "confirmation", "notes_delete", "ok", ""},
				{"ana", "refusal", "notes_delete", "refused", "already_confirmed"},
			}, rows(t, in.svc))
		})
	}
}

// TestElicitation checks that with ConfirmOptions the person is asked,
// over each protocol version and transport, and that their answer
// decides: accept runs the tool once, decline rejects the proposal,
// cancel leaves it to the host. Where the session cannot ask (stateless
// HTTP before 2026-07-28, a client that does not elicit), the answer is
// the proposal.
func TestElicitation(t *testing.T) {
	t.Parallel()
	transports := []struct {
		name     string
		protocol string
		dial     func(t *testing.T, in *instance, o *mcp.ClientOptions) *mcp.ClientSession
		asks     bool
	}{
		{"memory " + legacy, legacy, func(t *testing.T, in *instance, o *mcp.ClientOptions) *mcp.ClientSession {
			return dialMemory(t, in, ana, legacy, o)
		}, true},
		{"memory 2025-06-18", "2025-06-18", func(t *testing.T, in *instance, o *mcp.ClientOptions) *mcp.ClientSession {
			return dialMemory(t, in, ana, "2025-06-18", o) // elicitation {} means form
		}, true},
		{"memory latest", latest, func(t *testing.T, in *instance, o *mcp.ClientOptions) *mcp.ClientSession {
			return dialMemory(t, in, ana, latest, o)
		}, true},
		{"http stateful " + legacy, legacy, func(t *testing.T, in *instance, o *mcp.ClientOptions) *mcp.ClientSession {
			return dialHTTP(t, serveHTTP(t, in, false), anaToken, legacy, o)
		}, true},
		{"http stateless latest", latest, func(t *testing.T, in *instance, o *mcp.ClientOptions) *mcp.ClientSession {
			return dialHTTP(t, serveHTTP(t, in, true), anaToken, latest, o)
		}, true},
		{"http stateless " + legacy, legacy, func(t *testing.T, in *instance, o *mcp.ClientOptions) *mcp.ClientSession {
			return dialHTTP(t, serveHTTP(t, in, true), anaToken, legacy, o)
		}, false},
	}
	for _, tr := range transports {
		for _, action := range []string{"accept", "decline", "cancel"} {
			t.Run(tr.name+"/"+action, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t)
				in := newInstance(t, f, nil, true, nil)
				a := &answer{action: action}
				cs := tr.dial(t, in, clientOptions(a, false))
				res, err := cs.CallTool(t.Context(), deleteCall())
				require.NoError(t, err)
				o := outcomeOf(t, res)
				assert.Equal(t, "Delete this note? (notes_delete)", o.Summary)
				assert.True(t, strings.HasPrefix(o.Proposal, "prop_"))

				if !tr.asks {
					assert.Empty(t, a.questions(), "a stateless session before 2026-07-28 cannot ask")
					assert.Equal(t, "proposed", o.Status)
					assert.Zero(t, f.runs[tDelete].Load())
					_, err := in.svc.Confirm(t.Context(), o.Proposal, ana)
					require.NoError(t, err, "the host confirms it")
					assert.Equal(t, int64(1), f.runs[tDelete].Load())
					return
				}
				q := a.questions()
				require.Len(t, q, 1, "asked once")
				assert.Contains(t, q[0], "Confirm: Delete this note? (notes_delete)")
				assert.Contains(t, q[0], `Arguments: {"id":7}`)
				assert.Contains(t, q[0], o.Proposal)
				switch action {
				case "accept":
					assert.Equal(t, "confirmed", o.Status)
					assert.JSONEq(t, `"deleted note 7 (run 1)"`, string(o.Result))
					assert.Equal(t, int64(1), f.runs[tDelete].Load())
					assert.Equal(t, []row{
						{"ana", "proposal", "notes_delete", "ok", ""},
						{"ana", "confirmation", "notes_delete", "ok", ""},
					}, rows(t, in.svc))
				case "decline":
					assert.Equal(t, "rejected", o.Status)
					assert.Zero(t, f.runs[tDelete].Load())
					_, err := in.svc.Confirm(t.Context(), o.Proposal, ana)
					require.Error(t, err, "a rejected proposal never runs")
					assert.Equal(t, []row{
						{"ana", "proposal", "notes_delete", "ok", ""},
						{"ana", "rejection", "notes_delete", "ok", ""},
						{"ana", "refusal", "notes_delete", "refused", "proposal_rejected"},
					}, rows(t, in.svc))
				case "cancel":
					assert.Equal(t, "proposed", o.Status)
					assert.Zero(t, f.runs[tDelete].Load())
					_, err := in.svc.Confirm(t.Context(), o.Proposal, ana)
					require.NoError(t, err, "still pending: the host confirms it")
					assert.Equal(t, int64(1), f.runs[tDelete].Load())
				}
			})
		}
	}
}

// TestElicitationNeedsAClientThatAsks checks that a client without the
// elicitation capability gets the proposal.
func TestElicitationNeedsAClientThatAsks(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{legacy, latest} {
		f := newFixture(t)
		in := newInstance(t, f, nil, true, nil)
		cs := dialMemory(t, in, ana, protocol, clientOptions(nil, false))
		res, err := cs.CallTool(t.Context(), deleteCall())
		require.NoError(t, err)
		assert.Equal(t, "proposed", outcomeOf(t, res).Status)
		assert.Zero(t, f.runs[tDelete].Load())
	}
}

// firstRound makes ana's call of notes_delete with the multi round-trip
// middleware off and returns the input_required answer.
func firstRound(t *testing.T, cs *mcp.ClientSession) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), deleteCall())
	require.NoError(t, err)
	require.True(t, res.NeedsInput(), "an input_required result")
	require.Contains(t, res.InputRequests, "confirm")
	q, ok := res.InputRequests["confirm"].(*mcp.ElicitParams)
	require.True(t, ok)
	assert.Contains(t, q.Message, "Confirm: Delete this note? (notes_delete)")
	require.NotEmpty(t, res.RequestState)
	return res
}

// retry is the second round with state and action.
func retry(t *testing.T, cs *mcp.ClientSession, name, state, action string) *mcp.CallToolResult {
	t.Helper()
	p := deleteCall()
	p.Name = name
	p.RequestState = state
	p.InputResponses = mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: action}}
	res, err := cs.CallTool(t.Context(), p)
	require.NoError(t, err)
	return res
}

// tamper flips one bit of the HMAC of a requestState.
func tamper(t *testing.T, state string) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(state)
	require.NoError(t, err)
	b[12] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestRequestState checks the second round of a 2026-07-28 confirmation:
// a tampered requestState, another principal's, a tool other than the
// proposal's, and an expired one are refused and run nothing; an
// accepted one runs the tool once; replayed after that, it runs nothing
// and the service records the refusal.
func TestRequestState(t *testing.T) {
	t.Parallel()
	now := time.Now()
	var skew time.Duration
	f := newFixture(t)
	in := newInstance(t, f, nil, true, &mcpserver.ConfirmOptions{Key: key, StateTTL: time.Minute, Now: func() time.Time { return now.Add(skew) }})
	url := serveHTTP(t, in, true)
	anaCS := dialHTTP(t, url, anaToken, latest, clientOptions(&answer{}, true))
	benCS := dialHTTP(t, url, benToken, latest, clientOptions(&answer{}, true))

	first := firstRound(t, anaCS)
	state := first.RequestState
	refused := func(res *mcp.CallToolResult) {
		t.Helper()
		assert.True(t, res.IsError)
		assert.Equal(t, "this confirmation is not valid (altered, expired, or another person's); nothing was run", textOf(res))
	}
	refused(retry(t, anaCS, "notes_delete", tamper(t, state), "accept"))
	refused(retry(t, anaCS, "notes_delete", state[:len(state)-2], "accept"))
	refused(retry(t, anaCS, "notes_delete", "garbage", "accept"))
	refused(retry(t, anaCS, "notes_read", state, "accept"))
	for _, name := range []string{"notes_delete", "notes_read"} {
		res, err := benCS.CallTool(t.Context(), &mcp.CallToolParams{Name: name, RequestState: state,
			InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}})
		require.NoError(t, err)
		refused(res) // ana's proposal is not ben's to decide
	}
	skew = 2 * time.Minute
	refused(retry(t, anaCS, "notes_delete", state, "accept"))
	skew = 0
	assert.Zero(t, f.runs[tDelete].Load(), "nothing ran")

	noAnswer := deleteCall()
	noAnswer.RequestState = state
	res, err := anaCS.CallTool(t.Context(), noAnswer)
	require.NoError(t, err)
	assert.Equal(t, "the retried call carries no answer to the confirmation request; nothing was run", textOf(res))

	o := outcomeOf(t, retry(t, anaCS, "notes_delete", state, "accept"))
	assert.Equal(t, "confirmed", o.Status)
	assert.JSONEq(t, `"deleted note 7 (run 1)"`, string(o.Result))

	replay := retry(t, anaCS, "notes_delete", state, "accept")
	assert.True(t, replay.IsError)
	assert.Contains(t, textOf(replay), "was already confirmed and ran; it is not run again")
	replay = retry(t, anaCS, "notes_delete", state, "decline")
	assert.True(t, replay.IsError, "nor can it be rejected now")
	assert.Equal(t, int64(1), f.runs[tDelete].Load(), "the tool ran once")

	assert.Equal(t, []row{
		{"ana", "proposal", "notes_delete", "ok", ""},
		{"ana", "confirmation", "notes_delete", "ok", ""},
		{"ana", "refusal", "notes_delete", "refused", "already_confirmed"},
		{"ana", "refusal", "notes_delete", "refused", "already_confirmed"},
	}, rows(t, in.svc), "the refused states reached no service: only the proposal's record")
}

// TestRequestStateDeclined checks that a declined proposal's state cannot
// be accepted later.
func TestRequestStateDeclined(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := newInstance(t, f, nil, true, nil)
	cs := dialHTTP(t, serveHTTP(t, in, true), anaToken, latest, clientOptions(&answer{}, true))
	state := firstRound(t, cs).RequestState
	assert.Equal(t, "rejected", outcomeOf(t, retry(t, cs, "notes_delete", state, "decline")).Status)
	res := retry(t, cs, "notes_delete", state, "accept")
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "was rejected; nothing was run")
	assert.Zero(t, f.runs[tDelete].Load())
}

// TestNoInputAsked checks that a server that asks for nothing refuses a
// call carrying a requestState.
func TestNoInputAsked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := newInstance(t, f, nil, false, nil)
	cs := dialHTTP(t, serveHTTP(t, in, true), anaToken, latest, clientOptions(nil, true))
	p := deleteCall()
	p.RequestState = "anything"
	_, err := cs.CallTool(t.Context(), p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "this server asked for no input")
	assert.Empty(t, rows(t, in.svc))
}

// TestTwoInstances checks that a proposal made on one instance is
// confirmed on another sharing its store: by the host through the other's
// service, and by the person, the requestState issued by one resumed by
// the other (they share the key), the tool running once.
//
// Here the instances share one service.MemoryStore in one process;
// TestTwoInstancesOnPostgreSQL runs the same over two connections to one
// PostgreSQL database.
func TestTwoInstances(t *testing.T) {
	t.Parallel()
	t.Run("host", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		store := service.NewMemoryStore()
		one, two := newInstance(t, f, store, false, nil), newInstance(t, f, store, false, nil)
		cs := dialHTTP(t, serveHTTP(t, one, true), anaToken, latest, nil)
		res, err := cs.CallTool(t.Context(), deleteCall())
		require.NoError(t, err)
		o := outcomeOf(t, res)
		conf, err := two.svc.Confirm(t.Context(), o.Proposal, ana)
		require.NoError(t, err)
		assert.Equal(t, "deleted note 7 (run 1)", conf.Result.Text())
		_, err = one.svc.Confirm(t.Context(), o.Proposal, ana)
		require.Error(t, err, "confirmed on the other instance")
		assert.Equal(t, int64(1), f.runs[tDelete].Load())
	})
	t.Run("person", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		store := service.NewMemoryStore()
		one, two := newInstance(t, f, store, true, nil), newInstance(t, f, store, true, nil)
		csOne := dialHTTP(t, serveHTTP(t, one, true), anaToken, latest, clientOptions(&answer{}, true))
		csTwo := dialHTTP(t, serveHTTP(t, two, true), anaToken, latest, clientOptions(&answer{}, true))
		state := firstRound(t, csOne).RequestState
		o := outcomeOf(t, retry(t, csTwo, "notes_delete", state, "accept"))
		assert.Equal(t, "confirmed", o.Status)
		replay := retry(t, csOne, "notes_delete", state, "accept")
		assert.True(t, replay.IsError, "replayed on the first instance: refused")
		assert.Equal(t, int64(1), f.runs[tDelete].Load())
		assert.Equal(t, []row{
			{"ana", "proposal", "notes_delete", "ok", ""},
			{"ana", "confirmation", "notes_delete", "ok", ""},
			{"ana", "refusal", "notes_delete", "refused", "already_confirmed"},
		}, rows(t, one.svc), "one record, shared")

		// Another key: the state is not this instance's to resume.
		other := newInstance(t, f, store, true, &mcpserver.ConfirmOptions{Key: []byte("another key, 32 bytes or longer!")})
		csOther := dialHTTP(t, serveHTTP(t, other, true), anaToken, latest, clientOptions(&answer{}, true))
		state = firstRound(t, csOne).RequestState
		res := retry(t, csOther, "notes_delete", state, "accept")
		assert.True(t, res.IsError)
		assert.Equal(t, int64(1), f.runs[tDelete].Load())
	})
}

func TestConfirmOptionsChecked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	svc, err := service.New(f.reg, nil)
	require.NoError(t, err)
	_, err = mcpserver.New(svc, &mcpserver.Options{Confirm: &mcpserver.ConfirmOptions{Key: key}})
	assert.ErrorContains(t, err, "nil Confirmer")
	_, err = mcpserver.New(svc, &mcpserver.Options{Confirm: &mcpserver.ConfirmOptions{Confirmer: nil, Key: []byte("short")}})
	assert.Error(t, err)
}

// TestCallIDReusedOverMCP: the call-id _meta key names one call: the same
// key on another tool, or with other arguments, is refused with
// call_id_reused, recorded, and runs nothing.
func TestCallIDReusedOverMCP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := newInstance(t, f, nil, false, nil)
	cs := dialHTTP(t, serveHTTP(t, in, true), anaToken, latest, nil)
	meta := mcp.Meta{mcpserver.MetaCallID: "call_1", mcpserver.MetaConversation: "conv-1"}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Meta: meta, Name: "notes_update", Arguments: map[string]any{"id": 3}})
	require.NoError(t, err)
	assert.Equal(t, "updated note 3 (run 1)", textOf(res))
	for _, p := range []*mcp.CallToolParams{
		{Meta: meta, Name: "notes_read", Arguments: map[string]any{"id": 3}},
		{Meta: meta, Name: "notes_update", Arguments: map[string]any{"id": 4}},
		{Meta: meta, Name: "notes_delete", Arguments: map[string]any{"id": 3}},
	} {
		res, err := cs.CallTool(t.Context(), p)
		require.NoError(t, err, p.Name)
		assert.True(t, res.IsError, p.Name)
		assert.Contains(t, textOf(res), "call ID of its own", p.Name)
	}
	assert.Equal(t, int64(1), f.runs[tUpdate].Load())
	assert.Zero(t, f.runs[tRead].Load())
	recs, err := in.svc.Records(t.Context(), service.Query{CallID: "call_1"})
	require.NoError(t, err)
	require.Len(t, recs, 4)
	for _, r := range recs[1:] {
		assert.Equal(t, "call_id_reused", r.Code.String())
	}
}

// TestConcurrentElicitations: two sessions of one person are asked about
// one proposal at once (the second repeats the first's call ID) and both
// accept: the tool runs once; one answer is the run, the other says it
// ran already.
func TestConcurrentElicitations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := newInstance(t, f, nil, true, nil)
	asked := make(chan struct{}, 2)
	release := make(chan struct{})
	handler := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked <- struct{}{}
		<-release
		return &mcp.ElicitResult{Action: "accept"}, nil
	}
	meta := mcp.Meta{mcpserver.MetaCallID: "call_p"}
	results := make(chan *mcp.CallToolResult, 2)
	for range 2 {
		cs := dialMemory(t, in, ana, legacy, &mcp.ClientOptions{ElicitationHandler: handler})
		go func() {
			p := deleteCall()
			p.Meta = meta
			res, err := cs.CallTool(t.Context(), p)
			if !assert.NoError(t, err) {
				res = &mcp.CallToolResult{IsError: true}
			}
			results <- res
		}()
	}
	<-asked
	<-asked
	close(release)
	var confirmed, refused int
	for range 2 {
		res := <-results
		if res.IsError {
			refused++
			assert.Contains(t, textOf(res), "already confirmed")
			continue
		}
		confirmed++
		assert.Equal(t, "confirmed", outcomeOf(t, res).Status)
	}
	assert.Equal(t, 1, confirmed)
	assert.Equal(t, 1, refused)
	assert.Equal(t, int64(1), f.runs[tDelete].Load(), "ran once")
}

// TestElicitationOfATamperedProposal: the arguments of a proposal are
// changed in the store while the person is asked about it: accepting
// runs nothing, whatever the question showed.
func TestElicitationOfATamperedProposal(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	st := &swapArgs{MemoryStore: service.NewMemoryStore()}
	in := newInstance(t, f, st, true, nil)
	a := &answer{action: "accept"}
	cs := dialMemory(t, in, ana, legacy, clientOptions(a, false))
	st.args.Store(&[]byte{'{', '}'})
	res, err := cs.CallTool(t.Context(), deleteCall())
	require.NoError(t, err)
	require.Len(t, a.questions(), 1)
	assert.True(t, res.IsError, "refused")
	assert.Contains(t, textOf(res), "does not match its digest")
	assert.Zero(t, f.runs[tDelete].Load(), "nothing ran")
}

// swapArgs is a store whose claimed proposals come back with other
// arguments (written to behind the service's back), once args is set.
type swapArgs struct {
	*service.MemoryStore
	args atomic.Pointer[[]byte]
}

func (s *swapArgs) Claim(ctx context.Context, id string, rec *service.Record) (*service.Proposal, error) {
	p, err := s.MemoryStore.Claim(ctx, id, rec)
	if a := s.args.Load(); err == nil && a != nil {
		p.Args = *a
	}
	return p, err
}
