package provider_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// dynSpec returns a spec as a toolkit would serve it (runtime/dynamic).
func dynSpec(name, description string) *tool.Spec {
	return &tool.Spec{Name: name, Description: description, InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"string","minLength":1}},"required":["id"]}`)}
}

func TestCacheProjectsOncePerVersion(t *testing.T) {
	t.Parallel()
	c := provider.NewCache(0)
	a := dynSpec("wf_run", "Runs a workflow.")
	first, err := c.Tool(a)
	require.NoError(t, err)
	want, err := provider.Compute(a)
	require.NoError(t, err)
	assert.Equal(t, want.OpenAIChat, first.OpenAIChat, "the projection code toolgen runs")
	assert.Equal(t, want.OpenAIResponses, first.OpenAIResponses)
	assert.Equal(t, want.Anthropic, first.Anthropic)
	assert.Equal(t, want.Gemini, first.Gemini)
	assert.Same(t, a, first.Spec)

	steps := []struct {
		spec *tool.Spec
		want int
	}{
		{a, 1},
		{dynSpec("wf_run", "Runs a workflow."), 1}, // another pointer, the same version
		{dynSpec("wf_run", "Runs it."), 2},         // a new description
		{&tool.Spec{Name: "wf_run", Description: "Runs it.", InputSchema: []byte(`{"type":"object"}`)}, 3},
		{dynSpec("wf_run", "Runs a workflow."), 3}, // back to the first version
	}
	for i, st := range steps {
		got, err := c.Tool(st.spec)
		require.NoError(t, err)
		assert.Equal(t, st.want, c.Projections(), "step %d", i)
		if i < 2 || i == 4 {
			assert.Same(t, &first.Anthropic.JSON[0], &got.Anthropic.JSON[0], "step %d: the same bytes, shared", i)
		}
	}

	// A spec changed in place is a new version, even under the same pointer.
	a.Description = "Changed."
	got, err := c.Tool(a)
	require.NoError(t, err)
	assert.Equal(t, 4, c.Projections())
	assert.Contains(t, string(got.Anthropic.JSON), "Changed.")
}

func TestCacheForgetsOldVersions(t *testing.T) {
	t.Parallel()
	c := provider.NewCache(2)
	specs := []*tool.Spec{dynSpec("wf_a", ""), dynSpec("wf_b", ""), dynSpec("wf_c", ""), dynSpec("wf_d", ""), dynSpec("wf_e", "")}
	for _, sp := range specs[:3] {
		_, err := c.Tool(sp)
		require.NoError(t, err)
	}
	_, err := c.Tool(specs[0]) // kept from before the last fill
	require.NoError(t, err)
	assert.Equal(t, 3, c.Projections())
	for _, sp := range specs[3:] {
		_, err := c.Tool(sp)
		require.NoError(t, err)
	}
	_, err = c.Tool(specs[1]) // forgotten: two fills ago, not used since
	require.NoError(t, err)
	assert.Equal(t, 6, c.Projections())
}

func TestCacheError(t *testing.T) {
	t.Parallel()
	c := provider.NewCache(0)
	for _, tc := range []struct {
		spec     *tool.Spec
		provider string
	}{
		{&tool.Spec{Name: "wf_list", InputSchema: []byte(`{"type":"array"}`)}, provider.ProviderOpenAI},
		{&tool.Spec{Name: "wf_bad", InputSchema: []byte(`{"type":`)}, provider.ProviderOpenAI},
	} {
		for range 2 {
			_, err := c.Tool(tc.spec)
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.spec.Name, pe.Tool)
			assert.Equal(t, tc.provider, pe.Provider)
			assert.Contains(t, err.Error(), "provider "+tc.provider+": tool "+tc.spec.Name)
		}
	}
	assert.Equal(t, 2, c.Projections(), "a failure is cached too")
	_, err := c.Tool(nil)
	require.Error(t, err)
}

func TestSubsetWith(t *testing.T) {
	t.Parallel()
	reg := sampleRegistry(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	c := provider.NewCache(0)

	static := every(defs, func(i int) bool { return i%2 == 0 })
	dyn := []*tool.Spec{dynSpec("general_run", "Runs a workflow."), dynSpec("wf_approve", "Approves.")}
	offer := append(slices.Clone(static), dyn...)
	slices.SortFunc(offer, func(a, b *tool.Spec) int { return strings.Compare(a.Name, b.Name) })

	sub, err := defs.SubsetWith(offer, c)
	require.NoError(t, err)
	require.Equal(t, len(offer), sub.Len())
	assert.Equal(t, 2, c.Projections(), "only the dynamic tools are projected")
	for _, tl := range sub.Tools() {
		if st, ok := defs.Lookup(tl.Name()); ok {
			assert.Same(t, &st.Anthropic.JSON[0], &tl.Anthropic.JSON[0], "%s: the definitions' precomputed bytes", tl.Name())
			continue
		}
		want, err := provider.Compute(tl.Spec)
		require.NoError(t, err)
		assert.Equal(t, want.Gemini.JSON, tl.Gemini.JSON, tl.Name())
	}
	chat, responses, anthropic, gemini := joined(sub.Tools())
	assert.Equal(t, chat, string(sub.OpenAIChat()))
	assert.Equal(t, responses, string(sub.OpenAIResponses()))
	assert.Equal(t, anthropic, string(sub.Anthropic()))
	assert.Equal(t, gemini, string(sub.Gemini()))

	// Byte stability: the same versions again, under new pointers.
	again := slices.Clone(offer)
	for i, sp := range again {
		if _, ok := defs.Lookup(sp.Name); !ok {
			again[i] = dynSpec(sp.Name, sp.Description)
		}
	}
	sub2, err := defs.SubsetWith(again, c)
	require.NoError(t, err)
	assert.Equal(t, sub.OpenAIChat(), sub2.OpenAIChat())
	assert.Equal(t, sub.OpenAIResponses(), sub2.OpenAIResponses())
	assert.Equal(t, sub.Anthropic(), sub2.Anthropic())
	assert.Equal(t, sub.Gemini(), sub2.Gemini())
	assert.Equal(t, 2, c.Projections(), "nothing projected again")

	// A static tool whose spec differs from the definitions' is projected too.
	changed := *static[0]
	changed.Description = "Another description."
	sub3, err := defs.SubsetWith([]*tool.Spec{&changed}, c)
	require.NoError(t, err)
	assert.Contains(t, string(sub3.Anthropic()), "Another description.")

	// Exactly the definitions' specs: the definitions themselves.
	whole, err := defs.SubsetWith(every(defs, func(int) bool { return true }), c)
	require.NoError(t, err)
	assert.Same(t, defs, whole)

	// Without a cache, a tool the definitions do not hold is an error.
	_, err = defs.SubsetWith(offer, nil)
	require.ErrorContains(t, err, "is not in the definitions")
}

func TestSubsetWithErrors(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	c := provider.NewCache(0)
	bad := &tool.Spec{Name: "wf_list", InputSchema: []byte(`{"type":"array"}`)}
	_, err = defs.SubsetWith([]*tool.Spec{bad}, c)
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "wf_list", pe.Tool)
	assert.Equal(t, "provider definitions subset: provider openai: tool wf_list: the input schema is not an object schema (\"type\":\"object\")", err.Error())

	_, err = defs.SubsetWith([]*tool.Spec{dynSpec("wf_b", ""), dynSpec("wf_a", "")}, c)
	require.ErrorContains(t, err, "not sorted")
	_, err = defs.SubsetWith([]*tool.Spec{nil}, c)
	require.ErrorContains(t, err, "is nil")
}

func TestSubsetWithConcurrent(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	c := provider.NewCache(0)
	offer := []*tool.Spec{dynSpec("a_run", "Runs."), dynSpec("b_run", "Runs.")}
	offer = append(offer, defs.Tools()[0].Spec)
	slices.SortFunc(offer, func(a, b *tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	want, err := defs.SubsetWith(offer, c)
	require.NoError(t, err)
	fresh := provider.NewCache(0)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 50 {
				got, err := defs.SubsetWith(offer, fresh)
				if assert.NoError(t, err) {
					assert.Equal(t, want.Anthropic(), got.Anthropic())
					assert.Equal(t, want.Gemini(), got.Gemini())
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 2, fresh.Projections(), "one projection per version, whatever the concurrency")
}

// A deferred dynamic tool gets its definitions for native search from the
// Cache, and the deferred and plain versions of a tool are two versions.
func TestCacheKeepsDeferredDefinitions(t *testing.T) {
	t.Parallel()
	c := provider.NewCache(0)
	d := dynSpec("wf_run", "Runs a workflow.")
	d.Defer, d.Group, d.GroupDescription = true, "wf", "Workflows."
	got, err := c.Tool(d)
	require.NoError(t, err)
	want, err := provider.Compute(d)
	require.NoError(t, err)
	require.NotNil(t, got.Deferred, "a deferred spec's definitions for native search")
	assert.Equal(t, want.Deferred, got.Deferred)

	plain := dynSpec("wf_run", "Runs a workflow.")
	plain.Group, plain.GroupDescription = "wf", "Workflows."
	got, err = c.Tool(plain)
	require.NoError(t, err)
	assert.Nil(t, got.Deferred, "the plain version is another version")
	assert.Equal(t, 2, c.Projections())

	d.Defer = false // changed in place: a new version under the same pointer
	got, err = c.Tool(d)
	require.NoError(t, err)
	assert.Nil(t, got.Deferred)
	assert.Equal(t, 2, c.Projections(), "the plain version, already projected")
}
