package service_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/notify"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// inTurn returns ctx carrying an Invocation for p in conversation c1 and
// the given turn, with a call ID an adapter may have left there.
func inTurn(p tool.Principal, turn string) context.Context {
	return tool.WithInvocation(context.Background(), &tool.Invocation{
		Principal: p, Conversation: "c1", Turn: turn, CallID: "call-x", Agent: tool.Agent{Name: "helper"},
	})
}

// offers returns the offer rows of st.
func offers(t testing.TB, st service.Store) []service.Record {
	t.Helper()
	var out []service.Record
	for _, r := range records(t, st) {
		if r.Event == service.EventOffer {
			out = append(out, r)
		}
	}
	return out
}

func TestRecordOfferWritesARowPerTurnAndChange(t *testing.T) {
	s, _, st, clk := newService(t, nil)
	offer := s.Offer(inTurn(alice, "t1"))
	require.NotEmpty(t, offer)

	s.RecordOffer(inTurn(alice, "t1"), offer)
	s.RecordOffer(inTurn(alice, "t1"), offer) // asked again in the turn: nothing new
	recs := offers(t, st)
	require.Len(t, recs, 1)
	r := recs[0]
	assert.Equal(t, service.EventOffer, r.Event)
	assert.Equal(t, service.OutcomeOK, r.Outcome)
	assert.Equal(t, "offer", r.Event.String())
	assert.Equal(t, "alice", r.Principal)
	assert.Equal(t, "c1", r.Conversation)
	assert.Equal(t, "t1", r.Turn)
	assert.Equal(t, "helper", r.Agent)
	assert.Empty(t, r.CallID, "an offer answers no call: it must not take a call's key")
	assert.Empty(t, r.Tool)
	assert.Equal(t, clk.now(), r.Time)
	assert.JSONEq(t, `{"tools":["act","block","echo","hidden","login","notes_delete","notes_read","reserved","slow_propose","summarized","wait_ctx","whoami"]}`, string(r.Args))

	s.RecordOffer(inTurn(alice, "t2"), offer) // a new turn
	s.RecordOffer(inTurn(alice, "t2"), offer[:3])
	s.RecordOffer(inTurn(alice, "t2"), offer[:3])
	s.RecordOffer(tool.WithReadOnly(inTurn(alice, "t2")), offer[:3]) // the same names, read-only
	s.RecordOffer(inTurn(bob, "t2"), offer[:3])                      // another principal
	recs = offers(t, st)
	require.Len(t, recs, 5)
	assert.Equal(t, "t2", recs[1].Turn)
	assert.JSONEq(t, `{"tools":["act","block","echo"]}`, string(recs[2].Args))
	assert.JSONEq(t, `{"tools":["act","block","echo"],"read_only":true}`, string(recs[3].Args))
	assert.Equal(t, "bob", recs[4].Principal)

	s.RecordOffer(inTurn(alice, "t2"), nil)
	assert.JSONEq(t, `{"tools":[]}`, string(offers(t, st)[5].Args), "an empty offer is recorded as one")

	s.RecordOffer(context.Background(), offer[:1])
	r = offers(t, st)[6]
	assert.Empty(t, r.Principal, "a context without an Invocation is recorded as anonymous")
	assert.JSONEq(t, `{"tools":["act"]}`, string(r.Args))
}

func TestRecordOfferRetriesAfterAStoreFailure(t *testing.T) {
	var logs bytes.Buffer
	s, _, st, _ := newService(t, &service.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	offer := s.Offer(inTurn(alice, "t1"))
	st.FailWith(func(op string) error { return errors.New("disk full") })
	s.RecordOffer(inTurn(alice, "t1"), offer)
	assert.Contains(t, logs.String(), "record an offer")
	assert.Contains(t, logs.String(), "disk full")
	st.FailWith(nil)
	require.Empty(t, offers(t, st))
	s.RecordOffer(inTurn(alice, "t1"), offer)
	assert.Len(t, offers(t, st), 1, "the offer the store lost is recorded at the next attempt")
}

func TestRecordOfferUnderConcurrency(t *testing.T) {
	s, _, st, _ := newService(t, nil)
	offer := s.Offer(inTurn(alice, "t1"))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for turn := range 50 {
				ctx := tool.WithInvocation(context.Background(), &tool.Invocation{
					Principal: alice, Conversation: fmt.Sprintf("c%d", g), Turn: fmt.Sprintf("t%d", turn)})
				s.RecordOffer(ctx, offer) // the host asks twice a turn
				s.RecordOffer(ctx, offer)
			}
		})
	}
	// Eight callers at once asking in the same turn of one conversation.
	shared := inTurn(bob, "t1")
	for range 8 {
		wg.Go(func() { s.RecordOffer(shared, offer) })
	}
	wg.Wait()
	assert.Len(t, offers(t, st), 8*50+1, "one row per caller and turn, however many ask at once")
}

