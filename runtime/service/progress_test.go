package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Tool indexes of the long-running registry, in name order.
const (
	lHonest = iota
	lLate
	lReport
	lStubborn
	lWipe
)

// longTools is a registry of long-running tools: report reports 1..3 of
// 3; honest reports once, then waits for its context and returns its
// error; late reports from a goroutine after its call returned, when
// released; stubborn ignores its context (its deadline is 100 ms);
// wipe, a propose tool, behaves as honest once confirmed.
type longTools struct {
	runs    [lWipe + 1]atomic.Int64
	started chan struct{} // receives once per run of honest, stubborn and wipe
	release chan struct{} // closed to end stubborn and late's goroutine
	late    chan struct{} // closed once late's goroutine has reported
}

func newLongTools(t *testing.T) (*longTools, tool.Registry) {
	t.Helper()
	l := &longTools{started: make(chan struct{}, 1), release: make(chan struct{}), late: make(chan struct{})}
	t.Cleanup(func() { close(l.release) })
	specs := []*tool.Spec{
		lHonest:   {Name: "honest", Kind: tool.KindAction},
		lLate:     {Name: "late", Kind: tool.KindRead},
		lReport:   {Name: "report", Kind: tool.KindRead},
		lStubborn: {Name: "stubborn", Kind: tool.KindAction, Timeout: 100 * time.Millisecond},
		lWipe:     {Name: "wipe", Kind: tool.KindPropose},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, l.dispatch, nil)
	require.NoError(t, err)
	return l, reg
}

func (l *longTools) dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	in.Skip()
	in.End()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
		return 0, err
	}
	l.runs[i].Add(1)
	switch i {
	case lReport:
		for n := 1; n <= 3; n++ {
			tool.Progress(ctx, float64(n), 3, "step")
		}
	case lLate:
		go func() {
			<-l.release
			tool.Progress(ctx, 9, 9, "too late")
			close(l.late)
		}()
	case lHonest, lWipe:
		l.started <- struct{}{}
		tool.Progress(ctx, 1, 2, "half way")
		<-ctx.Done()
		return 0, ctx.Err()
	case lStubborn:
		l.started <- struct{}{}
		<-l.release
	}
	out.RawText("done")
	return toolimpl.OutputText, nil
}

// progressObserver is a ProgressObserver that keeps what it sees, in
// order.
type progressObserver struct {
	mu     sync.Mutex
	events []string
	recs   []service.Record // the record of each report
	heard  []tool.ProgressReport
}

func (o *progressObserver) Start(ctx context.Context, name string) context.Context {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events = append(o.events, "start "+name)
	return ctx
}

func (o *progressObserver) End(_ context.Context, rec *service.Record) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events = append(o.events, "end "+rec.Tool+" "+rec.Outcome.String())
}

func (o *progressObserver) ObserveProgress(_ context.Context, rec *service.Record, p tool.ProgressReport) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events = append(o.events, "progress "+rec.Tool)
	o.recs = append(o.recs, *rec)
	o.heard = append(o.heard, p)
}

func (o *progressObserver) snapshot() ([]string, []service.Record, []tool.ProgressReport) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.events...), append([]service.Record(nil), o.recs...), append([]tool.ProgressReport(nil), o.heard...)
}

// longService is a service over the long-running tools with st (nil: a
// memory store) and obs.
func longService(t *testing.T, st service.Store, obs service.Observer) (*service.Service, *longTools) {
	t.Helper()
	l, reg := newLongTools(t)
	s, err := service.New(reg, &service.Options{Store: st, Observer: obs})
	require.NoError(t, err)
	return s, l
}

// sqliteStore opens a SQLite store in t's temporary directory: a store
// that refuses to write under a done context.
func sqliteStore(t *testing.T) service.Store {
	t.Helper()
	st, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "calls.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.Close()) })
	return st
}

func TestProgressReachesTheObserverAndTheCaller(t *testing.T) {
	t.Parallel()
	obs := &progressObserver{}
	s, l := longService(t, nil, obs)
	var caller []tool.ProgressReport
	ctx := tool.WithProgress(as(alice, "call-1"), tool.ProgressFunc(func(_ context.Context, p tool.ProgressReport) {
		caller = append(caller, p) // one goroutine reports: no lock needed
	}))
	_, err := s.Call(ctx, "report", nil)
	require.NoError(t, err)
	events, recs, heard := obs.snapshot()
	assert.Equal(t, []string{"start report", "progress report", "progress report", "progress report", "end report ok"}, events)
	want := []tool.ProgressReport{{Done: 1, Total: 3, Message: "step"}, {Done: 2, Total: 3, Message: "step"}, {Done: 3, Total: 3, Message: "step"}}
	assert.Equal(t, want, heard)
	assert.Equal(t, want, caller, "the caller's listener hears them too")
	for _, r := range recs {
		assert.NotZero(t, r.ID, "the record as started: the store's ID")
		assert.Equal(t, "call-1", r.CallID)
		assert.Equal(t, "alice", r.Principal)
		assert.Equal(t, service.OutcomeStarted, r.Outcome)
	}

	// A report after the call's end is not heard.
	_, err = s.Call(as(alice, ""), "late", nil)
	require.NoError(t, err)
	l.release <- struct{}{}
	<-l.late
	events, _, _ = obs.snapshot()
	assert.Equal(t, "end late ok", events[len(events)-1], "nothing after the end")
	assert.NotContains(t, events, "progress late")
}

