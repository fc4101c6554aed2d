package tool_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// sampleInvocation returns an Invocation with every field set.
func sampleInvocation() *tool.Invocation {
	return &tool.Invocation{
		Principal:    tool.Principal{ID: "user-7", Permissions: []string{"notes.read", "notes.write"}},
		Conversation: "conv-1",
		Turn:         "turn-3",
		CallID:       "call-a",
		Agent:        tool.Agent{Name: "helper", Model: tool.Model{Provider: "anthropic", Name: "claude-x", Settings: map[string]string{"temperature": "0"}}},
		State:        new(tool.TurnState),
	}
}

// callID returns the call ID of the Invocation ctx carries, or "".
func callID(ctx context.Context) string {
	if inv, ok := tool.InvocationFrom(ctx); ok {
		return inv.CallID
	}
	return ""
}

func TestInvocationFrom(t *testing.T) {
	t.Parallel()
	ctx := t.Context()

	_, ok := tool.InvocationFrom(ctx)
	assert.False(t, ok, "no invocation")
	_, ok = tool.PrincipalFrom(ctx)
	assert.False(t, ok)
	assert.Empty(t, callID(ctx))

	inv := sampleInvocation()
	ctx = tool.WithInvocation(ctx, inv)
	got, ok := tool.InvocationFrom(ctx)
	require.True(t, ok)
	assert.Same(t, inv, got, "the invocation itself, not a copy")
	p, ok := tool.PrincipalFrom(ctx)
	require.True(t, ok)
	assert.Equal(t, inv.Principal, p)
	assert.Equal(t, "call-a", callID(ctx))

	// A nil *Invocation is no invocation.
	nilCtx := tool.WithInvocation(t.Context(), nil)
	_, ok = tool.InvocationFrom(nilCtx)
	assert.False(t, ok)
	_, ok = tool.PrincipalFrom(nilCtx)
	assert.False(t, ok)
	assert.Empty(t, callID(nilCtx))
}

func TestWithCallID(t *testing.T) {
	t.Parallel()

	t.Run("copies the invocation", func(t *testing.T) {
		t.Parallel()
		inv := sampleInvocation()
		before := *inv
		ctx := tool.WithInvocation(t.Context(), inv)
		ctx2 := tool.WithCallID(ctx, "call-b")
		got, ok := tool.InvocationFrom(ctx2)
		require.True(t, ok)
		assert.NotSame(t, inv, got, "a copy")
		assert.Equal(t, "call-b", got.CallID)
		assert.Equal(t, "call-b", callID(ctx2))
		// Everything else is the original's, the turn state included.
		want := before
		want.CallID = "call-b"
		assert.Equal(t, want, *got)
		assert.Same(t, inv.State, got.State, "the same turn")
		// The original is untouched, and so is the context it is in.
		assert.Equal(t, before, *inv)
		assert.Equal(t, "call-a", callID(ctx))
	})

	t.Run("without an invocation", func(t *testing.T) {
		t.Parallel()
		ctx := tool.WithCallID(t.Context(), "call-b")
		got, ok := tool.InvocationFrom(ctx)
		require.True(t, ok, "a new invocation")
		assert.Equal(t, tool.Invocation{CallID: "call-b"}, *got)
		_, ok = tool.PrincipalFrom(ctx)
		assert.True(t, ok, "with the zero principal")
	})

	t.Run("empty id", func(t *testing.T) {
		t.Parallel()
		ctx := t.Context()
		assert.Equal(t, ctx, tool.WithCallID(ctx, ""), "ctx as it is")
		ctx = tool.WithInvocation(ctx, sampleInvocation())
		assert.Equal(t, ctx, tool.WithCallID(ctx, ""))
		assert.Equal(t, "call-a", callID(ctx))
	})

	t.Run("same id", func(t *testing.T) {
		t.Parallel()
		inv := sampleInvocation()
		ctx := tool.WithInvocation(t.Context(), inv)
		assert.Equal(t, ctx, tool.WithCallID(ctx, "call-a"), "ctx as it is")
		got, _ := tool.InvocationFrom(tool.WithCallID(ctx, "call-a"))
		assert.Same(t, inv, got)
	})
}

func TestModelFor(t *testing.T) {
	t.Parallel()
	own := tool.Model{Provider: "openai", Name: "gpt-own"}
	agents := tool.Model{Provider: "anthropic", Name: "claude-x"}
	withAgent := tool.WithInvocation(t.Context(), &tool.Invocation{Agent: tool.Agent{Name: "a", Model: agents}})
	tests := []struct {
		name string
		ctx  context.Context
		own  tool.Model
		want tool.Model
	}{
		{"own model wins", withAgent, own, own},
		{"own model without invocation", t.Context(), own, own},
		{"agent's model", withAgent, tool.Model{}, agents},
		{"own settings without a name do not count", withAgent, tool.Model{Provider: "openai", Settings: map[string]string{"x": "1"}}, agents},
		{"nothing", t.Context(), tool.Model{}, tool.Model{}},
		{"an invocation without an agent", tool.WithInvocation(t.Context(), &tool.Invocation{}), tool.Model{}, tool.Model{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tool.ModelFor(tt.ctx, tt.own))
		})
	}
}