func TestRecordOfferForgetsOldCallersWithoutLosingOffers(t *testing.T) {
	s, _, st, _ := newService(t, nil)
	offer := s.Offer(inTurn(alice, "t1"))
	const callers = 5000 // more than the service remembers
	for i := range callers {
		ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: alice, Conversation: fmt.Sprintf("c%d", i), Turn: "t1"})
		s.RecordOffer(ctx, offer)
	}
	assert.Len(t, offers(t, st), callers, "every caller's first offer is a row")
	for i := range callers {
		ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: alice, Conversation: fmt.Sprintf("c%d", i), Turn: "t1"})
		s.RecordOffer(ctx, offer)
	}
	got := len(offers(t, st))
	assert.Greater(t, got, callers, "a forgotten caller's offer is recorded again")
	assert.Less(t, got, 2*callers, "the callers it remembers record nothing new")
}

func TestAsRecordsForItsPrincipal(t *testing.T) {
	s, _, st, _ := newService(t, nil)
	c := service.As(s, &tool.Invocation{Principal: alice, Conversation: "stdio"})
	r, ok := c.(tool.Recorder)
	require.True(t, ok, "As over the call service records")
	r.RecordOffer(context.Background(), s.Offer(as(alice, ""))[:2])
	rec := last(t, st)
	assert.Equal(t, service.EventOffer, rec.Event)
	assert.Equal(t, "alice", rec.Principal)
	assert.Equal(t, "stdio", rec.Conversation)

	r.RecordRefusal(context.Background(), "echo", &tool.Error{Code: tool.CodeUnknownTool, Message: "unknown tool echo"})
	rec = last(t, st)
	assert.Equal(t, service.EventRefusal, rec.Event)
	assert.Equal(t, "alice", rec.Principal)
	assert.Equal(t, "echo", rec.Tool)

	_, ok = c.(tool.Notifier)
	assert.True(t, ok)
	_, ok = service.As(tool.Caller(nil), &tool.Invocation{}).(tool.Recorder)
	assert.False(t, ok, "As over a caller that does not record does not pretend to")
}

// The service tells of its dynamic tools' changes when their source tells
// of them (a dynamic.Source does), through As too; a cancelled subscription
// hears nothing more.
func TestServiceTellsOfItsDynamicToolsChanges(t *testing.T) {
	src := &notifyingSource{}
	s, _, _, _ := newService(t, &service.Options{Dynamic: src})
	c := service.As(s, &tool.Invocation{Principal: alice})
	var direct, viaAs atomic.Int64
	cancel := s.Subscribe(func() { direct.Add(1) })
	cancelAs := c.(tool.Notifier).Subscribe(func() { viaAs.Add(1) })
	src.changes.Notify()
	assert.Equal(t, int64(1), direct.Load())
	assert.Equal(t, int64(1), viaAs.Load())
	cancel()
	cancelAs()
	src.changes.Notify()
	assert.Equal(t, int64(1), direct.Load(), "cancelled")
	assert.Equal(t, int64(1), viaAs.Load(), "cancelled")

	quiet, _, _, _ := newService(t, nil) // no dynamic source: nothing to tell
	quiet.Subscribe(func() {})()
}

// notifyingSource is a tool.Source of no tools that tells of changes.
type notifyingSource struct{ changes notify.List }

func (*notifyingSource) AppendTools(_ context.Context, dst []*tool.Spec) []*tool.Spec { return dst }
func (*notifyingSource) Lookup(context.Context, string) (tool.Dynamic, bool)          { return nil, false }
func (n *notifyingSource) Subscribe(changed func()) func()                            { return n.changes.Subscribe(changed) }
