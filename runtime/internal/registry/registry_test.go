package registry_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/registry"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// newStatic returns the registry serving specs through dispatch, a switch
// on the tool's name (a generated package switches on its index).
func newStatic(specs []tool.Spec, dispatch tooltest.Dispatch, opts ...tool.Option) (*registry.Static, error) {
	if dispatch == nil {
		return registry.New(tooltest.Table(specs), nil, nil, nil, opts...)
	}
	return registry.New(tooltest.Table(specs), nil, func(ctx context.Context, i int, mode registry.Mode, in *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
		return dispatch(ctx, specs[i].Name, mode, in, out)
	}, nil, opts...)
}

// errNotFound stands for a sentinel a tool's store returns.
var errNotFound = errors.New("not found")

// args is what the hand-written decoder below reads: the properties of
// every test tool, as a generated decoder reads one struct.
type args struct {
	text string
	id   int64
	n    int64
}

// decodeArgs decodes an object with the optional properties "text"
// (string), "id" and "n" (integers) the way generated code does, reporting
// each property in required that is absent.
func decodeArgs(in *codec.Decoder, required ...string) args {
	var a args
	var seenText, seenID, seenN bool
	if !in.Object("object") {
		in.End()
		return a // not an object: no properties to miss
	}
	for {
		key, ok := in.Key()
		if !ok {
			break
		}
		switch string(key) {
		case "text":
			in.Push("text")
			if seenText {
				in.Duplicate()
			}
			seenText = true
			a.text, _ = in.String("string")
			in.Pop()
		case "id":
			in.Push("id")
			seenID = true
			a.id, _ = in.Int("integer", 64)
			in.Pop()
		case "n":
			in.Push("n")
			seenN = true
			a.n, _ = in.Int("integer", 64)
			in.Pop()
		default:
			in.Unknown(key)
		}
	}
	in.End()
	for _, r := range required {
		if r == "text" && !seenText || r == "id" && !seenID || r == "n" && !seenN {
			in.Missing(r)
		}
	}
	return a
}

// fixture is a hand-written registry: its dispatch plays the generated
// switch, and runs counts the tools that actually ran.
type fixture struct {
	runs atomic.Int64
}

// spec lists the fixture's tools in name order.
func (f *fixture) specs() []tool.Spec {
	return []tool.Spec{
		{Name: "bad_output", Kind: tool.KindRead},
		{Name: "big", Kind: tool.KindRead},
		{Name: "boom", Kind: tool.KindAction},
		{Name: "boom_decode", Kind: tool.KindPropose},
		{Name: "cancelled", Kind: tool.KindRead, Timeout: time.Hour},
		{Name: "echo", Kind: tool.KindRead, Title: "Echo", InputSchema: []byte(`{"type":"object"}`)},
		{Name: "fail_model", Kind: tool.KindAction},
		{Name: "fail_plain", Kind: tool.KindAction},
		{Name: "fail_wrapped_model", Kind: tool.KindAction},
		{Name: "inner_error", Kind: tool.KindRead},
		{Name: "late", Kind: tool.KindRead, Timeout: time.Millisecond},
		{Name: "nan", Kind: tool.KindRead},
		{Name: "nil_map", Kind: tool.KindAction},
		{Name: "notes_delete", Kind: tool.KindPropose},
		{Name: "notes_search", Kind: tool.KindRead, OutputSchema: []byte(`{"type":"object"}`)},
		{Name: "show", Kind: tool.KindDisplay},
		{Name: "slow", Kind: tool.KindRead, Timeout: 20 * time.Millisecond},
		{Name: "slow_model", Kind: tool.KindRead, Timeout: 20 * time.Millisecond},
	}
}

