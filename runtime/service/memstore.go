package service

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"sync"
	"time"
)

// MemoryStore is a Store in the process's memory: everything is lost when
// the process ends, and several processes cannot share it. It suits
// tests, a single process that may lose its proposals and records on a
// restart, and programs that want no database. It keeps at most
// MaxRecords records (see SetMaxRecords), dropping the oldest half when it
// holds more: a dropped call is no longer deduplicated by its call ID.
// The zero value is not usable; use NewMemoryStore.
type MemoryStore struct {
	mu        sync.Mutex
	max       int
	next      int64
	ring      []memRecord // the records, oldest first from head, count of them
	head      int
	count     int
	calls     map[callKey]int64
	proposals map[string]*Proposal
	order     []string // proposal IDs, oldest first
	key       []byte
	sessions  map[[32]byte]*Session
	fail      func(op string) error
	arena     []byte // the block Args are copied into (keep)
	tasks     memTasks
}

// memRecord is a record as the memory store keeps it: cut is 0, or the
// cut of the logged form to make of its raw Args (startRaw).
type memRecord struct {
	Record
	cut int
}

// at returns the record i, counted from the oldest; m.mu is held.
func (m *MemoryStore) at(i int) *memRecord {
	if i += m.head; i >= len(m.ring) {
		i -= len(m.ring)
	}
	return &m.ring[i]
}

// callKey is what a call ID deduplicates by.
type callKey struct{ principal, conversation, callID string }

// DefaultMaxRecords is how many records a MemoryStore keeps at most.
const DefaultMaxRecords = 10_000

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{
		max:       DefaultMaxRecords,
		calls:     map[callKey]int64{},
		proposals: map[string]*Proposal{},
	}
}

var _ Store = (*MemoryStore)(nil)

// SetMaxRecords sets how many records m keeps at most; n <= 0 means
// DefaultMaxRecords.
func (m *MemoryStore) SetMaxRecords(n int) {
	if n <= 0 {
		n = DefaultMaxRecords
	}
	m.mu.Lock()
	m.max = n
	m.mu.Unlock()
}

// FailWith makes every later write whose operation f returns an error for
// fail with that error, writing nothing: f is called with "start",
// "finish", "append", "propose", "claim", "settle", "retire" or "key" (the
// first Key, which stores one). nil restores normal operation. It is for
// tests of what a service does when its store fails.
func (m *MemoryStore) FailWith(f func(op string) error) {
	m.mu.Lock()
	m.fail = f
	m.mu.Unlock()
}

// failed returns the injected failure of op, if any; m.mu is held.
func (m *MemoryStore) failed(op string) error {
	if m.fail == nil {
		return nil
	}
	return m.fail(op)
}

// add appends rec, a copy of it, and sets rec.ID; a call or proposal with
// a call ID becomes the record of its key unless an earlier one is: the
// first run of a call ID is the one a repeat is answered from (and a
// durable store's unique index keeps the first too). A cut other than 0
// says rec.Args are raw arguments (startRaw). m.mu is held.
func (m *MemoryStore) add(rec *Record, cut int) {
	if m.count >= m.max {
		m.drop(m.count - m.max/2)
	}
	if m.count == len(m.ring) {
		m.grow()
	}
	m.next++
	rec.ID = m.next
	if cut != 0 {
		rec.Args = m.keep(rec.Args)
	}
	*m.at(m.count) = memRecord{*rec, cut}
	m.count++
	if rec.CallID != "" && (rec.Event == EventCall || rec.Event == EventProposal) {
		k := callKey{rec.Principal, rec.Conversation, rec.CallID}
		if _, taken := m.calls[k]; !taken {
			m.calls[k] = rec.ID
		}
	}
}

// arenaChunk is the size of the blocks the memory store copies raw Args
// into (keep), and maxArenaArgs the longest Args it copies there, and the
// longest a service leaves raw (Service.logForm).
const (
	arenaChunk   = 16 << 10
	maxArenaArgs = arenaChunk / 8
)

