package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestSameCallIDRunsOnce(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	first, err := s.Call(as(alice, "toolu_1"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err)
	again, err := s.Call(as(alice, "toolu_1"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, first.Text(), again.Text(), "the recorded outcome")
	assert.EqualValues(t, 1, f.runs[tAct].Load())
	assert.Equal(t, service.EventReplay, last(t, st).Event)

	// Another conversation, principal or call ID is another call.
	other := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: alice, Conversation: "c2", CallID: "toolu_1"})
	_, err = s.Call(other, "act", nil)
	require.NoError(t, err)
	_, err = s.Call(as(bob, "toolu_1"), "act", nil)
	require.NoError(t, err)
	assert.EqualValues(t, 3, f.runs[tAct].Load())

	// Without a call ID there is no deduplication.
	for range 2 {
		_, err = s.Call(as(alice, ""), "act", nil)
		require.NoError(t, err)
	}
	assert.EqualValues(t, 5, f.runs[tAct].Load())

	// A proposal repeated with its call ID is one proposal.
	id := propose(t, s, "toolu_2")
	assert.Equal(t, id, propose(t, s, "toolu_2"))
	ps, _ := s.Proposals(context.Background(), service.ProposalQuery{})
	assert.Len(t, ps, 1)

	// A failure is replayed too.
	_, err = s.Call(as(alice, "toolu_3"), "act", []byte(`{"nope":1}`))
	assert.Equal(t, tool.CodeInvalidArguments, codeOf(err))
	res, err := s.Call(as(alice, "toolu_3"), "act", []byte(`{"nope":1}`))
	assert.Equal(t, tool.CodeInvalidArguments, codeOf(err))
	assert.True(t, res.IsError)
}