// dispatch is the fixture's Dispatch.
func (f *fixture) dispatch(ctx context.Context, name string, mode registry.Mode, in *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
	var required []string
	switch name {
	case "echo", "show":
		required = []string{"text"}
	case "notes_delete", "fail_model":
		required = []string{"id"}
	case "big":
		required = []string{"n"}
	case "boom_decode":
		panic("decoder bug")
	}
	a := decodeArgs(in, required...)
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode == registry.ModeCheck {
		return 0, nil
	}
	f.runs.Add(1)
	switch name {
	case "bad_output":
		out.RawText("x")
		return 0, nil
	case "big":
		out.RawText(strings.Repeat("x", int(a.n)))
		return registry.OutputText, nil
	case "boom":
		panic("kaboom: secret=hunter2")
	case "cancelled":
		<-ctx.Done()
		return 0, ctx.Err()
	case "echo", "show":
		out.RawText(a.text)
		return registry.OutputText, nil
	case "fail_model":
		return 0, tool.Errorf("no note with id %d: %w", a.id, errNotFound)
	case "fail_plain":
		return 0, fmt.Errorf("query notes: dial db: password=hunter2: %w", errNotFound)
	case "fail_wrapped_model":
		return 0, fmt.Errorf("layer: %w", tool.Errorf("try a shorter query"))
	case "inner_error":
		return 0, &tool.Error{Code: tool.CodeInvalidArguments, Message: "n must be positive"}
	case "late":
		time.Sleep(200 * time.Millisecond) // ignores its 1ms timeout, then succeeds
		out.RawText("done anyway")
		return registry.OutputText, nil
	case "nan":
		out.ObjectStart()
		out.Key("x")
		out.Float(math.NaN(), 64)
		out.ObjectEnd()
		return registry.OutputStructured, nil
	case "nil_map":
		var m map[string]int
		m["x"] = 1
		return registry.OutputText, nil
	case "notes_search":
		out.ObjectStart()
		out.Key("query")
		out.String(a.text)
		out.Key("hits")
		out.Int(0)
		out.ObjectEnd()
		return registry.OutputStructured, nil
	case "slow":
		<-ctx.Done()
		return 0, fmt.Errorf("search: %w", ctx.Err())
	case "slow_model":
		<-ctx.Done()
		return 0, tool.Errorf("the backend did not answer")
	}
	return 0, fmt.Errorf("no tool %q", name)
}

// newFixture returns a fixture and its Static.
func newFixture(t *testing.T, opts ...tool.Option) (*fixture, *registry.Static) {
	t.Helper()
	f := &fixture{}
	s, err := newStatic(f.specs(), f.dispatch, opts...)
	require.NoError(t, err)
	return f, s
}

// requireFailure checks the invariant of every failed Call: a *Error and a
// Result that carries its Message as an error for the model.
func requireFailure(t *testing.T, res tool.Result, err error) *tool.Error {
	t.Helper()
	require.Error(t, err)
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.True(t, res.IsError, "IsError")
	assert.False(t, res.Structured, "Structured")
	assert.Equal(t, te.Message, res.Text())
	assert.Equal(t, te.Message, err.Error(), "Error() is the message, nothing else")
	return te
}

func TestStaticCallSuccess(t *testing.T) {
	t.Parallel()
	f, s := newFixture(t)
	tests := []struct {
		name       string
		tool       string
		args       string
		want       string
		structured bool
	}{
		{"text", "echo", `{"text":"hello"}`, "hello", false},
		{"display", "show", `{"text":"a chart"}`, "a chart", false},
		{"structured", "notes_search", `{"text":"go"}`, `{"query":"go","hits":0}`, true},
		{"nil args mean {}", "notes_search", "", `{"query":"","hits":0}`, true},
		{"whitespace", "echo", " {\n\"text\" : \"hi\" } \n", "hi", false},
		{"output at the cap", "big", `{"n":1048576}`, strings.Repeat("x", 1<<20), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var a []byte
			if tt.args != "" {
				a = []byte(tt.args)
			}
			res, err := s.Call(t.Context(), tt.tool, a)
			require.NoError(t, err)
			assert.False(t, res.IsError)
			assert.Equal(t, tt.structured, res.Structured)
			assert.Equal(t, tt.want, res.Text())
		})
	}
	t.Cleanup(func() { assert.Equal(t, int64(len(tests)), f.runs.Load(), "each call ran its tool once") })
}

func TestStaticCallResultIsACopy(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t)
	first, err := s.Call(t.Context(), "echo", []byte(`{"text":"first"}`))
	require.NoError(t, err)
	// The next call reuses the pooled encoder; the first result must not change.
	for range 10 {
		_, err = s.Call(t.Context(), "echo", []byte(`{"text":"XXXXXXXXXX"}`))
		require.NoError(t, err)
	}
	assert.Equal(t, "first", first.Text())
}