// keep returns a copy of args, raw (startRaw), that the store keeps: in
// its current block of them (m.arena), which the collector frees with the
// last record that points into it, or, when longer than maxArenaArgs, of
// its own. The copy's capacity is its length: appending to it copies.
// m.mu is held.
func (m *MemoryStore) keep(args []byte) []byte {
	switch {
	case len(args) == 0:
		return args
	case len(args) > maxArenaArgs:
		return bytes.Clone(args)
	case cap(m.arena)-len(m.arena) < len(args):
		m.arena = make([]byte, 0, arenaChunk)
	}
	start := len(m.arena)
	m.arena = append(m.arena, args...)
	return m.arena[start:len(m.arena):len(m.arena)]
}

// Start implements Store.
func (m *MemoryStore) Start(_ context.Context, rec *Record) (*Record, error) {
	return m.start(rec, 0)
}

// startRaw is Start of a record whose Args are a call's arguments as sent,
// of a tool without secrets: the store keeps a copy of them and makes
// their logged form (appendLogForm, strings cut at maxString) when the
// record is first read (formed), and clears rec.Args, which no one is to
// read as the form. It spares the call the pass over its arguments that
// makes their form; only a store that makes nothing of a record before it
// is read may do so.
func (m *MemoryStore) startRaw(rec *Record, maxString int) (*Record, error) {
	prior, err := m.start(rec, maxString)
	if prior == nil && err == nil {
		rec.Args = nil
	}
	return prior, err
}

// start is Start, with add's cut.
func (m *MemoryStore) start(rec *Record, cut int) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("start"); err != nil {
		return nil, err
	}
	if prior := m.prior(rec); prior != nil {
		return prior, nil
	}
	m.add(rec, cut)
	return nil, nil
}

// grow makes room in the ring, which is full and holds fewer than m.max
// records: for twice as many, m.max at most; m.mu is held.
func (m *MemoryStore) grow() {
	ring := make([]memRecord, min(max(2*len(m.ring), 16), m.max))
	for i := range m.count {
		ring[i] = *m.at(i)
	}
	m.ring, m.head = ring, 0
}

// formed returns record i, the logged form of its Args made if they are
// raw (startRaw); m.mu is held.
func (m *MemoryStore) formed(i int) *Record {
	r := m.at(i)
	if r.cut != 0 {
		if !compactForm(r.Args, r.cut) {
			r.Args = writeLogForm(nil, r.Args, nil, r.cut)
		}
		r.cut = 0
	}
	return &r.Record
}

// prior returns a copy of the record with rec's call ID, if any; m.mu is
// held.
func (m *MemoryStore) prior(rec *Record) *Record {
	if rec.CallID == "" {
		return nil
	}
	id, ok := m.calls[callKey{rec.Principal, rec.Conversation, rec.CallID}]
	if !ok {
		return nil
	}
	i, ok := m.index(id)
	if !ok {
		return nil
	}
	prior := *m.formed(i)
	return &prior
}

// Finish implements Store.
func (m *MemoryStore) Finish(_ context.Context, rec *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("finish"); err != nil {
		return err
	}
	m.finish(rec)
	return nil
}

// index returns the position of the record id, counted from the oldest:
// the records are in the order of their IDs, which add assigns
// increasing. m.mu is held.
func (m *MemoryStore) index(id int64) (int, bool) {
	if m.count == 0 {
		return 0, false
	}
	// Without a purge in between, IDs are consecutive.
	if i := id - m.at(0).ID; i >= 0 && i < int64(m.count) && m.at(int(i)).ID == id {
		return int(i), true
	}
	i := sort.Search(m.count, func(i int) bool { return m.at(i).ID >= id })
	return i, i < m.count && m.at(i).ID == id
}

// finish copies the end of rec's run into the stored record; m.mu is held.
func (m *MemoryStore) finish(rec *Record) {
	i, ok := m.index(rec.ID)
	if !ok {
		return
	}
	r := m.at(i)
	r.Outcome, r.Code, r.Duration, r.Error = rec.Outcome, rec.Code, rec.Duration, rec.Error
	r.Result, r.Structured = rec.Result, rec.Structured
}

// Append implements Store.
func (m *MemoryStore) Append(_ context.Context, rec *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("append"); err != nil {
		return err
	}
	m.add(rec, 0)
	return nil
}

// Records implements Store.
func (m *MemoryStore) Records(_ context.Context, q Query) ([]Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if q.Newest {
		return m.newest(&q), nil
	}
	var out []Record
	for i := range m.count {
		if len(out) == q.limit() {
			break
		}
		if q.Match(&m.at(i).Record) {
			out = append(out, *m.formed(i))
		}
	}
	return out, nil
}