func TestConcurrentCallsWithOneCallIDRunOnce(t *testing.T) {
	s, f, _, _ := newService(t, nil)
	var wg sync.WaitGroup
	res := make([]string, 50)
	for i := range res {
		wg.Go(func() {
			r, err := s.Call(as(alice, "toolu_9"), "act", []byte(`{"text":"y","pause":true}`))
			assert.NoError(t, err)
			res[i] = r.Text()
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, f.runs[tAct].Load())
	for _, r := range res {
		assert.Equal(t, "ran 0 y", r, "the losers waited for the winner's outcome")
	}
}

func TestCallIDOfARunThatNeverFinished(t *testing.T) {
	s, f, st, c := newService(t, &service.Options{AwaitRunning: 30 * time.Millisecond})
	// The process that ran it died after recording the start.
	prior := &service.Record{Time: c.now(), Principal: "alice", Conversation: "c1", CallID: "toolu_5", Tool: "act", Event: service.EventCall, Outcome: service.OutcomeStarted}
	_, err := st.Start(context.Background(), prior)
	require.NoError(t, err)
	_, err = s.Call(as(alice, "toolu_5"), "act", nil)
	assert.Equal(t, tool.CodeOutcomeUnknown, codeOf(err))
	assert.Contains(t, err.Error(), "not run again")
	assert.Zero(t, f.runs[tAct].Load())
}

func TestAbandonedCallIsOutcomeUnknown(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	_, err := s.Call(as(alice, "toolu_7"), "block", nil)
	assert.Equal(t, tool.CodeTimeout, codeOf(err), "the tool ignored its deadline")
	r := last(t, st)
	assert.Equal(t, service.OutcomeUnknown, r.Outcome)
	assert.Equal(t, tool.CodeTimeout, r.Code)
	_, err = s.Call(as(alice, "toolu_7"), "block", nil)
	assert.Equal(t, tool.CodeOutcomeUnknown, codeOf(err), "never re-run")
	assert.EqualValues(t, 1, f.runs[tBlock].Load())
}

func TestContextCancelledMidCall(t *testing.T) {
	s, f, st, _ := newService(t, nil)
	ctx, cancel := context.WithCancel(as(alice, ""))
	go func() {
		<-f.started
		cancel()
	}()
	_, err := s.Call(ctx, "wait_ctx", nil)
	assert.Equal(t, tool.CodeCancelled, codeOf(err), "the tool stopped when cancelled")
	assert.NotErrorIs(t, err, tool.ErrAbandoned)
	r := last(t, st)
	assert.Equal(t, service.OutcomeCancelled, r.Outcome, "it ran, and stopped: cancelled, not failed")
	assert.Equal(t, tool.CodeCancelled, r.Code)

	// Cancelled before: nothing runs, and the record says so.
	_, err = s.Call(ctx, "act", nil)
	assert.Equal(t, tool.CodeCancelled, codeOf(err))
	assert.Equal(t, service.OutcomeRefused, last(t, st).Outcome)
	assert.Zero(t, f.runs[tAct].Load())
}

func TestTurnCapAndOrder(t *testing.T) {
	s, f, st, _ := newService(t, &service.Options{MaxCallsPerTurn: 3, Parallel: 2})
	calls := make([]service.Request, 6)
	for i := range calls {
		calls[i] = service.Request{CallID: "c" + string(rune('a'+i)), Name: "act", Args: []byte(`{"text":"` + string(rune('a'+i)) + `","pause":true}`)}
	}
	out := s.RunTurn(as(alice, ""), calls)
	require.Len(t, out, 6)
	ok := 0
	for i, r := range out {
		if r.Err == nil {
			ok++
			assert.Equal(t, "ran 0 "+string(rune('a'+i)), r.Result.Text(), "in the model's order")
			continue
		}
		assert.Equal(t, tool.CodeRefused, codeOf(r.Err))
		assert.Contains(t, r.Err.Error(), "too many tool calls in this turn")
	}
	assert.Equal(t, 3, ok)
	assert.EqualValues(t, 3, f.runs[tAct].Load())
	assert.LessOrEqual(t, f.peak, 2, "bounded concurrency")
	refusals := 0
	for _, r := range records(t, st) {
		if r.Event == service.EventRefusal {
			refusals++
			assert.NotEmpty(t, r.CallID)
		}
	}
	assert.Equal(t, 3, refusals)
}

func TestTurnSharesState(t *testing.T) {
	s, _, _, _ := newService(t, &service.Options{Parallel: 1})
	out := s.RunTurn(as(alice, ""), []service.Request{{Name: "whoami"}, {Name: "whoami", CallID: "x"}})
	require.NoError(t, out[0].Err)
	assert.True(t, strings.HasSuffix(out[0].Result.Text(), "|1"))
	assert.True(t, strings.HasSuffix(out[1].Result.Text(), "x|claude-x|2"), out[1].Result.Text())
}

func TestRateLimitPerPrincipal(t *testing.T) {
	s, f, st, _ := newService(t, &service.Options{Limiter: service.NewRateLimiter(0.001, 2)})
	for range 2 {
		_, err := s.Call(as(alice, ""), "act", nil)
		require.NoError(t, err)
	}
	_, err := s.Call(as(alice, ""), "act", nil)
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Contains(t, err.Error(), "too many tool calls")
	assert.Equal(t, service.EventRefusal, last(t, st).Event)
	_, err = s.Call(as(bob, ""), "act", nil)
	require.NoError(t, err, "bob has his own bucket")
	assert.EqualValues(t, 3, f.runs[tAct].Load())
}

// failingLimiter fails.
type failingLimiter struct{}

func (failingLimiter) Allow(context.Context, string) (bool, error) {
	return false, errors.New("limiter down")
}

func TestLimiterFailureRefuses(t *testing.T) {
	s, f, _, _ := newService(t, &service.Options{Limiter: failingLimiter{}})
	_, err := s.Call(as(alice, ""), "act", nil)
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Zero(t, f.runs[tAct].Load())
}

func TestKillSwitch(t *testing.T) {
	var external bool
	s, f, st, _ := newService(t, &service.Options{Halted: func(context.Context) bool { return external }})
	id := propose(t, s, "")
	s.Halt()
	_, err := s.Call(as(alice, ""), "act", nil)
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Contains(t, err.Error(), "halted")
	_, err = s.Confirm(context.Background(), id, alice)
	assert.Equal(t, tool.CodeRefused, codeOf(err))
	assert.Equal(t, service.EventRefusal, last(t, st).Event)
	s.Resume()
	external = true
	_, err = s.Call(as(alice, ""), "act", nil)
	assert.Equal(t, tool.CodeRefused, codeOf(err), "the shared switch too")
	external = false
	_, err = s.Confirm(context.Background(), id, alice)
	require.NoError(t, err)
	assert.Zero(t, f.runs[tAct].Load())
	assert.EqualValues(t, 1, f.runs[tNotesDelete].Load())
}

func TestRecordRows(t *testing.T) {
	s, _, st, c := newService(t, nil)
	_, err := s.Call(as(alice, "k1"), "login", []byte(`{"text":"`+strings.Repeat("é", 300)+`", "secret":"hunter2"}`))
	require.NoError(t, err)
	r := last(t, st)
	assert.Equal(t, c.now(), r.Time)
	assert.Equal(t, "alice", r.Principal)
	assert.Equal(t, "c1", r.Conversation)
	assert.Equal(t, "t1", r.Turn)
	assert.Equal(t, "k1", r.CallID)
	assert.Equal(t, "helper", r.Agent)
	assert.Equal(t, "login", r.Tool)
	assert.Equal(t, tool.KindAction, r.Kind)
	assert.Equal(t, service.EventCall, r.Event)
	assert.Equal(t, service.OutcomeOK, r.Outcome)
	assert.NotContains(t, string(r.Args), "hunter2")
	assert.Contains(t, string(r.Args), `"secret":"[secret]"`)
	assert.Contains(t, string(r.Args), "…[600 bytes]", "long strings are cut")
	assert.Less(t, len(r.Args), 330, "300 two-byte runes cut to 256 bytes")

	_, err = s.Call(as(alice, ""), "summarized", []byte(`{"text":"private words"}`))
	require.NoError(t, err)
	assert.Equal(t, `"text of 13 bytes"`, string(last(t, st).Args), "the tool's own log form")

	_, err = s.Call(as(alice, ""), "act", []byte(`{"text":1}`))
	require.Error(t, err)
	r = last(t, st)
	assert.Equal(t, service.OutcomeFailed, r.Outcome)
	assert.Equal(t, tool.CodeInvalidArguments, r.Code)
	assert.Equal(t, err.Error(), r.Error, "the model-facing error")
	_, err = s.Call(as(alice, ""), "act", []byte(`{"text": nope`))
	require.Error(t, err)
	assert.Equal(t, `"[not JSON: 13 bytes]"`, string(last(t, st).Args))
}

func TestQueryAndPurge(t *testing.T) {
	s, _, _, c := newService(t, nil)
	ctx := context.Background()
	_, _ = s.Call(as(alice, ""), "echo", nil)
	c.add(time.Hour)
	t0 := c.now()
	_, _ = s.Call(as(bob, ""), "echo", nil)
	_, _ = s.Call(as(bob, ""), "act", nil)
	c.add(time.Hour)
	_, _ = s.Call(tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c9"}), "act", nil)

	count := func(q service.Query) int {
		recs, err := s.Records(ctx, q)
		require.NoError(t, err)
		return len(recs)
	}
	assert.Equal(t, 2, count(service.Query{Principal: "alice"}))
	assert.Equal(t, 1, count(service.Query{Conversation: "c9"}))
	assert.Equal(t, 2, count(service.Query{Tool: "echo"}))
	assert.Equal(t, 2, count(service.Query{Since: t0, Until: t0.Add(time.Minute)}))
	assert.Equal(t, 1, count(service.Query{Limit: 1}))

	n, err := s.Purge(ctx, 90*time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, 3, count(service.Query{}))
}

// observer counts Start and End.
type observer struct {
	mu    sync.Mutex
	start []string
	end   []service.Record
}

type obsKey struct{}

func (o *observer) Start(ctx context.Context, name string) context.Context {
	o.mu.Lock()
	o.start = append(o.start, name)
	o.mu.Unlock()
	return context.WithValue(ctx, obsKey{}, name)
}

func (o *observer) End(ctx context.Context, rec *service.Record) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if ctx.Value(obsKey{}) == nil {
		panic("End without the context Start returned")
	}
	o.end = append(o.end, *rec)
}

func TestObserverSeesEveryCall(t *testing.T) {
	o := &observer{}
	s, _, _, _ := newService(t, &service.Options{Observer: o})
	_, _ = s.Call(as(alice, ""), "echo", nil)
	_, _ = s.Call(as(alice, ""), "nope", nil)
	id := propose(t, s, "")
	_, _ = s.Confirm(context.Background(), id, alice)
	assert.Equal(t, []string{"echo", "nope", "notes_delete", ""}, o.start)
	require.Len(t, o.end, 4)
	assert.Equal(t, service.OutcomeOK, o.end[0].Outcome)
	assert.Equal(t, service.EventRefusal, o.end[1].Event)
	assert.Equal(t, service.EventProposal, o.end[2].Event)
	assert.Equal(t, service.EventConfirmation, o.end[3].Event)
	assert.Equal(t, "notes_delete", o.end[3].Tool)
}

func TestNewValidatesOptions(t *testing.T) {
	_, reg := newFixture(t)
	_, err := service.New(nil, nil)
	assert.Error(t, err)
	_, err = service.New(reg, &service.Options{Parallel: -1})
	assert.ErrorContains(t, err, "negative Parallel")
	_, err = service.New(reg, &service.Options{ProposalTTL: -time.Second})
	assert.ErrorContains(t, err, "negative ProposalTTL")
}

func TestCallIDWaitsForAnotherInstancesRun(t *testing.T) {
	s, f, st, c := newService(t, nil)
	prior := &service.Record{Time: c.now(), Principal: "alice", Conversation: "c1", CallID: "toolu_6", Tool: "act", Event: service.EventCall, Outcome: service.OutcomeStarted}
	_, err := st.Start(context.Background(), prior)
	require.NoError(t, err)
	go func() {
		time.Sleep(50 * time.Millisecond)
		prior.Outcome, prior.Result = service.OutcomeOK, []byte("ran over there")
		assert.NoError(t, st.Finish(context.Background(), prior))
	}()
	res, err := s.Call(as(alice, "toolu_6"), "act", nil)
	require.NoError(t, err)
	assert.Equal(t, "ran over there", res.Text())
	assert.Zero(t, f.runs[tAct].Load())
}

// TestCallIDNamesOneCall: a call ID repeated for another tool, or with
// other arguments, is refused (call_id_reused) and recorded, and nothing
// runs; the same call, however its arguments are spaced, is the repeat it
// was.
func TestCallIDNamesOneCall(t *testing.T) {
	t.Parallel()
	s, f, st, _ := newService(t, nil)
	first, err := s.Call(as(alice, "toolu_1"), "act", []byte(`{"text":"x"}`))
	require.NoError(t, err)

	for _, c := range []struct {
		name, tool, args string
	}{
		{"another tool", "echo", `{"text":"x"}`},
		{"other arguments", "act", `{"text":"y"}`},
		{"a propose tool", "notes_delete", `{"id":7}`},
		{"no arguments", "act", ``},
	} {
		res, err := s.Call(as(alice, "toolu_1"), c.tool, []byte(c.args))
		require.Error(t, err, c.name)
		assert.Equal(t, tool.CodeCallIDReused, codeOf(err), c.name)
		assert.True(t, res.IsError, c.name)
		assert.Contains(t, err.Error(), "call ID of its own", c.name)
		r := last(t, st)
		assert.Equal(t, service.EventRefusal, r.Event, "%s: recorded", c.name)
		assert.Equal(t, service.OutcomeRefused, r.Outcome, c.name)
		assert.Equal(t, tool.CodeCallIDReused, r.Code, c.name)
		assert.Equal(t, c.tool, r.Tool, c.name)
		assert.Equal(t, "toolu_1", r.CallID, c.name)
	}
	assert.EqualValues(t, 1, f.runs[tAct].Load(), "nothing ran again")
	assert.Zero(t, f.runs[tEcho].Load(), "the other tool never ran")
	ps, err := s.Proposals(context.Background(), service.ProposalQuery{})
	require.NoError(t, err)
	assert.Empty(t, ps, "no proposal was stored")

	again, err := s.Call(as(alice, "toolu_1"), "act", []byte(" {\n \"text\" : \"x\" } "))
	require.NoError(t, err, "the same call, spaced otherwise, is a repeat")
	assert.Equal(t, first.Text(), again.Text())
	assert.Equal(t, service.EventReplay, last(t, st).Event)

	// A proposal's call ID names the proposal.
	id := propose(t, s, "toolu_2")
	_, err = s.Call(as(alice, "toolu_2"), "act", []byte(`{"id":7}`))
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err))
	_, err = s.Call(as(alice, "toolu_2"), "notes_delete", []byte(`{"id":8}`))
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err), "another proposal")
	assert.Equal(t, id, propose(t, s, "toolu_2"), "the same proposal again")
	ps, err = s.Proposals(context.Background(), service.ProposalQuery{})
	require.NoError(t, err)
	assert.Len(t, ps, 1)
	_, err = s.Propose(as(alice, "toolu_1"), "notes_delete", []byte(`{"id":7}`))
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err), "Propose too")

	// The record keeps a keyed digest, not the arguments.
	recs, err := st.Records(context.Background(), service.Query{CallID: "toolu_1", Limit: 1})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Len(t, recs[0].ArgsDigest, 64)
	plain := sha256.Sum256([]byte(`{"text":"x"}`))
	assert.NotEqual(t, hex.EncodeToString(plain[:]), recs[0].ArgsDigest, "not a digest anyone can check guesses against")
}

