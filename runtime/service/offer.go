package service

import (
	"context"
	"encoding/json"
	"hash/maphash"
	"log/slog"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// RecordOffer records offer, the tools a layer in front of the service (a
// palette, an MCP server's tools/list) offers the caller ctx carries, as an
// EventOffer row: its Args are {"tools":[names]}, with "read_only":true
// when ctx is marked read-only; its Tool is empty and it carries no call
// ID (tool.Recorder).
//
// An offer equal to the last one recorded for the same principal,
// conversation and agent in the same turn writes nothing, so that a host
// that asks for the offer several times in a turn (to build definitions,
// to answer tools/list page by page, to suggest names for an unknown tool)
// leaves one row; a new turn, or an offer that changed (request_tools
// admitted a tool), writes one. The service remembers the last offer of at
// most maxOfferKeys such callers: a caller it forgot gets its next offer
// recorded again. A store that fails is logged and the offer is recorded
// at the next attempt.
func (s *Service) RecordOffer(ctx context.Context, offer []*tool.Spec) {
	inv, ok := tool.InvocationFrom(ctx)
	if !ok {
		inv = anonymous
	}
	ro := tool.IsReadOnly(ctx)
	key := offerKey{principal: inv.Principal.ID, conversation: inv.Conversation, agent: inv.Agent.Name}
	seen := offerSeen{turn: inv.Turn, sum: s.offers.sum(offer, ro), n: len(offer)}
	if !s.offers.changed(key, seen) {
		return
	}
	rec := callRecord(s.now(), inv, "")
	rec.CallID = "" // an offer answers no call
	rec.Event, rec.Outcome = EventOffer, OutcomeOK
	rec.Args = offerArgs(offer, ro)
	wctx := detached(ctx)
	err := s.store.Append(wctx, &rec)
	wctx.close()
	if err != nil {
		s.offers.forget(key, seen)
		s.log.LogAttrs(ctx, slog.LevelError, "call service: record an offer", slog.String("error", err.Error()))
	}
}

// offerArgs is the Args of an offer's record.
func offerArgs(offer []*tool.Spec, ro bool) []byte {
	a := struct {
		Tools    []string `json:"tools"`
		ReadOnly bool     `json:"read_only,omitempty"`
	}{Tools: make([]string, len(offer)), ReadOnly: ro}
	for i, spec := range offer {
		a.Tools[i] = spec.Name
	}
	b, err := json.Marshal(&a)
	if err != nil { // strings and a bool: cannot fail
		panic("service: marshal an offer: " + err.Error())
	}
	return b
}

// maxOfferKeys bounds the callers whose last recorded offer the service
// remembers.
const maxOfferKeys = 4096

// offerKey is a caller whose offers are recorded.
type offerKey struct{ principal, conversation, agent string }

// offerSeen is the last offer recorded for a caller: its turn and a hash
// of its names (and read-only mark) with their number.
type offerSeen struct {
	turn string
	sum  uint64
	n    int
}

// offerMemo remembers the last offer recorded for each caller.
type offerMemo struct {
	seed maphash.Seed
	mu   sync.Mutex
	last map[offerKey]offerSeen
}

// newOfferMemo returns an empty memo.
func newOfferMemo() *offerMemo {
	return &offerMemo{seed: maphash.MakeSeed(), last: make(map[offerKey]offerSeen)}
}

// sum hashes the names of offer and the read-only mark.
func (m *offerMemo) sum(offer []*tool.Spec, ro bool) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	for _, spec := range offer {
		h.WriteString(spec.Name)
		h.WriteByte(0)
	}
	if ro {
		h.WriteByte(1)
	}
	return h.Sum64()
}

// changed reports whether seen differs from the last offer recorded for
// k, and remembers it as the last one if so.
func (m *offerMemo) changed(k offerKey, seen offerSeen) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	last, ok := m.last[k]
	if ok && last == seen {
		return false
	}
	if !ok && len(m.last) >= maxOfferKeys {
		for old := range m.last { // a random one: map order
			delete(m.last, old)
			break
		}
	}
	m.last[k] = seen
	return true
}

// forget undoes changed(k, seen): the offer was not recorded.
func (m *offerMemo) forget(k offerKey, seen offerSeen) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last[k] == seen {
		delete(m.last, k)
	}
}

var _ tool.Notifier = (*Service)(nil)

// Subscribe implements tool.Notifier: changed is called after every change
// its dynamic tools' source (Options.Dynamic) tells of, when that source
// is a tool.Notifier (a dynamic.Source is); otherwise never. The registry's
// tools do not change; what a principal is offered also follows the
// Policy, which tells nothing.
func (s *Service) Subscribe(changed func()) (cancel func()) {
	if n, ok := s.dyn.(tool.Notifier); ok {
		return n.Subscribe(changed)
	}
	return func() {}
}
