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

func TestSet(t *testing.T) {
	t.Parallel()
	reg := sampleRegistry(t)
	set, err := provider.NewSet(reg)
	require.NoError(t, err)
	require.Equal(t, len(reg.Tools()), set.Len())

	join := func(def func(provider.Tool) []byte) string {
		s := "["
		for i, tl := range set.Tools() {
			if i > 0 {
				s += ","
			}
			s += string(def(tl))
		}
		return s + "]"
	}
	for i, tl := range set.Tools() {
		assert.Same(t, reg.Tools()[i], tl.Spec, "in the registry's order, sharing its specs")
		for name, p := range map[string]provider.Projection{"openai chat": tl.OpenAIChat, "openai responses": tl.OpenAIResponses, "anthropic": tl.Anthropic, "gemini": tl.Gemini} {
			assert.NotEmpty(t, p.JSON, "%s %s", tl.Spec.Name, name)
		}
		want, err := provider.Anthropic(tl.Spec)
		require.NoError(t, err)
		assert.Equal(t, want, tl.Anthropic, "the set holds what the projection returns")
		got, ok := set.Lookup(tl.Spec.Name)
		require.True(t, ok)
		assert.Same(t, &set.Tools()[i], got)
	}
	_, ok := set.Lookup("notes_serch")
	assert.False(t, ok)

	assert.Equal(t, join(func(tl provider.Tool) []byte { return tl.OpenAIChat.JSON }), string(set.OpenAIChat()))
	assert.Equal(t, join(func(tl provider.Tool) []byte { return tl.OpenAIResponses.JSON }), string(set.OpenAIResponses()))
	assert.Equal(t, join(func(tl provider.Tool) []byte { return tl.Anthropic.JSON }), string(set.Anthropic()))
	assert.Equal(t, `[{"functionDeclarations":`+join(func(tl provider.Tool) []byte { return tl.Gemini.JSON })+`}]`, string(set.Gemini()))

	// Another set over another registry of the same tools: the same bytes.
	again, err := provider.NewSet(sampleRegistry(t))
	require.NoError(t, err)
	assert.Equal(t, set.OpenAIChat(), again.OpenAIChat())
	assert.Equal(t, set.OpenAIResponses(), again.OpenAIResponses())
	assert.Equal(t, set.Anthropic(), again.Anthropic())
	assert.Equal(t, set.Gemini(), again.Gemini())
}

func TestSetAllocations(t *testing.T) {
	// Not parallel: AllocsPerRun measures the whole process.
	set, err := provider.NewSet(sampleRegistry(t))
	require.NoError(t, err)
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		n += len(set.OpenAIChat()) + len(set.OpenAIResponses()) + len(set.Anthropic()) + len(set.Gemini())
		_, _ = set.Lookup("notes_search")
	})
	assert.Zero(t, allocs)
	assert.Positive(t, n)
}

func TestSetEmpty(t *testing.T) {
	t.Parallel()
	reg, err := tooltest.NewRegistry(nil, func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return 0, nil
	})
	require.NoError(t, err)
	set, err := provider.NewSet(reg)
	require.NoError(t, err)
	assert.Zero(t, set.Len())
	for _, b := range [][]byte{set.OpenAIChat(), set.OpenAIResponses(), set.Anthropic(), set.Gemini()} {
		assert.Equal(t, "[]", string(b))
	}
}

func TestSetError(t *testing.T) {
	t.Parallel()
	reg, err := tooltest.NewRegistry([]tool.Spec{{Name: "notes.search", Kind: tool.KindRead, InputSchema: []byte(`{"type":"object","properties":{}}`)}},
		func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
			return 0, nil
		})
	require.NoError(t, err)
	_, err = provider.NewSet(reg)
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "notes.search", pe.Tool)
	assert.Equal(t, provider.ProviderOpenAI, pe.Provider)
	assert.Contains(t, err.Error(), "new provider set: provider openai: tool notes.search: the name does not match")
}

func BenchmarkNewSet(b *testing.B) {
	reg := sampleRegistry(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := provider.NewSet(reg); err != nil {
			b.Fatal(err)
		}
	}
}