// TestStaticAppendCall checks that AppendCall appends what Call returns,
// success or failure, after the caller's bytes, leaving them alone, and
// that the pooled encoder never writes into a caller's buffer afterwards.
func TestStaticAppendCall(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t, tool.WithMaxOutputBytes(1<<10))
	tests := []struct {
		name, tool, args string
	}{
		{"text", "echo", `{"text":"hello"}`},
		{"structured", "notes_search", `{"text":"go"}`},
		{"output at the cap", "big", `{"n":1024}`},
		{"unknown tool", "ech", `{}`},
		{"invalid arguments", "echo", `{"text":1}`},
		{"malformed arguments", "echo", `{"text"`},
		{"propose", "notes_delete", `{"id":1}`},
		{"tool error", "fail_model", `{}`},
		{"encoder failure", "nan", `{}`},
		{"panic", "boom", `{}`},
		{"output over the cap", "big", `{"n":1025}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, wantErr := s.Call(t.Context(), tt.tool, []byte(tt.args))
			for _, spare := range []int{0, 8, 4096} {
				dst := make([]byte, 3, 3+spare)
				copy(dst, "pre")
				got, err := s.AppendCall(t.Context(), dst, tt.tool, []byte(tt.args))
				assert.Equal(t, tool.CodeOf(wantErr), tool.CodeOf(err), "spare %d", spare)
				assert.Equal(t, want.IsError, got.IsError)
				assert.Equal(t, want.Structured, got.Structured)
				assert.Equal(t, "pre"+want.Text(), got.Text(), "spare %d", spare)
				assert.Equal(t, "pre", string(dst), "the caller's bytes are left alone")
			}
		})
	}

	t.Run("reused buffer", func(t *testing.T) {
		t.Parallel()
		buf := make([]byte, 0, 64)
		first, err := s.AppendCall(t.Context(), buf, "echo", []byte(`{"text":"first"}`))
		require.NoError(t, err)
		require.Equal(t, "first", first.Text())
		// Later calls through the pool (Call, and AppendCall into other
		// memory) must not write into buf.
		for i := range 20 {
			_, err = s.Call(t.Context(), "echo", []byte(`{"text":"XXXXXXXXXX"}`))
			require.NoError(t, err)
			_, err = s.AppendCall(t.Context(), nil, "big", []byte(`{"n":`+strconv.Itoa(i)+`}`))
			require.NoError(t, err)
		}
		assert.Equal(t, "first", first.Text())
		second, err := s.AppendCall(t.Context(), first.Content[:0], "echo", []byte(`{"text":"again"}`))
		require.NoError(t, err)
		assert.Equal(t, "again", second.Text())
		assert.Same(t, &buf[:1][0], &second.Content[0], "the buffer's memory is reused")
	})
	t.Run("reused buffer, inline", func(t *testing.T) {
		// A context that is never done: AppendCall encodes into buf
		// itself, and the pooled encoder is left on it. Whatever runs
		// on those codecs next (Call, Check, AppendCall into other
		// memory, a call that may be abandoned) must not write into buf.
		t.Parallel()
		ctx := context.Background()
		buf := make([]byte, 0, 64)
		first, err := s.AppendCall(ctx, buf, "echo", []byte(`{"text":"first"}`))
		require.NoError(t, err)
		require.Equal(t, "first", first.Text())
		cancelled, cancel := context.WithCancel(ctx)
		defer cancel()
		for i := range 20 {
			res, err := s.Call(ctx, "echo", []byte(`{"text":"XXXXXXXXXX"}`))
			require.NoError(t, err)
			assert.Equal(t, "XXXXXXXXXX", res.Text())
			require.NoError(t, s.Check(ctx, "echo", []byte(`{"text":"YYYYYYYYYY"}`)))
			_, err = s.Call(cancelled, "echo", []byte(`{"text":"ZZZZZZZZZZ"}`))
			require.NoError(t, err)
			_, err = s.AppendCall(ctx, nil, "big", []byte(`{"n":`+strconv.Itoa(i)+`}`))
			require.NoError(t, err)
			assert.Equal(t, "first", first.Text())
			first, err = s.AppendCall(ctx, buf, "echo", []byte(`{"text":"first"}`))
			require.NoError(t, err)
		}
		assert.Equal(t, "first", first.Text())
		assert.Same(t, &buf[:1][0], &first.Content[0], "the buffer's memory is used")
	})
}

func TestStaticCallCancelled(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := s.Call(ctx, "cancelled", []byte(`{}`))
	te := requireFailure(t, res, err)
	assert.Equal(t, tool.CodeCancelled, te.Code, "the caller's cancellation is not the tool's timeout")
	assert.Equal(t, "the call was cancelled; nothing was run", te.Message)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestStaticUnknownTool(t *testing.T) {
	t.Parallel()
	names := []string{
		"notes_search", "notes_list", "notes_get", "notes_create", "notes_update", "notes_delete",
		"notes_archive", "tags_list", "tags_add", "calendar_today", "mail_send", "web_fetch",
	}
	var specs []tool.Spec
	for _, n := range names {
		specs = append(specs, tool.Spec{Name: n, Kind: tool.KindRead})
	}
	slices.SortFunc(specs, func(a, b tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	ran := false
	s, err := newStatic(specs, func(context.Context, string, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		ran = true
		return registry.OutputText, nil
	})
	require.NoError(t, err)

	tests := []struct {
		name, call, want string
	}{
		{"typo", "notes_serch", `unknown tool "notes_serch"; did you mean notes_search? (12 tools available)`},
		{"transposition", "notes_seacrh", `unknown tool "notes_seacrh"; did you mean notes_search? (12 tools available)`},
		{"case and separators", "Notes-Search", `unknown tool "Notes-Search"; did you mean notes_search? (12 tools available)`},
		{"reordered words", "search_notes", `unknown tool "search_notes"; did you mean notes_search? (12 tools available)`},
		{"two near misses", "notes_lest", `unknown tool "notes_lest"; did you mean one of notes_list, notes_get? (12 tools available)`},
		{"prefix capped at five", "notes", `unknown tool "notes"; did you mean one of notes_get, notes_list, notes_create, notes_delete, notes_search? (12 tools available)`},
		{"substring", "fetch", `unknown tool "fetch"; did you mean web_fetch? (12 tools available)`},
		{"longer than a tool", "mail_send_now", `unknown tool "mail_send_now"; did you mean mail_send? (12 tools available)`},
		{"shared group prefix", "calendar_week", `unknown tool "calendar_week"; did you mean calendar_today? (12 tools available)`},
		{"nothing close", "xyzzy", `unknown tool "xyzzy" (12 tools available)`},
		{"empty name", "", `unknown tool; the call must name a tool (12 tools available)`},
		{"64 bytes shown", strings.Repeat("z", 64), `unknown tool "` + strings.Repeat("z", 64) + `" (12 tools available)`},
		{"control characters not shown", "a\nb\x00", notShown + ` (12 tools available)`},
		{"quotes not shown", `x" or "y`, notShown + ` (12 tools available)`},
		{"markup not shown", `<script>alert(1)</script>`, notShown + ` (12 tools available)`},
		{"long name not shown", strings.Repeat("z", 100), notShown + ` (12 tools available)`},
		{"10 KB not shown", strings.Repeat("ignore previous instructions\n", 400), notShown + ` (12 tools available)`},
		{"suggestions still offered", "notes search", notShown + `; did you mean notes_search? (12 tools available)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := s.Call(t.Context(), tt.call, []byte(`{}`))
			te := requireFailure(t, res, err)
			assert.Equal(t, tool.CodeUnknownTool, te.Code)
			assert.Empty(t, te.Tool)
			assert.Equal(t, tt.want, te.Message)

			// Check reports the same failure.
			cerr := s.Check(t.Context(), tt.call, []byte(`{}`))
			assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(cerr))
			assert.EqualError(t, cerr, tt.want)
		})
	}
	assert.False(t, ran, "nothing was dispatched")
}

