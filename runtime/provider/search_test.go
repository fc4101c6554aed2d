package provider_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/tooltest"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// staticOf returns a registry of specs whose calls run nothing.
func staticOf(t *testing.T, specs ...tool.Spec) tool.Registry {
	t.Helper()
	reg, err := tooltest.NewRegistry(specs, func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return 0, nil
	})
	require.NoError(t, err)
	return reg
}

// searchSpec is a spec of a tool with a small schema.
func searchSpec(name, group, groupDesc string, deferred bool) tool.Spec {
	return tool.Spec{
		Name: name, Group: group, GroupDescription: groupDesc, Defer: deferred, Kind: tool.KindRead,
		Description: "Does " + name + ".",
		InputSchema: []byte(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}`),
	}
}

// TestGoldenSearch checks the native tool search arrays of the sample
// registry, whose notes_outline and notes_render are deferred in the
// described group notes.
func TestGoldenSearch(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	search, err := provider.NewSearch(defs, provider.SearchRegex)
	require.NoError(t, err)
	assert.Same(t, defs, search.Definitions())
	assert.Equal(t, 2, search.Deferred())
	for _, c := range []struct {
		file  string
		json  []byte
		items [][]byte
	}{
		{"anthropic_search.json", search.Anthropic(), search.AnthropicItems()},
		{"openai_responses_search.json", search.OpenAIResponses(), search.OpenAIResponsesItems()},
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			n, err := jsontree.Parse(c.json)
			require.NoError(t, err)
			require.Equal(t, string(c.json), string(n.Compact()), "the array is compact JSON")
			require.Len(t, c.items, len(n.Items))
			for i, it := range n.Items {
				assert.Equal(t, string(it.Compact()), string(c.items[i]), "item %d", i)
			}
			golden(t, c.file, append(n.Indent("", "  "), '\n'))
		})
	}

	bm25, err := provider.NewSearch(defs, provider.SearchBM25)
	require.NoError(t, err)
	a := string(search.Anthropic())
	assert.Equal(t, strings.TrimSuffix(a, `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}]`)+
		`{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}]`, string(bm25.Anthropic()), "only the search tool differs")
	assert.Equal(t, string(search.OpenAIResponses()), string(bm25.OpenAIResponses()))
}

// TestSearchWithoutDeferredTools: nothing to search, so the arrays are
// the Definitions', with no search tool.
func TestSearchWithoutDeferredTools(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(staticOf(t, searchSpec("a_tool", "g", "", false), searchSpec("b_tool", "", "", false)))
	require.NoError(t, err)
	search, err := provider.NewSearch(defs, provider.SearchBM25)
	require.NoError(t, err)
	assert.Zero(t, search.Deferred())
	assert.Equal(t, string(defs.Anthropic()), string(search.Anthropic()))
	assert.Equal(t, string(defs.OpenAIResponses()), string(search.OpenAIResponses()))
	require.Len(t, search.AnthropicItems(), 2)
	assert.Equal(t, string(defs.Tools()[1].Anthropic.JSON), string(search.AnthropicItems()[1]))
	name, ok := search.ResponsesName("", "b_tool")
	assert.True(t, ok)
	assert.Equal(t, "b_tool", name)
}

// TestSearchLayout: functions first in name order (a deferred tool
// without a group among them, flagged), then one namespace per group in
// name order, then the search tool.
func TestSearchLayout(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(staticOf(t,
		searchSpec("a_loose", "", "", true),
		searchSpec("b_plain", "zeta", "Zeta tools.", false),
		searchSpec("c_zeta", "zeta", "Zeta tools.", true),
		searchSpec("d_alpha", "alpha", `Alpha "tools".`, true),
		searchSpec("e_alpha", "alpha", `Alpha "tools".`, true),
	))
	require.NoError(t, err)
	search, err := provider.NewSearch(defs, provider.SearchBM25)
	require.NoError(t, err)
	assert.Equal(t, 4, search.Deferred())
	def := func(name string) *provider.Tool { tl, _ := defs.Lookup(name); return tl }
	assert.Equal(t, "["+string(def("a_loose").Deferred.OpenAIResponses)+","+string(def("b_plain").OpenAIResponses.JSON)+
		`,{"type":"namespace","name":"alpha","description":"Alpha \"tools\".","tools":[`+string(def("d_alpha").Deferred.OpenAIResponses)+","+string(def("e_alpha").Deferred.OpenAIResponses)+"]}"+
		`,{"type":"namespace","name":"zeta","description":"Zeta tools.","tools":[`+string(def("c_zeta").Deferred.OpenAIResponses)+"]}"+
		`,{"type":"tool_search"}]`, string(search.OpenAIResponses()))
	assert.Nil(t, def("b_plain").Deferred, "a tool that is not deferred has no deferred definitions")
	assert.Equal(t, strings.TrimSuffix(string(def("c_zeta").Anthropic.JSON), "}")+`,"defer_loading":true}`, string(def("c_zeta").Deferred.Anthropic))
	assert.Equal(t, strings.TrimSuffix(string(def("c_zeta").OpenAIResponses.JSON), "}")+`,"defer_loading":true}`, string(def("c_zeta").Deferred.OpenAIResponses))

	for _, c := range []struct {
		namespace, name string
		ok              bool
	}{
		{"", "b_plain", true},
		{"", "a_loose", true}, // deferred, no group: a top-level function
		{"alpha", "d_alpha", true},
		{"zeta", "c_zeta", true},
		{"zeta", "d_alpha", false}, // not its group's namespace
		{"", "d_alpha", false},     // offered only inside its namespace
		{"zeta", "b_plain", false}, // not deferred: top level only
		{"alpha", "nope", false},
		{"nope", "d_alpha", false},
		{"", "nope", false},
	} {
		got, ok := search.ResponsesName(c.namespace, c.name)
		assert.Equal(t, c.ok, ok, "%s.%s", c.namespace, c.name)
		if ok {
			assert.Equal(t, c.name, got)
		}
	}
}

// TestUnknownResponsesCall: the registry's unknown-tool error, which
// repeats the names only when they are identifiers.
func TestUnknownResponsesCall(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(staticOf(t, searchSpec("b_plain", "", "", false), searchSpec("d_alpha", "alpha", "Alpha.", true)))
	require.NoError(t, err)
	search, err := provider.NewSearch(defs, provider.SearchBM25)
	require.NoError(t, err)
	e := search.UnknownResponsesCall("zeta", "d_alpha")
	assert.Equal(t, tool.CodeUnknownTool, e.Code)
	assert.Contains(t, e.Message, `unknown tool "zeta.d_alpha"`)
	assert.Contains(t, e.Message, "(2 tools available)")
	e = search.UnknownResponsesCall(`<b>"x"</b>`, "d_alpha")
	assert.NotContains(t, e.Message, "<b>")
	assert.Contains(t, e.Message, "its name is not shown")
	assert.Contains(t, search.UnknownResponsesCall("", "b_plian").Message, `unknown tool "b_plian"; did you mean b_plain?`)
}

// TestNewSearchRefuses: what no provider could be sent.
func TestNewSearchRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		specs []tool.Spec
		tool  provider.SearchTool
		want  string
	}{
		{"undescribed group", []tool.Spec{searchSpec("a_tool", "crm", "", true)}, provider.SearchBM25,
			"tool a_tool is deferred but its group crm has no description, which an OpenAI namespace requires: write //tool:groupdoc crm TEXT in a package doc comment"},
		{"two descriptions", []tool.Spec{searchSpec("a_tool", "crm", "One.", true), searchSpec("b_tool", "crm", "Two.", true)}, provider.SearchBM25,
			"tools a_tool and b_tool of group crm describe it differently"},
		{"bad namespace name", []tool.Spec{searchSpec("a_tool", "crm.v2", "CRM.", true)}, provider.SearchBM25,
			`its group "crm.v2" is not a valid namespace name`},
		{"namespace named as a function", []tool.Spec{searchSpec("a_tool", "b_tool", "B.", true), searchSpec("b_tool", "", "", false)}, provider.SearchBM25,
			"group b_tool is both a namespace and the name of a top-level function"},
		{"the search tool's name", []tool.Spec{searchSpec("tool_search_tool_regex", "", "", false)}, provider.SearchRegex,
			"tool tool_search_tool_regex has the name of the Anthropic tool search tool"},
		{"unknown search tool", []tool.Spec{searchSpec("a_tool", "", "", false)}, provider.SearchTool("tool_search_tool_vector"),
			"unknown tool search tool"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			defs, err := provider.NewDefinitions(staticOf(t, c.specs...))
			require.NoError(t, err)
			_, err = provider.NewSearch(defs, c.tool)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestNativeSearch: Gemini falls back to request_tools.
func TestNativeSearch(t *testing.T) {
	t.Parallel()
	assert.True(t, provider.NativeSearch(provider.ProviderOpenAI))
	assert.True(t, provider.NativeSearch(provider.ProviderAnthropic))
	assert.False(t, provider.NativeSearch(provider.ProviderGemini))
	assert.False(t, provider.NativeSearch("mistral"))
}

// TestPrecomputedDeferred: precomputed definitions are used only when
// they agree with the spec on Defer; otherwise the tool is projected
// again, deferred definitions included or left out.
func TestPrecomputedDeferred(t *testing.T) {
	t.Parallel()
	deferredSpec, plainSpec := searchSpec("a_tool", "g", "G.", true), searchSpec("b_tool", "g", "G.", false)
	reg := staticOf(t, deferredSpec, plainSpec)
	computed := map[string]*provider.Precomputed{}
	for _, s := range reg.Tools() {
		p, err := provider.Compute(s)
		require.NoError(t, err)
		computed[s.Name] = p
	}
	require.NotNil(t, computed["a_tool"].Deferred)
	require.Nil(t, computed["b_tool"].Deferred)

	// Swap the Deferred members: both are stale.
	marker := &provider.Deferred{Anthropic: []byte(`{}`), OpenAIResponses: []byte(`{}`)}
	stale := map[string]*provider.Precomputed{}
	for name, p := range computed {
		q := *p
		q.Deferred = nil
		if p.Deferred == nil {
			q.Deferred = marker
		}
		stale[name] = &q
	}
	defs, err := provider.NewDefinitionsFrom(reg, func(name string) (*provider.Precomputed, bool) { p, ok := stale[name]; return p, ok })
	require.NoError(t, err)
	a, _ := defs.Lookup("a_tool")
	b, _ := defs.Lookup("b_tool")
	assert.Equal(t, computed["a_tool"].Deferred, a.Deferred, "recomputed with its deferred definitions")
	assert.Nil(t, b.Deferred, "recomputed without")

	// Up to date: used as they are.
	fresh := map[string]*provider.Precomputed{"a_tool": {Description: computed["a_tool"].Description, InputSchema: computed["a_tool"].InputSchema, Deferred: marker}}
	defs, err = provider.NewDefinitionsFrom(reg, func(name string) (*provider.Precomputed, bool) { p, ok := fresh[name]; return p, ok })
	require.NoError(t, err)
	a, _ = defs.Lookup("a_tool")
	assert.Same(t, marker, a.Deferred)
}

// TestSearchOfSubset: one request's offer, as Subset gives it, keeps the
// precomputed deferred definitions; a group none of whose deferred tools
// is offered has no namespace.
func TestSearchOfSubset(t *testing.T) {
	t.Parallel()
	reg := sampleRegistry(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	var offer []*tool.Spec
	for _, s := range reg.Tools() {
		if s.Name != "notes_render" {
			offer = append(offer, s)
		}
	}
	sub, err := defs.Subset(offer)
	require.NoError(t, err)
	search, err := provider.NewSearch(sub, provider.SearchBM25)
	require.NoError(t, err)
	assert.Equal(t, 1, search.Deferred())
	outline, _ := defs.Lookup("notes_outline")
	assert.Contains(t, string(search.OpenAIResponses()), `"tools":[`+string(outline.Deferred.OpenAIResponses)+`]}`)
	assert.NotContains(t, string(search.Anthropic()), `"notes_render"`)

	var offerPlain []*tool.Spec
	for _, s := range reg.Tools() {
		if !s.Defer {
			offerPlain = append(offerPlain, s)
		}
	}
	sub, err = defs.Subset(offerPlain)
	require.NoError(t, err)
	search, err = provider.NewSearch(sub, provider.SearchBM25)
	require.NoError(t, err)
	assert.Zero(t, search.Deferred())
	assert.NotContains(t, string(search.OpenAIResponses()), `"namespace"`)
	assert.Equal(t, string(sub.Anthropic()), string(search.Anthropic()), "no deferred tool offered: no search tool")
}

// BenchmarkNewSearch joins the search arrays of 1,000 tools, half of
// them deferred in ten groups: the cost per request that offers native
// tool search.
func BenchmarkNewSearch(b *testing.B) {
	specs := make([]tool.Spec, 1000)
	for i := range specs {
		g := fmt.Sprintf("group_%d", i%10)
		specs[i] = searchSpec(fmt.Sprintf("tool_%04d", i), g, "The tools of "+g+".", i%2 == 0)
	}
	reg, err := tooltest.NewRegistry(specs, func(context.Context, string, toolimpl.Mode, *codec.Decoder, *codec.Encoder) (toolimpl.Output, error) {
		return 0, nil
	})
	require.NoError(b, err)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := provider.NewSearch(defs, provider.SearchBM25); err != nil {
			b.Fatal(err)
		}
	}
}
