package registry_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// The table of offerFixture, by index. The first tool is left out of the
// registry (off), so that positions in Tools and indexes in the table
// differ by one: the hooks must be called with the table index.
const (
	offOff       = iota // left out
	offPlain            // no hook
	offDecides          // Offered: the principal holds "see.decides"
	offLogs             // LogArgs: "note <id>", the text withheld
	offPanics           // Offered panics
	offPropose          // a propose tool, with LogArgs
	offBigLog           // LogArgs returns more than the output cap
	offForgotLog        // LogsArgs set, but the dispatch writes nothing in ModeLog
	offDeclines         // Offered: always false
)

// offerFixture is a hand-written generated package whose tools have
// Offered and LogArgs methods.
type offerFixture struct {
	runs    atomic.Int64 // tools run (ModeCall)
	asked   atomic.Int64 // Offered calls
	offered []int        // table indexes the Offered hook was asked about, in order (not concurrent)
	record  bool
}

func (f *offerFixture) table() []tool.Spec {
	return []tool.Spec{
		offOff:       {Name: "a_off", Kind: tool.KindRead, DecidesOffer: true},
		offPlain:     {Name: "b_plain", Kind: tool.KindRead},
		offDecides:   {Name: "c_decides", Kind: tool.KindRead, DecidesOffer: true},
		offLogs:      {Name: "d_logs", Kind: tool.KindAction, LogsArgs: true},
		offPanics:    {Name: "e_panics", Kind: tool.KindRead, DecidesOffer: true},
		offPropose:   {Name: "f_propose", Kind: tool.KindPropose, LogsArgs: true},
		offBigLog:    {Name: "g_big_log", Kind: tool.KindRead, LogsArgs: true},
		offForgotLog: {Name: "h_forgot_log", Kind: tool.KindRead, LogsArgs: true},
		offDeclines:  {Name: "i_declines", Kind: tool.KindRead, DecidesOffer: true},
	}
}

// offered is the generated Offered.
func (f *offerFixture) offeredHook(ctx context.Context, i int) bool {
	f.asked.Add(1)
	if f.record {
		f.offered = append(f.offered, i)
	}
	switch i {
	case offDecides:
		p, _ := tool.PrincipalFrom(ctx)
		return p.Has("see.decides")
	case offPanics:
		panic("offered bug")
	case offDeclines:
		return false
	}
	panic("Offered asked of tool " + strconv.Itoa(i) + ", which has no Offered method")
}

// dispatch is the generated Dispatch: every tool takes {"id":
// integer, "text": string}, "id" required; in ModeCall it writes
// "<name> ran <id>".
func (f *offerFixture) dispatch(_ context.Context, i int, mode registry.Mode, in *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
	a := decodeArgs(in, "id")
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	switch mode {
	case registry.ModeCheck:
		return 0, nil
	case registry.ModeLog:
		switch i {
		case offLogs, offPropose:
			out.String("note " + strconv.FormatInt(a.id, 10)) // the text is withheld
			return registry.OutputText, nil
		case offBigLog:
			out.String(strings.Repeat("x", 2000))
			return registry.OutputText, nil
		case offForgotLog:
			return 0, nil
		}
		panic("LogArgs asked of tool " + strconv.Itoa(i) + ", which has no LogArgs method")
	}
	f.runs.Add(1)
	out.RawText(f.table()[i].Name + " ran " + strconv.FormatInt(a.id, 10))
	return registry.OutputText, nil
}

// newOfferFixture returns the fixture and its registry, with the Offered
// hook unless noHook.
func newOfferFixture(tb testing.TB, noHook bool) (*offerFixture, *registry.Static) {
	tb.Helper()
	f := &offerFixture{}
	var offered registry.Offered
	if !noHook {
		offered = f.offeredHook
	}
	s, err := registry.New(tooltest.Table(f.table()), []bool{offOff: true}, f.dispatch, offered, tool.WithMaxOutputBytes(1000))
	require.NoError(tb, err)
	return f, s
}

// names returns the names of specs.
func names(specs []*tool.Spec) []string {
	out := make([]string, len(specs))
	for i, sp := range specs {
		out[i] = sp.Name
	}
	return out
}