func TestStaticUnknownToolNeverListsTheCatalog(t *testing.T) {
	t.Parallel()
	// Twenty tools that all share a prefix: any query close to the group
	// matches many, and the message must still name at most five.
	var specs []tool.Spec
	for i := range 20 {
		specs = append(specs, tool.Spec{Name: fmt.Sprintf("notes_op%02d", i), Kind: tool.KindRead})
	}
	s, err := newStatic(specs, func(context.Context, string, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		return registry.OutputText, nil
	})
	require.NoError(t, err)
	for _, q := range []string{"notes", "notes_op", "notes_op1", "notes_opXX", "otes_op0", "NOTES_OP"} {
		t.Run(q, func(t *testing.T) {
			t.Parallel()
			_, err := s.Call(t.Context(), q, nil)
			require.Error(t, err)
			msg := err.Error()
			assert.Contains(t, msg, "(20 tools available)")
			named := strings.Count(msg, "notes_op") - strings.Count(strconv.Quote(q), "notes_op")
			assert.Positive(t, named, "some suggestion")
			assert.LessOrEqual(t, named, 5, msg)
		})
	}
}

func TestStaticUnknownToolCounts(t *testing.T) {
	t.Parallel()
	d := func(context.Context, string, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		return registry.OutputText, nil
	}
	tests := []struct {
		name  string
		specs []tool.Spec
		want  string
	}{
		{"none", nil, `unknown tool "x" (no tools available)`},
		{"one", []tool.Spec{{Name: "y", Kind: tool.KindRead}}, `unknown tool "x"; did you mean y? (1 tool available)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := newStatic(tt.specs, d)
			require.NoError(t, err)
			_, err = s.Call(t.Context(), "x", nil)
			assert.EqualError(t, err, tt.want)
			assert.Len(t, s.Tools(), len(tt.specs))
		})
	}
}

func TestStaticLookupAndTools(t *testing.T) {
	t.Parallel()
	f := &fixture{}
	specs := f.specs()
	s, err := newStatic(specs, f.dispatch)
	require.NoError(t, err)

	tools := s.Tools()
	require.Len(t, tools, len(specs))
	for i, sp := range tools {
		assert.Equal(t, specs[i].Name, sp.Name)
		got, ok := s.Lookup(sp.Name)
		require.True(t, ok, sp.Name)
		assert.Same(t, sp, got, "Lookup returns the spec Tools lists")
	}
	for _, name := range []string{"", "a", "zzz", "echo ", "Echo", "notes"} {
		got, ok := s.Lookup(name)
		assert.False(t, ok, name)
		assert.Nil(t, got)
	}

	// New keeps the caller's specs, without a copy: a generated
	// package's static table is served as it is.
	for i := range specs {
		assert.Same(t, &specs[i], tools[i])
	}
	echo, ok := s.Lookup("echo")
	require.True(t, ok)
	assert.Equal(t, "Echo", echo.Title)
	assert.JSONEq(t, `{"type":"object"}`, string(echo.InputSchema))
}

func TestNewStaticRefuses(t *testing.T) {
	t.Parallel()
	d := func(context.Context, string, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		return registry.OutputText, nil
	}
	read := func(names ...string) []tool.Spec {
		var specs []tool.Spec
		for _, n := range names {
			specs = append(specs, tool.Spec{Name: n, Kind: tool.KindRead})
		}
		return specs
	}
	tests := []struct {
		name     string
		specs    []tool.Spec
		dispatch tooltest.Dispatch
		opts     []tool.Option
		want     string
	}{
		{"unsorted", read("b", "a"), d, nil, `specs not sorted by name: "b" before "a"`},
		{"unsorted later", read("a", "c", "b"), d, nil, `specs not sorted by name: "c" before "b"`},
		{"byte order, not case-folded", read("a", "B"), d, nil, `specs not sorted by name: "a" before "B"`},
		{"duplicate", read("a", "b", "b"), d, nil, `duplicate tool name "b"`},
		{"empty name", read("", "a"), d, nil, "spec 0 (type ) has no name"},
		{"zero kind", []tool.Spec{{Name: "a"}}, d, nil, `tool "a" has invalid kind Kind(0)`},
		{"unknown kind", []tool.Spec{{Name: "a", Kind: 9}}, d, nil, `tool "a" has invalid kind Kind(9)`},
		{"nil dispatch", read("a"), nil, nil, "nil dispatch"},
		{"zero output cap", read("a"), d, []tool.Option{tool.WithMaxOutputBytes(0)}, "max output bytes must be positive, got 0"},
		{"negative output cap", read("a"), d, []tool.Option{tool.WithMaxOutputBytes(-1)}, "max output bytes must be positive, got -1"},
		{"negative limits", read("a"), d, []tool.Option{tool.WithLimits(codec.Limits{MaxDepth: -1})}, "negative limits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := newStatic(tt.specs, tt.dispatch, tt.opts...)
			require.Error(t, err)
			assert.Nil(t, s)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "new static tool registry: "), err.Error())
		})
	}
}

// TestStaticRefusesNilSpec: a table with a nil spec is refused, naming its
// position, rather than serving a registry that would crash on a lookup.
func TestStaticRefusesNilSpec(t *testing.T) {
	t.Parallel()
	d := func(context.Context, int, registry.Mode, *codec.Decoder, *codec.Encoder) (registry.Output, error) {
		return registry.OutputText, nil
	}
	for i, table := range [][]*tool.Spec{
		{nil, {Name: "b", Kind: tool.KindRead}},
		{{Name: "a", Kind: tool.KindRead}, nil},
	} {
		s, err := registry.New(table, nil, d, nil)
		require.Error(t, err)
		assert.Nil(t, s)
		assert.Equal(t, fmt.Sprintf("new static tool registry: spec %d is nil", i), err.Error())
	}
}

func TestStaticInvalidArguments(t *testing.T) {
	t.Parallel()
	f, s := newFixture(t)
	tests := []struct {
		name     string
		tool     string
		args     string
		problems []codec.Problem
	}{
		{
			"every problem", "echo", `{"text":5,"extra":true,"more":{"x":1}}`,
			[]codec.Problem{
				{Pointer: "/text", Message: "expected string, got number"},
				{Pointer: "/extra", Message: "unknown property (additional properties are not allowed)"},
				{Pointer: "/more", Message: "unknown property (additional properties are not allowed)"},
			},
		},
		{
			"missing", "echo", `{}`,
			[]codec.Problem{{Pointer: "/text", Message: "required property is missing"}},
		},
		{
			"empty args are {}", "echo", ``,
			[]codec.Problem{{Pointer: "/text", Message: "required property is missing"}},
		},
		{
			"not an object", "echo", `[1]`,
			[]codec.Problem{{Pointer: "", Message: "expected object, got array"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := s.Call(t.Context(), tt.tool, []byte(tt.args))
			te := requireFailure(t, res, err)
			assert.Equal(t, tool.CodeInvalidArguments, te.Code)
			assert.Equal(t, tt.tool, te.Tool)
			var ae *codec.ArgumentsError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, tt.problems, ae.Problems)
			assert.Equal(t, ae.Error(), te.Message)
			for _, p := range tt.problems {
				assert.Contains(t, te.Message, p.Message)
			}
		})
	}

	t.Run("malformed", func(t *testing.T) {
		t.Parallel()
		res, err := s.Call(t.Context(), "echo", []byte(`{"text":`))
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodeInvalidArguments, te.Code)
		assert.True(t, strings.HasPrefix(te.Message, "invalid arguments: "), te.Message)
	})
	t.Run("dispatch error passes through", func(t *testing.T) {
		t.Parallel()
		res, err := s.Call(t.Context(), "inner_error", []byte(`{}`))
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodeInvalidArguments, te.Code)
		assert.Equal(t, "inner_error", te.Tool, "Tool is filled in")
		assert.Equal(t, "n must be positive", te.Message)
	})
	t.Cleanup(func() { assert.Equal(t, int64(1), f.runs.Load(), "only inner_error ran") })
}

func TestStaticLimits(t *testing.T) {
	t.Parallel()
	f, s := newFixture(t, tool.WithLimits(codec.Limits{MaxBytes: 16}))
	res, err := s.Call(t.Context(), "echo", []byte(`{"text":"0123456789"}`))
	te := requireFailure(t, res, err)
	assert.Equal(t, tool.CodeInvalidArguments, te.Code)
	assert.Contains(t, te.Message, "larger than 16 bytes")
	assert.Zero(t, f.runs.Load())

	res, err = s.Call(t.Context(), "echo", []byte(`{"text":"012"}`))
	require.NoError(t, err)
	assert.Equal(t, "012", res.Text())
}

func TestStaticPropose(t *testing.T) {
	t.Parallel()
	f, s := newFixture(t)
	tests := []struct {
		name    string
		args    string
		code    tool.Code
		message string
	}{
		{"valid", `{"id":7}`, tool.CodeNeedsConfirmation, "tool notes_delete needs a person's confirmation; nothing was run"},
		{"wrong type", `{"id":"seven"}`, tool.CodeInvalidArguments, "invalid arguments: /id: expected integer, got string"},
		{"missing", `{}`, tool.CodeInvalidArguments, "invalid arguments: /id: required property is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := s.Call(t.Context(), "notes_delete", []byte(tt.args))
			te := requireFailure(t, res, err)
			assert.Equal(t, tt.code, te.Code)
			assert.Equal(t, "notes_delete", te.Tool)
			assert.Equal(t, tt.message, te.Message)
		})
	}
	t.Run("check", func(t *testing.T) {
		t.Parallel()
		require.NoError(t, s.Check(t.Context(), "notes_delete", []byte(`{"id":7}`)))
		err := s.Check(t.Context(), "notes_delete", []byte(`{"id":true}`))
		assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
	})
	t.Run("panicking decoder", func(t *testing.T) {
		t.Parallel()
		res, err := s.Call(t.Context(), "boom_decode", []byte(`{}`))
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodePanic, te.Code)
	})
	// Subtests above run in parallel; wait for them before counting.
	t.Cleanup(func() { assert.Zero(t, f.runs.Load(), "a propose tool never runs") })
}

func TestStaticCheckRunsNothing(t *testing.T) {
	t.Parallel()
	f, s := newFixture(t)
	for _, sp := range s.Tools() {
		if sp.Name == "boom_decode" {
			continue
		}
		err := s.Check(t.Context(), sp.Name, []byte(`{"text":"x","id":1,"n":3}`))
		assert.NoError(t, err, sp.Name)
	}
	err := s.Check(t.Context(), "echo", []byte(`{"text":1}`))
	assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
	assert.Equal(t, "echo", err.(*tool.Error).Tool)

	err = s.Check(t.Context(), "boom_decode", []byte(`{}`))
	assert.Equal(t, tool.CodePanic, tool.CodeOf(err))
	assert.Zero(t, f.runs.Load())
}

func TestStaticToolErrors(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t)
	tests := []struct {
		name    string
		tool    string
		args    string
		code    tool.Code
		message string
		is      error // in the chain of the *Error, for logs
	}{
		{"model error", "fail_model", `{"id":7}`, tool.CodeFailed, "no note with id 7: [error withheld]", errNotFound},
		{"wrapped model error", "fail_wrapped_model", `{}`, tool.CodeFailed, "try a shorter query", nil},
		{"plain error", "fail_plain", `{}`, tool.CodeFailed, "the tool failed", errNotFound},
		{"encoder failure", "nan", `{}`, tool.CodeFailed, "the tool failed", nil},
		{"invalid output kind", "bad_output", `{}`, tool.CodeFailed, "the tool failed", nil},
		{"timeout", "slow", `{}`, tool.CodeTimeout, "the tool timed out after 20ms", context.DeadlineExceeded},
		{"timeout beats a model error", "slow_model", `{}`, tool.CodeTimeout, "the tool timed out after 20ms", nil},
		{"late success is a timeout", "late", `{}`, tool.CodeTimeout, "the tool timed out after 1ms", context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := s.Call(t.Context(), tt.tool, []byte(tt.args))
			te := requireFailure(t, res, err)
			assert.Equal(t, tt.code, te.Code)
			assert.Equal(t, tt.tool, te.Tool)
			assert.Equal(t, tt.message, te.Message)
			assert.NotContains(t, res.Text(), "hunter2", "a plain error's text never reaches the model")
			require.Error(t, te.Cause, "the cause is kept for logs")
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
		})
	}

	t.Run("plain error cause", func(t *testing.T) {
		t.Parallel()
		_, err := s.Call(t.Context(), "fail_plain", []byte(`{}`))
		var te *tool.Error
		require.ErrorAs(t, err, &te)
		assert.Contains(t, te.Cause.Error(), "password=hunter2", "the real error is in Cause")
	})
	t.Run("encoder failure cause", func(t *testing.T) {
		t.Parallel()
		_, err := s.Call(t.Context(), "nan", []byte(`{}`))
		var te *tool.Error
		require.ErrorAs(t, err, &te)
		assert.Contains(t, te.Cause.Error(), "NaN")
	})
}

func TestStaticPanic(t *testing.T) {
	t.Parallel()
	_, s := newFixture(t)
	for range 3 { // the registry keeps working after a panic
		res, err := s.Call(t.Context(), "boom", []byte(`{}`))
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodePanic, te.Code)
		assert.Equal(t, "boom", te.Tool)
		assert.Equal(t, "the tool failed", te.Message)
		assert.NotContains(t, res.Text(), "hunter2")

		var pe *tool.PanicError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "kaboom: secret=hunter2", pe.Value)
		assert.Contains(t, string(pe.Stack), "runtime/internal/registry_test.(*fixture).dispatch", "the stack shows where it panicked")
		assert.Contains(t, pe.Error(), "panic: kaboom")

		res, err = s.Call(t.Context(), "echo", []byte(`{"text":"still here"}`))
		require.NoError(t, err)
		assert.Equal(t, "still here", res.Text())
	}

	t.Run("inline", func(t *testing.T) {
		// A context that is never done: the run is on the caller's
		// goroutine, and its panic is reported all the same, by Call,
		// AppendCall and Check.
		t.Parallel()
		ctx := context.Background()
		res, err := s.AppendCall(ctx, []byte("a:"), "boom", []byte(`{}`))
		var te *tool.Error
		require.ErrorAs(t, err, &te)
		assert.Equal(t, tool.CodePanic, te.Code)
		assert.True(t, res.IsError)
		assert.Equal(t, "a:the tool failed", res.Text())
		var pe *tool.PanicError
		require.ErrorAs(t, err, &pe)
		assert.Contains(t, string(pe.Stack), "runtime/internal/registry_test.(*fixture).dispatch")
		assert.Equal(t, tool.CodePanic, tool.CodeOf(s.Check(ctx, "boom_decode", []byte(`{}`))))
		res, err = s.Call(ctx, "echo", []byte(`{"text":"still here"}`))
		require.NoError(t, err)
		assert.Equal(t, "still here", res.Text())
	})
	t.Run("runtime error", func(t *testing.T) {
		t.Parallel()
		res, err := s.Call(t.Context(), "nil_map", []byte(`{}`))
		te := requireFailure(t, res, err)
		assert.Equal(t, tool.CodePanic, te.Code)
		var re runtime.Error
		assert.ErrorAs(t, err, &re, "PanicError unwraps to the runtime error")
	})
}

func TestStaticOutputCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    []tool.Option
		n       int
		message string
	}{
		{"at a small cap", []tool.Option{tool.WithMaxOutputBytes(10)}, 10, ""},
		{"over a small cap", []tool.Option{tool.WithMaxOutputBytes(10)}, 11, "the tool's output exceeds 10 bytes"},
		{"over the default cap", nil, 1<<20 + 1, "the tool's output exceeds 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, s := newFixture(t, tt.opts...)
			res, err := s.Call(t.Context(), "big", []byte(`{"n":`+strconv.Itoa(tt.n)+`}`))
			if tt.message == "" {
				require.NoError(t, err)
				assert.Len(t, res.Content, tt.n)
				return
			}
			te := requireFailure(t, res, err)
			assert.Equal(t, tool.CodeOutputTooLarge, te.Code)
			assert.Equal(t, tt.message, te.Message)
			assert.Contains(t, te.Cause.Error(), "more than the cap of "+strings.TrimPrefix(tt.message, "the tool's output exceeds "))

			// The next call gets a clean encoder.
			res, err = s.Call(t.Context(), "big", []byte(`{"n":3}`))
			require.NoError(t, err)
			assert.Equal(t, "xxx", res.Text())
		})
	}
}

func TestStaticConcurrent(t *testing.T) {
	t.Parallel()
	f, s := newFixture(t)
	const goroutines, calls = 16, 200
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				text := fmt.Sprintf("g%d-i%d", g, i)
				switch i % 5 {
				case 0:
					res, err := s.Call(t.Context(), "echo", []byte(`{"text":"`+text+`"}`))
					if assert.NoError(t, err) {
						assert.Equal(t, text, res.Text(), "no call sees another's output")
					}
				case 1:
					res, err := s.Call(t.Context(), "notes_search", []byte(`{"text":"`+text+`"}`))
					if assert.NoError(t, err) {
						assert.Equal(t, `{"query":"`+text+`","hits":0}`, res.Text())
					}
				case 2:
					_, err := s.Call(t.Context(), "boom", nil)
					assert.Equal(t, tool.CodePanic, tool.CodeOf(err))
				case 3:
					_, err := s.Call(t.Context(), "echo", []byte(`{"text":`+strconv.Itoa(i)+`}`))
					assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
				case 4:
					_, err := s.Call(t.Context(), "notes_delete", []byte(`{"id":1}`))
					assert.Equal(t, tool.CodeNeedsConfirmation, tool.CodeOf(err))
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int64(goroutines*calls*3/5), f.runs.Load(), "echo, notes_search and boom ran")
}

func TestOutputAndModeStrings(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "text", registry.OutputText.String())
	assert.Equal(t, "json", registry.OutputJSON.String())
	assert.Equal(t, "structured", registry.OutputStructured.String())
	assert.Equal(t, "Output(0)", registry.Output(0).String())
	assert.Equal(t, "call", registry.ModeCall.String())
	assert.Equal(t, "check", registry.ModeCheck.String())
	assert.Equal(t, "Mode(7)", registry.Mode(7).String())
}

func FuzzStaticCall(f *testing.F) {
	s := newBenchStatic(f)
	for _, seed := range []struct{ name, args string }{
		{"notes_search", `{"query":"go"}`},
		{"notes_search", `{"query":1,"x":[{}]}`},
		{"notes_delete", `{"query":"x"}`},
		{"notes_serch", ``},
		{"web_fetch", `{"query":"\ud800"}`},
		{"notes_search", `[[[[[[[[[[[[`},
	} {
		f.Add(seed.name, []byte(seed.args))
	}
	f.Fuzz(func(t *testing.T, name string, args []byte) {
		res, err := s.Call(context.Background(), name, args)
		if err == nil {
			assert.False(t, res.IsError)
			assert.True(t, res.Structured)
			return
		}
		te := requireFailure(t, res, err)
		assert.NotZero(t, te.Code)
		assert.NotEqual(t, tool.CodePanic, te.Code, "%+v", te.Cause)
		cerr := s.Check(context.Background(), name, args)
		if te.Code == tool.CodeNeedsConfirmation {
			assert.NoError(t, cerr)
		} else {
			assert.Equal(t, te.Code, tool.CodeOf(cerr), "Check agrees with Call")
		}
	})
}

func TestNewWithOff(t *testing.T) {
	t.Parallel()
	table := []tool.Spec{
		{Name: "a", Kind: tool.KindRead},
		{Name: "b", Kind: tool.KindRead},
		{Name: "c", Kind: tool.KindRead},
	}
	var got []int
	d := func(_ context.Context, i int, _ registry.Mode, _ *codec.Decoder, out *codec.Encoder) (registry.Output, error) {
		got = append(got, i)
		out.RawText(table[i].Name)
		return registry.OutputText, nil
	}
	ctx := context.Background()

	s, err := registry.New(tooltest.Table(table), nil, d, nil)
	require.NoError(t, err)
	require.Len(t, s.Tools(), 3)
	for i := range table {
		assert.Same(t, &table[i], s.Tools()[i], "the table itself, without a copy")
	}

	// Off tools are neither listed nor callable; the dispatch still gets
	// the table index of the others.
	s, err = registry.New(tooltest.Table(table), []bool{false, true}, d, nil)
	require.NoError(t, err)
	var names []string
	for _, sp := range s.Tools() {
		names = append(names, sp.Name)
	}
	assert.Equal(t, []string{"a", "c"}, names)
	_, ok := s.Lookup("b")
	assert.False(t, ok)
	res, err := s.Call(ctx, "c", nil)
	require.NoError(t, err)
	assert.Equal(t, "c", string(res.Content))
	res, err = s.Call(ctx, "a", nil)
	require.NoError(t, err)
	assert.Equal(t, "a", string(res.Content))
	_, err = s.Call(ctx, "b", nil)
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeUnknownTool, te.Code)
	assert.Equal(t, []int{2, 0}, got)

	_, err = registry.New(tooltest.Table(table), nil, nil, nil)
	assert.ErrorContains(t, err, "nil dispatch")
	_, err = registry.New(tooltest.Table([]tool.Spec{table[1], table[0]}), nil, d, nil)
	assert.ErrorContains(t, err, `specs not sorted by name: "b" before "a"`)
}

// notShown starts the message about an unknown name that is not an
// identifier, which the message does not repeat.
const notShown = "unknown tool (its name is not shown: tool names are 1 to 64 letters, digits, '_', '.' or '-')"