// TestProgressWithoutAProgressObserver: the caller's listener hears the
// tool as it would without the service.
func TestProgressWithoutAProgressObserver(t *testing.T) {
	t.Parallel()
	s, _ := longService(t, nil, nil)
	var heard []tool.ProgressReport
	ctx := tool.WithProgress(as(alice, ""), tool.ProgressFunc(func(_ context.Context, p tool.ProgressReport) { heard = append(heard, p) }))
	_, err := s.Call(ctx, "report", nil)
	require.NoError(t, err)
	assert.Len(t, heard, 3)
}

// TestCancelledCallIsRecordedCancelled: a call cancelled while its tool
// runs, and the tool stops: the record says cancelled (not failed, not
// unknown, and not left "started" by a store that refuses a done
// context), and a repeat of its call ID runs nothing.
func TestCancelledCallIsRecordedCancelled(t *testing.T) {
	t.Parallel()
	for _, store := range []struct {
		name string
		open func(*testing.T) service.Store
	}{
		{"memory", func(*testing.T) service.Store { return service.NewMemoryStore() }},
		{"sqlite", sqliteStore},
	} {
		t.Run(store.name, func(t *testing.T) {
			t.Parallel()
			st := store.open(t)
			obs := &progressObserver{}
			s, l := longService(t, st, obs)
			ctx, cancel := context.WithCancel(as(alice, "call-9"))
			go func() { <-l.started; cancel() }()
			res, err := s.Call(ctx, "honest", nil)
			assert.Equal(t, tool.CodeCancelled, codeOf(err))
			assert.NotErrorIs(t, err, tool.ErrAbandoned, "the tool stopped: its outcome is known")
			assert.Equal(t, "the call was cancelled; the tool stopped", res.Text())
			r := last(t, st)
			assert.Equal(t, service.EventCall, r.Event)
			assert.Equal(t, service.OutcomeCancelled, r.Outcome)
			assert.Equal(t, tool.CodeCancelled, r.Code)
			events, _, _ := obs.snapshot()
			assert.Equal(t, []string{"start honest", "progress honest", "end honest cancelled"}, events)

			res, err = s.Call(as(alice, "call-9"), "honest", nil)
			assert.Equal(t, tool.CodeCancelled, codeOf(err), "the repeat is answered with the recorded outcome")
			assert.Equal(t, "the call was cancelled; the tool stopped", res.Text())
			assert.Equal(t, service.EventReplay, last(t, st).Event)
			assert.EqualValues(t, 1, l.runs[lHonest].Load(), "never run again")
		})
	}
}

// TestStubbornCallIsOutcomeUnknown: a tool that ignores its cancellation
// is abandoned at its deadline: outcome unknown, never run again.
func TestStubbornCallIsOutcomeUnknown(t *testing.T) {
	t.Parallel()
	st := sqliteStore(t)
	s, l := longService(t, st, nil)
	ctx, cancel := context.WithCancel(as(alice, "call-3"))
	go func() { <-l.started; cancel() }()
	start := time.Now()
	_, err := s.Call(ctx, "stubborn", nil)
	assert.Equal(t, tool.CodeCancelled, codeOf(err))
	assert.ErrorIs(t, err, tool.ErrAbandoned)
	assert.GreaterOrEqual(t, time.Since(start), 100*time.Millisecond, "abandoned at its deadline, not at the cancellation")
	r := last(t, st)
	assert.Equal(t, service.OutcomeUnknown, r.Outcome)
	_, err = s.Call(as(alice, "call-3"), "stubborn", nil)
	assert.Equal(t, tool.CodeOutcomeUnknown, codeOf(err))
	assert.EqualValues(t, 1, l.runs[lStubborn].Load(), "never run again")
}

// TestCancelledConfirmationNeverReruns: a confirmed proposal whose run is
// cancelled is recorded cancelled and settled: confirming it again runs
// nothing.
func TestCancelledConfirmationNeverReruns(t *testing.T) {
	t.Parallel()
	st := sqliteStore(t)
	s, l := longService(t, st, nil)
	res, err := s.Call(as(alice, ""), "wipe", nil)
	require.NoError(t, err)
	var out struct{ Proposal string }
	require.NoError(t, json.Unmarshal(res.Content, &out))

	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-l.started; cancel() }()
	_, err = s.Confirm(ctx, out.Proposal, alice)
	assert.Equal(t, tool.CodeCancelled, codeOf(err))
	r := last(t, st)
	assert.Equal(t, service.EventConfirmation, r.Event)
	assert.Equal(t, service.OutcomeCancelled, r.Outcome)
	p, err := st.Proposal(context.Background(), out.Proposal)
	require.NoError(t, err)
	assert.Equal(t, service.StateDone, p.State, "settled although the confirmation's context was done")

	conf, err := s.Confirm(context.Background(), out.Proposal, alice)
	assert.Equal(t, tool.CodeAlreadyConfirmed, codeOf(err), "never run again")
	require.NotNil(t, conf)
	assert.True(t, conf.Repeat)
	assert.True(t, conf.Result.IsError, "the recorded outcome: a failure")
	assert.EqualValues(t, 1, l.runs[lWipe].Load())
	var te *tool.Error
	assert.True(t, errors.As(err, &te))
}