func TestOfferWithoutHook(t *testing.T) {
	t.Parallel()
	f, s := newOfferFixture(t, true)
	got := s.Offer(t.Context())
	require.Len(t, got, len(s.Tools()))
	assert.Same(t, &s.Tools()[0], &got[0], "Tools itself")
	for i := range s.Tools() {
		assert.True(t, registry.SelfOffered(t.Context(), s, i), "without the hook every tool offers itself")
	}
	assert.Zero(t, f.asked.Load())
}

func TestOffer(t *testing.T) {
	t.Parallel()
	f, s := newOfferFixture(t, false)
	all := names(s.Tools())
	require.Equal(t, []string{"b_plain", "c_decides", "d_logs", "e_panics", "f_propose", "g_big_log", "h_forgot_log", "i_declines"}, all)

	// Without the permission, c_decides declines; e_panics panics, which
	// declines; i_declines declines.
	got := s.Offer(t.Context())
	assert.Equal(t, []string{"b_plain", "d_logs", "f_propose", "g_big_log", "h_forgot_log"}, names(got))
	for i, sp := range got {
		want, ok := s.Lookup(sp.Name)
		require.True(t, ok)
		assert.Same(t, want, got[i], "the registry's own specs")
	}
	assert.Equal(t, all, names(s.Tools()), "Tools is left alone")

	// With it, c_decides is offered too.
	ctx := tool.WithInvocation(t.Context(), &tool.Invocation{Principal: tool.Principal{ID: "u", Permissions: []string{"see.decides"}}})
	assert.Equal(t, []string{"b_plain", "c_decides", "d_logs", "f_propose", "g_big_log", "h_forgot_log"}, names(s.Offer(ctx)))
	assert.Equal(t, int64(6), f.asked.Load(), "asked of the three tools that decide, twice")

	// Offer is what the registry offers; Call still runs a tool not
	// offered: refusing it is the call service's work.
	res, err := s.Call(t.Context(), "c_decides", []byte(`{"id":3}`))
	require.NoError(t, err)
	assert.Equal(t, "c_decides ran 3", res.Text())
}

// TestOfferFirstDeclines checks the copy of the offered prefix when the
// first tool declines, and when every tool does.
func TestOfferFirstDeclines(t *testing.T) {
	t.Parallel()
	table := []tool.Spec{
		{Name: "a", Kind: tool.KindRead, DecidesOffer: true},
		{Name: "b", Kind: tool.KindRead},
		{Name: "c", Kind: tool.KindRead, DecidesOffer: true},
	}
	for _, tc := range []struct {
		name string
		no   map[int]bool
		want []string
	}{
		{"first", map[int]bool{0: true}, []string{"b", "c"}},
		{"last", map[int]bool{2: true}, []string{"a", "b"}},
		{"both", map[int]bool{0: true, 2: true}, []string{"b"}},
		{"none", nil, []string{"a", "b", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := registry.New(tooltest.Table(table), nil, func(context.Context, int, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
				return 0, nil
			}, func(_ context.Context, i int) bool { return !tc.no[i] })
			require.NoError(t, err)
			assert.Equal(t, tc.want, names(s.Offer(t.Context())))
		})
	}

	s, err := registry.New(tooltest.Table(table[:1]), nil, func(context.Context, int, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		return 0, nil
	}, func(context.Context, int) bool { return false })
	require.NoError(t, err)
	assert.Empty(t, s.Offer(t.Context()), "nothing offered")
}

func TestSelfOffered(t *testing.T) {
	t.Parallel()
	f, s := newOfferFixture(t, false)
	f.record = true // not parallel below
	want := map[string]bool{
		"b_plain": true, "c_decides": false, "d_logs": true, "e_panics": false,
		"f_propose": true, "g_big_log": true, "h_forgot_log": true, "i_declines": false,
	}
	for i, sp := range s.Tools() {
		assert.Equal(t, want[sp.Name], registry.SelfOffered(t.Context(), s, i), sp.Name)
	}
	assert.Equal(t, []int{offDecides, offPanics, offDeclines}, f.offered,
		"asked only of tools that decide, by their index in the table")
}

