package service_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Tool indexes of the fixture, in name order.
const (
	tAct = iota
	tBlock
	tEcho
	tHidden
	tLogin
	tNotesDelete
	tNotesRead
	tReserved
	tSlowPropose
	tSummarized
	tWaitCtx
	tWhoami
)

// fixtureSpecs is the fixture's table, sorted by name.
func fixtureSpecs() []*tool.Spec {
	return []*tool.Spec{
		tAct:         {Name: "act", Kind: tool.KindAction, Title: "Act"},
		tBlock:       {Name: "block", Kind: tool.KindAction, Timeout: 30 * time.Millisecond},
		tEcho:        {Name: "echo", Kind: tool.KindRead, ReadOnly: true},
		tHidden:      {Name: "hidden", Kind: tool.KindRead, DecidesOffer: true},
		tLogin:       {Name: "login", Kind: tool.KindAction, Secrets: []string{"/secret"}},
		tNotesDelete: {Name: "notes_delete", Kind: tool.KindPropose, Group: "notes", Title: "Delete note", Permissions: []string{"notes.write"}, Meta: []tool.Meta{{Key: "confirm-text", Value: "Delete this note?"}}},
		tNotesRead:   {Name: "notes_read", Kind: tool.KindRead, Group: "notes", Permissions: []string{"notes.read"}},
		tReserved:    {Name: "reserved", Kind: tool.KindRead},
		tSlowPropose: {Name: "slow_propose", Kind: tool.KindPropose, Timeout: 30 * time.Millisecond},
		tSummarized:  {Name: "summarized", Kind: tool.KindAction, LogsArgs: true},
		tWaitCtx:     {Name: "wait_ctx", Kind: tool.KindRead},
		tWhoami:      {Name: "whoami", Kind: tool.KindDisplay},
	}
}

// fixture is a hand-written registry: its dispatch plays the generated
// one, and runs counts what each tool really ran.
type fixture struct {
	runs    [tWhoami + 1]atomic.Int64
	release chan struct{} // ends block and slow_propose
	started chan struct{} // wait_ctx has started
	mu      sync.Mutex
	active  int
	peak    int
}

// args are the fixture tools' arguments.
type args struct {
	text, secret string
	id           int64
	pause        bool
}

// decode reads {"text", "secret", "id", "pause"}; notes_delete requires id.
func decode(in *codec.Decoder, i int) args {
	var a args
	seenID := false
	if !in.Object("object") {
		in.End()
		return a
	}
	for {
		key, ok := in.Key()
		if !ok {
			break
		}
		switch string(key) {
		case "text":
			in.Push("text")
			a.text, _ = in.String("string")
			in.Pop()
		case "secret":
			in.Push("secret")
			a.secret, _ = in.String("string")
			in.Pop()
		case "id":
			in.Push("id")
			a.id, _ = in.Int("integer", 64)
			seenID = true
			in.Pop()
		case "pause":
			in.Push("pause")
			a.pause, _ = in.Bool("boolean")
			in.Pop()
		default:
			in.Unknown(key)
		}
	}
	in.End()
	if i == tNotesDelete && !seenID {
		in.Missing("id")
	}
	return a
}

// dispatch is the fixture's toolimpl.Dispatch.
func (f *fixture) dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	a := decode(in, i)
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode == toolimpl.ModeLog && i == tSummarized {
		out.String("text of " + strconv.Itoa(len(a.text)) + " bytes")
		return toolimpl.OutputText, nil
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	f.runs[i].Add(1)
	f.mu.Lock()
	f.active++
	f.peak = max(f.peak, f.active)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.active--
		f.mu.Unlock()
	}()
	inv, _ := tool.InvocationFrom(ctx)
	switch i {
	case tBlock, tSlowPropose:
		<-f.release // ignores its deadline
	case tWaitCtx:
		close(f.started)
		<-ctx.Done()
		return 0, ctx.Err()
	case tReserved:
		return 0, &tool.Error{Code: tool.CodeNeedsConfirmation, Message: "confirm me"}
	case tWhoami:
		n, _ := tool.Shared(ctx, "n", func() *atomic.Int64 { return new(atomic.Int64) })
		out.RawText(inv.Principal.ID + "|" + inv.Conversation + "|" + inv.Turn + "|" + inv.CallID + "|" +
			tool.ModelFor(ctx, tool.Model{}).Name + "|" + strconv.FormatInt(n.Add(1), 10))
		return toolimpl.OutputText, nil
	case tNotesDelete:
		out.RawText("deleted " + strconv.FormatInt(a.id, 10) + " for " + inv.Principal.ID)
		return toolimpl.OutputText, nil
	}
	if a.pause {
		time.Sleep(5 * time.Millisecond)
	}
	out.RawText("ran " + strconv.Itoa(i) + " " + a.text)
	return toolimpl.OutputText, nil
}

// offered plays a generated offered switch: hidden offers itself to alice
// only.
func offered(ctx context.Context, i int) bool {
	p, _ := tool.PrincipalFrom(ctx)
	return i != tHidden || p.ID == "alice"
}

// newFixture returns a fixture and its registry.
func newFixture(t testing.TB) (*fixture, tool.Registry) {
	t.Helper()
	f := &fixture{release: make(chan struct{}), started: make(chan struct{})}
	reg, err := toolimpl.NewRegistry(fixtureSpecs(), nil, f.dispatch, offered)
	require.NoError(t, err)
	t.Cleanup(func() {
		select {
		case <-f.release:
		default:
			close(f.release)
		}
	})
	return f, reg
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newService returns a service over a new fixture with a memory store and
// a settable clock.
func newService(t testing.TB, o *service.Options) (*service.Service, *fixture, *service.MemoryStore, *clock) {
	t.Helper()
	f, reg := newFixture(t)
	if o == nil {
		o = &service.Options{}
	}
	st := service.NewMemoryStore()
	if o.Store == nil {
		o.Store = st
	} else {
		st, _ = o.Store.(*service.MemoryStore)
	}
	c := &clock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	if o.Now == nil {
		o.Now = c.now
	}
	s, err := service.New(reg, o)
	require.NoError(t, err)
	return s, f, st, c
}

// Principals of the tests.
var (
	alice = tool.Principal{ID: "alice", Permissions: []string{"notes.read", "notes.write"}}
	bob   = tool.Principal{ID: "bob", Permissions: []string{"notes.read"}}
	admin = tool.Principal{ID: "admin", Permissions: []string{"notes.read", "notes.write", "confirm.any"}}
)

// as returns ctx carrying an Invocation for p in conversation c1.
func as(p tool.Principal, callID string) context.Context {
	return tool.WithInvocation(context.Background(), &tool.Invocation{
		Principal: p, Conversation: "c1", Turn: "t1", CallID: callID,
		Agent: tool.Agent{Name: "helper", Model: tool.Model{Provider: "anthropic", Name: "claude-x"}},
	})
}

// records returns every record of st.
func records(t testing.TB, st service.Store) []service.Record {
	t.Helper()
	recs, err := st.Records(context.Background(), service.Query{Limit: 1 << 20})
	require.NoError(t, err)
	return recs
}

// last returns the newest record of st.
func last(t testing.TB, st service.Store) service.Record {
	t.Helper()
	recs := records(t, st)
	require.NotEmpty(t, recs)
	return recs[len(recs)-1]
}

// codeOf returns the tool.Code of err.
func codeOf(err error) tool.Code { return tool.CodeOf(err) }