// Propose implements Store.
func (m *MemoryStore) Propose(_ context.Context, p *Proposal, rec *Record) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("propose"); err != nil {
		return nil, err
	}
	if prior := m.prior(rec); prior != nil {
		return prior, nil
	}
	cp := *p
	cp.State = StatePending
	m.proposals[p.ID] = &cp
	m.order = append(m.order, p.ID)
	m.add(rec, 0)
	return nil, nil
}

// Proposal implements Store.
func (m *MemoryStore) Proposal(_ context.Context, id string) (*Proposal, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.proposals[id]
	if !ok {
		return nil, ErrNotFound
	}
	cp := *p
	return &cp, nil
}

// Proposals implements Store.
func (m *MemoryStore) Proposals(_ context.Context, q ProposalQuery) ([]Proposal, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultQueryLimit
	}
	var out []Proposal
	for _, id := range m.order {
		if len(out) == limit {
			break
		}
		if p := m.proposals[id]; p != nil && q.Match(p) {
			out = append(out, *p)
		}
	}
	return out, nil
}

// Claim implements Store.
func (m *MemoryStore) Claim(_ context.Context, id string, rec *Record) (*Proposal, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.proposals[id]
	if !ok {
		return nil, ErrNotFound
	}
	if p.State != StatePending || !rec.Time.Before(p.Expires) {
		cp := *p
		return &cp, ErrNotPending
	}
	if err := m.failed("claim"); err != nil {
		return nil, err
	}
	p.State, p.DecidedBy, p.Decided = StateRunning, rec.Principal, rec.Time
	m.add(rec, 0)
	cp := *p
	return &cp, nil
}

// Settle implements Store.
func (m *MemoryStore) Settle(_ context.Context, id string, state State, rec *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed("settle"); err != nil {
		return err
	}
	if p, ok := m.proposals[id]; ok && p.State == StateRunning {
		p.State = state
	}
	m.finish(rec)
	return nil
}

// Close implements Store.
func (m *MemoryStore) Retire(_ context.Context, id string, state State, rec *Record) (*Proposal, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.proposals[id]
	if !ok {
		return nil, ErrNotFound
	}
	if p.State != StatePending || state == StateRejected && !rec.Time.Before(p.Expires) {
		cp := *p
		return &cp, ErrNotPending
	}
	if err := m.failed("retire"); err != nil {
		return nil, err
	}
	p.State, p.DecidedBy, p.Decided = state, rec.Principal, rec.Time
	m.add(rec, 0)
	cp := *p
	return &cp, nil
}

// Key implements Store.
func (m *MemoryStore) Key(_ context.Context, fresh []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.key == nil {
		if err := m.failed("key"); err != nil {
			return nil, err
		}
		if m.holdsOpen() {
			return nil, ErrKeyLost
		}
		m.key = append([]byte(nil), fresh...)
	}
	return append([]byte(nil), m.key...), nil
}

// drop forgets the n oldest records; m.mu is held. Their places in the
// ring keep what they held, out of reach, until new records are written
// there (when it is full, the next n).
func (m *MemoryStore) drop(n int) {
	for i := range n {
		m.forget(&m.at(i).Record)
	}
	m.head, m.count = (m.head+n)%len(m.ring), m.count-n
}

// forget removes r's indexes; m.mu is held.
func (m *MemoryStore) forget(r *Record) {
	if r.CallID == "" {
		return
	}
	if k := (callKey{r.Principal, r.Conversation, r.CallID}); m.calls[k] == r.ID {
		delete(m.calls, k)
	}
}

// Purge implements Store.
func (m *MemoryStore) Purge(_ context.Context, before time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	kept := 0
	for i := range m.count {
		if r := m.at(i); r.Time.Before(before) {
			n++
			m.forget(&r.Record)
			continue
		}
		*m.at(kept) = *m.at(i)
		kept++
	}
	for i := kept; i < m.count; i++ {
		*m.at(i) = memRecord{}
	}
	m.count = kept
	m.order = slices.DeleteFunc(m.order, func(id string) bool {
		if m.proposals[id].Expires.Before(before) {
			delete(m.proposals, id)
			n++
			return true
		}
		return false
	})
	n += m.purgeSessions(before)
	return n, nil
}