func TestLogArgs(t *testing.T) {
	t.Parallel()
	f, s := newOfferFixture(t, false)
	ctx := t.Context()

	t.Run("own form", func(t *testing.T) {
		t.Parallel()
		for _, name := range []string{"d_logs", "f_propose"} {
			form, own, err := registry.LogArgs(ctx, s, name, []byte(`{"id":7,"text":"password=hunter2"}`))
			require.NoError(t, err, name)
			assert.True(t, own)
			assert.Equal(t, `"note 7"`, string(form), "a JSON string")
			var text string
			require.NoError(t, json.Unmarshal(form, &text))
			assert.Equal(t, "note 7", text)
		}
	})

	t.Run("the form is a copy", func(t *testing.T) {
		t.Parallel()
		form, _, err := registry.LogArgs(ctx, s, "d_logs", []byte(`{"id":1}`))
		require.NoError(t, err)
		for range 10 {
			_, _, err := registry.LogArgs(ctx, s, "d_logs", []byte(`{"id":999999}`))
			require.NoError(t, err)
		}
		assert.Equal(t, `"note 1"`, string(form))
	})

	t.Run("no LogArgs", func(t *testing.T) {
		t.Parallel()
		for _, args := range []string{`{"id":1}`, `{"id":"invalid"}`, `{`} {
			form, own, err := registry.LogArgs(ctx, s, "b_plain", []byte(args))
			assert.NoError(t, err, "nothing is decoded")
			assert.False(t, own)
			assert.Nil(t, form)
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		t.Parallel()
		form, own, err := registry.LogArgs(ctx, s, "d_log", []byte(`{"id":1}`))
		assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
		assert.EqualError(t, err, `unknown tool "d_log"; did you mean d_logs? (8 tools available)`)
		assert.False(t, own)
		assert.Nil(t, form)
		_, _, err = registry.LogArgs(ctx, s, "a_off", []byte(`{"id":1}`))
		assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err), "a tool left out")
	})

	t.Run("invalid arguments", func(t *testing.T) {
		t.Parallel()
		for _, args := range []string{`{"id":"x"}`, `{}`, `{"id":1,"zz":2}`, `[`} {
			form, own, err := registry.LogArgs(ctx, s, "d_logs", []byte(args))
			var te *tool.Error
			require.ErrorAs(t, err, &te, args)
			assert.Equal(t, tool.CodeInvalidArguments, te.Code, args)
			assert.Equal(t, "d_logs", te.Tool)
			assert.Equal(t, tool.CodeOf(s.Check(ctx, "d_logs", []byte(args))), te.Code, "fails as Check does")
			assert.False(t, own)
			assert.Nil(t, form)
		}
	})

	t.Run("form over the output cap", func(t *testing.T) {
		t.Parallel()
		form, own, err := registry.LogArgs(ctx, s, "g_big_log", []byte(`{"id":1}`))
		assert.Equal(t, tool.CodeOutputTooLarge, tool.CodeOf(err), "not an empty form")
		assert.False(t, own)
		assert.Nil(t, form)
	})

	t.Run("dispatch writes no form", func(t *testing.T) {
		t.Parallel()
		form, own, err := registry.LogArgs(ctx, s, "h_forgot_log", []byte(`{"id":1}`))
		assert.Equal(t, tool.CodeFailed, tool.CodeOf(err))
		assert.False(t, own)
		assert.Nil(t, form)
	})

	t.Run("context done", func(t *testing.T) {
		t.Parallel()
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, own, err := registry.LogArgs(cctx, s, "d_logs", []byte(`{"id":1}`))
		assert.Equal(t, tool.CodeCancelled, tool.CodeOf(err))
		assert.False(t, own)
	})

	t.Cleanup(func() { assert.Zero(t, f.runs.Load(), "LogArgs runs no tool") })
}