func TestPrincipalHas(t *testing.T) {
	t.Parallel()
	p := tool.Principal{ID: "u", Permissions: []string{"notes.read", "notes.write"}}
	assert.True(t, p.Has("notes.read"))
	assert.True(t, p.Has("notes.write"))
	assert.False(t, p.Has("notes.delete"))
	assert.False(t, p.Has(""))
	assert.False(t, p.Has("notes"), "whole names only")

	assert.True(t, p.HasAll(nil), "no permission needed")
	assert.True(t, p.HasAll([]string{}))
	assert.True(t, p.HasAll([]string{"notes.read"}))
	assert.True(t, p.HasAll([]string{"notes.write", "notes.read"}))
	assert.False(t, p.HasAll([]string{"notes.read", "notes.delete"}))

	var none tool.Principal
	assert.False(t, none.Has("notes.read"))
	assert.True(t, none.HasAll(nil))
	assert.False(t, none.HasAll([]string{"notes.read"}))
}

// presenterKey and otherKey are keys of Shared values, as a tool's package
// declares them.
type (
	presenterKey struct{}
	otherKey     struct{}
)

// presenter stands for a value the calls of a turn share.
type presenter struct{ n int }

func TestSharedOncePerTurn(t *testing.T) {
	t.Parallel()
	ctx := tool.WithInvocation(t.Context(), &tool.Invocation{State: new(tool.TurnState)})
	var created atomic.Int64
	create := func() *presenter { return &presenter{n: int(created.Add(1))} }

	const goroutines = 32
	got := make([]*presenter, goroutines)
	shared := make([]bool, goroutines)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range goroutines {
		wg.Go(func() {
			<-start
			// Each call of the turn has its own context, as the call
			// service derives one per call, with the turn's state.
			callCtx := tool.WithCallID(ctx, "call-"+strings.Repeat("x", g+1))
			got[g], shared[g] = tool.Shared(callCtx, presenterKey{}, create)
		})
	}
	close(start)
	wg.Wait()
	assert.Equal(t, int64(1), created.Load(), "create ran once")
	for g := range goroutines {
		assert.True(t, shared[g])
		assert.Same(t, got[0], got[g], "one value per turn")
	}

	// Another key is another value; another turn is another value.
	o, ok := tool.Shared(ctx, otherKey{}, create)
	assert.True(t, ok)
	assert.NotSame(t, got[0], o)
	next := tool.WithInvocation(t.Context(), &tool.Invocation{State: new(tool.TurnState)})
	n, ok := tool.Shared(next, presenterKey{}, create)
	assert.True(t, ok)
	assert.NotSame(t, got[0], n)
	assert.Equal(t, int64(3), created.Load())
}

func TestSharedWithoutState(t *testing.T) {
	t.Parallel()
	calls := 0
	create := func() int { calls++; return calls }
	for _, ctx := range []context.Context{
		t.Context(),
		tool.WithInvocation(t.Context(), &tool.Invocation{Principal: tool.Principal{ID: "u"}}),
	} {
		v, shared := tool.Shared(ctx, presenterKey{}, create)
		assert.False(t, shared)
		v2, shared := tool.Shared(ctx, presenterKey{}, create)
		assert.False(t, shared)
		assert.NotEqual(t, v, v2, "each call made its own")
	}
	assert.Equal(t, 4, calls)
}

func TestSharedKeyOfAnotherType(t *testing.T) {
	t.Parallel()
	ctx := tool.WithInvocation(t.Context(), &tool.Invocation{State: new(tool.TurnState)})
	p, shared := tool.Shared(ctx, presenterKey{}, func() *presenter { return &presenter{n: 1} })
	require.True(t, shared)

	// The same key asked for another type: nothing shared, and the value
	// it holds is left alone.
	for range 2 {
		s, shared := tool.Shared(ctx, presenterKey{}, func() string { return "other" })
		assert.False(t, shared)
		assert.Equal(t, "other", s)
	}
	again, shared := tool.Shared(ctx, presenterKey{}, func() *presenter { return &presenter{n: 2} })
	assert.True(t, shared)
	assert.Same(t, p, again)
	assert.Equal(t, 1, again.n)
}

// TestSharedNilValue checks that a nil value of an interface type is
// shared like any other: create runs once.
func TestSharedNilValue(t *testing.T) {
	t.Parallel()
	ctx := tool.WithInvocation(t.Context(), &tool.Invocation{State: new(tool.TurnState)})
	calls := 0
	create := func() io.Writer { calls++; return nil }
	for range 3 {
		w, shared := tool.Shared(ctx, presenterKey{}, create)
		assert.True(t, shared)
		assert.Nil(t, w)
	}
	assert.Equal(t, 1, calls)
}
