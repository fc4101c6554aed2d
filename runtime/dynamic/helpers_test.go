package dynamic_test

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// fake is an in-memory toolkit whose tools, availability and calls a
// test controls.
type fake struct {
	group     string
	specs     atomic.Pointer[[]*tool.Spec]
	available atomic.Bool
	binds     atomic.Int32
	bindErr   error
	env       dynamic.Env
	mu        sync.Mutex
	calls     []string // local names called
	call      func(ctx context.Context, name string, args []byte) (tool.Result, error)
}

// newFake returns an available toolkit of group serving specs.
func newFake(group string, specs ...*tool.Spec) *fake {
	f := &fake{group: group}
	f.set(specs...)
	f.available.Store(true)
	return f
}

// set replaces the toolkit's tools with a new slice.
func (f *fake) set(specs ...*tool.Spec) { f.specs.Store(&specs) }

func (f *fake) Group() string { return f.group }

func (f *fake) Bind(_ context.Context, env dynamic.Env) error {
	f.binds.Add(1)
	f.env = env
	return f.bindErr
}

func (f *fake) Available(context.Context) bool { return f.available.Load() }

func (f *fake) Tools(context.Context) []*tool.Spec { return *f.specs.Load() }

func (f *fake) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, name)
	f.mu.Unlock()
	if f.call != nil {
		return f.call(ctx, name, args)
	}
	return tool.Result{Content: append([]byte(name+" "), args...)}, nil
}

// spec returns a tool spec of that local name taking {"query": string}.
func spec(name string) *tool.Spec {
	return &tool.Spec{Name: name, Kind: tool.KindRead, Description: "Does " + name + ".", InputSchema: []byte(`{"type":"object","properties":{"query":{"type":"string"}},"additionalProperties":false}`)}
}

// logBuffer is a concurrency-safe buffer for a test's logs.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newSource returns a Source over the static tools named static, logging to the
// returned buffer.
func newSource(t testing.TB, static ...string) (*dynamic.Source, *logBuffer) {
	t.Helper()
	specs := make([]*tool.Spec, len(static))
	for i, n := range static {
		specs[i] = &tool.Spec{Name: n}
	}
	logs := &logBuffer{}
	s, err := dynamic.New(specs, &dynamic.Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	require.NoError(t, err)
	return s, logs
}

// names returns the names of the tools s lists for ctx.
func names(ctx context.Context, s *dynamic.Source) []string {
	var out []string
	for _, sp := range s.AppendTools(ctx, nil) {
		out = append(out, sp.Name)
	}
	return out
}
