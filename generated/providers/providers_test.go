package providers

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/tools/notes"
)

func registry(t testing.TB) []generated.Tools {
	t.Helper()
	return demo.All(notes.NewDemoStore(), nil)
}

// TestPrecomputedMatchesRuntime: the bytes toolgen wrote are exactly what
// the provider package computes from the registry's specs, and every tool
// the registry offers is precomputed (nothing is projected at start-up).
func TestPrecomputedMatchesRuntime(t *testing.T) {
	reg, err := generated.New(registry(t))
	require.NoError(t, err)
	pre, err := NewDefinitions(reg)
	require.NoError(t, err)
	run, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	assert.Equal(t, string(run.OpenAIChat()), string(pre.OpenAIChat()))
	assert.Equal(t, string(run.OpenAIResponses()), string(pre.OpenAIResponses()))
	assert.Equal(t, string(run.Anthropic()), string(pre.Anthropic()))
	assert.Equal(t, string(run.Gemini()), string(pre.Gemini()))
	assert.Equal(t, run.Tools(), pre.Tools())
	for _, spec := range reg.Tools() {
		p, ok := precomputed(spec.Name)
		require.True(t, ok, spec.Name)
		assert.Equal(t, string(spec.InputSchema), p.InputSchema, spec.Name)
		assert.Equal(t, spec.Description, p.Description, spec.Name)
	}
	_, ok := precomputed("no_such_tool")
	assert.False(t, ok)
}

// BenchmarkNewDefinitions compares start-up from precomputed definitions with
// projecting every tool at run time.
func BenchmarkNewDefinitions(b *testing.B) {
	reg, err := generated.New(registry(b))
	require.NoError(b, err)
	b.Run("precomputed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NewDefinitions(reg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("runtime", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := provider.NewDefinitions(reg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestPrecomputedIsShared: a tool's definitions are the package's static
// data, shared by every call and every Definitions built from them, never
// a copy made at start-up.
func TestPrecomputedIsShared(t *testing.T) {
	reg, err := generated.New(registry(t))
	require.NoError(t, err)
	a, err := NewDefinitions(reg)
	require.NoError(t, err)
	b, err := NewDefinitions(reg)
	require.NoError(t, err)
	for i, spec := range reg.Tools() {
		p, ok := precomputed(spec.Name)
		require.True(t, ok, spec.Name)
		q, _ := precomputed(spec.Name)
		assert.Same(t, p, q, spec.Name)
		assert.Same(t, &p.Anthropic.JSON[0], &a.Tools()[i].Anthropic.JSON[0], spec.Name)
		assert.Same(t, &a.Tools()[i].OpenAIChat.JSON[0], &b.Tools()[i].OpenAIChat.JSON[0], spec.Name)
	}
}