func TestRunProposed(t *testing.T) {
	t.Parallel()
	f, s := newOfferFixture(t, false)
	ctx := t.Context()

	res, err := s.Call(ctx, "f_propose", []byte(`{"id":4}`))
	te := requireFailure(t, res, err)
	assert.Equal(t, tool.CodeNeedsConfirmation, te.Code)
	assert.Zero(t, f.runs.Load(), "Call refuses a propose tool")

	res, err = registry.RunProposed(ctx, s, "f_propose", []byte(`{"id":4}`))
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "f_propose ran 4", res.Text())
	assert.Equal(t, int64(1), f.runs.Load(), "RunProposed runs it")

	// Other kinds run as Call runs them.
	res, err = registry.RunProposed(ctx, s, "d_logs", []byte(`{"id":5}`))
	require.NoError(t, err)
	assert.Equal(t, "d_logs ran 5", res.Text())

	// Its failures are Call's.
	res, err = registry.RunProposed(ctx, s, "f_propose", []byte(`{"id":"x"}`))
	assert.Equal(t, tool.CodeInvalidArguments, requireFailure(t, res, err).Code)
	res, err = registry.RunProposed(ctx, s, "f_propos", []byte(`{"id":4}`))
	te = requireFailure(t, res, err)
	assert.Equal(t, tool.CodeUnknownTool, te.Code)
	assert.Equal(t, `unknown tool "f_propos"; did you mean f_propose? (8 tools available)`, te.Message)
	res, err = registry.RunProposed(ctx, s, "a_off", []byte(`{"id":4}`))
	assert.Equal(t, tool.CodeUnknownTool, requireFailure(t, res, err).Code, "a tool left out never runs")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	res, err = registry.RunProposed(cctx, s, "f_propose", []byte(`{"id":4}`))
	assert.Equal(t, tool.CodeCancelled, requireFailure(t, res, err).Code)
	assert.Equal(t, int64(2), f.runs.Load())
}

func TestUnknownTool(t *testing.T) {
	t.Parallel()
	_, s := newOfferFixture(t, false)
	offered := s.Offer(t.Context())
	e := toolerr.UnknownTool(offered, "c_decide")
	assert.Equal(t, tool.CodeUnknownTool, e.Code)
	assert.Empty(t, e.Tool)
	assert.Equal(t, `unknown tool "c_decide" (5 tools available)`, e.Message,
		"suggests among the tools offered only, counts them")
	assert.Equal(t, `unknown tool "c_decide"; did you mean c_decides? (8 tools available)`, toolerr.UnknownTool(s.Tools(), "c_decide").Message)
	assert.Equal(t, `unknown tool "b_plan"; did you mean b_plain? (5 tools available)`, toolerr.UnknownTool(offered, "b_plan").Message)

	// What Call reports for an unknown name, given every tool.
	_, err := s.Call(t.Context(), "b_plan", nil)
	assert.Equal(t, toolerr.UnknownTool(s.Tools(), "b_plan").Message, err.Error())

	e = toolerr.UnknownTool(nil, "x")
	assert.Equal(t, `unknown tool "x" (no tools available)`, e.Message)
}

func TestModeLogString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "log", registry.ModeLog.String())
	assert.NotEqual(t, registry.ModeCheck, registry.ModeLog)
}

// TestRunConfirmed: RunConfirmed reports whether the tool was entered,
// and calls onStart as it is, on either path (a context that can end, one
// that cannot); a run refused before the tool (the context already done,
// the tool unknown) did not start.
func TestRunConfirmed(t *testing.T) {
	t.Parallel()
	f, s := newOfferFixture(t, false)
	var starts atomic.Int64
	onStart := func() { starts.Add(1) }
	for _, ctx := range []context.Context{t.Context(), context.Background()} {
		res, started, err := registry.RunConfirmed(ctx, s, "f_propose", []byte(`{"id":4}`), onStart)
		require.NoError(t, err)
		assert.True(t, started)
		assert.Equal(t, "f_propose ran 4", res.Text())
	}
	assert.Equal(t, int64(2), starts.Load())
	assert.Equal(t, int64(2), f.runs.Load())

	cctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, started, err := registry.RunConfirmed(cctx, s, "f_propose", []byte(`{"id":4}`), onStart)
	assert.Equal(t, tool.CodeCancelled, requireFailure(t, res, err).Code)
	assert.ErrorIs(t, err, tool.ErrNotRun)
	assert.False(t, started, "refused before the tool")
	res, started, err = registry.RunConfirmed(t.Context(), s, "f_propos", []byte(`{"id":4}`), onStart)
	assert.Equal(t, tool.CodeUnknownTool, requireFailure(t, res, err).Code)
	assert.False(t, started)
	assert.Equal(t, int64(2), starts.Load(), "onStart only as the tool is entered")
	assert.Equal(t, int64(2), f.runs.Load())
}