// TestCallIDOfAnOlderRecord: a call ID whose record holds no argument
// digest (written before they were kept) is compared by its tool alone.
func TestCallIDOfAnOlderRecord(t *testing.T) {
	t.Parallel()
	s, f, st, c := newService(t, nil)
	old := &service.Record{Time: c.now(), Principal: "alice", Conversation: "c1", CallID: "toolu_old", Tool: "act",
		Event: service.EventCall, Outcome: service.OutcomeStarted}
	_, err := st.Start(context.Background(), old)
	require.NoError(t, err)
	old.Outcome, old.Result = service.OutcomeOK, []byte("ran before")
	require.NoError(t, st.Finish(context.Background(), old))
	res, err := s.Call(as(alice, "toolu_old"), "act", []byte(`{"text":"anything"}`))
	require.NoError(t, err)
	assert.Equal(t, "ran before", res.Text())
	_, err = s.Call(as(alice, "toolu_old"), "echo", nil)
	assert.Equal(t, tool.CodeCallIDReused, codeOf(err))
	assert.Zero(t, f.runs[tAct].Load()+f.runs[tEcho].Load())
}

// TestCallIDReusedInOneTurn: two calls of one turn with one call ID, of
// two tools, at once: one runs, the other is refused.
func TestCallIDReusedInOneTurn(t *testing.T) {
	t.Parallel()
	s, f, _, _ := newService(t, &service.Options{Parallel: 2})
	out := s.RunTurn(as(alice, ""), []service.Request{
		{CallID: "toolu_t", Name: "act", Args: []byte(`{"text":"x","pause":true}`)},
		{CallID: "toolu_t", Name: "echo", Args: []byte(`{"text":"x","pause":true}`)},
	})
	codes := []tool.Code{codeOf(out[0].Err), codeOf(out[1].Err)}
	assert.ElementsMatch(t, []tool.Code{0, tool.CodeCallIDReused}, codes)
	assert.EqualValues(t, 1, f.runs[tAct].Load()+f.runs[tEcho].Load(), "one ran")
}

