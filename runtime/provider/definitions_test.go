package provider_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

func TestDefinitions(t *testing.T) {
	t.Parallel()
	reg := sampleRegistry(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	require.Equal(t, len(reg.Tools()), defs.Len())

	join := func(def func(provider.Tool) []byte) string {
		s := "["
		for i, tl := range defs.Tools() {
			if i > 0 {
				s += ","
			}
			s += string(def(tl))
		}
		return s + "]"
	}
	for i, tl := range defs.Tools() {
		assert.Same(t, reg.Tools()[i], tl.Spec, "in the registry's order, sharing its specs")
		for name, p := range map[string]provider.Projection{"openai chat": tl.OpenAIChat, "openai responses": tl.OpenAIResponses, "anthropic": tl.Anthropic, "gemini": tl.Gemini} {
			assert.NotEmpty(t, p.JSON, "%s %s", tl.Spec.Name, name)
		}
		want, err := provider.Anthropic(tl.Spec)
		require.NoError(t, err)
		assert.Equal(t, want, tl.Anthropic, "the definitions hold what the projection returns")
		got, ok := defs.Lookup(tl.Spec.Name)
		require.True(t, ok)
		assert.Same(t, &defs.Tools()[i], got)
	}
	_, ok := defs.Lookup("notes_serch")
	assert.False(t, ok)

	assert.Equal(t, join(func(tl provider.Tool) []byte { return tl.OpenAIChat.JSON }), string(defs.OpenAIChat()))
	assert.Equal(t, join(func(tl provider.Tool) []byte { return tl.OpenAIResponses.JSON }), string(defs.OpenAIResponses()))
	assert.Equal(t, join(func(tl provider.Tool) []byte { return tl.Anthropic.JSON }), string(defs.Anthropic()))
	assert.Equal(t, `[{"functionDeclarations":`+join(func(tl provider.Tool) []byte { return tl.Gemini.JSON })+`}]`, string(defs.Gemini()))

	// Other definitions over another registry of the same tools: the same bytes.
	again, err := provider.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	assert.Equal(t, defs.OpenAIChat(), again.OpenAIChat())
	assert.Equal(t, defs.OpenAIResponses(), again.OpenAIResponses())
	assert.Equal(t, defs.Anthropic(), again.Anthropic())
	assert.Equal(t, defs.Gemini(), again.Gemini())
}

func TestDefinitionsAllocations(t *testing.T) {
	// Not parallel: AllocsPerRun measures the whole process.
	defs, err := provider.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		n += len(defs.OpenAIChat()) + len(defs.OpenAIResponses()) + len(defs.Anthropic()) + len(defs.Gemini())
		_, _ = defs.Lookup("notes_search")
	})
	assert.Zero(t, allocs)
	assert.Positive(t, n)
}

func TestDefinitionsEmpty(t *testing.T) {
	t.Parallel()
	reg, err := tooltest.NewRegistry(nil, func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return 0, nil
	})
	require.NoError(t, err)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	assert.Zero(t, defs.Len())
	for _, b := range [][]byte{defs.OpenAIChat(), defs.OpenAIResponses(), defs.Anthropic(), defs.Gemini()} {
		assert.Equal(t, "[]", string(b))
	}
}

func TestDefinitionsError(t *testing.T) {
	t.Parallel()
	reg, err := tooltest.NewRegistry([]tool.Spec{{Name: "notes.search", Kind: tool.KindRead, InputSchema: []byte(`{"type":"object","properties":{}}`)}},
		func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
			return 0, nil
		})
	require.NoError(t, err)
	_, err = provider.NewDefinitions(reg)
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "notes.search", pe.Tool)
	assert.Equal(t, provider.ProviderOpenAI, pe.Provider)
	assert.Contains(t, err.Error(), "new provider definitions: provider openai: tool notes.search: the name does not match")
}

func BenchmarkNewDefinitions(b *testing.B) {
	reg := sampleRegistry(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := provider.NewDefinitions(reg); err != nil {
			b.Fatal(err)
		}
	}
}