// TestSecretUnderAnySpelling: a secret sent under a key that differs from
// its name only in case (or in escapes) is refused by the decoder as
// unknown, and the record keeps its value under no spelling.
func TestSecretUnderAnySpelling(t *testing.T) {
	t.Parallel()
	s, f, st, _ := newService(t, nil)
	for _, args := range []string{
		`{"Secret":"hunter2"}`,
		`{"SECRET":"hunter2","text":"x"}`,
		`{"secreT":{"nested":"hunter2"}}`,
		`{"S\u0065cret":"hunter2"}`,
	} {
		_, err := s.Call(as(alice, ""), "login", []byte(args))
		assert.Equal(t, tool.CodeInvalidArguments, codeOf(err), args)
		r := last(t, st)
		assert.NotContains(t, string(r.Args), "hunter2", "%s: the record keeps no value", args)
		assert.Contains(t, string(r.Args), `"[secret]"`, args)
		assert.NotContains(t, r.Error, "hunter2", args)
	}
	assert.Zero(t, f.runs[tLogin].Load())
}

// TestRunEndIsWrittenAgain: the end of a run the memory store fails to
// write is written again, twice more at most, as any store's is; a run
// whose end could not be written stays started.
func TestRunEndIsWrittenAgain(t *testing.T) {
	for _, c := range []struct {
		name     string
		failures int32
		attempts int32
		outcome  service.Outcome
	}{
		{"once", 1, 2, service.OutcomeOK},
		{"twice", 2, 3, service.OutcomeOK},
		{"always", 3, 3, service.OutcomeStarted},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := service.NewMemoryStore()
			var attempts atomic.Int32
			st.FailWith(func(op string) error {
				if op == "finish" && attempts.Add(1) <= c.failures {
					return errors.New("disk full")
				}
				return nil
			})
			s, f, _, _ := newService(t, &service.Options{Store: st})
			_, err := s.Call(as(alice, ""), "act", nil)
			require.NoError(t, err)
			assert.EqualValues(t, 1, f.runs[tAct].Load())
			assert.Equal(t, c.attempts, attempts.Load())
			assert.Equal(t, c.outcome, last(t, st).Outcome)
		})
	}
}

// TestDurationOnTheSystemClock: without Options.Now, a record's Time is
// when the call began and its Duration how long it took, both read from
// the system's clock.
func TestDurationOnTheSystemClock(t *testing.T) {
	_, reg := newFixture(t)
	st := service.NewMemoryStore()
	s, err := service.New(reg, &service.Options{Store: st})
	require.NoError(t, err)
	before := time.Now()
	_, err = s.Call(as(alice, ""), "act", nil)
	require.NoError(t, err)
	took := time.Since(before)
	r := last(t, st)
	assert.False(t, r.Time.Before(before), "began %s, the call was made at %s", r.Time, before)
	assert.Positive(t, r.Duration)
	assert.LessOrEqual(t, r.Duration, took)
}
